// Matrix products with a program weight (mm, addmm, linear; the weight as it lies or transposed by
// t), which run on a oneDNN matmul with the weight reordered once and kept across runs, against the
// product computed here in double: bias rows, the relu plan fusion folds in (also through a view of
// the product), wide products split by columns and tall ones by rows at two threads, widths that are
// not a multiple of 16, a second run on the kept weights and a run with another row count. Products from numbers PyTorch computed are
// tst_exec_fixtures' transformer_layer and tiny_gpt.
#include "core/exec/engine.h"
#include "core/ir/builder.h"
#include "seeded_floats.h"
#include "support/numeric_programs.h"

#include <QTest>

#include <algorithm>
#include <cmath>

using namespace irlens::core;
using namespace irlens::core::exec;

namespace {

struct ProductCase {
    QString op;            // "mm", "addmm", "linear"
    int64_t M = 1, K = 1, N = 1;
    bool transposed = false; // the weight stored [N, K] and read through t (addmm) or by linear
    bool bias = false;
    bool relu = false;
    bool viewed = false;     // a view of the product between it and the relu
};

std::vector<float> seeded(int64_t n, uint32_t seed) { return irlens::testing::seededFloats(n, seed, 1.f); }

// x [M, K] -> product with the weight parameter (and bias) [-> relu]; rows symbolic (s0) so one
// plan runs several row counts
ProgramPtr productProgram(const ProductCase& c, const std::vector<float>& w, const std::vector<float>& b) {
    ProgramBuilder pb("weight_product");
    const SymInt rows = SymInt::expression("s0", c.M);
    pb.rangeConstraint("s0", 1, 4096);
    const std::string x = pb.userInput("x", makeTensorMeta(ScalarType::Float32, std::vector<SymInt>{rows, SymInt::literal(c.K)}));
    const Shape wShape = c.transposed ? Shape{c.N, c.K} : Shape{c.K, c.N};
    const std::string wv = pb.parameter("p_weight", "fc.weight", makeFloatTensor(wShape, w));
    const std::string bv = c.bias ? pb.parameter("p_bias", "fc.bias", makeFloatTensor({c.N}, b)) : "";
    const TensorMeta outMeta = makeTensorMeta(ScalarType::Float32, std::vector<SymInt>{rows, SymInt::literal(c.N)});
    std::string mat2 = wv;
    if (c.transposed && c.op != "linear") {
        pb.call("torch.ops.aten.t.default", "t").arg("self", wv).out(makeTensorMeta(ScalarType::Float32, std::vector<int64_t>{c.K, c.N}));
        mat2 = "t";
    }
    if (c.op == "mm") pb.call("torch.ops.aten.mm.default", "product").arg("self", x).arg("mat2", mat2).out(outMeta);
    else if (c.op == "addmm") pb.call("torch.ops.aten.addmm.default", "product").arg("self", bv).arg("mat1", x).arg("mat2", mat2).out(outMeta);
    else pb.call("torch.ops.aten.linear.default", "product").arg("input", x).arg("weight", wv).arg("bias", c.bias ? Argument::tensor(bv) : Argument::none()).out(outMeta);
    std::string result = "product";
    if (c.viewed) {
        pb.call("torch.ops.aten.view.default", "view").arg("self", "product").arg("size", Argument::ints({-1, c.N})).out(outMeta);
        result = "view";
    }
    if (c.relu) {
        pb.call("torch.ops.aten.relu.default", "relu").arg("self", result).out(outMeta);
        result = "relu";
    }
    pb.userOutput(result);
    return irlens::testing::builtOrDie(pb.build());
}

// The product by its definition, in double.
std::vector<double> referenceProduct(const ProductCase& c, int64_t M, const std::vector<float>& x, const std::vector<float>& w, const std::vector<float>& b) {
    std::vector<double> out;
    for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < c.N; ++j) {
            double acc = c.bias ? b[static_cast<size_t>(j)] : 0.0;
            for (int64_t k = 0; k < c.K; ++k) {
                const float wv = c.transposed ? w[static_cast<size_t>(j * c.K + k)] : w[static_cast<size_t>(k * c.N + j)];
                acc += double(x[static_cast<size_t>(i * c.K + k)]) * wv;
            }
            out.push_back(c.relu ? std::max(acc, 0.0) : acc);
        }
    return out;
}

QString compareRun(Engine& engine, const ProductCase& c, int64_t M, int threads, const std::vector<float>& w, const std::vector<float>& b, uint32_t seed) {
    const auto x = seeded(M * c.K, seed);
    Tensor input = *Tensor::empty(ScalarType::Float32, {M, c.K});
    std::copy(x.begin(), x.end(), input.data<float>());
    RunOptions options;
    options.threads = threads;
    auto r = engine.run({EValue::fromTensor(input)}, options);
    if (!r.isOk()) return QString::fromStdString(r.error());
    const Tensor& out = r->outputs[static_cast<size_t>(r->userOutputs[0])].tensor;
    const auto expected = referenceProduct(c, M, x, w, b);
    if (out.numel() != static_cast<int64_t>(expected.size())) return QString("%1 elements, expected %2").arg(out.numel()).arg(expected.size());
    // float32 accumulation over K terms of size about 1
    const double tolerance = 1e-5 * std::sqrt(static_cast<double>(c.K)) * 4;
    for (size_t i = 0; i < expected.size(); ++i) {
        const double got = out.at(static_cast<int64_t>(i));
        if (!(std::abs(got - expected[i]) <= tolerance * std::max(1.0, std::abs(expected[i]))))
            return QString("%1 rows, element %2: got %3, expected %4").arg(M).arg(i).arg(got, 0, 'g', 9).arg(expected[i], 0, 'g', 9);
    }
    return {};
}

} // namespace

Q_DECLARE_METATYPE(ProductCase)

class TstWeightProduct : public QObject {
    Q_OBJECT
private slots:
    void againstDefinition_data() {
        QTest::addColumn<ProductCase>("c");
        QTest::addColumn<int>("threads");
        auto row = [](const char* name, ProductCase c, int threads) { QTest::addRow("%s", name) << c << threads; };
        // transformer_layer's projections: addmm(bias, x, t(w)), [N, K] weights
        row("addmm t(w) 128x512x1536", {"addmm", 128, 512, 1536, true, true, false}, 1);
        row("addmm t(w) 128x512x1536 two threads", {"addmm", 128, 512, 1536, true, true, false}, 2);
        row("addmm t(w) relu two threads", {"addmm", 96, 256, 520, true, true, true}, 2);
        row("addmm t(w) relu", {"addmm", 96, 256, 520, true, true, true}, 1);
        row("mm w as it lies, odd sizes", {"mm", 67, 129, 301, false, false, false}, 1);
        row("mm tall, split by rows", {"mm", 900, 64, 40, false, false, false}, 2);
        row("mm tall relu, split by rows", {"mm", 900, 64, 40, false, false, true}, 2);
        row("linear with bias", {"linear", 33, 300, 250, true, true, false}, 2);
        row("linear no bias relu", {"linear", 40, 128, 200, true, false, true}, 1);
        row("linear one row", {"linear", 1, 512, 1000, true, true, false}, 2);
        row("addmm t(w), view, relu", {"addmm", 128, 512, 2048, true, true, true, true}, 1);
        row("addmm t(w), view, relu two threads", {"addmm", 128, 512, 2048, true, true, true, true}, 2);
    }
    void againstDefinition() {
        QFETCH(ProductCase, c);
        QFETCH(int, threads);
        const auto w = seeded(c.K * c.N, 2), b = seeded(c.N, 3);
        auto plan = ExecutionPlan::compile(productProgram(c, w, b));
        QVERIFY2(plan.isOk(), plan.error().c_str());
        QCOMPARE((*plan)->fusedNodes(), c.relu ? 1 : 0); // the relu is the product's post-op
        Engine engine(*plan);
        // the first run prepares the weights, the second reuses them on other inputs, the third has
        // other rows (the product is prepared again), the fourth goes back
        for (auto [M, seed] : {std::pair<int64_t, uint32_t>{c.M, 1}, {c.M, 4}, {c.M + 37, 5}, {c.M, 6}}) {
            const QString problem = compareRun(engine, c, M, threads, w, b, seed);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        }
        // the other thread count on the same plan (other parts)
        const QString problem = compareRun(engine, c, c.M, 3 - threads, w, b, 7);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    // NaN in one input row reaches that output row only (through the folded relu too: max(NaN, 0)
    // is NaN in PyTorch).
    void nanStaysInItsRow() {
        const ProductCase c{"addmm", 64, 128, 96, true, true, true};
        const auto w = seeded(c.K * c.N, 2), b = seeded(c.N, 3);
        auto plan = ExecutionPlan::compile(productProgram(c, w, b));
        QVERIFY2(plan.isOk(), plan.error().c_str());
        Tensor input = *Tensor::empty(ScalarType::Float32, {c.M, c.K});
        const auto x = seeded(c.M * c.K, 1);
        std::copy(x.begin(), x.end(), input.data<float>());
        input.data<float>()[5 * c.K + 17] = std::numeric_limits<float>::quiet_NaN();
        Engine engine(*plan);
        auto r = engine.run({EValue::fromTensor(input)});
        QVERIFY2(r.isOk(), r.error().c_str());
        const Tensor& out = r->outputs[static_cast<size_t>(r->userOutputs[0])].tensor;
        for (int64_t i = 0; i < c.M; ++i)
            for (int64_t j = 0; j < c.N; ++j)
                QVERIFY2(std::isnan(out.at(i * c.N + j)) == (i == 5), qPrintable(QString("row %1 column %2").arg(i).arg(j)));
    }
};

QTEST_GUILESS_MAIN(TstWeightProduct)
#include "tst_weight_product.moc"
