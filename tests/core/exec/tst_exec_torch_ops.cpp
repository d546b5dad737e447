// Kernels against numbers computed by PyTorch 1.13 (eager CPU, the same inputs; the values are
// copied into the table, nothing calls PyTorch at test time): floor division and remainders,
// rounding, rolling, boolean-mask indexing, index_put, scatter_reduce, masked_scatter,
// repeat_interleave, transposed convolution, gradients with a partial output_mask. Each row runs through plan + engine at 1 and 2 threads.
#include "op_runner.h"

#include <QTest>

#include <algorithm>
#include <limits>

using namespace irlens::testing;

namespace {
using TorchCase = KernelCase;
TorchCase call(std::string target, std::vector<OpArg> args) {
    TorchCase c;
    c.target = std::move(target);
    c.args = std::move(args);
    return c;
}
Argument ints(std::vector<int64_t> v) { return Argument::ints(v); }
Argument i(int64_t v) { return Argument::integer(v); }
Argument f(double v) { return Argument::floating(v); }
Argument b(bool v) { return Argument::boolean(v); }
Argument str(const char* s) { return Argument::string(s); }
Tensor i64(const Shape& s, const std::vector<double>& v) { return makeTensor(ScalarType::Int64, s, v); }
Tensor f64(const Shape& s, const std::vector<double>& v) { return makeTensor(ScalarType::Float64, s, v); }
Tensor mask(const Shape& s, const std::vector<double>& v) { return makeTensor(ScalarType::Bool, s, v); }
Tensor arange12() { return f32({3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}); }

const double inf = std::numeric_limits<double>::infinity();
// torch.tensor([1., -1., 5., -5., 7.5, -7.5, 0., -0., 1., 3.]) and the divisors below
const std::vector<double> kA{1, -1, 5, -5, 7.5, -7.5, 0, -0.0, 1, 3};
const std::vector<double> kB{0.1, 0.1, -2, -2, 2.5, 2.5, 3, 3, 0, -0.0};
const std::vector<int64_t> kIntA{7, -7, 7, -7, 0, std::numeric_limits<int64_t>::min(), 5};
const std::vector<int64_t> kIntB{2, 2, -2, -2, -3, 1, 7};
Tensor intA() { Tensor t = i64({7}, {}); for (size_t k = 0; k < kIntA.size(); ++k) t.data<int64_t>()[k] = kIntA[k]; return t; }
Tensor intB() { Tensor t = i64({7}, {}); for (size_t k = 0; k < kIntB.size(); ++k) t.data<int64_t>()[k] = kIntB[k]; return t; }
std::vector<double> head(const std::vector<double>& v, size_t n) { return {v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n)}; }

void divisionRows(const std::function<void(const char*, TorchCase)>& add) {
    const std::vector<double> floorQ{9, -10, -3, 2, 3, -3, 0, -0.0, inf, -inf};
    add("floor_divide f32 (1 // 0.1 is 9)", {"aten.floor_divide.default", {OpArg::t("self", f32({10}, kA)), OpArg::t("other", f32({10}, kB))}, ScalarType::Float32, {10}, floorQ});
    add("floor_divide f64", {"aten.floor_divide.default", {OpArg::t("self", f64({10}, kA)), OpArg::t("other", f64({10}, kB))}, ScalarType::Float64, {10}, floorQ});
    add("div floor mode f32", {"aten.div.Tensor_mode", {OpArg::t("self", f32({10}, kA)), OpArg::t("other", f32({10}, kB)), OpArg::lit("rounding_mode", str("floor"))},
                               ScalarType::Float32, {10}, floorQ});
    add("div trunc mode f32", {"aten.div.Tensor_mode", {OpArg::t("self", f32({10}, kA)), OpArg::t("other", f32({10}, kB)), OpArg::lit("rounding_mode", str("trunc"))},
                               ScalarType::Float32, {10}, {10, -10, -2, 2, 3, -3, 0, -0.0, inf, -inf}});
    add("floor_divide by python float", {"aten.floor_divide.Scalar", {OpArg::t("self", f32({3}, {1, 2, -1})), OpArg::lit("other", f(0.1))},
                                         ScalarType::Float32, {3}, {9, 19, -10}});
    add("remainder f32", {"aten.remainder.Tensor", {OpArg::t("self", f32({8}, head(kA, 8))), OpArg::t("other", f32({8}, head(kB, 8)))}, ScalarType::Float32, {8},
                          {0.09999998658895493, 1.4901161193847656e-08, -1, -1, 0, -0.0, 0, -0.0}});
    add("fmod f32", {"aten.fmod.Tensor", {OpArg::t("self", f32({8}, head(kA, 8))), OpArg::t("other", f32({8}, head(kB, 8)))}, ScalarType::Float32, {8},
                     {0.09999998658895493, -0.09999998658895493, 1, -1, 0, -0.0, 0, -0.0}});
    add("floor_divide i64", {"aten.floor_divide.default", {OpArg::t("self", intA()), OpArg::t("other", intB())}, ScalarType::Int64, {7},
                             {3, -4, -4, 3, 0, -9223372036854775808.0, 0}});
    add("remainder i64", {"aten.remainder.Tensor", {OpArg::t("self", intA()), OpArg::t("other", intB())}, ScalarType::Int64, {7}, {1, 1, -1, -1, 0, 0, 5}});
    add("fmod i64", {"aten.fmod.Tensor", {OpArg::t("self", intA()), OpArg::t("other", intB())}, ScalarType::Int64, {7}, {1, -1, 1, -1, 0, 0, 5}});
    add("div trunc i64", {"aten.div.Tensor_mode", {OpArg::t("self", intA()), OpArg::t("other", intB()), OpArg::lit("rounding_mode", str("trunc"))},
                          ScalarType::Int64, {7}, {3, -3, -3, 3, 0, -9223372036854775808.0, 0}});
    add("atan2.out", {"aten.atan2.out", {OpArg::t("self", f32({3}, {1, -1, 0})), OpArg::t("other", f32({3}, {-1, 0, 0})), OpArg::t("out", f32({3}, {9, 9, 9}))},
                      ScalarType::Float32, {3}, {2.356194490192345, -1.5707963267948966, 0}});
    // prims.div truncates integers (torch._prims.div), where aten.div divides truly
    add("prims div i64 truncates", {"prims.div.default", {OpArg::t("a", intA()), OpArg::t("b", intB())}, ScalarType::Int64, {7},
                                    {3, -3, -3, 3, 0, -9223372036854775808.0, 0}});
}

void indexingRows(const std::function<void(const char*, TorchCase)>& add) {
    add("roll dim 1", {"aten.roll.default", {OpArg::t("self", arange12()), OpArg::lit("shifts", ints({1})), OpArg::lit("dims", ints({1}))}, ScalarType::Float32, {3, 4},
                       {3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10}});
    add("roll two dims", {"aten.roll.default", {OpArg::t("self", arange12()), OpArg::lit("shifts", ints({-1, 2})), OpArg::lit("dims", ints({0, 1}))}, ScalarType::Float32, {3, 4},
                          {6, 7, 4, 5, 10, 11, 8, 9, 2, 3, 0, 1}});
    add("roll flattened", {"aten.roll.default", {OpArg::t("self", arange12()), OpArg::lit("shifts", ints({5}))}, ScalarType::Float32, {3, 4},
                           {7, 8, 9, 10, 11, 0, 1, 2, 3, 4, 5, 6}});
    const Tensor m = mask({3, 4}, {1, 0, 1, 0, 0, 0, 0, 1, 1, 1, 0, 0});
    add("index 2-D mask", {"aten.index.Tensor", {OpArg::t("self", arange12()), OpArg::lit("indices", Argument::tensors({"in1"})), OpArg::t("_mask", m)},
                           ScalarType::Float32, {5}, {0, 2, 7, 8, 9}});
    add("index row mask", {"aten.index.Tensor", {OpArg::t("self", arange12()), OpArg::lit("indices", Argument::tensors({"in1"})), OpArg::t("_mask", mask({3}, {1, 0, 1}))},
                           ScalarType::Float32, {2, 4}, {0, 1, 2, 3, 8, 9, 10, 11}});
    add("index mask on dim 1", {"aten.index.Tensor", {OpArg::t("self", arange12()), OpArg::lit("indices", Argument::tensors({"", "in1"})), OpArg::t("_mask", mask({4}, {0, 1, 1, 0}))},
                                ScalarType::Float32, {3, 2}, {1, 2, 5, 6, 9, 10}});
    add("index_put", {"aten.index_put.default", {OpArg::t("self", arange12()), OpArg::lit("indices", Argument::tensors({"in1"})), OpArg::t("_i", i64({3}, {0, 2, 0})),
                                                 OpArg::t("values", f32({4}, {1, 2, 3, 4}))},
                      ScalarType::Float32, {3, 4}, {1, 2, 3, 4, 4, 5, 6, 7, 1, 2, 3, 4}});
    add("index_put accumulate", {"aten.index_put.default", {OpArg::t("self", arange12()), OpArg::lit("indices", Argument::tensors({"in1"})), OpArg::t("_i", i64({3}, {0, 2, 0})),
                                                            OpArg::t("values", f32({4}, {1, 2, 3, 4})), OpArg::lit("accumulate", b(true))},
                                 ScalarType::Float32, {3, 4}, {2, 5, 8, 11, 4, 5, 6, 7, 9, 11, 13, 15}});
    add("index_put two indices", {"aten.index_put.default", {OpArg::t("self", arange12()), OpArg::lit("indices", Argument::tensors({"in1", "in2"})),
                                                             OpArg::t("_i", i64({2}, {0, 2})), OpArg::t("_j", i64({2}, {1, 3})), OpArg::t("values", f32({}, {-1}))},
                                  ScalarType::Float32, {3, 4}, {0, -1, 2, 3, 4, 5, 6, 7, 8, 9, 10, -1}});
    add("index_put mask accumulate", {"aten.index_put.default", {OpArg::t("self", arange12()), OpArg::lit("indices", Argument::tensors({"in1"})), OpArg::t("_mask", m),
                                                                 OpArg::t("values", f32({5}, {10, 20, 30, 40, 50})), OpArg::lit("accumulate", b(true))},
                                      ScalarType::Float32, {3, 4}, {10, 1, 22, 3, 4, 5, 6, 37, 48, 59, 10, 11}});
    add("masked_scatter", {"aten.masked_scatter.default", {OpArg::t("self", arange12()), OpArg::t("mask", mask({4}, {1, 0, 1, 1})),
                                                           OpArg::t("source", f32({20}, {100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119}))},
                           ScalarType::Float32, {3, 4}, {100, 1, 101, 102, 103, 5, 104, 105, 106, 9, 107, 108}});
    add("repeat_interleave", {"aten.repeat_interleave.Tensor", {OpArg::t("repeats", i64({4}, {2, 0, 3, 1}))}, ScalarType::Int64, {6}, {0, 0, 2, 2, 2, 3}});
}

void scatterReduceRows(const std::function<void(const char*, TorchCase)>& add) {
    struct Row { const char* name; const char* reduce; bool includeSelf; std::vector<double> expect; };
    const Row rows[] = {
        {"sum", "sum", true, {11, 25, 33, 40, 52, 66, 74, 80, 90}},       {"sum without self", "sum", false, {1, 5, 3, 40, 2, 6, 4, 80, 90}},
        {"prod", "prod", true, {10, 100, 90, 40, 100, 360, 280, 80, 90}}, {"prod without self", "prod", false, {1, 5, 3, 40, 2, 6, 4, 80, 90}},
        {"mean", "mean", true, {5.5, 12.5, 16.5, 40, 26, 33, 37, 80, 90}}, {"mean without self", "mean", false, {1, 5, 3, 40, 2, 6, 4, 80, 90}},
        {"amax", "amax", true, {10, 20, 30, 40, 50, 60, 70, 80, 90}},     {"amax without self", "amax", false, {1, 5, 3, 40, 2, 6, 4, 80, 90}},
        {"amin", "amin", true, {1, 5, 3, 40, 2, 6, 4, 80, 90}},
    };
    for (const auto& r : rows) {
        TorchCase c{"aten.scatter_reduce.two",
                    {OpArg::t("self", f32({3, 3}, {10, 20, 30, 40, 50, 60, 70, 80, 90})), OpArg::lit("dim", i(0)), OpArg::t("index", i64({2, 3}, {0, 1, 0, 2, 0, 1})),
                     OpArg::t("src", f32({2, 3}, {1, 2, 3, 4, 5, 6})), OpArg::lit("reduce", str(r.reduce)), OpArg::lit("include_self", b(r.includeSelf))},
                    ScalarType::Float32, {3, 3}, r.expect};
        add((std::string("scatter_reduce ") + r.name).c_str(), c);
    }
    // integer mean rounds down
    add("scatter_reduce int mean", {"aten.scatter_reduce.two",
                                    {OpArg::t("self", i64({3, 3}, {10, 20, 30, 40, 50, 60, 70, 80, -91})), OpArg::lit("dim", i(0)), OpArg::t("index", i64({2, 3}, {0, 1, 0, 2, 0, 1})),
                                     OpArg::t("src", i64({2, 3}, {1, 2, 3, 4, 5, -6})), OpArg::lit("reduce", str("mean"))},
                                    ScalarType::Int64, {3, 3}, {5, 12, 16, 40, 26, 27, 37, 80, -91}});
}

void roundingRows(const std::function<void(const char*, TorchCase)>& add) {
    const std::vector<double> x{1.2345, -2.5, 2.5, 1234.5, -0.125, 0.5};
    add("round decimals 2", {"aten.round.decimals", {OpArg::t("self", f32({6}, x)), OpArg::lit("decimals", i(2))}, ScalarType::Float32, {6},
                             {1.2300000190734863, -2.5, 2.5, 1234.5, -0.11999999731779099, 0.5}});
    add("round decimals -2", {"aten.round.decimals", {OpArg::t("self", f32({6}, x)), OpArg::lit("decimals", i(-2))}, ScalarType::Float32, {6}, {0, -0.0, 0, 1200, -0.0, 0}});
    add("round decimals 0", {"aten.round.decimals", {OpArg::t("self", f32({6}, x)), OpArg::lit("decimals", i(0))}, ScalarType::Float32, {6}, {1, -2, 2, 1234, -0.0, 0}});
}

void convTransposeRows(const std::function<void(const char*, TorchCase)>& add) {
    // x = arange(16)/10 - 0.7 as [1,4,2,2]; w = arange(32)/7 - 1.5 as [4,2,2,2]; groups 2, stride 2, padding 1, output_padding 1
    std::vector<double> x, w;
    for (int k = 0; k < 16; ++k) x.push_back(k / 10.0 - 0.7);
    for (int k = 0; k < 32; ++k) w.push_back(k / 7.0 - 1.5);
    std::vector<OpArg> args{OpArg::t("input", f32({1, 4, 2, 2}, x)), OpArg::t("weight", f32({4, 2, 2, 2}, w)), OpArg::t("bias", f32({4}, {0.5, -0.5, 1, 2})),
                            OpArg::lit("stride", ints({2, 2})), OpArg::lit("padding", ints({1, 1})), OpArg::lit("dilation", ints({1, 1})),
                            OpArg::lit("transposed", b(true)), OpArg::lit("output_padding", ints({1, 1})), OpArg::lit("groups", i(2))};
    add("convolution transposed 2-D", {"aten.convolution.default", args, ScalarType::Float32, {1, 4, 3, 3},
                                       {1.228571, 1.242857, 1.128571, 1.2, 1.1, 1.042857, 1.028571, 0.9857143, 0.9285714,
                                        -0.3428571, -0.2142857, -0.3285714, -0.1428571, -0.1285715, -0.1857143, -0.3142857, -0.2428572, -0.3,
                                        2.3, 2.542857, 2.657143, 2.728571, 2.857143, 3.028571, 3.014286, 3.2, 3.371429,
                                        3.642857, 4, 4.114285, 4.3, 4.542857, 4.714286, 4.585714, 4.885715, 5.057143}});
    add("conv_transpose1d dilated", {"aten.conv_transpose1d.default",
                                     {OpArg::t("input", f32({1, 2, 3}, {1, 2, 3, 0.5, -1, 2})), OpArg::t("weight", f32({2, 1, 2}, {1, -1, 2, 0.5})),
                                      OpArg::lit("bias", Argument::none()), OpArg::lit("stride", ints({2})), OpArg::lit("padding", ints({0})),
                                      OpArg::lit("output_padding", ints({0})), OpArg::lit("groups", i(1)), OpArg::lit("dilation", ints({2}))},
                                     ScalarType::Float32, {1, 1, 7}, {2, 0, -0.75, 0, 4.5, 0, -2}});
}

void reducedFloatRows(const std::function<void(const char*, TorchCase)>& add) {
    // inputs round to float16 / bfloat16 first (the same conversion torch's .half() / .bfloat16() does)
    const std::vector<double> a{0.1, 1.5, -2.25, 1000, 65504, 3.0e-5}, bv{0.2, 0.3333, 4, 0.001, 2, 1.0e-3};
    auto h = [](const std::vector<double>& v) { return makeTensor(ScalarType::Float16, {6}, v); };
    auto bf = [](const std::vector<double>& v) { return makeTensor(ScalarType::BFloat16, {6}, v); };
    add("f16 add", {"aten.add.Tensor", {OpArg::t("self", h(a)), OpArg::t("other", h(bv))}, ScalarType::Float16, {6},
                    {0.2998046875, 1.8330078125, 1.75, 1000, 65504, 0.00102996826171875}});
    add("f16 mul overflows to inf", {"aten.mul.Tensor", {OpArg::t("self", h(a)), OpArg::t("other", h(bv))}, ScalarType::Float16, {6},
                                     {0.019989013671875, 0.5, -9, 1, inf, 5.960464477539063e-08}});
    add("f16 div", {"aten.div.Tensor", {OpArg::t("self", h(a)), OpArg::t("other", h(bv))}, ScalarType::Float16, {6},
                    {0.5, 4.5, -0.5625, inf, 32752, 0.02996826171875}});
    add("f16 sub", {"aten.sub.Tensor", {OpArg::t("self", h(a)), OpArg::t("other", h(bv))}, ScalarType::Float16, {6},
                    {-0.0999755859375, 1.1669921875, -6.25, 1000, 65504, -0.0009703636169433594}});
    add("f16 neg", {"aten.neg.default", {OpArg::t("self", h(a))}, ScalarType::Float16, {6},
                    {-0.0999755859375, -1.5, 2.25, -1000, -65504, -2.9981136322021484e-05}});
    add("f16 gt", {"aten.gt.Tensor", {OpArg::t("self", h(a)), OpArg::t("other", h(bv))}, ScalarType::Bool, {6}, {0, 1, 0, 1, 1, 0}});
    add("f16 where", {"aten.where.self", {OpArg::t("condition", mask({6}, {1, 0, 1, 0, 1, 0})), OpArg::t("self", h(a)), OpArg::t("other", h(bv))}, ScalarType::Float16, {6},
                      {0.0999755859375, 0.333251953125, -2.25, 0.0010004043579101562, 65504, 0.0010004043579101562}});
    add("f16 masked_fill", {"aten.masked_fill.Scalar", {OpArg::t("self", h(a)), OpArg::t("mask", mask({6}, {1, 0, 1, 0, 1, 0})), OpArg::lit("value", f(0.1))}, ScalarType::Float16, {6},
                            {0.0999755859375, 1.5, 0.0999755859375, 1000, 0.0999755859375, 2.9981136322021484e-05}});
    add("bf16 add", {"aten.add.Tensor", {OpArg::t("self", bf(a)), OpArg::t("other", bf(bv))}, ScalarType::BFloat16, {6},
                     {0.30078125, 1.8359375, 1.75, 1000, 65536, 0.00102996826171875}});
    add("bf16 mul", {"aten.mul.Tensor", {OpArg::t("self", bf(a)), OpArg::t("other", bf(bv))}, ScalarType::BFloat16, {6},
                     {0.02001953125, 0.5, -9, 1, 131072, 3.003515303134918e-08}});
    add("bf16 exp", {"aten.exp.default", {OpArg::t("self", bf(a))}, ScalarType::BFloat16, {6}, {1.1015625, 4.46875, 0.10546875, inf, inf, 1}});
    add("f32 to f16 rounding", {"aten._to_copy.default", {OpArg::t("self", f32({7}, {0.1, 65519, 65520, 1e-8, 3e-8, 6.1e-5, -0.0})),
                                                          OpArg::lit("dtype", Argument::scalarType(ScalarType::Float16))},
                                ScalarType::Float16, {7}, {0.0999755859375, 65504, inf, 0, 5.960464477539063e-08, 6.097555160522461e-05, -0.0}});
}

void pool3dRows(const std::function<void(const char*, TorchCase)>& add) {
    std::vector<double> x; // ((arange(120) * 7) % 11 - 5) / 4 as [1, 2, 3, 4, 5]
    for (int k = 0; k < 120; ++k) x.push_back(((k * 7) % 11 - 5) / 4.0);
    auto maxArgs = [&] {
        return std::vector<OpArg>{OpArg::t("self", f32({1, 2, 3, 4, 5}, x)), OpArg::lit("kernel_size", ints({2, 2, 3})), OpArg::lit("stride", ints({1, 2, 2})),
                                  OpArg::lit("padding", ints({1, 0, 1})), OpArg::lit("dilation", ints({1, 1, 1})), OpArg::lit("ceil_mode", b(false))};
    };
    add("max_pool3d values", {"aten.max_pool3d_with_indices.default", maxArgs(), ScalarType::Float32, {1, 2, 4, 2, 3},
                              {1.0, 1.25, 1.25, 0.25, 1.0, 1.25, 1.25, 1.25, 1.25, 1.25, 1.25, 1.25, 1.25, 1.25, 1.0, 1.25, 1.25, 1.25, 0.5, 1.25, 0.25, 1.0, 1.25, 1.25,
                               1.0, 1.0, 1.25, 0.75, 1.0, 0.5, 1.25, 1.0, 1.25, 1.25, 1.25, 1.0, 1.25, 1.25, 1.0, 1.25, 1.25, 1.25, 1.0, 1.25, 0.75, 1.0, 1.25, 1.25},
                              2, 0});
    add("max_pool3d indices", {"aten.max_pool3d_with_indices.default", maxArgs(), ScalarType::Int64, {1, 2, 4, 2, 3},
                               {6, 3, 3, 15, 17, 14, 25, 3, 3, 36, 36, 14, 25, 47, 28, 36, 36, 58, 45, 47, 48, 50, 58, 58,
                                1, 1, 9, 15, 12, 18, 20, 1, 9, 31, 31, 34, 20, 42, 23, 31, 31, 53, 45, 42, 48, 56, 53, 53},
                               2, 1});
    add("avg_pool3d ceil, padding excluded", {"aten.avg_pool3d.default",
                                              {OpArg::t("self", f32({1, 2, 3, 4, 5}, x)), OpArg::lit("kernel_size", ints({2, 2, 2})), OpArg::lit("stride", ints({2, 1, 2})),
                                               OpArg::lit("padding", ints({1, 1, 0})), OpArg::lit("ceil_mode", b(true)), OpArg::lit("count_include_pad", b(false))},
                                              ScalarType::Float32, {1, 2, 2, 5, 3},
                                              {-0.375, 0.375, 0.25, -0.125, -0.0625, 0.5, -0.3125, -0.25, 1.0, -0.5, 0.25, 0.125, -0.25, 0.5, -1.0,
                                               -0.125, -0.0625, -0.875, 0.125, 0.1875, -0.625, 0.28125, 0.0, -0.125, 0.09375, -0.1875, 0.375, 0.0, 0.0625, 0.625,
                                               0.125, -0.5, 0.75, -0.3125, -0.25, 1.0, -0.5, 0.25, 0.125, 0.0, 0.0625, -0.75, 0.25, -0.375, -0.5,
                                               0.375, 0.4375, -0.375, 0.28125, 0.0, -0.125, 0.09375, -0.1875, 0.375, -0.09375, -0.03125, 0.1875, -0.1875, -0.125, -0.25}});
    add("avg_pool3d padding counted", {"aten.avg_pool3d.default",
                                       {OpArg::t("self", f32({1, 2, 3, 4, 5}, x)), OpArg::lit("kernel_size", ints({2, 2, 2})), OpArg::lit("stride", ints({2, 1, 2})),
                                        OpArg::lit("padding", ints({1, 1, 0})), OpArg::lit("ceil_mode", b(false)), OpArg::lit("count_include_pad", b(true))},
                                       ScalarType::Float32, {1, 2, 2, 5, 2},
                                       {-0.09375, 0.09375, -0.0625, -0.03125, -0.15625, -0.125, -0.25, 0.125, -0.0625, 0.125, -0.0625, -0.03125, 0.125, 0.1875, 0.28125,
                                        0.0, 0.09375, -0.1875, 0.0, 0.03125, 0.03125, -0.125, -0.15625, -0.125, -0.25, 0.125, 0.0, 0.03125, 0.0625, -0.09375,
                                        0.1875, 0.21875, 0.28125, 0.0, 0.09375, -0.1875, -0.09375, -0.03125, -0.09375, -0.0625}});
    add("_adaptive_avg_pool3d", {"aten._adaptive_avg_pool3d.default", {OpArg::t("self", f32({1, 2, 3, 4, 5}, x)), OpArg::lit("output_size", ints({2, 3, 2}))},
                                 ScalarType::Float32, {1, 2, 2, 3, 2},
                                 {-0.0833333358168602, -0.02083333395421505, -0.0416666679084301, 0.02083333395421505, 0.0, 0.0625, 0.0833333358168602, -0.0833333358168602,
                                  0.125, -0.0416666679084301, -0.0625, 0.0, -0.0416666679084301, 0.02083333395421505, 0.0, 0.0625, 0.0416666679084301, -0.125,
                                  0.125, -0.0416666679084301, -0.0625, 0.0, -0.02083333395421505, 0.0416666679084301}});
}

void distanceRows(const std::function<void(const char*, TorchCase)>& add) {
    auto a = [] { return f32({2, 3}, {0, 1, 2, 1.5, -1, 0.5}); };
    auto c = [] { return f32({3, 3}, {1, 1, 1, 0, 1, 2, -2, 0.5, 3}); };
    struct Row { const char* name; double p; std::vector<double> expect; };
    const Row rows[] = {
        {"cdist p=2", 2, {1.4142135381698608, 0, 2.291287899017334, 2.1213202476501465, 2.915475845336914, 4.5552167892456055}},
        {"cdist p=1", 1, {2, 0, 3.5, 3, 5, 7.5}},
        {"cdist p=0", 0, {2, 0, 3, 3, 3, 3}},
        {"cdist p=inf", std::numeric_limits<double>::infinity(), {1, 0, 2, 2, 2, 3.5}},
        {"cdist p=3", 3, {1.2599210739135742, 0, 2.089669704437256, 2.020620107650757, 2.4524340629577637, 3.9552299976348877}},
    };
    for (const auto& r : rows)
        add(r.name, {"aten._cdist_forward.default", {OpArg::t("x1", a()), OpArg::t("x2", c()), OpArg::lit("p", f(r.p)), OpArg::lit("compute_mode", Argument::none())},
                     ScalarType::Float32, {2, 3}, r.expect});
    add("cdist broadcast batch", {"aten._cdist_forward.default",
                                  {OpArg::t("x1", f32({1, 2, 2}, {0, 1, 2, 3})), OpArg::t("x2", f32({2, 1, 2}, {1, 0, 0, 0})), OpArg::lit("p", f(2)), OpArg::lit("compute_mode", Argument::none())},
                                  ScalarType::Float32, {2, 2, 1}, {1.4142135381698608, 3.1622776985168457, 1, 3.605551242828369}});
    auto x = [] { return f32({4, 3}, {0, 1, 2, 1.5, -1, 0.5, 1, 1, 1, -2, 0.5, 3}); };
    add("pdist p=2", {"aten._pdist_forward.default", {OpArg::t("self", x()), OpArg::lit("p", f(2))}, ScalarType::Float32, {6},
                      {2.915475845336914, 1.4142135381698608, 2.291287899017334, 2.1213202476501465, 4.5552167892456055, 3.640054941177368}});
    add("pdist p=1", {"aten._pdist_forward.default", {OpArg::t("self", x()), OpArg::lit("p", f(1))}, ScalarType::Float32, {6}, {5, 2, 3.5, 3, 7.5, 5.5}});
    add("pdist p=0.5", {"aten._pdist_forward.default", {OpArg::t("self", x()), OpArg::lit("p", f(0.5))}, ScalarType::Float32, {6},
                        {14.928202629089355, 4, 9.742640495300293, 7.999999523162842, 21.871639251708984, 14.848468780517578}});
}

void embeddingRows(const std::function<void(const char*, TorchCase)>& add) {
    std::vector<double> w; // arange(15) / 4 - 1 as [5, 3]
    for (int k = 0; k < 15; ++k) w.push_back(k / 4.0 - 1);
    auto bag = [&](int64_t mode, int64_t padding, std::optional<Tensor> psw = std::nullopt) {
        std::vector<OpArg> a{OpArg::t("weight", f32({5, 3}, w)), OpArg::t("indices", i64({7}, {0, 2, 4, 1, 2, 3, 3})), OpArg::t("offsets", i64({4}, {0, 3, 3, 5})),
                             OpArg::lit("scale_grad_by_freq", b(false)), OpArg::lit("mode", i(mode)), OpArg::lit("sparse", b(false))};
        a.push_back(psw ? OpArg::t("per_sample_weights", *psw) : OpArg::lit("per_sample_weights", Argument::none()));
        a.push_back(OpArg::lit("include_last_offset", b(false)));
        a.push_back(OpArg::lit("padding_idx", i(padding)));
        return a;
    };
    auto row = [](std::vector<OpArg> a, ScalarType dt, Shape s, std::vector<double> e, int pick) { return TorchCase{"aten._embedding_bag.default", std::move(a), dt, std::move(s), std::move(e), 4, pick}; };
    add("embedding_bag sum", row(bag(0, -1), ScalarType::Float32, {4, 3}, {1.5, 2.25, 3, 0, 0, 0, 0.25, 0.75, 1.25, 2.5, 3, 3.5}, 0));
    add("embedding_bag mean", row(bag(1, -1), ScalarType::Float32, {4, 3}, {0.5, 0.75, 1, 0, 0, 0, 0.125, 0.375, 0.625, 1.25, 1.5, 1.75}, 0));
    add("embedding_bag mean bag_size", row(bag(1, -1), ScalarType::Int64, {4}, {3, 0, 2, 2}, 2));
    add("embedding_bag max", row(bag(2, -1), ScalarType::Float32, {4, 3}, {2, 2.25, 2.5, 0, 0, 0, 0.5, 0.75, 1, 1.25, 1.5, 1.75}, 0));
    add("embedding_bag max indices", row(bag(2, -1), ScalarType::Int64, {4, 3}, {4, 4, 4, 0, 0, 0, 2, 2, 2, 3, 3, 3}, 3));
    add("embedding_bag max padding", row(bag(2, 2), ScalarType::Int64, {4, 3}, {4, 4, 4, 0, 0, 0, 1, 1, 1, 3, 3, 3}, 3));
    add("embedding_bag offset2bag", row(bag(1, -1), ScalarType::Int64, {7}, {0, 0, 0, 2, 2, 3, 3}, 1));
    add("embedding_bag per-sample weights", row(bag(0, -1, f32({7}, {1, 0.5, 2, 1, 1, -1, 3})), ScalarType::Float32, {4, 3},
                                                {3.25, 4.125, 5, 0, 0, 0, 0.25, 0.75, 1.25, 2.5, 3, 3.5}, 0));
    add("embedding_bag mean padding", row(bag(1, 2), ScalarType::Float32, {4, 3}, {0.5, 0.75, 1, 0, 0, 0, -0.25, 0, 0.25, 1.25, 1.5, 1.75}, 0));
    add("embedding_bag sum padding", row(bag(0, 2), ScalarType::Float32, {4, 3}, {1, 1.5, 2, 0, 0, 0, -0.25, 0, 0.25, 2.5, 3, 3.5}, 0));
    std::vector<double> g; // arange(21) / 3 as [7, 3]
    for (int k = 0; k < 21; ++k) g.push_back(k / 3.0);
    add("embedding_dense_backward", {"aten.embedding_dense_backward.default",
                                     {OpArg::t("grad_output", f32({7, 3}, g)), OpArg::t("indices", i64({7}, {0, 2, 4, 1, 2, 3, 3})), OpArg::lit("num_weights", i(5)),
                                      OpArg::lit("padding_idx", i(-1)), OpArg::lit("scale_grad_by_freq", b(false))},
                                     ScalarType::Float32, {5, 3},
                                     {0, 0.3333333432674408, 0.6666666865348816, 3, 3.3333332538604736, 3.6666667461395264, 5, 5.6666669845581055, 6.3333330154418945,
                                      11, 11.666666984558105, 12.333333015441895, 2, 2.3333332538604736, 2.6666667461395264}});
    add("embedding_dense_backward padding, by frequency", {"aten.embedding_dense_backward.default",
                                                           {OpArg::t("grad_output", f32({7, 3}, g)), OpArg::t("indices", i64({7}, {0, 2, 4, 1, 2, 3, 3})),
                                                            OpArg::lit("num_weights", i(5)), OpArg::lit("padding_idx", i(2)), OpArg::lit("scale_grad_by_freq", b(true))},
                                                           ScalarType::Float32, {5, 3},
                                                           {0, 0.3333333432674408, 0.6666666865348816, 3, 3.3333332538604736, 3.6666667461395264, 0, 0, 0,
                                                            5.5, 5.833333492279053, 6.166666507720947, 2, 2.3333332538604736, 2.6666667461395264}});
}

void foldRows(const std::function<void(const char*, TorchCase)>& add) {
    std::vector<double> cols; // arange(80) / 5 - 2 as [1, 8, 10]: 2 channels, 2x2 kernel, 10 blocks
    for (int k = 0; k < 80; ++k) cols.push_back(k / 5.0 - 2);
    add("col2im", {"aten.col2im.default",
                   {OpArg::t("self", f32({1, 8, 10}, cols)), OpArg::lit("output_size", ints({3, 4})), OpArg::lit("kernel_size", ints({2, 2})),
                    OpArg::lit("dilation", ints({1, 1})), OpArg::lit("padding", ints({1, 1})), OpArg::lit("stride", ints({2, 1}))},
                   ScalarType::Float32, {1, 2, 3, 4},
                   {6.199999809265137, 6.599999904632568, 7.0, 7.400000095367432, 0.20000004768371582, 0.6000000238418579, 1.0000001192092896, 1.3999998569488525,
                    8.199999809265137, 8.600000381469727, 9.0, 9.399999618530273, 22.200000762939453, 22.599998474121094, 23.0, 23.400001525878906,
                    16.200000762939453, 16.599998474121094, 17.0, 17.400001525878906, 24.200000762939453, 24.599998474121094, 25.0, 25.400001525878906}});
}


Argument bools(std::vector<bool> v) {
    Argument a;
    a.kind = ArgKind::Bools;
    for (bool e : v) a.list.push_back(Argument::boolean(e));
    return a;
}

// Gradients with output_mask leaving outputs out (PyTorch returns None there): the kept one as PyTorch computes it.
void gradientMaskRows(const std::function<void(const char*, TorchCase)>& add) {
    std::vector<double> x; // arange(18) / 4 - 1 as [1, 2, 3, 3]
    for (int k = 0; k < 18; ++k) x.push_back(k / 4.0 - 1);
    add("convolution_backward grad_weight only", {"aten.convolution_backward.default",
                                                  {OpArg::t("grad_output", f32({1, 2, 3, 2}, {1, -2, 0.5, 3, -1, 2, 0.25, -0.5, 1, 1, -1, 2})),
                                                   OpArg::t("input", f32({1, 2, 3, 3}, x)), OpArg::t("weight", f32({2, 2, 1, 2}, {0.5, -1, 2, 0.25, 1, -0.5, 1.5, -2})),
                                                   OpArg::lit("stride", ints({1, 1})), OpArg::lit("padding", ints({0, 0})), OpArg::lit("dilation", ints({1, 1})),
                                                   OpArg::lit("transposed", b(false)), OpArg::lit("output_padding", ints({0, 0})), OpArg::lit("groups", i(1)),
                                                   OpArg::lit("output_mask", bools({false, true, false}))},
                                                  ScalarType::Float32, {2, 2, 1, 2}, {1.375, 2.25, 9.25, 10.125, 0.875, 1.5625, 7.0625, 7.75}, 3, 0, false, {true, false, true}});
    add("native_layer_norm_backward grad_input only, no weight",
        {"aten.native_layer_norm_backward.default",
         {OpArg::t("grad_out", f32({2, 3}, {0.5, -1, 2, 1, 1, -3})), OpArg::t("input", f32({2, 3}, {1, 2, 4, -1, 0, 3})), OpArg::lit("normalized_shape", ints({3})),
          OpArg::t("mean", f32({2, 1}, {2.3333332538604736, 0.6666666269302368})), OpArg::t("rstd", f32({2, 1}, {0.8017810583114624, 0.5883473753929138})),
          OpArg::lit("output_mask", bools({true, false, false}))},
         ScalarType::Float32, {2, 3},
         {0.6872362494468689, -1.03086256980896, 0.34362614154815674, -0.27154117822647095, 0.36206144094467163, -0.09052014350891113}, 3, 0, false,
         {false, true, true}});
    add("native_group_norm_backward no grad_input",
        {"aten.native_group_norm_backward.default",
         {OpArg::t("grad_out", f32({2, 4}, {0.5, -1, 2, 1, 1, -3, 0.5, 2})), OpArg::t("input", f32({2, 4}, {1, 2, 4, -1, 0, 3, 2, 2})),
          OpArg::t("mean", f32({2, 2}, {1.5, 1.5, 1.5, 2})), OpArg::t("rstd", f32({2, 2}, {1.999959945678711, 0.3999997079372406, 0.6666651964187622, 316.227783203125})),
          OpArg::t("weight", f32({4}, {1, 2, -1, 0.5})), OpArg::lit("N", i(2)), OpArg::lit("C", i(4)), OpArg::lit("HxW", i(1)), OpArg::lit("group", i(2)),
          OpArg::lit("output_mask", bools({false, true, true}))},
         ScalarType::Float32, {4}, {-1.4999878406524658, -3.9999732971191406, 1.9999985694885254, -0.9999992847442627}, 3, 0, false,
         {true, false, false}});
}
} // namespace

class TstExecTorchOps : public QObject {
    Q_OBJECT
private slots:
    void op_data() {
        QTest::addColumn<TorchCase>("c");
        QTest::addColumn<int>("threads");
        std::function<void(const char*, TorchCase)> add = [](const char* name, TorchCase c) {
            QTest::addRow("%s/1t", name) << c << 1;
            QTest::addRow("%s/2t", name) << c << 2;
        };
        divisionRows(add);
        indexingRows(add);
        scatterReduceRows(add);
        roundingRows(add);
        convTransposeRows(add);
        reducedFloatRows(add);
        pool3dRows(add);
        distanceRows(add);
        embeddingRows(add);
        foldRows(add);
        gradientMaskRows(add);
    }
    void op() {
        QFETCH(TorchCase, c);
        QFETCH(int, threads);
        auto r = runOp(c.target, c.args, c.outputs, threads, false, c.absent);
        QVERIFY2(r.isOk(), r.error().c_str());
        const auto pick = static_cast<size_t>(c.pick);
        QVERIFY(r->size() > pick && (*r)[pick].isTensor());
        std::string problem = mismatch((*r)[pick].tensor, c.dtype, c.shape, c.expect, true);
        QVERIFY2(problem.empty(), problem.c_str());
    }

    // Random ops cannot follow PyTorch's generator stream: checked by shape, dtype, range and distribution.
    void randomOps() {
        auto perm = runOp("aten.randperm.default", {OpArg::lit("n", i(1000))});
        QVERIFY2(perm.isOk(), perm.error().c_str());
        const Tensor& p = (*perm)[0].tensor;
        QCOMPARE(p.dtype(), ScalarType::Int64);
        QCOMPARE(p.sizes(), Shape{1000});
        std::vector<int64_t> seen(p.data<int64_t>(), p.data<int64_t>() + 1000);
        int fixedPoints = 0;
        for (int64_t k = 0; k < 1000; ++k) fixedPoints += seen[static_cast<size_t>(k)] == k;
        std::sort(seen.begin(), seen.end());
        for (int64_t k = 0; k < 1000; ++k) QCOMPARE(seen[static_cast<size_t>(k)], k); // each value exactly once
        QVERIFY2(fixedPoints < 8, qPrintable(QString("%1 fixed points (a shuffle has 1 on average)").arg(fixedPoints)));

        for (bool normal : {false, true}) {
            auto r = runOp(normal ? "aten.randn.default" : "aten.rand.default", {OpArg::lit("size", ints({100, 100}))});
            QVERIFY2(r.isOk(), r.error().c_str());
            const Tensor& t = (*r)[0].tensor;
            QCOMPARE(t.dtype(), ScalarType::Float32);
            QCOMPARE(t.sizes(), (Shape{100, 100}));
            double sum = 0, sq = 0;
            for (int64_t k = 0; k < t.numel(); ++k) {
                const double v = t.at(k);
                if (!normal) QVERIFY(v >= 0 && v < 1);
                sum += v;
                sq += v * v;
            }
            const double mean = sum / 1e4, var = sq / 1e4 - mean * mean;
            // 10,000 samples: the mean's standard error is 0.003 (uniform) and 0.01 (normal)
            if (normal) { QVERIFY2(std::abs(mean) < 0.05, qPrintable(QString::number(mean))); QVERIFY2(std::abs(var - 1) < 0.06, qPrintable(QString::number(var))); }
            else { QVERIFY2(std::abs(mean - 0.5) < 0.015, qPrintable(QString::number(mean))); QVERIFY2(std::abs(var - 1.0 / 12) < 0.005, qPrintable(QString::number(var))); }
        }
    }

    // prims.normal / prims.uniform: dtype, shape, range, mean and variance (seeded per node like rand),
    // uniform in bfloat16 (drawn in float32 and rounded once), normal in float64.
    void randomPrims() {
        for (bool normal : {false, true}) {
            std::vector<OpArg> args{OpArg::lit("shape", ints({50, 200})), OpArg::lit(normal ? "mean" : "low", f(normal ? 2.0 : -3.0)),
                                    OpArg::lit(normal ? "std" : "high", f(normal ? 0.5 : 5.0)),
                                    OpArg::lit("dtype", Argument::scalarType(normal ? ScalarType::Float64 : ScalarType::BFloat16))};
            auto r = runOp(normal ? "prims.normal.default" : "prims.uniform.default", args);
            QVERIFY2(r.isOk(), r.error().c_str());
            const Tensor& t = (*r)[0].tensor;
            QCOMPARE(t.dtype(), normal ? ScalarType::Float64 : ScalarType::BFloat16);
            QCOMPARE(t.sizes(), (Shape{50, 200}));
            double sum = 0, sq = 0;
            for (int64_t k = 0; k < t.numel(); ++k) {
                const double v = t.at(k);
                // bfloat16 may round a draw just below `high` up to it, as PyTorch's uniform_ does
                if (!normal) QVERIFY2(v >= -3 && v <= 5, qPrintable(QString::number(v)));
                sum += v;
                sq += v * v;
            }
            const double mean = sum / 1e4, var = sq / 1e4 - mean * mean;
            // normal(2, 0.5): the mean's standard error is 0.005; uniform(-3, 5): mean 1, variance 64/12
            if (normal) { QVERIFY2(std::abs(mean - 2) < 0.025, qPrintable(QString::number(mean))); QVERIFY2(std::abs(var - 0.25) < 0.015, qPrintable(QString::number(var))); }
            else { QVERIFY2(std::abs(mean - 1) < 0.12, qPrintable(QString::number(mean))); QVERIFY2(std::abs(var - 64.0 / 12) < 0.35, qPrintable(QString::number(var))); }
        }
    }

    // native_dropout(p, train): kept elements scaled by 1/(1-p) where the mask is true, the rest zero;
    // about 1-p of them kept. (p = 0 and p = 1 are compared exactly by the conformance corpus.)
    void dropoutProperty() {
        std::vector<double> ones(10000, 1.5);
        auto r = runOp("aten.native_dropout.default", {OpArg::t("input", f32({100, 100}, ones)), OpArg::lit("p", f(0.3)), OpArg::lit("train", b(true))}, 2, 2);
        QVERIFY2(r.isOk(), r.error().c_str());
        const Tensor& out = (*r)[0].tensor;
        const Tensor& keep = (*r)[1].tensor;
        QCOMPARE(out.dtype(), ScalarType::Float32);
        QCOMPARE(keep.dtype(), ScalarType::Bool);
        QCOMPARE(keep.sizes(), (Shape{100, 100}));
        int64_t kept = 0;
        for (int64_t k = 0; k < out.numel(); ++k) {
            const bool m = keep.at(k) != 0;
            kept += m;
            QCOMPARE(out.at(k), m ? static_cast<double>(1.5f / 0.7f) : 0.0);
        }
        QVERIFY2(std::abs(kept / 1e4 - 0.7) < 0.025, qPrintable(QString::number(kept)));
    }

    void errors_data() {
        QTest::addColumn<TorchCase>("c");
        QTest::addColumn<QString>("message");
        QTest::addRow("integer division by zero")
            << call("aten.floor_divide.default", {OpArg::t("self", i64({1}, {1})), OpArg::t("other", i64({1}, {0}))})
            << "node 'n0' (aten.floor_divide.default): integer division by zero";
        QTest::addRow("scatter_reduce mode")
            << call("aten.scatter_reduce.two", {OpArg::t("self", f32({2}, {1, 2})), OpArg::lit("dim", i(0)), OpArg::t("index", i64({1}, {0})),
                                                 OpArg::t("src", f32({1}, {1})), OpArg::lit("reduce", str("median"))})
            << "node 'n0' (aten.scatter_reduce.two): scatter_reduce: reduce must be one of sum, prod, mean, amax, amin; got 'median'";
        QTest::addRow("mask shape")
            << call("aten.index.Tensor", {OpArg::t("self", arange12()), OpArg::lit("indices", Argument::tensors({"in1"})), OpArg::t("_mask", mask({2}, {1, 0}))})
            << "node 'n0' (aten.index.Tensor): index: the shape of the mask [2] at index 0 does not match the shape of the indexed tensor [3, 4]";
        QTest::addRow("masked_scatter short source")
            << call("aten.masked_scatter.default", {OpArg::t("self", f32({3}, {1, 2, 3})), OpArg::t("mask", mask({3}, {1, 1, 1})), OpArg::t("source", f32({2}, {7, 8}))})
            << "node 'n0' (aten.masked_scatter.default): masked_scatter: source has 2 elements, fewer than the mask's true places";
        QTest::addRow("negative repeats")
            << call("aten.repeat_interleave.Tensor", {OpArg::t("repeats", i64({2}, {1, -1}))})
            << "node 'n0' (aten.repeat_interleave.Tensor): repeat_interleave: repeats can not be negative (got -1)";
        QTest::addRow("round decimals of ints")
            << call("aten.round.decimals", {OpArg::t("self", i64({1}, {5})), OpArg::lit("decimals", i(1))})
            << "node 'n0' (aten.round.decimals): round.decimals needs a floating-point tensor, got int64";
        QTest::addRow("grid_sampler_2d mode")
            << call("aten.grid_sampler_2d.default", {OpArg::t("input", f32({1, 1, 2, 2}, {1, 2, 3, 4})), OpArg::t("grid", f32({1, 1, 1, 2}, {0, 0})),
                                                     OpArg::lit("interpolation_mode", i(3)), OpArg::lit("padding_mode", i(0)), OpArg::lit("align_corners", b(false))})
            << "node 'n0' (aten.grid_sampler_2d.default): grid_sampler_2d: interpolation_mode 3 is not bilinear (0), nearest (1) or bicubic (2)";
        Argument channelsLast;
        channelsLast.kind = ArgKind::MemoryFormat;
        channelsLast.i = static_cast<int>(MemoryFormat::ChannelsLast);
        QTest::addRow("resize_ channels_last")
            << call("aten.resize_.default", {OpArg::t("self", f32({4}, {1, 2, 3, 4})), OpArg::lit("size", ints({1, 1, 2, 1})), OpArg::lit("memory_format", channelsLast)})
            << "node 'n0' (aten.resize_.default): resize_: memory_format channels_last is not supported (contiguous_format only)";
    }
    void errors() {
        QFETCH(TorchCase, c);
        QFETCH(QString, message);
        auto r = runOp(c.target, c.args, 1, 2);
        QVERIFY(!r.isOk());
        QCOMPARE(QString::fromStdString(r.error()), message);
    }
};

QTEST_GUILESS_MAIN(TstExecTorchOps)
#include "tst_exec_torch_ops.moc"
