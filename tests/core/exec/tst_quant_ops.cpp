// The PT2E quantization ops (quantized_decomposed::*) against PyTorch's numbers: torch 1.13's
// torch.quantize_per_tensor / quantize_per_channel (.int_repr(), .dequantize()) and the formulas of
// torch/ao/quantization/fx/_decomposed.py evaluated with torch tensor ops (the numbers are committed
// here; the script that made them is described in each block). Rounding is half to even, values clamp
// to [quant_min, quant_max]. Then a program built in code that chooses qparams, quantizes its input,
// dequantizes a per-channel int8 weight, runs a convolution and quantizes and dequantizes the result,
// as a PT2E-quantized CNN does, checked end to end against PyTorch.
#include "op_runner.h"

#include "core/exec/plan.h"
#include "core/ir/builder.h"
#include "core/ops/meta.h"
#include "core/verify/verifier.h"

#include <QTest>

using namespace irlens::core;
using namespace irlens::core::exec;
using namespace irlens::testing;

namespace {

const char* kQ = "quantized_decomposed.";

Argument dt(ScalarType t) { return Argument::scalarType(t); }

// x for the per-tensor rows: ties at .5 steps (scale 0.5) and values past both ends of int8.
const std::vector<double> kTies = {-1.0, -0.75, -0.25, 0.0, 0.25, 0.75, 1.25, 2.5, 3.3, 70.0, -70.0};

std::vector<double> run1(const std::string& target, const std::vector<OpArg>& args) {
    auto r = runOp(target, args);
    if (!r) qWarning("%s", r.error().c_str());
    return r && !r->empty() ? values((*r)[0].tensor) : std::vector<double>{};
}

QString show(const std::vector<double>& v) {
    QStringList s;
    for (double x : v) s << QString::number(x, 'g', 9);
    return s.join(", ");
}

} // namespace

class TstQuantOps : public QObject {
    Q_OBJECT
private slots:
    void perTensor_data();
    void perTensor();
    void perTensorTensorOverloads();
    void perChannel_data();
    void perChannel();
    void chooseQParams();
    void badArguments();
    void quantizedConvProgram();
};

void TstQuantOps::perTensor_data() {
    QTest::addColumn<double>("scale");
    QTest::addColumn<int>("zeroPoint");
    QTest::addColumn<int>("qmin");
    QTest::addColumn<int>("qmax");
    QTest::addColumn<int>("dtype");
    QTest::addColumn<std::vector<double>>("quantized");
    QTest::addColumn<std::vector<double>>("dequantized");
    // torch.quantize_per_tensor(x, scale, zp, qint8 / quint8).int_repr() and .dequantize()
    QTest::addRow("int8, zp 0") << 0.5 << 0 << -128 << 127 << int(ScalarType::Int8)
                                << std::vector<double>{-2, -2, 0, 0, 0, 2, 2, 5, 7, 127, -128}
                                << std::vector<double>{-1, -1, 0, 0, 0, 1, 1, 2.5, 3.5, 63.5, -64};
    QTest::addRow("int8, zp 3") << 0.5 << 3 << -128 << 127 << int(ScalarType::Int8)
                                << std::vector<double>{1, 1, 3, 3, 3, 5, 5, 8, 10, 127, -128}
                                << std::vector<double>{-1, -1, 0, 0, 0, 1, 1, 2.5, 3.5, 62, -65.5};
    QTest::addRow("uint8, zp 10") << 0.5 << 10 << 0 << 255 << int(ScalarType::UInt8)
                                  << std::vector<double>{8, 8, 10, 10, 10, 12, 12, 15, 17, 150, 0}
                                  << std::vector<double>{-1, -1, 0, 0, 0, 1, 1, 2.5, 3.5, 70, -5};
    // a narrow range: the int8 values above clamped to [-3, 3]
    QTest::addRow("int8 in [-3, 3]") << 0.5 << 0 << -3 << 3 << int(ScalarType::Int8)
                                     << std::vector<double>{-2, -2, 0, 0, 0, 2, 2, 3, 3, 3, -3}
                                     << std::vector<double>{-1, -1, 0, 0, 0, 1, 1, 1.5, 1.5, 1.5, -1.5};
}

void TstQuantOps::perTensor() {
    QFETCH(double, scale);
    QFETCH(int, zeroPoint);
    QFETCH(int, qmin);
    QFETCH(int, qmax);
    QFETCH(int, dtype);
    QFETCH(std::vector<double>, quantized);
    QFETCH(std::vector<double>, dequantized);
    const auto qt = ScalarType(dtype);
    const Shape shape{int64_t(kTies.size())};
    auto common = [&](std::vector<OpArg> head) {
        head.push_back(OpArg::lit("quant_min", Argument::integer(qmin)));
        head.push_back(OpArg::lit("quant_max", Argument::integer(qmax)));
        head.push_back(OpArg::lit("dtype", dt(qt)));
        return head;
    };
    const auto q = run1(std::string(kQ) + "quantize_per_tensor.default",
                        common({OpArg::t("input", f32(shape, kTies)), OpArg::lit("scale", Argument::floating(scale)),
                                OpArg::lit("zero_point", Argument::integer(zeroPoint))}));
    QCOMPARE(show(q), show(quantized));
    const auto d = run1(std::string(kQ) + "dequantize_per_tensor.default",
                        common({OpArg::t("input", makeTensor(qt, shape, quantized)), OpArg::lit("scale", Argument::floating(scale)),
                                OpArg::lit("zero_point", Argument::integer(zeroPoint))}));
    QCOMPARE(show(d), show(dequantized));
}

// The .tensor overloads take scale and zero_point as one-element tensors (what choose_qparams makes).
void TstQuantOps::perTensorTensorOverloads() {
    const Shape shape{int64_t(kTies.size())};
    auto args = [&](Tensor input) {
        return std::vector<OpArg>{OpArg::t("input", std::move(input)),
                                  OpArg::t("scale", makeTensor<double>(ScalarType::Float64, {1}, {0.5})),
                                  OpArg::t("zero_point", makeTensor<int64_t>(ScalarType::Int64, {1}, {3})),
                                  OpArg::lit("quant_min", Argument::integer(-128)),
                                  OpArg::lit("quant_max", Argument::integer(127)),
                                  OpArg::lit("dtype", dt(ScalarType::Int8))};
    };
    QCOMPARE(show(run1(std::string(kQ) + "quantize_per_tensor.tensor", args(f32(shape, kTies)))),
             show({1, 1, 3, 3, 3, 5, 5, 8, 10, 127, -128}));
    QCOMPARE(show(run1(std::string(kQ) + "dequantize_per_tensor.tensor",
                       args(makeTensor<double>(ScalarType::Int8, shape, {1, 1, 3, 3, 3, 5, 5, 8, 10, 127, -128})))),
             show({-1, -1, 0, 0, 0, 1, 1, 2.5, 3.5, 62, -65.5}));
}

void TstQuantOps::perChannel_data() {
    QTest::addColumn<int>("axis");
    QTest::addColumn<std::vector<double>>("quantized");
    QTest::addColumn<std::vector<double>>("dequantized");
    // torch.quantize_per_channel(w, [0.01, 0.02, 0.05] (f64), [0, 1, -2], axis, torch.qint8)
    QTest::addRow("axis 0") << 0 << std::vector<double>{31, -52, 7, 63, -1, 26, -54, 60, 16}
                            << std::vector<double>{0.310000002, -0.519999981, 0.0700000003, 1.24000001, -0.0399999991, 0.5,
                                                   -2.5999999, 3.0999999, 0.899999976};
    QTest::addRow("axis 1") << 1 << std::vector<double>{31, -25, -1, 123, -1, 8, -128, 127, 16}
                            << std::vector<double>{0.310000002, -0.519999981, 0.0500000007, 1.23000002, -0.0399999991, 0.5,
                                                   -1.27999997, 2.51999998, 0.899999976};
    QTest::addRow("axis -1") << -1 << std::vector<double>{31, -25, -1, 123, -1, 8, -128, 127, 16}
                             << std::vector<double>{0.310000002, -0.519999981, 0.0500000007, 1.23000002, -0.0399999991, 0.5,
                                                    -1.27999997, 2.51999998, 0.899999976};
}

void TstQuantOps::perChannel() {
    QFETCH(int, axis);
    QFETCH(std::vector<double>, quantized);
    QFETCH(std::vector<double>, dequantized);
    const Shape shape{3, 3};
    auto args = [&](Tensor input) {
        return std::vector<OpArg>{OpArg::t("input", std::move(input)),
                                  OpArg::t("scales", makeTensor<double>(ScalarType::Float64, {3}, {0.01, 0.02, 0.05})),
                                  OpArg::t("zero_points", makeTensor<int64_t>(ScalarType::Int64, {3}, {0, 1, -2})),
                                  OpArg::lit("axis", Argument::integer(axis)),
                                  OpArg::lit("quant_min", Argument::integer(-128)),
                                  OpArg::lit("quant_max", Argument::integer(127)),
                                  OpArg::lit("dtype", dt(ScalarType::Int8))};
    };
    const Tensor w = f32(shape, {0.31, -0.52, 0.07, 1.234, -0.0456, 0.5, -2.6, 3.1, 0.9});
    QCOMPARE(show(run1(std::string(kQ) + "quantize_per_channel.default", args(w))), show(quantized));
    const auto d = run1(std::string(kQ) + "dequantize_per_channel.default", args(makeTensor(ScalarType::Int8, shape, quantized)));
    QCOMPARE(int(d.size()), 9);
    for (size_t k = 0; k < d.size(); ++k) QVERIFY2(std::abs(d[k] - dequantized[k]) < 1e-7, qPrintable(show(d)));
}

// choose_qparams.tensor: scale = max((max(x, 0) - min(x, 0)) / (qmax - qmin), eps) in float32,
// zero_point = clamp(qmin - round(min(x, 0) / scale)): torch.ao's determine_qparams with torch ops.
void TstQuantOps::chooseQParams() {
    const Tensor x = f32({2, 3}, {-1.262, 0.5, 2.46, 0.1, -0.3, 1.0});
    auto r = runOp(std::string(kQ) + "choose_qparams.tensor",
                   {OpArg::t("input", x), OpArg::lit("quant_min", Argument::integer(-128)),
                    OpArg::lit("quant_max", Argument::integer(127)), OpArg::lit("eps", Argument::floating(1.1920928955078125e-07)),
                    OpArg::lit("dtype", dt(ScalarType::Int8))},
                   2);
    QVERIFY2(r, r ? "" : r.error().c_str());
    QCOMPARE((*r)[0].tensor.dtype(), ScalarType::Float64);
    QCOMPARE((*r)[1].tensor.dtype(), ScalarType::Int64);
    QCOMPARE((*r)[0].tensor.at(0), 0.014596078544855118); // torch: float((2.46 + 1.262) / 255) in float32
    QCOMPARE((*r)[1].tensor.at(0), -42.0);
    // all-positive input: min(x, 0) = 0 puts the zero point at quant_min
    auto pos = runOp(std::string(kQ) + "choose_qparams.tensor",
                     {OpArg::t("input", f32({2}, {0.5, 2.55})), OpArg::lit("quant_min", Argument::integer(0)),
                      OpArg::lit("quant_max", Argument::integer(255)), OpArg::lit("eps", Argument::floating(1e-5)),
                      OpArg::lit("dtype", dt(ScalarType::UInt8))},
                     2);
    QVERIFY2(pos, pos ? "" : pos.error().c_str());
    QCOMPARE(float((*pos)[0].tensor.at(0)), 2.55f / 255.0f);
    QCOMPARE((*pos)[1].tensor.at(0), 0.0);
}

void TstQuantOps::badArguments() {
    auto err = [](const std::string& target, std::vector<OpArg> args) {
        auto r = runOp(std::string(kQ) + target, args);
        return r ? QString() : QString::fromStdString(r.error());
    };
    const Tensor x = f32({2}, {0.5, 1.0});
    auto tail = [](int qmin, int qmax, ScalarType t) {
        return std::vector<OpArg>{OpArg::lit("quant_min", Argument::integer(qmin)), OpArg::lit("quant_max", Argument::integer(qmax)),
                                  OpArg::lit("dtype", dt(t))};
    };
    auto with = [](std::vector<OpArg> head, const std::vector<OpArg>& tailArgs) {
        head.insert(head.end(), tailArgs.begin(), tailArgs.end());
        return head;
    };
    const std::vector<OpArg> head{OpArg::t("input", x), OpArg::lit("scale", Argument::floating(0.1)),
                                  OpArg::lit("zero_point", Argument::integer(0))};
    QVERIFY(err("quantize_per_tensor.default", with(head, tail(-128, 200, ScalarType::Int8))).contains("does not fit int8"));
    QVERIFY(err("quantize_per_tensor.default", with(head, tail(5, 1, ScalarType::Int8))).contains("quant_min 5 is above quant_max 1"));
    QVERIFY(err("quantize_per_tensor.default", with(head, tail(-128, 127, ScalarType::Float32))).contains("quantized dtype float32 is not supported"));
    const std::vector<OpArg> wrongDtype{OpArg::t("input", makeTensor<double>(ScalarType::UInt8, {2}, {1, 2})),
                                        OpArg::lit("scale", Argument::floating(0.1)), OpArg::lit("zero_point", Argument::integer(0))};
    QVERIFY(err("dequantize_per_tensor.default", with(wrongDtype, tail(-128, 127, ScalarType::Int8))).contains("but dtype says int8"));
}

namespace {

// From torch 1.13 (seeded torch.rand, rounded): x f32[1, 2, 5, 5]; the weight quantized per channel
// (int_repr) with scales [0.008, 0.005, 0.0075] and zero points [0, 2, -1]; bias.
const std::vector<float> kX = {
        -0.903999984f, 0.44600001f, 2.44300008f, -0.825999975f, 0.836000025f, 1.27400005f, 0.832000017f,
        -0.986000001f, 0.787999988f, 2.19899988f, -0.423000008f, 1.63f, -0.412f, 0.352999985f, 1.56900001f,
        0.50999999f, -1.09000003f, 1.53999996f, 1.71399999f, 1.56099999f, 1.98399997f, 1.39199996f,
        1.84599996f, 0.828000009f, 1.85800004f, -1.26199996f, 0.225999996f, 0.270000011f, -0.451000005f,
        1.01999998f, 2.00999999f, -0.850000024f, -0.524999976f, -0.147f, 2.03900003f, -1.19500005f,
        2.46000004f, -0.722000003f, 0.202000007f, 0.252999991f, -0.305000007f, 1.88900006f, 0.414000005f,
        -0.726000011f, -0.605000019f, 0.755999982f, 0.949999988f, -0.593999982f, 0.841000021f, -0.75999999f};
const std::vector<int64_t> kWeightInt8 = {
        -2, 54, -11, -36, -4, 44, -62, 7, 82, -1, 82, -113, -104, -57, 67, 75, -93, 47, -34, 60, 127, -128,
        37, 122, 19, -118, -35, -58, 127, 127, -77, -128, -61, -108, 127, 127, 68, -12, -128, 9, -52, 0, -63,
        -15, 74, 127, 109, -74, 86, 86, 53, 125, 10, -17};
// y = conv2d(dequantize(quantize(x, choose_qparams(x))), dequantize_per_channel(w), bias, padding=1),
// then out = dequantize(quantize(y, 0.05, 2)): PyTorch's values of both (the nearest rounding tie of
// y / 0.05 is 0.019 steps away, so float summation order cannot flip a quantized output).
const std::vector<float> kY = {
        -0.222047836f, 2.6960001f, -1.06873727f, 2.79677153f, -1.65187979f, 0.39449054f, -5.09048223f,
        4.21901321f, 1.80026817f, -0.109599747f, 5.365448f, -0.887512505f, -0.267354012f, 0.530642629f,
        1.19493961f, -1.68165565f, 2.99527812f, -0.79059428f, -1.16647255f, 2.03228712f, -0.899189234f,
        -1.00264621f, 1.32034898f, 0.535780609f, -0.296546251f, 0.424046934f, -0.0223014355f, -0.16505079f,
        -1.10241091f, 0.0530147851f, -0.453323424f, 1.70178783f, -1.20509458f, 1.77345443f, -1.34645736f,
        3.15701675f, -0.89390564f, -4.43199539f, 1.97685099f, 0.607300878f, 0.101108789f, -0.530244648f,
        -1.7819314f, 1.82840848f, -1.90731168f, 0.586355209f, 1.15961635f, 0.364786744f, -0.0223012567f,
        -0.316996008f, 0.251568496f, -0.101911828f, -1.40877199f, 1.69198251f, -0.546472192f, -0.420580834f,
        -4.69343662f, 2.75111055f, 0.260216773f, 0.280249745f, 0.729626596f, 3.52999306f, 3.34039044f,
        -4.39983654f, -0.171206817f, -2.95088434f, 3.8389194f, 3.15648007f, -3.63365197f, -0.696775258f,
        -0.122601941f, 0.450586081f, 0.231754243f, -0.991798401f, -0.998914003f};
const std::vector<float> kOut = {
        -0.200000003f, 2.70000005f, -1.05000007f, 2.79999995f, -1.64999998f, 0.400000006f, -5.0999999f,
        4.20000029f, 1.80000007f, -0.100000001f, 5.3499999f, -0.900000036f, -0.25f, 0.550000012f,
        1.20000005f, -1.70000005f, 3.0f, -0.800000012f, -1.14999998f, 2.04999995f, -0.900000036f, -1.0f,
        1.30000007f, 0.550000012f, -0.300000012f, 0.400000006f, 0.0f, -0.150000006f, -1.10000002f,
        0.0500000007f, -0.450000018f, 1.70000005f, -1.20000005f, 1.75f, -1.35000002f, 3.1500001f,
        -0.900000036f, -4.45000029f, 2.0f, 0.600000024f, 0.100000001f, -0.550000012f, -1.80000007f,
        1.85000002f, -1.89999998f, 0.600000024f, 1.14999998f, 0.349999994f, 0.0f, -0.300000012f, 0.25f,
        -0.100000001f, -1.39999998f, 1.70000005f, -0.550000012f, -0.400000006f, -4.70000029f, 2.75f, 0.25f,
        0.300000012f, 0.75f, 3.54999995f, 3.35000014f, -4.4000001f, -0.150000006f, -2.95000005f, 3.85000014f,
        3.1500001f, -3.6500001f, -0.699999988f, -0.100000001f, 0.450000018f, 0.25f, -1.0f, -1.0f};

TensorData int8Tensor(const std::vector<int64_t>& sizes, const std::vector<int64_t>& values) {
    std::vector<std::byte> bytes(values.size());
    for (size_t k = 0; k < values.size(); ++k) bytes[k] = std::byte(uint8_t(int8_t(values[k])));
    TensorData t;
    t.dtype = ScalarType::Int8;
    t.sizes = sizes;
    int64_t stride = 1;
    t.strides.assign(sizes.size(), 1);
    for (size_t d = sizes.size(); d-- > 0;) { t.strides[d] = stride; stride *= sizes[d]; }
    t.storage = Storage::fromBytes(std::move(bytes));
    return t;
}

TensorData tensorOf(ScalarType dtype, const std::vector<int64_t>& sizes, const std::vector<double>& values) {
    Tensor t = makeTensor(dtype, sizes, values);
    return t.toTensorData();
}

// The program a PT2E-quantized conv layer exports to (dynamic activation quantization, static
// per-channel int8 weight, quantized output).
Result<ProgramPtr> quantizedConv() {
    ProgramBuilder b;
    b.verifiers({"TRAINING"});
    const auto f32m = [](std::vector<int64_t> s) { return makeTensorMeta(ScalarType::Float32, s); };
    const auto i8m = [](std::vector<int64_t> s) { return makeTensorMeta(ScalarType::Int8, s); };
    b.parameter("p_weight", "conv.weight", int8Tensor({3, 2, 3, 3}, kWeightInt8));
    b.buffer("b_scales", "conv.weight_scales", tensorOf(ScalarType::Float64, {3}, {0.008, 0.005, 0.0075}));
    b.buffer("b_zero_points", "conv.weight_zero_points", tensorOf(ScalarType::Int64, {3}, {0, 2, -1}));
    b.parameter("p_bias", "conv.bias", makeFloatTensor({3}, {0.1f, -0.25f, 0.03f}));
    b.userInput("x", f32m({1, 2, 5, 5}));
    const std::string q = "torch.ops.quantized_decomposed.";
    auto range = [](NodeBuilder n) -> NodeBuilder {
        n.arg("quant_min", Argument::integer(-128)).arg("quant_max", Argument::integer(127)).arg("dtype", dt(ScalarType::Int8));
        return n;
    };
    b.call(q + "choose_qparams.tensor", "choose_qparams")
        .arg("input", "x").arg("quant_min", Argument::integer(-128)).arg("quant_max", Argument::integer(127))
        .arg("eps", Argument::floating(1.1920928955078125e-07)).arg("dtype", dt(ScalarType::Int8))
        .outNamed("scale", makeTensorMeta(ScalarType::Float64, std::vector<int64_t>{1}))
        .outNamed("zero_point", makeTensorMeta(ScalarType::Int64, std::vector<int64_t>{1}));
    range(b.call(q + "quantize_per_tensor.tensor", "quantize_x").arg("input", "x").arg("scale", "scale").arg("zero_point", "zero_point"))
        .out(i8m({1, 2, 5, 5}));
    range(b.call(q + "dequantize_per_tensor.tensor", "dequantize_x").arg("input", "quantize_x").arg("scale", "scale")
              .arg("zero_point", "zero_point"))
        .out(f32m({1, 2, 5, 5}));
    range(b.call(q + "dequantize_per_channel.default", "dequantize_w").arg("input", "p_weight").arg("scales", "b_scales")
              .arg("zero_points", "b_zero_points").arg("axis", Argument::integer(0)))
        .out(f32m({3, 2, 3, 3}));
    b.call("torch.ops.aten.conv2d.default", "conv2d").arg("input", "dequantize_x").arg("weight", "dequantize_w")
        .arg("bias", "p_bias").arg("stride", Argument::ints({1, 1})).arg("padding", Argument::ints({1, 1}))
        .out(f32m({1, 3, 5, 5}));
    range(b.call(q + "quantize_per_tensor.default", "quantize_y").arg("input", "conv2d").arg("scale", Argument::floating(0.05))
              .arg("zero_point", Argument::integer(2)))
        .out(i8m({1, 3, 5, 5}));
    range(b.call(q + "dequantize_per_tensor.default", "dequantize_y").arg("input", "quantize_y")
              .arg("scale", Argument::floating(0.05)).arg("zero_point", Argument::integer(2)))
        .out(f32m({1, 3, 5, 5}));
    b.userOutput("conv2d");
    b.userOutput("dequantize_y");
    return b.build();
}

} // namespace

void TstQuantOps::quantizedConvProgram() {
    auto program = quantizedConv();
    QVERIFY2(program, program ? "" : program.error().c_str());
    // The recorded metas are what the quant ops' meta functions infer, and the program verifies clean.
    const MetaCheckReport meta = checkRecordedMeta(**program);
    QVERIFY(meta.unsupported.empty());
    for (const auto& m : meta.mismatches) qWarning("%s %s: %s", m.node.c_str(), m.field.c_str(), m.message.c_str());
    QVERIFY(meta.mismatches.empty());
    for (const Diagnostic& d : verify(**program))
        QVERIFY2(d.severity != Severity::Error, formatDiagnostic(d).c_str());

    auto plan = ExecutionPlan::compile(*program);
    QVERIFY2(plan, plan ? "" : plan.error().c_str());
    Engine engine(*plan);
    std::vector<double> x(kX.begin(), kX.end());
    for (int threads : {1, 2}) {
        RunOptions options;
        options.threads = threads;
        auto run = engine.run({EValue::fromTensor(f32({1, 2, 5, 5}, x))}, options);
        QVERIFY2(run, run ? "" : run.error().c_str());
        QCOMPARE(int(run->outputs.size()), 2);
        const auto y = values(run->outputs[0].tensor), out = values(run->outputs[1].tensor);
        QCOMPARE(int(y.size()), int(kY.size()));
        double worst = 0;
        for (size_t k = 0; k < y.size(); ++k) worst = std::max(worst, std::abs(y[k] - double(kY[k])));
        QVERIFY2(worst < 1e-5, qPrintable(QString("conv output differs from PyTorch by %1").arg(worst)));
        // Quantized outputs agree exactly, as float32 values.
        for (size_t k = 0; k < out.size(); ++k) QCOMPARE(float(out[k]), kOut[k]);
    }
}

QTEST_GUILESS_MAIN(TstQuantOps)
#include "tst_quant_ops.moc"
