// Kernels against values worked out by hand from PyTorch's semantics (not by calling the same code):
// each dtype path, broadcasting, type promotion, non-contiguous inputs, empty tensors; each run goes
// through plan + engine, at 1 and 2 threads.
#include "op_runner.h"

#include "core/ir/builder.h"

#include <QTest>
#include <cmath>

using namespace irlens::testing;

namespace {
Argument ints(std::vector<int64_t> v) { return Argument::ints(v); }
Argument i(int64_t v) { return Argument::integer(v); }
Argument f(double v) { return Argument::floating(v); }
Argument b(bool v) { return Argument::boolean(v); }
Tensor transposed2x3() { // [[1,2,3],[4,5,6]] stored as the transpose of a contiguous [3,2]
    Tensor base = f32({3, 2}, {1, 4, 2, 5, 3, 6});
    return base.asStrided({2, 3}, {1, 2}, 0);
}
} // namespace

class TstExecKernels : public QObject {
    Q_OBJECT
private slots:
    void kernel_data() {
        QTest::addColumn<KernelCase>("c");
        QTest::addColumn<int>("threads");
        auto add = [](const char* name, KernelCase c) {
            QTest::addRow("%s/1t", name) << c << 1;
            QTest::addRow("%s/2t", name) << c << 2;
        };
        add("add broadcast", {"aten.add.Tensor", {OpArg::t("self", f32({2, 3}, {1, 2, 3, 4, 5, 6})), OpArg::t("other", f32({3}, {10, 20, 30}))},
                              ScalarType::Float32, {2, 3}, {11, 22, 33, 14, 25, 36}});
        add("add alpha", {"aten.add.Tensor", {OpArg::t("self", f32({2}, {1, 2})), OpArg::t("other", f32({2}, {3, 4})), OpArg::lit("alpha", f(0.5))},
                          ScalarType::Float32, {2}, {2.5, 4}});
        add("sub f64", {"aten.sub.Tensor", {OpArg::t("self", makeTensor<double>(ScalarType::Float64, {2}, {1.5, 2})), OpArg::t("other", makeTensor<double>(ScalarType::Float64, {2}, {0.25, 4}))},
                        ScalarType::Float64, {2}, {1.25, -2}});
        // int8 + python float -> float32 (wrapped number of a higher category)
        add("int8 plus float", {"aten.add.Tensor", {OpArg::t("self", makeTensor<int>(ScalarType::Int8, {3}, {-3, 0, 99})), OpArg::lit("other", f(1.5))},
                                ScalarType::Float32, {3}, {-1.5, 1.5, 100.5}});
        // int8 * python int stays int8 and wraps: 100 * 2 = 200 -> -56
        add("int8 times int wraps", {"aten.mul.Tensor", {OpArg::t("self", makeTensor<int>(ScalarType::Int8, {3}, {100, -3, 7})), OpArg::lit("other", i(2))},
                                     ScalarType::Int8, {3}, {-56, -6, 14}});
        // int8 tensor + float32 tensor -> float32
        add("int8 plus f32 tensor", {"aten.add.Tensor", {OpArg::t("self", makeTensor<int>(ScalarType::Int8, {2}, {5, -5})), OpArg::t("other", f32({2}, {0.25, 0.5}))},
                                     ScalarType::Float32, {2}, {5.25, -4.5}});
        // int64 / int64 true division -> float32
        add("div ints", {"aten.div.Tensor", {OpArg::t("self", makeTensor<int>(ScalarType::Int64, {3}, {7, -7, 1})), OpArg::t("other", makeTensor<int>(ScalarType::Int64, {3}, {2, 2, 4}))},
                         ScalarType::Float32, {3}, {3.5, -3.5, 0.25}});
        add("div floor ints", {"aten.div.Tensor_mode", {OpArg::t("self", makeTensor<int>(ScalarType::Int64, {2}, {7, -7})), OpArg::lit("other", i(2)), OpArg::lit("rounding_mode", Argument::string("floor"))},
                               ScalarType::Int64, {2}, {3, -4}});
        add("int32 add", {"aten.add.Tensor", {OpArg::t("self", makeTensor<int>(ScalarType::Int32, {2}, {2147483647, 1})), OpArg::lit("other", i(1))},
                          ScalarType::Int32, {2}, {-2147483648.0, 2}});
        add("uint8 add", {"aten.add.Tensor", {OpArg::t("self", makeTensor<int>(ScalarType::UInt8, {2}, {255, 1})), OpArg::lit("other", i(1))},
                          ScalarType::UInt8, {2}, {0, 2}});
        add("gt scalar", {"aten.gt.Scalar", {OpArg::t("self", f32({4}, {-1, 0, 0.5, 2})), OpArg::lit("other", i(0))},
                          ScalarType::Bool, {4}, {0, 0, 1, 1}});
        add("eq int8 vs f32", {"aten.eq.Tensor", {OpArg::t("self", makeTensor<int>(ScalarType::Int8, {2}, {1, 2})), OpArg::t("other", f32({2}, {1, 2.5}))},
                               ScalarType::Bool, {2}, {1, 0}});
        add("where", {"aten.where.self", {OpArg::t("condition", makeTensor<int>(ScalarType::Bool, {3}, {1, 0, 1})), OpArg::t("self", f32({3}, {1, 2, 3})), OpArg::t("other", f32({1}, {-1}))},
                      ScalarType::Float32, {3}, {1, -1, 3}});
        add("masked_fill", {"aten.masked_fill.Scalar", {OpArg::t("self", f32({2, 2}, {1, 2, 3, 4})), OpArg::t("mask", makeTensor<int>(ScalarType::Bool, {2}, {0, 1})), OpArg::lit("value", f(-9))},
                            ScalarType::Float32, {2, 2}, {1, -9, 3, -9}});
        add("logical_not", {"aten.logical_not.default", {OpArg::t("self", makeTensor<int>(ScalarType::Int64, {3}, {0, 5, -1}))},
                            ScalarType::Bool, {3}, {1, 0, 0}});
        add("relu non-contiguous", {"aten.relu.default", {OpArg::t("self", f32({3, 2}, {1, -4, -2, 5, 3, -6}).asStrided({2, 3}, {1, 2}, 0))},
                                    ScalarType::Float32, {2, 3}, {1, 0, 3, 0, 5, 0}});
        add("sigmoid", {"aten.sigmoid.default", {OpArg::t("self", f32({2}, {0, std::log(3.0)}))}, ScalarType::Float32, {2}, {0.5, 0.75}});
        add("gelu", {"aten.gelu.default", {OpArg::t("self", f32({3}, {0, 1, -1}))}, ScalarType::Float32, {3},
                     {0, 0.5 * (1 + std::erf(1 / std::sqrt(2.0))), -0.5 * (1 - std::erf(1 / std::sqrt(2.0)))}});
        add("hardtanh", {"aten.hardtanh.default", {OpArg::t("self", f32({4}, {-7, -0.5, 3, 7})), OpArg::lit("min_val", f(0)), OpArg::lit("max_val", f(6))},
                         ScalarType::Float32, {4}, {0, 0, 3, 6}});
        add("exp of int64 promotes", {"aten.exp.default", {OpArg::t("self", makeTensor<int>(ScalarType::Int64, {2}, {0, 1}))},
                                      ScalarType::Float32, {2}, {1, std::exp(1.0)}});
        add("sum bool to int64", {"aten.sum.dim_IntList", {OpArg::t("self", makeTensor<int>(ScalarType::Bool, {2, 3}, {1, 0, 1, 1, 1, 1})), OpArg::lit("dim", ints({-1}))},
                                  ScalarType::Int64, {2}, {2, 3}});
        add("sum int32 dtype", {"aten.sum.dim_IntList", {OpArg::t("self", makeTensor<int>(ScalarType::Bool, {2, 2}, {1, 0, 1, 1})), OpArg::lit("dim", ints({-1})), OpArg::lit("dtype", Argument::scalarType(ScalarType::Int32))},
                                ScalarType::Int32, {2}, {1, 2}});
        add("sum all", {"aten.sum.default", {OpArg::t("self", transposed2x3())}, ScalarType::Float32, {}, {21}});
        add("mean dims keepdim", {"aten.mean.dim", {OpArg::t("self", f32({1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8})), OpArg::lit("dim", ints({-1, -2})), OpArg::lit("keepdim", b(true))},
                                  ScalarType::Float32, {1, 2, 1, 1}, {2.5, 6.5}});
        add("mean of empty dim is nan", {"aten.mean.dim", {OpArg::t("self", f32({2, 0}, {})), OpArg::lit("dim", ints({1}))},
                                         ScalarType::Float32, {2}, {NAN, NAN}});
        add("amax non-contiguous", {"aten.amax.default", {OpArg::t("self", transposed2x3()), OpArg::lit("dim", ints({0}))},
                                    ScalarType::Float32, {3}, {4, 5, 6}});
        add("argmax", {"aten.argmax.default", {OpArg::t("self", f32({2, 3}, {1, 9, 3, 7, 2, 7})), OpArg::lit("dim", i(1))},
                       ScalarType::Int64, {2}, {1, 0}});
        add("var correction", {"aten.var.correction", {OpArg::t("self", f32({4}, {1, 2, 3, 4}))}, ScalarType::Float32, {}, {5.0 / 3.0}});
        add("softmax", {"aten._softmax.default", {OpArg::t("self", f32({2, 2}, {0, std::log(2.0), 5, 5})), OpArg::lit("dim", i(-1)), OpArg::lit("half_to_float", b(false))},
                        ScalarType::Float32, {2, 2}, {1.0 / 3, 2.0 / 3, 0.5, 0.5}});
        // torch: a row with every value -inf (fully masked attention) softmaxes to NaN; a partly masked one does not
        add("softmax masked row", {"aten._softmax.default", {OpArg::t("self", f32({2, 2}, {-INFINITY, -INFINITY, 0, -INFINITY})), OpArg::lit("dim", i(-1)), OpArg::lit("half_to_float", b(false))},
                                   ScalarType::Float32, {2, 2}, {NAN, NAN, 1, 0}});
        add("softmax dim0", {"aten._softmax.default", {OpArg::t("self", f32({2, 2}, {0, 5, std::log(2.0), 5})), OpArg::lit("dim", i(0)), OpArg::lit("half_to_float", b(false))},
                             ScalarType::Float32, {2, 2}, {1.0 / 3, 0.5, 2.0 / 3, 0.5}});
        add("log_softmax", {"aten._log_softmax.default", {OpArg::t("self", f32({2}, {0, 0})), OpArg::lit("dim", i(0)), OpArg::lit("half_to_float", b(false))},
                            ScalarType::Float32, {2}, {-std::log(2.0), -std::log(2.0)}});
        // layer norm of [1,3] with mean 2, var 2/3: (x-2)/sqrt(2/3+eps)
        const double s = 1 / std::sqrt(2.0 / 3 + 1e-5);
        add("native_layer_norm", {"aten.native_layer_norm.default", {OpArg::t("input", f32({1, 3}, {1, 2, 3})), OpArg::lit("normalized_shape", ints({3})),
                                   OpArg::t("weight", f32({3}, {1, 2, 1})), OpArg::t("bias", f32({3}, {0, 0, 1})), OpArg::lit("eps", f(1e-5))},
                                  ScalarType::Float32, {1, 3}, {-s, 0, s + 1}, 3, 0});
        add("native_layer_norm rstd", {"aten.native_layer_norm.default", {OpArg::t("input", f32({1, 3}, {1, 2, 3})), OpArg::lit("normalized_shape", ints({3})),
                                        OpArg::lit("weight", Argument::none()), OpArg::lit("bias", Argument::none()), OpArg::lit("eps", f(1e-5))},
                                       ScalarType::Float32, {1, 1}, {s}, 3, 2});
        // batch norm inference: channel 0 mean 1 var 4 -> (x-1)/2; channel 1 weight 3 bias 1 mean 0 var 1 -> 3x+1
        add("batch_norm no training", {"aten._native_batch_norm_legit_no_training.default",
                                       {OpArg::t("input", f32({1, 2, 1, 2}, {3, 5, 1, -1})), OpArg::t("weight", f32({2}, {1, 3})), OpArg::t("bias", f32({2}, {0, 1})),
                                        OpArg::t("running_mean", f32({2}, {1, 0})), OpArg::t("running_var", f32({2}, {4, 1})), OpArg::lit("momentum", f(0.1)), OpArg::lit("eps", f(0))},
                                       ScalarType::Float32, {1, 2, 1, 2}, {1, 2, 4, -2}, 3, 0});
        // addmm with a transposed weight view (t of a contiguous [2,3] weight)
        Tensor w = f32({2, 3}, {1, 0, 1, 0, 1, 0});
        add("addmm transposed weight", {"aten.addmm.default", {OpArg::t("self", f32({2}, {10, 20})), OpArg::t("mat1", f32({1, 3}, {1, 2, 3})),
                                                               OpArg::t("mat2", w.asStrided({3, 2}, {1, 3}, 0))},
                                        ScalarType::Float32, {1, 2}, {14, 22}});
        // addmm's bias as gemm's starting value: a [1, N] row copied into each of three rows, a full
        // [M, N] self, and a row read with stride 2 (the general broadcast); mat1 @ mat2 is {1, 2, 3, 4, 4, 6}
        Tensor m1 = f32({3, 2}, {1, 0, 0, 1, 1, 1}), m2 = f32({2, 2}, {1, 2, 3, 4});
        add("addmm row bias three rows", {"aten.addmm.default", {OpArg::t("self", f32({1, 2}, {10, 20})), OpArg::t("mat1", m1), OpArg::t("mat2", m2)},
                                          ScalarType::Float32, {3, 2}, {11, 22, 13, 24, 14, 26}});
        add("addmm full self", {"aten.addmm.default", {OpArg::t("self", f32({3, 2}, {1, 2, 3, 4, 5, 6})), OpArg::t("mat1", m1), OpArg::t("mat2", m2)},
                                ScalarType::Float32, {3, 2}, {2, 4, 6, 8, 9, 12}});
        add("addmm strided bias", {"aten.addmm.default", {OpArg::t("self", f32({4}, {10, 99, 20, 99}).asStrided({2}, {2}, 0)), OpArg::t("mat1", m1), OpArg::t("mat2", m2)},
                                   ScalarType::Float32, {3, 2}, {11, 22, 13, 24, 14, 26}});
        add("mm f64", {"aten.mm.default", {OpArg::t("self", makeTensor<double>(ScalarType::Float64, {2, 2}, {1, 2, 3, 4})), OpArg::t("mat2", makeTensor<double>(ScalarType::Float64, {2, 1}, {1, 1}))},
                       ScalarType::Float64, {2, 1}, {3, 7}});
        add("mm int64", {"aten.mm.default", {OpArg::t("self", makeTensor<int>(ScalarType::Int64, {1, 2}, {2, 3})), OpArg::t("mat2", makeTensor<int>(ScalarType::Int64, {2, 2}, {1, 2, 3, 4}))},
                         ScalarType::Int64, {1, 2}, {11, 16}});
        add("bmm", {"aten.bmm.default", {OpArg::t("self", f32({2, 1, 2}, {1, 2, 3, 4})), OpArg::t("mat2", f32({2, 2, 1}, {1, 1, 2, 0}))},
                    ScalarType::Float32, {2, 1, 1}, {3, 6}});
        // baddbmm = beta * self + alpha * (batch1 @ batch2), self broadcast over the batch: the bmm above
        // is {3, 6}, so 0.5 * 10 + 2 * {3, 6}; beta 0 ignores self, NaN included (as torch.baddbmm)
        add("baddbmm beta alpha", {"aten.baddbmm.default", {OpArg::t("self", f32({1}, {10})), OpArg::t("batch1", f32({2, 1, 2}, {1, 2, 3, 4})),
                                                            OpArg::t("batch2", f32({2, 2, 1}, {1, 1, 2, 0})), OpArg::lit("beta", f(0.5)), OpArg::lit("alpha", f(2))},
                                   ScalarType::Float32, {2, 1, 1}, {11, 17}});
        add("baddbmm beta 0", {"aten.baddbmm.default", {OpArg::t("self", f32({1}, {NAN})), OpArg::t("batch1", f32({2, 1, 2}, {1, 2, 3, 4})),
                                                        OpArg::t("batch2", f32({2, 2, 1}, {1, 1, 2, 0})), OpArg::lit("beta", f(0))},
                               ScalarType::Float32, {2, 1, 1}, {3, 6}});
        add("matmul broadcast", {"aten.matmul.default", {OpArg::t("self", f32({2, 1, 2}, {1, 2, 3, 4})), OpArg::t("other", f32({2, 1}, {1, -1}))},
                                 ScalarType::Float32, {2, 1, 1}, {-1, -1}});
        add("linear", {"aten.linear.default", {OpArg::t("input", f32({2, 2}, {1, 2, 3, 4})), OpArg::t("weight", f32({1, 2}, {1, 1})), OpArg::t("bias", f32({1}, {0.5}))},
                       ScalarType::Float32, {2, 1}, {3.5, 7.5}});
        add("mm empty", {"aten.mm.default", {OpArg::t("self", f32({0, 3}, {})), OpArg::t("mat2", f32({3, 2}, {1, 2, 3, 4, 5, 6}))},
                         ScalarType::Float32, {0, 2}, {}});
        // 3x3 ones, 2x2 ones kernel, padding 0 -> 2x2 of 4 (+bias 1)
        add("convolution", {"aten.convolution.default", {OpArg::t("input", f32({1, 1, 3, 3}, std::vector<double>(9, 1))), OpArg::t("weight", f32({1, 1, 2, 2}, {1, 1, 1, 1})),
                                                         OpArg::t("bias", f32({1}, {1})), OpArg::lit("stride", ints({1, 1})), OpArg::lit("padding", ints({0, 0})),
                                                         OpArg::lit("dilation", ints({1, 1})), OpArg::lit("transposed", b(false)), OpArg::lit("output_padding", ints({0, 0})),
                                                         OpArg::lit("groups", i(1))},
                            ScalarType::Float32, {1, 1, 2, 2}, {5, 5, 5, 5}});
        // padding 1, stride 2: corners see 4 ones, edges 6, centre 9 -> output 2x2 of corners of the padded grid
        add("conv2d pad stride", {"aten.conv2d.default", {OpArg::t("input", f32({1, 1, 3, 3}, std::vector<double>(9, 1))), OpArg::t("weight", f32({1, 1, 3, 3}, std::vector<double>(9, 1))),
                                                          OpArg::lit("bias", Argument::none()), OpArg::lit("stride", ints({2, 2})), OpArg::lit("padding", ints({1, 1}))},
                                  ScalarType::Float32, {1, 1, 2, 2}, {4, 4, 4, 4}});
        // depthwise: 2 channels, groups 2, per-channel 1x1 weights 2 and 3
        add("conv depthwise", {"aten.convolution.default", {OpArg::t("input", f32({1, 2, 1, 2}, {1, 2, 3, 4})), OpArg::t("weight", f32({2, 1, 1, 1}, {2, 3})),
                                                            OpArg::lit("bias", Argument::none()), OpArg::lit("stride", ints({1, 1})), OpArg::lit("padding", ints({0, 0})),
                                                            OpArg::lit("dilation", ints({1, 1})), OpArg::lit("transposed", b(false)), OpArg::lit("output_padding", ints({0, 0})),
                                                            OpArg::lit("groups", i(2))},
                               ScalarType::Float32, {1, 2, 1, 2}, {2, 4, 9, 12}});
        add("max_pool2d values", {"aten.max_pool2d_with_indices.default", {OpArg::t("self", f32({1, 1, 2, 4}, {1, 5, 2, 0, 3, 4, 8, 1})), OpArg::lit("kernel_size", ints({2, 2})),
                                                                         OpArg::lit("stride", ints({2, 2}))},
                                  ScalarType::Float32, {1, 1, 1, 2}, {5, 8}, 2, 0});
        add("max_pool2d indices", {"aten.max_pool2d_with_indices.default", {OpArg::t("self", f32({1, 1, 2, 4}, {1, 5, 2, 0, 3, 4, 8, 1})), OpArg::lit("kernel_size", ints({2, 2})),
                                                                          OpArg::lit("stride", ints({2, 2}))},
                                   ScalarType::Int64, {1, 1, 1, 2}, {1, 6}, 2, 1});
        add("adaptive_avg_pool2d", {"aten.adaptive_avg_pool2d.default", {OpArg::t("self", f32({1, 1, 2, 2}, {1, 2, 3, 6})), OpArg::lit("output_size", ints({1, 1}))},
                                    ScalarType::Float32, {1, 1, 1, 1}, {3}});
        // NaN propagates through relu / hardtanh / max-pool as in torch (branch-free SSE paths)
        add("relu keeps nan", {"aten.relu.default", {OpArg::t("self", f32({5}, {NAN, -1, 2, -0.5, 7}))}, ScalarType::Float32, {5}, {NAN, 0, 2, 0, 7}});
        add("hardtanh keeps nan", {"aten.hardtanh.default", {OpArg::t("self", f32({5}, {NAN, -9, 0.5, 9, -0.5}))}, ScalarType::Float32, {5}, {NAN, -1, 0.5, 1, -0.5}});
        add("clamp min only f64", {"aten.clamp.default", {OpArg::t("self", makeTensor<double>(ScalarType::Float64, {3}, {-2, 0.5, 3})), OpArg::lit("min", f(0))},
                                   ScalarType::Float64, {3}, {0, 0.5, 3}});
        add("max_pool2d nan wins", {"aten.max_pool2d_with_indices.default", {OpArg::t("self", f32({1, 1, 2, 2}, {1, NAN, 3, 2})), OpArg::lit("kernel_size", ints({2, 2}))},
                                    ScalarType::Float32, {1, 1, 1, 1}, {NAN}, 2, 0});
        // 3x3/2 with padding 1 on 1x4x4 rows 0..15: windows clipped at the border
        add("max_pool2d padded", {"aten.max_pool2d_with_indices.default", {OpArg::t("self", f32({1, 1, 4, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})),
                                                                          OpArg::lit("kernel_size", ints({3, 3})), OpArg::lit("stride", ints({2, 2})), OpArg::lit("padding", ints({1, 1}))},
                                  ScalarType::Int64, {1, 1, 2, 2}, {5, 7, 13, 15}, 2, 1});
        // max_pool2d without indices takes the values-only float path: NaN wins, padding, ceil mode
        add("max_pool2d values nan", {"aten.max_pool2d.default", {OpArg::t("self", f32({1, 1, 2, 6}, {1, NAN, 3, 2, 0, 4, 5, 6, 7, 8, 9, NAN})),
                                                                 OpArg::lit("kernel_size", ints({2, 2})), OpArg::lit("stride", ints({2, 2}))},
                                      ScalarType::Float32, {1, 1, 1, 3}, {NAN, 8, NAN}});
        add("max_pool2d values padded", {"aten.max_pool2d.default", {OpArg::t("self", f32({1, 1, 4, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})),
                                                                    OpArg::lit("kernel_size", ints({3, 3})), OpArg::lit("stride", ints({2, 2})), OpArg::lit("padding", ints({1, 1}))},
                                         ScalarType::Float32, {1, 1, 2, 2}, {5, 7, 13, 15}});
        add("max_pool2d values ceil", {"aten.max_pool2d.default", {OpArg::t("self", f32({1, 1, 1, 5}, {1, 2, 3, -4, -5})), OpArg::lit("kernel_size", ints({1, 2})),
                                                                  OpArg::lit("stride", ints({1, 2})), OpArg::lit("padding", ints({0, 0})),
                                                                  OpArg::lit("dilation", ints({1, 1})), OpArg::lit("ceil_mode", b(true))},
                                       ScalarType::Float32, {1, 1, 1, 3}, {2, 3, -5}});
        add("max_pool2d int64", {"aten.max_pool2d_with_indices.default", {OpArg::t("self", makeTensor<int>(ScalarType::Int64, {1, 1, 1, 4}, {3, -1, 2, 9})), OpArg::lit("kernel_size", ints({1, 2}))},
                                 ScalarType::Int64, {1, 1, 1, 2}, {3, 9}, 2, 0});
        add("avg_pool2d pad excludes", {"aten.avg_pool2d.default", {OpArg::t("self", f32({1, 1, 2, 2}, {1, 2, 3, 4})), OpArg::lit("kernel_size", ints({2, 2})), OpArg::lit("stride", ints({1, 1})),
                                                                  OpArg::lit("padding", ints({1, 1})), OpArg::lit("ceil_mode", b(false)), OpArg::lit("count_include_pad", b(false))},
                                        ScalarType::Float32, {1, 1, 3, 3}, {1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4}});
        add("upsample nearest x2", {"aten.upsample_nearest2d.vec", {OpArg::t("input", f32({1, 1, 1, 2}, {1, 2})), OpArg::lit("output_size", ints({2, 4}))},
                                    ScalarType::Float32, {1, 1, 2, 4}, {1, 1, 2, 2, 1, 1, 2, 2}});
        add("reflection_pad1d", {"aten.reflection_pad1d.default", {OpArg::t("self", f32({1, 3}, {1, 2, 3})), OpArg::lit("padding", ints({2, 1}))},
                                 ScalarType::Float32, {1, 6}, {3, 2, 1, 2, 3, 2}});
        add("replication_pad2d", {"aten.replication_pad2d.default", {OpArg::t("self", f32({1, 1, 1, 2}, {1, 2})), OpArg::lit("padding", ints({1, 0, 0, 1}))},
                                  ScalarType::Float32, {1, 1, 2, 3}, {1, 1, 2, 1, 1, 2}});
        add("constant_pad_nd", {"aten.constant_pad_nd.default", {OpArg::t("self", f32({1, 2}, {1, 2})), OpArg::lit("pad", ints({1, -1})), OpArg::lit("value", f(9))},
                                ScalarType::Float32, {1, 2}, {9, 1}});
        add("gather", {"aten.gather.default", {OpArg::t("self", f32({2, 2}, {1, 2, 3, 4})), OpArg::lit("dim", i(1)), OpArg::t("index", makeTensor<int>(ScalarType::Int64, {2, 2}, {1, 1, 0, 1}))},
                       ScalarType::Float32, {2, 2}, {2, 2, 3, 4}});
        add("topk values", {"aten.topk.default", {OpArg::t("self", f32({5}, {3, 1, 4, 1, 5})), OpArg::lit("k", i(2))}, ScalarType::Float32, {2}, {5, 4}, 2, 0});
        add("cumsum int", {"aten.cumsum.default", {OpArg::t("self", makeTensor<int>(ScalarType::Int32, {4}, {1, 2, 3, 4})), OpArg::lit("dim", i(0))}, ScalarType::Int64, {4}, {1, 3, 6, 10}});
        add("sigmoid f64", {"aten.sigmoid.default", {OpArg::t("self", makeTensor<double>(ScalarType::Float64, {1}, {0}))}, ScalarType::Float64, {1}, {0.5}});
        add("embedding", {"aten.embedding.default", {OpArg::t("weight", f32({3, 2}, {0, 1, 10, 11, 20, 21})), OpArg::t("indices", makeTensor<int>(ScalarType::Int64, {2}, {2, 0}))},
                          ScalarType::Float32, {2, 2}, {20, 21, 0, 1}});
        add("view", {"aten.view.default", {OpArg::t("self", f32({2, 3}, {1, 2, 3, 4, 5, 6})), OpArg::lit("size", ints({3, -1}))}, ScalarType::Float32, {3, 2}, {1, 2, 3, 4, 5, 6}});
        // a transposed tensor cannot be viewed flat: the engine copies (reshape semantics)
        add("view of transposed copies", {"aten.view.default", {OpArg::t("self", transposed2x3()), OpArg::lit("size", ints({6}))}, ScalarType::Float32, {6}, {1, 2, 3, 4, 5, 6}});
        add("permute", {"aten.permute.default", {OpArg::t("self", f32({2, 3}, {1, 2, 3, 4, 5, 6})), OpArg::lit("dims", ints({1, 0}))}, ScalarType::Float32, {3, 2}, {1, 4, 2, 5, 3, 6}});
        add("expand", {"aten.expand.default", {OpArg::t("self", f32({2, 1}, {1, 2})), OpArg::lit("size", ints({2, -1, 3}))}, ScalarType::Float32, {2, 2, 3}, {1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2}});
        // a contiguous copy of broadcast views (copyInto): a row repeated over leading dimensions, one
        // with a size-1 dimension between, a broadcast in the middle and one in the last dimension
        auto contiguousClone = [&](const char* name, const Tensor& x, Shape shape, std::vector<double> want) {
            add(name, {"aten.clone.default", {OpArg::t("self", x), OpArg::lit("memory_format", i(static_cast<int64_t>(MemoryFormat::Contiguous)))},
                       ScalarType::Float32, std::move(shape), std::move(want)});
        };
        const Tensor row = f32({3}, {1, 2, 3}), two = f32({2, 3}, {1, 2, 3, 4, 5, 6});
        contiguousClone("clone leading broadcast", row.asStrided({2, 3}, {0, 1}, 0), {2, 3}, {1, 2, 3, 1, 2, 3});
        contiguousClone("clone broadcast around size 1", row.asStrided({2, 1, 3}, {0, 7, 1}, 0), {2, 1, 3}, {1, 2, 3, 1, 2, 3});
        contiguousClone("clone middle broadcast", two.asStrided({2, 2, 3}, {3, 0, 1}, 0), {2, 2, 3}, {1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6});
        contiguousClone("clone last broadcast", row.asStrided({2, 3}, {1, 0}, 1), {2, 3}, {2, 2, 2, 3, 3, 3});
        add("slice step", {"aten.slice.Tensor", {OpArg::t("self", f32({5}, {0, 1, 2, 3, 4})), OpArg::lit("dim", i(0)), OpArg::lit("start", i(1)), OpArg::lit("end", i(INT64_MAX)), OpArg::lit("step", i(2))},
                           ScalarType::Float32, {2}, {1, 3}});
        add("select negative", {"aten.select.int", {OpArg::t("self", f32({2, 2}, {1, 2, 3, 4})), OpArg::lit("dim", i(1)), OpArg::lit("index", i(-1))}, ScalarType::Float32, {2}, {2, 4}});
        KernelCase split{"aten.split.Tensor", {OpArg::t("self", f32({5}, {0, 1, 2, 3, 4})), OpArg::lit("split_size", i(2))}, ScalarType::Float32, {1}, {4}, 3, 2, true};
        add("split last chunk", split);
        add("arange", {"aten.arange.start", {OpArg::lit("start", i(2)), OpArg::lit("end", i(5))}, ScalarType::Int64, {3}, {2, 3, 4}});
        add("arange float", {"aten.arange.start_step", {OpArg::lit("start", i(0)), OpArg::lit("end", f(1)), OpArg::lit("step", f(0.25))}, ScalarType::Float32, {4}, {0, 0.25, 0.5, 0.75}});
        add("to_copy bool to int32", {"aten._to_copy.default", {OpArg::t("self", makeTensor<int>(ScalarType::Bool, {2}, {1, 0})), OpArg::lit("dtype", Argument::scalarType(ScalarType::Int32))},
                                      ScalarType::Int32, {2}, {1, 0}});
        add("convert_element_type", {"prims.convert_element_type.default", {OpArg::t("a", f32({2}, {1.7, -1.7})), OpArg::lit("dtype", Argument::scalarType(ScalarType::Int64))},
                                     ScalarType::Int64, {2}, {1, -1}});
        add("broadcast_in_dim", {"prims.broadcast_in_dim.default", {OpArg::t("a", f32({2}, {1, 2})), OpArg::lit("shape", ints({3, 2})), OpArg::lit("broadcast_dimensions", ints({1}))},
                                 ScalarType::Float32, {3, 2}, {1, 2, 1, 2, 1, 2}});
        add("prims sum", {"prims.sum.default", {OpArg::t("inp", f32({2, 2}, {1, 2, 3, 4})), OpArg::lit("dims", ints({0}))}, ScalarType::Float32, {2}, {4, 6}});
        add("add empty", {"aten.add.Tensor", {OpArg::t("self", f32({0, 3}, {})), OpArg::t("other", f32({3}, {1, 2, 3}))}, ScalarType::Float32, {0, 3}, {}});
    }

    void kernel() {
        QFETCH(KernelCase, c);
        QFETCH(int, threads);
        auto r = runOp(c.target, c.args, c.outputs, threads, c.list);
        QVERIFY2(r.isOk(), r.error().c_str());
        const auto& outs = *r;
        QVERIFY(static_cast<int>(outs.size()) > c.pick);
        QVERIFY(outs[static_cast<size_t>(c.pick)].isTensor());
        std::string problem = mismatch(outs[static_cast<size_t>(c.pick)].tensor, c.dtype, c.shape, c.expect);
        QVERIFY2(problem.empty(), problem.c_str());
    }

    void catAndStack() {
        auto p = std::make_shared<Program>();
        // cat([a, b], dim=1) with a int64 and b float32 -> float32 [1, 3]
        Node n;
        n.name = "cat";
        n.target = Target::parse("torch.ops.aten.cat.default");
        n.inputs.push_back({"tensors", Argument::tensors({"a", "b"}), ArgumentKind::Positional});
        n.inputs.push_back({"dim", Argument::integer(1), ArgumentKind::Positional});
        n.outputs.push_back(Argument::tensor("out"));
        p->graph.nodes.push_back(n);
        for (const char* name : {"a", "b"}) {
            p->graph.inputs.push_back(Argument::tensor(name));
            InputSpec s;
            s.arg = Argument::tensor(name);
            p->signature.inputSpecs.push_back(s);
        }
        p->graph.outputs.push_back(Argument::tensor("out"));
        p->signature.outputSpecs.push_back({OutputKind::UserOutput, Argument::tensor("out"), ""});
        auto plan = ExecutionPlan::compile(p);
        QVERIFY2(plan.isOk(), plan.error().c_str());
        Engine e(*plan);
        auto r = e.run({EValue::fromTensor(makeTensor<int>(ScalarType::Int64, {1, 1}, {7})), EValue::fromTensor(f32({1, 2}, {0.5, 1.5}))});
        QVERIFY2(r.isOk(), r.error().c_str());
        const Tensor& t = r->outputs[0].tensor;
        QCOMPARE(t.dtype(), ScalarType::Float32);
        QCOMPARE(values(t), (std::vector<double>{7, 0.5, 1.5}));
    }

    void attention() {
        // one query attending over two keys with scores 0 and ln(3)·scale^-1 ... use scale=1 explicitly
        auto r = runOp("aten.scaled_dot_product_attention.default",
                       {OpArg::t("query", f32({1, 1, 2}, {0, std::log(3.0)})), OpArg::t("key", f32({1, 2, 2}, {1, 0, 0, 1})),
                        OpArg::t("value", f32({1, 2, 2}, {1, 2, 3, 4})), OpArg::lit("scale", Argument::floating(1.0))});
        QVERIFY2(r.isOk(), r.error().c_str());
        // softmax([0, ln3]) = [1/4, 3/4] -> 1/4*[1,2] + 3/4*[3,4] = [2.5, 3.5]
        auto v = values((*r)[0].tensor);
        QCOMPARE(v.size(), size_t(2));
        QVERIFY(std::abs(v[0] - 2.5) < 1e-5);
        QVERIFY(std::abs(v[1] - 3.5) < 1e-5);
        // causal: the first of two queries sees only the first key
        auto c = runOp("aten.scaled_dot_product_attention.default",
                       {OpArg::t("query", f32({2, 1}, {1, 1})), OpArg::t("key", f32({2, 1}, {1, 1})), OpArg::t("value", f32({2, 1}, {10, 20})),
                        OpArg::lit("attn_mask", Argument::none()), OpArg::lit("dropout_p", Argument::floating(0)), OpArg::lit("is_causal", Argument::boolean(true))});
        QVERIFY2(c.isOk(), c.error().c_str());
        QCOMPARE(values((*c)[0].tensor), (std::vector<double>{10, 15}));
    }

    void errors_data() {
        QTest::addColumn<QString>("target");
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("message");
        QTest::addRow("broadcast") << "aten.add.Tensor" << 0
                                   << "node 'n0' (aten.add.Tensor): shapes [2, 3] and [4] cannot be broadcast together";
        QTest::addRow("mm shapes") << "aten.mm.default" << 1
                                   << "node 'n0' (aten.mm.default): mat1 and mat2 shapes cannot be multiplied (2x3 and 4x1)";
        QTest::addRow("missing arg") << "aten.relu.default" << 2 << "node 'n0' (aten.relu.default): argument 'self' is missing (expected a tensor)";
        QTest::addRow("no kernel") << "aten.frobnicate.default" << 3 << "node 'n0': no kernel for aten::frobnicate.default";
        QTest::addRow("embedding range") << "aten.embedding.default" << 4
                                         << "node 'n0' (aten.embedding.default): embedding: index 5 is out of range for 2 rows";
        QTest::addRow("select range") << "aten.select.int" << 5
                                      << "node 'n0' (aten.select.int): select: index 3 out of range for dimension 0 of size 2";
        // a size a plain cast to int64 would make undefined: refused with what and why
        QTest::addRow("upsample scale") << "aten.upsample_nearest2d.vec" << 9
                                        << "node 'n0' (aten.upsample_nearest2d.vec): upsample: scale factor 1e+300 gives no output size for a dimension of 2";
    }
    void errors() {
        QFETCH(QString, target);
        QFETCH(int, which);
        QFETCH(QString, message);
        std::vector<OpArg> args;
        switch (which) {
        case 0: args = {OpArg::t("self", f32({2, 3}, {})), OpArg::t("other", f32({4}, {}))}; break;
        case 1: args = {OpArg::t("self", f32({2, 3}, {})), OpArg::t("mat2", f32({4, 1}, {}))}; break;
        case 2: args = {}; break;
        case 3: args = {OpArg::t("self", f32({1}, {1}))}; break;
        case 4: args = {OpArg::t("weight", f32({2, 2}, {})), OpArg::t("indices", makeTensor<int>(ScalarType::Int64, {1}, {5}))}; break;
        case 5: args = {OpArg::t("self", f32({2}, {})), OpArg::lit("dim", Argument::integer(0)), OpArg::lit("index", Argument::integer(3))}; break;
        case 9: {
            Argument scales;
            scales.kind = ArgKind::Floats;
            scales.list = {Argument::floating(1e300), Argument::floating(1)};
            args = {OpArg::t("input", f32({1, 1, 2, 2}, {})), OpArg::lit("output_size", Argument::none()), OpArg::lit("scale_factors", scales)};
            break;
        }
        }
        auto r = runOp(target.toStdString(), args, 1, 2);
        QVERIFY(!r.isOk());
        QCOMPARE(QString::fromStdString(r.error()), message);
    }

    // Python's int arithmetic on symbolic ints: exact powers stay ints, int ** negative int is a float,
    // and what int64 cannot hold (or a plain cast would make undefined) is refused, naming the op
    void symIntArithmetic() {
        auto run = [](const char* target, std::vector<Argument> operands) -> Result<EValue> {
            ProgramBuilder b("sym");
            auto call = b.call(target, "r");
            const char* names[] = {"a", "b"};
            for (size_t k = 0; k < operands.size(); ++k) call.arg(names[k], operands[k]);
            call.outSymInt(SymInt::expression("u0", 1));
            b.output(OutputKind::UserOutput, Argument::symIntName("r"));
            auto program = b.build();
            if (!program) return Status::error(program.error());
            auto plan = ExecutionPlan::compile(*program);
            if (!plan) return Status::error(plan.error());
            Engine engine(*plan);
            auto r = engine.run({}, RunOptions{});
            if (!r) return Status::error(r.error());
            return r->outputs.at(0);
        };
        auto r = run("_operator.pow", {Argument::integer(3), Argument::integer(39)}); // beyond a double's exact integers
        QVERIFY2(r, r ? "" : r.error().c_str());
        QCOMPARE(r->kind, EValue::Kind::Int);
        QCOMPARE(r->i, int64_t(4052555153018976267));
        r = run("_operator.pow", {Argument::integer(2), Argument::integer(-1)});
        QVERIFY2(r, r ? "" : r.error().c_str());
        QCOMPARE(r->kind, EValue::Kind::Double);
        QCOMPARE(r->d, 0.5);
        r = run("_operator.pow", {Argument::integer(3), Argument::integer(40)});
        QVERIFY(!r);
        QVERIFY2(QString::fromStdString(r.error()).endsWith("symbolic pow overflows int64"), r.error().c_str());
        r = run("_operator.mul", {Argument::integer(int64_t(1) << 62), Argument::integer(4)});
        QVERIFY(!r);
        QVERIFY2(QString::fromStdString(r.error()).endsWith("symbolic mul overflows int64"), r.error().c_str());
        r = run("math.ceil", {Argument::floating(std::numeric_limits<double>::infinity())});
        QVERIFY(!r);
        QVERIFY2(QString::fromStdString(r.error()).endsWith("math.ceil of inf has no int64 value"), r.error().c_str());
        r = run("math.floor", {Argument::floating(-2.5)});
        QVERIFY2(r, r ? "" : r.error().c_str());
        QCOMPARE(r->i, int64_t(-3));
    }

    void inplaceAliasesInput() {
        // relu_ writes into its input and returns it (training-IR in-place ops)
        Tensor x = f32({3}, {-1, 2, -3});
        auto r = runOp("aten.relu_.default", {OpArg::t("self", x)});
        QVERIFY2(r.isOk(), r.error().c_str());
        QCOMPARE((*r)[0].tensor.raw(), x.raw());
        QCOMPARE(values(x), (std::vector<double>{0, 2, 0}));
    }

    void inplaceOnWeightRefused() {
        TensorData td;
        td.dtype = ScalarType::Float32;
        td.sizes = {1};
        td.strides = {1};
        float v = -1;
        std::vector<std::byte> bytes(4);
        std::memcpy(bytes.data(), &v, 4);
        td.storage = Storage::fromBytes(bytes);
        auto w = Tensor::fromTensorData(td);
        QVERIFY(w.isOk());
        QVERIFY(w->readOnly());
        auto r = runOp("aten.relu_.default", {OpArg::t("self", *w)});
        QVERIFY(!r.isOk());
        QCOMPARE(QString::fromStdString(r.error()),
                 QString("node 'n0' (aten.relu_.default): in-place op on a read-only tensor (a weight of the archive)"));
    }
};

QTEST_GUILESS_MAIN(TstExecKernels)
#include "tst_exec_kernels.moc"
