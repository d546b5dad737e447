// The depthwise convolution kernel (float32, one input channel per group) against a plain loop in
// double written here: strides, paddings, dilations, window sizes, channel multipliers, widths that
// do and do not fill whole vectors, the activation plan fusion folds in, one and two threads. Outputs
// narrower than 14 columns go to oneDNN when the build has it; their rows check that hand-off.
#include "core/exec/engine.h"
#include "core/ir/builder.h"
#include "seeded_floats.h"
#include "support/numeric_programs.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace irlens::core;
using namespace irlens::core::exec;

namespace {

struct DepthwiseCase {
    int64_t C = 1, multiplier = 1, H = 1, W = 1, KH = 3, KW = 3;
    int64_t stride = 1, padH = 1, padW = 1, dilation = 1;
    bool bias = true;
    QString activation; // "", "relu" or "hardtanh" (0, 6)
};

int64_t outSize(int64_t in, int64_t pad, int64_t k, int64_t stride, int64_t dilation) { return (in + 2 * pad - dilation * (k - 1) - 1) / stride + 1; }

std::vector<float> seeded(int64_t n, uint32_t seed) { return irlens::testing::seededFloats(n, seed, 2.f); }

// x -> convolution(x, w, b, groups = C) [-> activation], w and b parameters
ProgramPtr depthwiseProgram(const DepthwiseCase& c, const std::vector<float>& w, const std::vector<float>& b) {
    ProgramBuilder pb("depthwise");
    const int64_t O = c.C * c.multiplier, OH = outSize(c.H, c.padH, c.KH, c.stride, c.dilation), OW = outSize(c.W, c.padW, c.KW, c.stride, c.dilation);
    const std::string x = pb.userInput("x", makeTensorMeta(ScalarType::Float32, {1, c.C, c.H, c.W}));
    const std::string wv = pb.parameter("p_weight", "conv.weight", makeFloatTensor({O, 1, c.KH, c.KW}, w));
    const Argument bias = c.bias ? Argument::tensor(pb.parameter("p_bias", "conv.bias", makeFloatTensor({O}, b))) : Argument::none();
    const TensorMeta outMeta = makeTensorMeta(ScalarType::Float32, {1, O, OH, OW});
    pb.call("torch.ops.aten.convolution.default", "convolution")
        .arg("input", x)
        .arg("weight", wv)
        .arg("bias", bias)
        .arg("stride", Argument::ints({c.stride, c.stride}))
        .arg("padding", Argument::ints({c.padH, c.padW}))
        .arg("dilation", Argument::ints({c.dilation, c.dilation}))
        .arg("transposed", Argument::boolean(false))
        .arg("output_padding", Argument::ints({0, 0}))
        .arg("groups", Argument::integer(c.C))
        .out(outMeta);
    std::string result = "convolution";
    if (c.activation == "relu") {
        pb.call("torch.ops.aten.relu.default", "relu").arg("self", "convolution").out(outMeta);
        result = "relu";
    } else if (c.activation == "hardtanh") {
        pb.call("torch.ops.aten.hardtanh.default", "hardtanh")
            .arg("self", "convolution")
            .arg("min_val", Argument::floating(0.0))
            .arg("max_val", Argument::floating(6.0))
            .out(outMeta);
        result = "hardtanh";
    }
    pb.userOutput(result);
    return irlens::testing::builtOrDie(pb.build());
}

// The convolution by its definition, in double.
std::vector<double> referenceDepthwise(const DepthwiseCase& c, const std::vector<float>& x, const std::vector<float>& w, const std::vector<float>& b) {
    const int64_t O = c.C * c.multiplier, OH = outSize(c.H, c.padH, c.KH, c.stride, c.dilation), OW = outSize(c.W, c.padW, c.KW, c.stride, c.dilation);
    std::vector<double> out;
    for (int64_t o = 0; o < O; ++o)
        for (int64_t oh = 0; oh < OH; ++oh)
            for (int64_t ow = 0; ow < OW; ++ow) {
                double acc = c.bias ? b[static_cast<size_t>(o)] : 0.0;
                for (int64_t kh = 0; kh < c.KH; ++kh)
                    for (int64_t kw = 0; kw < c.KW; ++kw) {
                        const int64_t ih = oh * c.stride - c.padH + kh * c.dilation, iw = ow * c.stride - c.padW + kw * c.dilation;
                        if (ih < 0 || ih >= c.H || iw < 0 || iw >= c.W) continue;
                        acc += double(x[static_cast<size_t>(((o / c.multiplier) * c.H + ih) * c.W + iw)]) *
                               w[static_cast<size_t>((o * c.KH + kh) * c.KW + kw)];
                    }
                if (c.activation == "relu") acc = std::max(acc, 0.0);
                if (c.activation == "hardtanh") acc = std::clamp(acc, 0.0, 6.0);
                out.push_back(acc);
            }
    return out;
}

} // namespace

Q_DECLARE_METATYPE(DepthwiseCase)

class TstConvDepthwise : public QObject {
    Q_OBJECT
private slots:
    void againstDefinition_data() {
        QTest::addColumn<DepthwiseCase>("c");
        QTest::addColumn<int>("threads");
        auto row = [](const char* name, DepthwiseCase c, int threads = 1) { QTest::addRow("%s", name) << c << threads; };
        // mobilenet_v2's layers: 3x3, pad 1, stride 1 and 2, relu6 folded in
        row("3x3 s1 112x112 hardtanh", {8, 1, 112, 112, 3, 3, 1, 1, 1, 1, true, "hardtanh"});
        row("3x3 s2 112x112 hardtanh", {8, 1, 112, 112, 3, 3, 2, 1, 1, 1, true, "hardtanh"});
        row("3x3 s1 14x14 (less than a vector)", {16, 1, 14, 14, 3, 3, 1, 1, 1, 1, true, "hardtanh"});
        row("3x3 s2 7x7", {4, 1, 7, 7, 3, 3, 2, 1, 1, 1, true, ""});
        row("3x3 s2 56x56 two threads", {32, 1, 56, 56, 3, 3, 2, 1, 1, 1, true, "hardtanh"}, 2);
        row("3x3 s1 56x56 two threads relu", {32, 1, 56, 56, 3, 3, 1, 1, 1, 1, false, "relu"}, 2);
        // odd widths, no padding, padding wider than the window reaches, odd and even column phases
        row("3x3 s2 no padding odd width", {3, 1, 9, 37, 3, 3, 2, 0, 0, 1, false, ""});
        row("3x3 s2 pad 2", {3, 1, 20, 45, 3, 3, 2, 2, 2, 1, true, ""});
        row("5x5 s1 pad 2", {5, 1, 17, 33, 5, 5, 1, 2, 2, 1, true, ""});
        row("5x5 s2 pad 2 hardtanh", {5, 1, 34, 70, 5, 5, 2, 2, 2, 1, true, "hardtanh"});
        row("3x3 s3", {2, 1, 31, 50, 3, 3, 3, 1, 1, 1, true, ""});
        row("3x3 dilation 2 pad 2", {3, 1, 30, 40, 3, 3, 1, 2, 2, 2, true, ""});
        row("3x3 s2 dilation 2", {3, 1, 30, 41, 3, 3, 2, 2, 2, 2, true, ""});
        row("1x7 pad (0, 3)", {4, 1, 8, 64, 1, 7, 1, 0, 3, 1, true, ""});
        row("7x1 pad (3, 0)", {4, 1, 64, 17, 7, 1, 1, 3, 0, 1, false, ""});
        row("channel multiplier 3", {4, 3, 12, 19, 3, 3, 1, 1, 1, 1, true, ""});
        row("one column", {2, 1, 9, 1, 3, 3, 1, 1, 1, 1, true, ""});
        row("one channel, groups 1", {1, 2, 9, 20, 3, 3, 1, 1, 1, 1, true, "hardtanh"});
        row("window as large as the input", {2, 1, 5, 5, 5, 5, 1, 0, 0, 1, true, ""});
    }
    void againstDefinition() {
        QFETCH(DepthwiseCase, c);
        QFETCH(int, threads);
        const int64_t O = c.C * c.multiplier;
        const auto x = seeded(c.C * c.H * c.W, 1), w = seeded(O * c.KH * c.KW, 2), b = seeded(O, 3);
        auto plan = ExecutionPlan::compile(depthwiseProgram(c, w, b));
        QVERIFY2(plan.isOk(), plan.error().c_str());
        Tensor input = *Tensor::empty(ScalarType::Float32, {1, c.C, c.H, c.W});
        std::copy(x.begin(), x.end(), input.data<float>());
        Engine engine(*plan);
        RunOptions options;
        options.threads = threads;
        auto r = engine.run({EValue::fromTensor(input)}, options);
        QVERIFY2(r.isOk(), r.error().c_str());
        const Tensor& out = r->outputs[static_cast<size_t>(r->userOutputs[0])].tensor;
        const auto expected = referenceDepthwise(c, x, w, b);
        QCOMPARE(out.numel(), static_cast<int64_t>(expected.size()));
        for (size_t i = 0; i < expected.size(); ++i) {
            const double got = out.at(static_cast<int64_t>(i));
            if (std::abs(got - expected[i]) > 1e-5 * std::max(1.0, std::abs(expected[i])))
                QFAIL(qPrintable(QString("element %1: got %2, expected %3").arg(i).arg(got, 0, 'g', 9).arg(expected[i], 0, 'g', 9)));
        }
    }

    // NaN in the input reaches exactly the outputs whose window holds it, through the folded clamp.
    void nanReachesItsWindow() {
        const DepthwiseCase c{1, 1, 5, 40, 3, 3, 1, 1, 1, 1, true, "hardtanh"};
        const auto w = seeded(9, 2), b = seeded(1, 3);
        auto plan = ExecutionPlan::compile(depthwiseProgram(c, w, b));
        QVERIFY2(plan.isOk(), plan.error().c_str());
        Tensor input = *Tensor::empty(ScalarType::Float32, {1, 1, 5, 40});
        std::fill(input.data<float>(), input.data<float>() + input.numel(), 1.f);
        input.data<float>()[2 * 40 + 20] = std::numeric_limits<float>::quiet_NaN();
        Engine engine(*plan);
        auto r = engine.run({EValue::fromTensor(input)});
        QVERIFY2(r.isOk(), r.error().c_str());
        const Tensor& out = r->outputs[static_cast<size_t>(r->userOutputs[0])].tensor;
        for (int64_t h = 0; h < 5; ++h)
            for (int64_t w2 = 0; w2 < 40; ++w2) {
                const bool inWindow = std::abs(h - 2) <= 1 && std::abs(w2 - 20) <= 1;
                QVERIFY2(std::isnan(out.at(h * 40 + w2)) == inWindow, qPrintable(QString("row %1 column %2").arg(h).arg(w2)));
            }
    }
};

QTEST_GUILESS_MAIN(TstConvDepthwise)
#include "tst_conv_depthwise.moc"
