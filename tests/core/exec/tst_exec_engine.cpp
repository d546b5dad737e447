// The engine on hand-built graphs: scheduling of independent branches, last-use frees keeping peak
// memory bounded, progress and cancel, the profiling observer and its Chrome trace, cond subgraphs,
// stateful buffer mutation; the Shape container every tensor's sizes and strides live in.
#include "core/exec/profile.h"
#include "op_runner.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <random>

using namespace irlens::testing;

namespace {

// Program builder for small graphs: each node is (name, target, [(argName, value name or literal)]).
struct MiniGraph {
    std::shared_ptr<Program> p = std::make_shared<Program>();
    void input(const std::string& name, std::optional<std::string> buffer = std::nullopt) {
        p->graph.inputs.push_back(Argument::tensor(name));
        InputSpec s;
        s.arg = Argument::tensor(name);
        if (buffer) {
            s.kind = InputKind::Buffer;
            s.target = *buffer;
        }
        p->signature.inputSpecs.push_back(s);
    }
    Node& node(const std::string& name, const std::string& target, std::vector<NamedArgument> args) {
        Node n;
        n.name = name;
        n.target = Target::parse(target);
        n.inputs = std::move(args);
        n.outputs.push_back(Argument::tensor(name));
        p->graph.nodes.push_back(n);
        return p->graph.nodes.back();
    }
    void output(const std::string& name, OutputKind kind = OutputKind::UserOutput, const std::string& target = "") {
        p->graph.outputs.push_back(Argument::tensor(name));
        p->signature.outputSpecs.push_back({kind, Argument::tensor(name), target});
    }
};

NamedArgument ta(const std::string& n, const std::string& v) { return {n, Argument::tensor(v), ArgumentKind::Positional}; }
NamedArgument la(const std::string& n, Argument a) { return {n, std::move(a), ArgumentKind::Positional}; }

// x -> relu, neg (independent) -> add -> 8 more adds (a chain)
MiniGraph diamondAndChain() {
    MiniGraph g;
    g.input("x");
    g.node("a", "torch.ops.aten.relu.default", {ta("self", "x")});
    g.node("b", "torch.ops.aten.neg.default", {ta("self", "x")});
    g.node("c", "torch.ops.aten.add.Tensor", {ta("self", "a"), ta("other", "b")});
    std::string prev = "c";
    for (int k = 0; k < 8; ++k) {
        std::string n = "s" + std::to_string(k);
        g.node(n, "torch.ops.aten.add.Tensor", {ta("self", prev), la("other", Argument::integer(1))});
        prev = n;
    }
    g.output(prev);
    return g;
}

class CountingObserver : public ExecObserver {
public:
    void onNode(const NodeTiming& t) override {
        std::lock_guard lock(m);
        seen.push_back(t);
    }
    std::mutex m;
    std::vector<NodeTiming> seen;
};

} // namespace

class TstExecEngine : public QObject {
    Q_OBJECT
private slots:
    // Shape keeps five values in place and grows onto the heap beyond: every operation the kernels
    // use, in random sequences across that boundary, must leave it equal to a std::vector given the same.
    void shapeMatchesVector() {
        std::mt19937 rng(7);
        auto pick = [&rng](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
        for (int trial = 0; trial < 400; ++trial) {
            Shape s;
            std::vector<int64_t> v;
            for (int step = 0; step < 40; ++step) {
                const int64_t x = pick(1000) - 500;
                const size_t at = v.empty() ? 0 : static_cast<size_t>(pick(static_cast<int>(v.size()) + 1));
                switch (pick(11)) {
                case 0: case 1: s.push_back(x); v.push_back(x); break;
                case 2: if (!v.empty()) { s.pop_back(); v.pop_back(); } break;
                case 3: s.insert(s.begin() + at, x); v.insert(v.begin() + static_cast<ptrdiff_t>(at), x); break;
                case 4: if (at < v.size()) { s.erase(s.begin() + at); v.erase(v.begin() + static_cast<ptrdiff_t>(at)); } break;
                case 5: { const size_t n = static_cast<size_t>(pick(9)); s.resize(n, x); v.resize(n, x); break; }
                case 6: { // a range of the shape itself, inserted into it (the copy must be taken first)
                    const size_t b = static_cast<size_t>(pick(static_cast<int>(v.size()) + 1));
                    const auto sv = v;
                    s.insert(s.begin() + at, s.begin(), s.begin() + b);
                    v.insert(v.begin() + static_cast<ptrdiff_t>(at), sv.begin(), sv.begin() + static_cast<ptrdiff_t>(b));
                    break;
                }
                case 7: { Shape moved(std::move(s)); QVERIFY(s.empty()); s = moved; break; } // NOLINT: reuse after move is defined here
                case 8: { Shape other{x, x + 1}; std::swap(s, other); std::swap(s, other); break; } // moves between in place and heap
                case 9: { Shape heap(7, x); const Shape copy = s; heap = copy; s = heap; break; } // into a shape that had grown
                default: { const std::vector<int64_t> back = s; s = back; break; } // through the vector conversions
                }
                QCOMPARE(s.size(), v.size());
                QVERIFY(std::equal(s.begin(), s.end(), v.begin(), v.end()));
                QVERIFY(s == v);
                QCOMPARE(static_cast<std::vector<int64_t>>(s), v);
            }
        }
    }
    // A tensor of more dimensions than Shape keeps in place views and copies like any other.
    void sixDimensionalTensor() {
        Tensor x = *Tensor::empty(ScalarType::Float32, {2, 1, 3, 1, 2, 2});
        QCOMPARE(x.strides(), (std::vector<int64_t>{12, 12, 4, 4, 2, 1}));
        for (int64_t i = 0; i < x.numel(); ++i) x.data<float>()[i] = static_cast<float>(i);
        // move dimension 0 last: element [i0, 0, i2, 0, i4, i5] lands at [0, i2, 0, i4, i5, i0]
        Tensor t = x.asStrided({1, 3, 1, 2, 2, 2}, {12, 4, 4, 2, 1, 12}, 0);
        Tensor copy = t;
        QCOMPARE(copy.sizes(), t.sizes());
        QVERIFY(!copy.isContiguous());
        QCOMPARE(copy.at(1), 12.0); // [0,0,0,0,0,1] = x[1,0,0,0,0,0]
        QCOMPARE(copy.at(2), 1.0);  // [0,0,0,0,1,0] = x[0,0,0,0,0,1]
        QCOMPARE(copy.shapeString(), std::string("f32[1, 3, 1, 2, 2, 2]"));
    }
    void diamond_data() {
        QTest::addColumn<int>("threads");
        QTest::addRow("serial") << 1;
        QTest::addRow("2 threads") << 2;
        QTest::addRow("4 threads") << 4;
    }
    void diamond() {
        QFETCH(int, threads);
        auto g = diamondAndChain();
        auto plan = ExecutionPlan::compile(g.p);
        QVERIFY2(plan.isOk(), plan.error().c_str());
        // a and b depend only on the input: both are roots; c waits for both
        QCOMPARE((*plan)->graph().roots, (std::vector<int>{0, 1}));
        QCOMPARE((*plan)->graph().nodes[2].predecessorCount, 2);
        Engine e(*plan);
        const int64_t n = 1 << 18; // 1 MiB per float tensor
        Tensor x = *Tensor::empty(ScalarType::Float32, {n});
        for (int64_t i = 0; i < n; ++i) x.data<float>()[i] = static_cast<float>(i % 7) - 3.0f;
        std::atomic<int> progressCalls{0}, lastDone{0};
        RunOptions ro;
        ro.threads = threads;
        std::atomic<int> totalSeen{0};
        ro.progress = [&](int done, int total) { ++progressCalls; lastDone = std::max(lastDone.load(), done); totalSeen = total; };
        CountingObserver obs;
        ro.observer = &obs;
        auto r = e.run({EValue::fromTensor(x)}, ro);
        QVERIFY2(r.isOk(), r.error().c_str());
        const Tensor& out = r->outputs[0].tensor;
        // relu(x) + (-x) + 8 = 8 - min(x, 0)... for x >= 0: x - x + 8 = 8; for x < 0: 0 - x + 8
        for (int64_t i = 0; i < n; i += 997) {
            float xv = static_cast<float>(i % 7) - 3.0f;
            QCOMPARE(out.data<float>()[i], (xv > 0 ? 0.0f : -xv) + 8.0f);
        }
        QCOMPARE(progressCalls.load(), 11);
        QCOMPARE(lastDone.load(), 11);
        QCOMPARE(totalSeen.load(), 11);
        QCOMPARE(obs.seen.size(), size_t(11));
        for (const auto& t : obs.seen) {
            QVERIFY(t.endNs >= t.startNs);
            QCOMPARE(t.bytes, n * 4); // every node allocates exactly one output
            QVERIFY(t.thread >= 0 && t.thread < std::max(threads, 1));
        }
        // last-use frees: 11 nodes allocate 11 MiB in total, but never more than a few are alive at once
        QVERIFY2(r->peakBytes <= 4 * n * 4, qPrintable(QString("peak %1 bytes").arg(r->peakBytes)));
        QVERIFY(r->peakBytes >= 2 * n * 4);
    }

    // A graph with a few microseconds of work in all runs on the calling thread when two threads are
    // asked for: a second worker would cost more than it saves (the engine's kSerialRunWork). Without
    // recorded sizes the work is unknown, and the run is not made serial on a guess.
    void smallGraphStaysOnCallingThread() {
        auto g = diamondAndChain();
        auto unknown = ExecutionPlan::compile(g.p);
        QVERIFY(unknown.isOk());
        QVERIFY(std::isinf((*unknown)->graph().totalWork));
        for (const auto& node : g.p->graph.nodes)
            for (const auto& o : node.outputs) {
                g.p->graph.tensorValues[o.s].dtype = ScalarType::Float32;
                g.p->graph.tensorValues[o.s].sizes = {SymInt::literal(1024)};
            }
        auto plan = ExecutionPlan::compile(g.p);
        QVERIFY(plan.isOk());
        QCOMPARE((*plan)->graph().totalWork, 11 * 1024.0);
        Engine e(*plan);
        RunOptions ro;
        ro.threads = 2;
        CountingObserver obs;
        ro.observer = &obs;
        // spawned, the second root lands on the other worker in some runs of every few hundred
        for (int k = 0; k < 500; ++k) QVERIFY(e.run({EValue::fromTensor(f32({1024}, {}))}, ro).isOk());
        QCOMPARE(obs.seen.size(), size_t(500 * 11));
        for (const auto& t : obs.seen) QCOMPARE(t.thread, 0);
    }

    void parallelMatchesSerialBitForBit() {
        auto g = diamondAndChain();
        auto plan = ExecutionPlan::compile(g.p);
        QVERIFY(plan.isOk());
        Engine e(*plan);
        Tensor x = *Tensor::empty(ScalarType::Float32, {100000});
        for (int64_t i = 0; i < x.numel(); ++i) x.data<float>()[i] = std::sin(static_cast<float>(i)) * 3.0f;
        RunOptions one, two;
        one.threads = 1;
        two.threads = 2;
        auto a = e.run({EValue::fromTensor(x)}, one);
        auto b = e.run({EValue::fromTensor(x)}, two);
        QVERIFY(a.isOk() && b.isOk());
        QCOMPARE(std::memcmp(a->outputs[0].tensor.raw(), b->outputs[0].tensor.raw(), static_cast<size_t>(x.nbytes())), 0);
    }

    void cancel() {
        auto g = diamondAndChain();
        auto plan = ExecutionPlan::compile(g.p);
        QVERIFY(plan.isOk());
        Engine e(*plan);
        std::atomic<bool> flag{false};
        RunOptions ro;
        ro.threads = 1;
        ro.cancel = &flag;
        ro.progress = [&](int done, int) { if (done == 3) flag = true; };
        auto r = e.run({EValue::fromTensor(f32({4}, {1, 2, 3, 4}))}, ro);
        QVERIFY(!r.isOk());
        QCOMPARE(QString::fromStdString(r.error()), QString("cancelled before node 's0' (aten.add.Tensor)"));
    }

    void wrongInputs() {
        auto g = diamondAndChain();
        g.p->graph.tensorValues["x"].dtype = ScalarType::Float32;
        g.p->graph.tensorValues["x"].sizes = {SymInt::literal(4)};
        auto plan = ExecutionPlan::compile(g.p);
        QVERIFY(plan.isOk());
        Engine e(*plan);
        auto none = e.run({});
        QCOMPARE(QString::fromStdString(none.error()), QString("the program takes 1 user inputs, 0 given"));
        auto bad = e.run({EValue::fromTensor(f32({5}, {}))});
        QCOMPARE(QString::fromStdString(bad.error()), QString("user input 'x' should be f32[4], got f32[5]"));
    }

    void profileAndTrace() {
        auto g = diamondAndChain();
        g.p->graph.nodes[0].meta.moduleStack = std::make_shared<const std::vector<ModuleStackEntry>>(
            std::vector<ModuleStackEntry>{{"L__self__", "", "M"}, {"L__self___act", "act", "torch.nn.ReLU"}});
        auto plan = ExecutionPlan::compile(g.p);
        QVERIFY(plan.isOk());
        Engine e(*plan);
        Profile prof;
        RunOptions ro;
        ro.threads = 2;
        ro.observer = &prof;
        for (int k = 0; k < 5; ++k) QVERIFY(e.run({EValue::fromTensor(f32({1024}, {}))}, ro).isOk());
        QCOMPARE(prof.runs(), 5);
        auto nodes = prof.nodes();
        QCOMPARE(nodes.size(), size_t(11));
        QCOMPARE(nodes[0].calls, 5);
        QCOMPARE(QString::fromStdString(nodes[0].modulePath), QString("act"));
        QVERIFY(nodes[0].minNs <= nodes[0].medianNs && nodes[0].medianNs <= nodes[0].maxNs);
        auto byOp = prof.byOp();
        QCOMPARE(byOp.size(), size_t(3));
        auto doc = QJsonDocument::fromJson(QByteArray::fromStdString(prof.chromeTraceJson()));
        QVERIFY(doc.isObject());
        int complete = 0;
        for (const auto& ev : doc.object()["traceEvents"].toArray()) {
            auto o = ev.toObject();
            if (o["ph"].toString() != "X") continue;
            ++complete;
            QVERIFY(o["args"].toObject().contains("op"));
            if (o["name"].toString() == "a") {
                QCOMPARE(o["args"].toObject()["op"].toString(), QString("aten.relu.default"));
                QCOMPARE(o["args"].toObject()["module"].toString(), QString("act"));
            }
        }
        QCOMPARE(complete, 11);
        QVERIFY(QString::fromStdString(prof.csv()).startsWith("node,op,module,median_us"));
    }

    void condRunsOneBranch() {
        // cond(pred, true: x*2, false: x-1, [x])
        auto branch = [](const char* target, Argument other) {
            auto gr = std::make_shared<Graph>();
            gr->inputs.push_back(Argument::tensor("arg0_1"));
            Node n;
            n.name = "r";
            n.target = Target::parse(target);
            n.inputs = {ta("self", "arg0_1"), la("other", other)};
            n.outputs.push_back(Argument::tensor("r"));
            gr->nodes.push_back(n);
            gr->outputs.push_back(Argument::tensor("r"));
            return gr;
        };
        MiniGraph g;
        g.input("pred");
        g.input("x");
        Argument tg; tg.kind = ArgKind::Graph; tg.s = "true_graph_0"; tg.setGraph(branch("torch.ops.aten.mul.Tensor", Argument::integer(2)));
        Argument fg; fg.kind = ArgKind::Graph; fg.s = "false_graph_0"; fg.setGraph(branch("torch.ops.aten.sub.Tensor", Argument::integer(1)));
        Node& c = g.node("getitem", "torch.ops.higher_order.cond", {{"", Argument::tensor("pred"), ArgumentKind::Positional}, {"", tg, ArgumentKind::Positional}, {"", fg, ArgumentKind::Positional}, {"", Argument::tensors({"x"}), ArgumentKind::Positional}});
        c.isHopSingleTensorReturn = false;
        g.output("getitem");
        auto plan = ExecutionPlan::compile(g.p);
        QVERIFY2(plan.isOk(), plan.error().c_str());
        Engine e(*plan);
        auto yes = e.run({EValue::fromTensor(makeTensor<int>(ScalarType::Bool, {}, {1})), EValue::fromTensor(f32({2}, {3, 4}))});
        QVERIFY2(yes.isOk(), yes.error().c_str());
        QCOMPARE(values(yes->outputs[0].tensor), (std::vector<double>{6, 8}));
        auto no = e.run({EValue::fromTensor(makeTensor<int>(ScalarType::Bool, {}, {0})), EValue::fromTensor(f32({2}, {3, 4}))});
        QVERIFY2(no.isOk(), no.error().c_str());
        QCOMPARE(values(no->outputs[0].tensor), (std::vector<double>{2, 3}));
    }

    void statefulBufferMutation() {
        // steps = steps + 1 (BUFFER_MUTATION), output = x * steps
        MiniGraph g;
        Tensor steps0 = makeTensor<int>(ScalarType::Int64, {}, {0});
        TensorData td = steps0.toTensorData();
        g.p->weights["steps"] = td;
        g.input("b_steps", std::string("steps"));
        g.input("x");
        g.node("add", "torch.ops.aten.add.Tensor", {ta("self", "b_steps"), la("other", Argument::integer(1))});
        g.node("mul", "torch.ops.aten.mul.Tensor", {ta("self", "x"), ta("other", "add")});
        g.output("add", OutputKind::BufferMutation, "steps");
        g.output("mul");
        auto plan = ExecutionPlan::compile(g.p);
        QVERIFY2(plan.isOk(), plan.error().c_str());
        Engine e(*plan);
        RunOptions ro;
        ro.stateful = true;
        std::vector<double> seen;
        for (int k = 0; k < 3; ++k) {
            auto r = e.run({EValue::fromTensor(f32({1}, {10}))}, ro);
            QVERIFY2(r.isOk(), r.error().c_str());
            QCOMPARE(r->userOutputs, (std::vector<int>{1}));
            seen.push_back(r->outputs[1].tensor.at(0));
        }
        QCOMPARE(seen, (std::vector<double>{10, 20, 30}));
        QCOMPARE(e.bufferState().at("steps").at(0), 3.0);
        // after a reset the archived value is used again
        e.resetState();
        auto r = e.run({EValue::fromTensor(f32({1}, {10}))});
        QCOMPARE(r->outputs[1].tensor.at(0), 10.0);
    }

    void missingWeightNamed() {
        MiniGraph g;
        g.input("p_w", std::string("fc.weight"));
        g.p->signature.inputSpecs.back().kind = InputKind::Parameter;
        g.node("r", "torch.ops.aten.relu.default", {ta("self", "p_w")});
        g.output("r");
        auto plan = ExecutionPlan::compile(g.p);
        QVERIFY(!plan.isOk());
        QCOMPARE(QString::fromStdString(plan.error()), QString("input 'p_w' needs PARAMETER 'fc.weight', which the archive does not hold"));
    }

    void undefinedValueNamed() {
        MiniGraph g;
        g.input("x");
        g.node("r", "torch.ops.aten.relu.default", {ta("self", "nope")});
        g.output("r");
        auto plan = ExecutionPlan::compile(g.p);
        QVERIFY(!plan.isOk());
        QCOMPARE(QString::fromStdString(plan.error()), QString("node 'r' (aten.relu.default) reads 'nope', which no input or earlier node defines"));
    }
};

QTEST_GUILESS_MAIN(TstExecEngine)
#include "tst_exec_engine.moc"
