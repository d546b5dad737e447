// Every zoo program and every generated program the zoo has no twin of (training-IR variants included) runs
// and matches PyTorch's reference outputs in model.expected/ (extra cases and buffer mutations included); the 2-thread engine
// matches the serial one; the real archives with weights run.
#include "core/exec/engine.h"
#include "core/exec/inputs.h"
#include "core/io/pt2_reader.h"
#include "support/shared_fixtures.h"
#include "support/zoo_files.h"

#include <QTest>

using namespace irlens::core;
using namespace irlens::core::exec;
using irlens::testing::fixture;

namespace {

struct Loaded {
    std::shared_ptr<ExecutionPlan> plan;
    ExpectedSet expected;
};

// `folder` is "zoo/<name>" or "generated/<name>" (under fixture()).
std::optional<Loaded> load(const std::string& folder, const std::string& file, std::string& error) {
    auto p = loadPt2(fixture(folder + "/" + file).string());
    if (!p) { error = p.error(); return std::nullopt; }
    auto plan = ExecutionPlan::compile(*p);
    if (!plan) { error = plan.error(); return std::nullopt; }
    auto e = loadExpected(fixture(folder + "/model.expected").string());
    if (!e) { error = e.error(); return std::nullopt; }
    return Loaded{*plan, std::move(*e)};
}

// A reference that a wrong answer would still match proves nothing (mobilenet_v2's first reference
// output peaked at 2.8e-9, under the absolute tolerance): the output scaled by 1.01 must fail.
std::string checkDiscriminates(const Tensor& actual, const Tensor& expected, const std::string& what) {
    auto wrong = Tensor::empty(ScalarType::Float64, actual.sizes());
    auto ref = Tensor::empty(ScalarType::Float64, expected.sizes());
    if (!wrong || !ref) return what + ": cannot allocate the check";
    for (int64_t i = 0; i < actual.numel(); ++i) wrong->data<double>()[i] = actual.at(i) * 1.01;
    for (int64_t i = 0; i < expected.numel(); ++i) ref->data<double>()[i] = expected.at(i);
    if (compareWithReference(*wrong, *ref).ok) return what + ": a 1% error would pass the comparison (the reference values are too small); ";
    return {};
}

std::string checkCase(const RunResult& r, const ExpectedCase& c) {
    std::string problems;
    if (r.userOutputs.size() != c.outputs.size())
        return "program has " + std::to_string(r.userOutputs.size()) + " user outputs, reference " + std::to_string(c.outputs.size());
    for (size_t k = 0; k < c.outputs.size(); ++k) {
        const EValue& v = r.outputs[static_cast<size_t>(r.userOutputs[k])];
        if (!v.isTensor()) { problems += "output " + std::to_string(k) + " is not a tensor; "; continue; }
        Comparison cmp = compareWithReference(v.tensor, c.outputs[k].tensor);
        if (!cmp.ok) problems += c.name + " output " + std::to_string(k) + ": " + cmp.message + "; ";
        else problems += checkDiscriminates(v.tensor, c.outputs[k].tensor, c.name + " output " + std::to_string(k));
    }
    for (const auto& b : c.buffers) {
        bool found = false;
        for (size_t k = 0; k < r.specs.size(); ++k)
            if (r.specs[k].kind == OutputKind::BufferMutation && r.specs[k].target == b.name) {
                found = true;
                Comparison cmp = compareWithReference(r.outputs[k].tensor, b.tensor);
                if (!cmp.ok) problems += "buffer " + b.name + ": " + cmp.message + "; ";
            }
        if (!found) problems += "no mutation of buffer " + b.name + "; ";
    }
    return problems;
}

} // namespace

class TstExecFixtures : public QObject {
    Q_OBJECT
private slots:
    void generated_data() {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QString>("file");
        irlens::testing::zooDir();
        for (const auto& n : irlens::testing::zooNames()) QTest::addRow("zoo/%s", n.c_str()) << QString::fromStdString("zoo/" + n) << "model.pt2";
        // the generated programs the zoo has no twin of (support/zoo_files.h)
        for (const char* n : irlens::testing::kAllGeneratedFixtures)
            if (!irlens::testing::hasZooTwin(std::string(n) + "/model.pt2"))
                QTest::addRow("%s", n) << QString("generated/%1").arg(n) << "model.pt2";
        for (const char* n : {"mobilenet_v2", "transformer_layer", "tiny_gpt"})
            if (!irlens::testing::hasZooTwin(std::string(n) + "/model.training.pt2"))
                QTest::addRow("%s/training", n) << QString("generated/%1").arg(n) << "model.training.pt2";
    }
    void generated() {
        QFETCH(QString, folder);
        QFETCH(QString, file);
        if (folder.startsWith("generated/")) IRLENS_REQUIRE_SHARED();
        std::string error;
        auto l = load(folder.toStdString(), file.toStdString(), error);
        QVERIFY2(l.has_value(), error.c_str());
        Engine engine(l->plan);
        RunOptions ro;
        ro.threads = 2;
        auto r = engine.run(l->expected.main.inputs, ro);
        QVERIFY2(r.isOk(), r.error().c_str());
        std::string problems = checkCase(*r, l->expected.main);
        QVERIFY2(problems.empty(), problems.c_str());
        for (const auto& c : l->expected.extra) {
            auto rc = engine.run(c.inputs, ro);
            QVERIFY2(rc.isOk(), (c.name + ": " + rc.error()).c_str());
            problems = checkCase(*rc, c);
            QVERIFY2(problems.empty(), problems.c_str());
        }
        // the parallel run matches a serial run of the same plan (GEMM reduction order may differ
        // with the thread count, so within the reference tolerance rather than bit for bit)
        RunOptions serial;
        serial.threads = 1;
        auto s = engine.run(l->expected.main.inputs, serial);
        QVERIFY2(s.isOk(), s.error().c_str());
        for (int k : r->userOutputs) {
            Comparison cmp = compareWithReference(r->outputs[static_cast<size_t>(k)].tensor, s->outputs[static_cast<size_t>(k)].tensor);
            QVERIFY2(cmp.ok, cmp.message.c_str());
        }
    }

    void sampleInputsMatchSidecar() {
        irlens::testing::zooDir();
        std::string error;
        auto l = load("zoo/mlp", "model.pt2", error);
        QVERIFY2(l.has_value(), error.c_str());
        auto s = sampleInputs(*l->plan);
        QVERIFY2(s.isOk(), s.error().c_str());
        QCOMPARE(s->size(), l->expected.main.inputs.size());
        Comparison cmp = compareWithReference((*s)[0].tensor, l->expected.main.inputs[0].tensor, 0, 0);
        QVERIFY2(cmp.ok, cmp.message.c_str());
    }

    void dynamicBatchWithinRange() {
        irlens::testing::zooDir();
        std::string error;
        auto l = load("zoo/dynamic_mlp", "model.pt2", error);
        QVERIFY2(l.has_value(), error.c_str());
        auto g = generateInputs(*l->plan, 1, {{"s0", 5}});
        QVERIFY2(g.isOk(), g.error().c_str());
        QCOMPARE((*g)[0].tensor.size(0), int64_t(5));
        Engine e(l->plan);
        auto r = e.run(*g);
        QVERIFY2(r.isOk(), r.error().c_str());
        QCOMPARE(r->outputs[0].tensor.size(0), int64_t(10)); // view(2 * s0, 4)
        auto bad = generateInputs(*l->plan, 1, {{"s0", 17}});
        QVERIFY(!bad.isOk());
        QCOMPARE(QString::fromStdString(bad.error()), QString("symbol s0 = 17 is outside its range [1, 16]"));
    }

    void realArchives_data() {
        QTest::addColumn<QString>("path");
        QTest::addRow("executorch linear") << "real/executorch-linear-pt2archive/linear.pt2";
        QTest::addRow("hades MLP") << "real/hades-pid-dann-legacy-schema2/exported_program.pt2";
    }
    void realArchives() {
        IRLENS_REQUIRE_SHARED();
        QFETCH(QString, path);
        auto p = loadPt2(fixture(path.toStdString()).string());
        QVERIFY2(p.isOk(), p.error().c_str());
        auto plan = ExecutionPlan::compile(*p);
        QVERIFY2(plan.isOk(), plan.error().c_str());
        auto in = (*p)->hasSampleInputs ? sampleInputs(**plan) : generateInputs(**plan, 7);
        QVERIFY2(in.isOk(), in.error().c_str());
        Engine e(*plan);
        auto r = e.run(*in);
        QVERIFY2(r.isOk(), r.error().c_str());
        QVERIFY(!r->userOutputs.empty());
        for (int k : r->userOutputs) {
            const Tensor& t = r->outputs[static_cast<size_t>(k)].tensor;
            QVERIFY(t.defined());
            // the output is finite and matches its recorded meta shape
            for (int64_t i = 0; i < t.numel(); ++i) QVERIFY(std::isfinite(t.at(i)));
            const auto* meta = (*p)->graph.tensorMeta(r->specs[static_cast<size_t>(k)].name);
            if (meta && meta->staticSizes()) QCOMPARE(t.sizes(), *meta->staticSizes());
        }
    }
};

QTEST_GUILESS_MAIN(TstExecFixtures)
#include "tst_exec_fixtures.moc"
