// The stepping interpreter on the shared programs: every node's value, taken one step at a time,
// equals the value the parallel engine computes for it when it is made a graph output; values are
// freed exactly after their last user in graph order; the final outputs are PyTorch's.
#include "core/exec/engine.h"
#include "core/exec/inputs.h"
#include "core/exec/stepper.h"
#include "core/io/pt2_reader.h"
#include "support/shared_fixtures.h"
#include "support/zoo_files.h"

#include <QTest>

#include <map>
#include <set>

using namespace irlens::core;
using namespace irlens::core::exec;
using irlens::testing::fixture;

namespace {

// `program` with `value` appended as one more user output.
ProgramPtr withOutput(const Program& program, const std::string& value) {
    auto p = std::make_shared<Program>(program);
    p->graph.outputs.push_back(Argument::tensor(value));
    p->signature.outputSpecs.push_back({OutputKind::UserOutput, Argument::tensor(value), ""});
    return p;
}

// The index of the last top-level node that reads each value, in graph order.
std::map<std::string, int> lastReaders(const ExecutionPlan& plan) {
    std::map<std::string, int> last;
    const PlanGraph& g = plan.graph();
    for (const auto& pn : g.nodes)
        for (int s : pn.inputSlots) last[g.slotNames[static_cast<size_t>(s)]] = pn.index;
    return last;
}

// The node producing each value (graph inputs have none).
std::map<std::string, int> producers(const ExecutionPlan& plan) {
    std::map<std::string, int> made;
    const PlanGraph& g = plan.graph();
    for (const auto& pn : g.nodes)
        for (const auto& outSlots : pn.outputSlots)
            for (int s : outSlots)
                if (s >= 0) made[g.slotNames[static_cast<size_t>(s)]] = pn.index;
    return made;
}

// Whether node `pn`'s output `value` is read by a later node or is a graph output (the plan computes no other).
bool outputNeeded(const PlanGraph& g, const PlanNode& pn, const std::string& value) {
    for (size_t k = 0; k < pn.outputSlots.size(); ++k)
        for (int s : pn.outputSlots[k])
            if (s >= 0 && g.slotNames[static_cast<size_t>(s)] == value) return k < pn.outputNeeded.size() && pn.outputNeeded[k];
    return false;
}

// A zoo program's program, its reference, and a stepper on the reference's inputs.
struct Fixture {
    ProgramPtr program;
    ExpectedSet expected;
    std::unique_ptr<Stepper> stepper;
    bool open(const std::string& name) {
        const std::string dir = fixture(irlens::testing::programFolder(name)).string();
        auto p = loadPt2(dir + "/model.pt2");
        auto e = loadExpected(dir + "/model.expected");
        auto refuse = [&name](const std::string& why) {
            qWarning("%s: %s", name.c_str(), why.c_str());
            return false;
        };
        if (!p.isOk() || !e.isOk()) return refuse(p.isOk() ? e.error() : p.error());
        program = *p;
        expected = *e;
        auto s = Stepper::create(program, expected.main.inputs);
        if (!s.isOk()) return refuse(s.error());
        stepper = std::move(*s);
        return true;
    }
};

} // namespace

class TstExecStepper : public QObject {
    Q_OBJECT
private slots:
    void againstEngine_data() {
        QTest::addColumn<QString>("name");
        for (const char* z : {"zoo/mlp", "zoo/cond_branch", "zoo/buffer_mutation", "zoo/dtype_mix", "zoo/dynamic_mlp", "zoo/gpt_block",
                              "zoo/conv_net", "zoo/depthwise_net", "zoo/decoder_stack"})
            QTest::addRow("%s", z) << z;
    }
    // Step every node; each tensor a node produced equals the engine's value for it (2 threads,
    // fused plan) when made an output, and the last step's outputs are the reference's.
    void againstEngine() {
        QFETCH(QString, name);
        IRLENS_REQUIRE_FIXTURE(name);
        Fixture f;
        QVERIFY(f.open(name.toStdString()));
        Stepper& st = *f.stepper;
        const auto& program = f.program;
        const auto& expected = f.expected;
        QCOMPARE(st.nextNode(), 0);
        int compared = 0;
        while (!st.finished()) {
            const int node = st.nextNode();
            Status s = st.step();
            QVERIFY2(s, s.message().c_str());
            QVERIFY(st.executed(node));
            QVERIFY(st.nodeNs(node) >= 0);
            const auto& made = st.plan().graph().nodes[static_cast<size_t>(node)];
            for (const std::string& out : st.outputsOf(node)) {
                // an output nothing reads is not computed (max_pool2d_with_indices' indices): nothing to compare
                if (!outputNeeded(st.plan().graph(), made, out)) continue;
                const EValue* v = st.value(out);
                QVERIFY2(v, out.c_str());
                if (!v->isTensor()) continue;
                auto full = compileAndRun(withOutput(*program, out), expected.main.inputs, 2);
                QVERIFY2(full.isOk(), full.error().c_str());
                const Tensor& ref = full->outputs.back().tensor;
                Comparison c = compareWithReference(v->tensor, ref);
                QVERIFY2(c.ok, (out + ": " + c.message).c_str());
                ++compared;
            }
        }
        QVERIFY(compared > 0);
        QCOMPARE(st.nextNode(), -1);
        QVERIFY(!st.step()); // nothing left
        auto result = st.result();
        QVERIFY2(result.isOk(), result.error().c_str());
        const auto& outs = expected.main.outputs;
        QVERIFY(!outs.empty());
        for (size_t k = 0; k < outs.size() && k < result->userOutputs.size(); ++k) {
            Comparison c = compareWithReference(result->outputs[static_cast<size_t>(result->userOutputs[k])].tensor, outs[k].tensor);
            QVERIFY2(c.ok, c.message.c_str());
        }
        qInfo("%s: %d node values compared with the engine", qPrintable(name), compared);
    }

    // A value leaves the environment right after its last reader, never earlier; graph outputs and
    // values read later stay; a freed value is still inspectable.
    void freedAfterLastUse() {
        Fixture f;
        QVERIFY(f.open("zoo/gpt_block"));
        Stepper& st = *f.stepper;
        const auto& program = f.program;
        const auto last = lastReaders(st.plan());
        const auto made = producers(st.plan());
        std::set<std::string> outputs;
        for (const auto& a : program->graph.outputs) if (a.kind == ArgKind::Tensor) outputs.insert(a.s);
        const int middle = st.nodeCount() / 2;
        Status s = st.runTo(middle);
        QVERIFY2(s, s.message().c_str());
        QCOMPARE(st.nextNode(), middle + 1);
        QVERIFY(st.runTo(middle)); // already there: nothing to do
        QCOMPARE(st.nextNode(), middle + 1);
        int freed = 0;
        for (const auto& [value, reader] : last) {
            auto producer = made.find(value);
            const bool produced = producer == made.end() || producer->second <= middle;
            const bool shouldBeFreed = reader <= middle && !outputs.count(value);
            QVERIFY2(st.isLive(value) == (produced && !shouldBeFreed), value.c_str());
            QVERIFY2((st.value(value) != nullptr) == produced, value.c_str());
            if (!shouldBeFreed) continue;
            QCOMPARE(st.freedAfter(value), reader);
            QVERIFY2(st.value(value), value.c_str());
            ++freed;
        }
        QVERIFY(freed > 10);
        QVERIFY(!st.runTo(st.nodeCount())); // out of range, named
        QVERIFY(st.runToEnd());
        QVERIFY(st.finished());
    }

    // Inputs that do not match the placeholders are refused up front, naming the input.
    void badInputNamed() {
        auto program = loadPt2(fixture(irlens::testing::programFolder("zoo/mlp") + "/model.pt2").string());
        QVERIFY2(program.isOk(), program.error().c_str());
        // wrong input shape: refused when binding, naming the input
        auto bad = Stepper::create(*program, std::vector<EValue>{EValue::fromTensor(Tensor::scalar(ScalarType::Float32, 1.0))});
        QVERIFY(!bad.isOk());
        QVERIFY2(bad.error().find("user input") != std::string::npos, bad.error().c_str());
    }
};

QTEST_GUILESS_MAIN(TstExecStepper)
#include "tst_exec_stepper.moc"
