// The exported trace read back as Perfetto reads it: every event well formed for the Trace Event
// Format (phases, pids, tids, timestamps, durations), slices of one worker that do not overlap,
// flow events that pair up ("s" and "f" with one id, category and name; the "s" inside the
// producer's slice on its worker, the "f" with binding point "e" inside the consumer's slice on the
// consumer's worker) exactly where a node's output is read on another worker, a live-bytes counter
// whose highest point is the memory timeline's peak, and the args of every slice. On a run set by
// hand (so the flows are known) and on tiny_gpt run at two threads.
#include "core/exec/chrome_trace.h"
#include "core/exec/engine.h"
#include "core/exec/inputs.h"
#include "core/exec/measured_run.h"
#include "core/exec/memory_timeline.h"
#include "core/exec/plan.h"
#include "core/exec/profile.h"
#include "core/exec/roofline.h"
#include "core/ir/builder.h"
#include "support/fixture_plan.h"

#include <QElapsedTimer>
#include <QTest>

#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <set>

using namespace irlens::core;
using namespace irlens::core::exec;
using nlohmann::json;

namespace {

// Times in ns, rounded from the trace's microseconds as Perfetto's importer rounds them.
struct Slice {
    std::string name;
    int64_t tid = 0;
    int64_t start = 0, end = 0;
};

// A flow as the trace tells it: the slices its "s" and "f" sit in.
struct Flow {
    std::string from, to;
    int64_t fromTid = 0, toTid = 0;
};

struct ReadTrace {
    std::vector<Slice> slices;
    std::map<int64_t, Flow> flows;
    std::vector<std::pair<int64_t, double>> counter; // ts, live bytes
    std::vector<json> args;                         // of each slice
    QString error;                                  // the first rule broken, "" when none
};

bool isInt(const json& e, const char* key) { return e.contains(key) && e[key].is_number_integer(); }
bool isNumber(const json& e, const char* key) { return e.contains(key) && e[key].is_number(); }
bool isString(const json& e, const char* key) { return e.contains(key) && e[key].is_string() && !e[key].get<std::string>().empty(); }

int64_t ns(double us) { return std::llround(us * 1000.0); }

// The innermost slice of `tid` strictly containing `ts`, as Perfetto binds a flow event (one on a
// slice boundary could bind to either side).
const Slice* enclosing(const std::vector<Slice>& slices, int64_t tid, int64_t ts) {
    const Slice* inner = nullptr;
    for (const Slice& s : slices)
        if (s.tid == tid && s.start < ts && ts < s.end && (!inner || s.end - s.start < inner->end - inner->start)) inner = &s;
    return inner;
}

// Checks the Trace Event Format rules Perfetto's JSON importer relies on and collects what the trace says.
ReadTrace readTrace(const std::string& text) {
    ReadTrace t;
    const json doc = json::parse(text, nullptr, false);
    auto fail = [&](const QString& why) { if (t.error.isEmpty()) t.error = why; };
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("traceEvents") || !doc["traceEvents"].is_array()) {
        t.error = "not a JSON object with a traceEvents array";
        return t;
    }
    if (doc.contains("displayTimeUnit") && doc["displayTimeUnit"] != "ms" && doc["displayTimeUnit"] != "ns") fail("bad displayTimeUnit");
    struct FlowEnd { std::string name, cat; int64_t tid = 0; int64_t ts = 0; };
    std::map<int64_t, FlowEnd> starts, finishes;
    for (const json& e : doc["traceEvents"]) {
        const QString where = QString::fromStdString(e.dump()).left(160);
        if (!e.is_object() || !isString(e, "ph") || e["ph"].get<std::string>().size() != 1) { fail("no one-letter ph: " + where); continue; }
        const char ph = e["ph"].get<std::string>()[0];
        if (!isInt(e, "pid") || !isString(e, "name")) fail("no pid or name: " + where);
        if (ph == 'M') {
            if ((e["name"] != "process_name" && e["name"] != "thread_name") || !e.contains("args") || !isString(e["args"], "name"))
                fail("metadata event without a name: " + where);
            if (e["name"] == "thread_name" && !isInt(e, "tid")) fail("thread_name without tid: " + where);
            continue;
        }
        if (!isInt(e, "tid") || !isNumber(e, "ts") || e["ts"].get<double>() < 0) { fail("no tid or ts >= 0: " + where); continue; }
        const int64_t tid = e["tid"].get<int64_t>();
        const int64_t ts = ns(e["ts"].get<double>());
        switch (ph) {
        case 'X':
            if (!isNumber(e, "dur") || e["dur"].get<double>() < 0 || !e.contains("args") || !e["args"].is_object()) fail("X without dur or args: " + where);
            else {
                t.slices.push_back({e["name"].get<std::string>(), tid, ts, ts + ns(e["dur"].get<double>())});
                t.args.push_back(e["args"]);
            }
            break;
        case 'C':
            if (!e.contains("args") || !e["args"].is_object() || e["args"].size() != 1 || !e["args"].begin()->is_number())
                fail("counter without one numeric series: " + where);
            else if (e["name"] == kTraceMemoryCounter && e["args"].contains(kTraceLiveBytes))
                t.counter.push_back({ts, e["args"][kTraceLiveBytes].get<double>()});
            break;
        case 's':
        case 'f': {
            if (!isInt(e, "id") || !isString(e, "cat")) { fail("flow without integer id or cat: " + where); break; }
            if (ph == 'f' && e.value("bp", std::string()) != "e") fail("flow end not bound to its enclosing slice (bp e): " + where);
            auto& ends = ph == 's' ? starts : finishes;
            if (!ends.emplace(e["id"].get<int64_t>(), FlowEnd{e["name"].get<std::string>(), e["cat"].get<std::string>(), tid, ts}).second) fail("flow id used twice: " + where);
            break;
        }
        default: fail("unexpected phase: " + where);
        }
    }
    // slices of one worker follow each other or nest (a node a worker ran while it waited inside
    // another node's parallel loop); Perfetto drops a slice that overlaps another only in part
    std::vector<Slice> sorted = t.slices;
    std::sort(sorted.begin(), sorted.end(), [](const Slice& a, const Slice& b) {
        return a.tid != b.tid ? a.tid < b.tid : a.start != b.start ? a.start < b.start : a.end > b.end;
    });
    std::vector<const Slice*> open;
    for (const Slice& s : sorted) {
        while (!open.empty() && (open.back()->tid != s.tid || open.back()->end <= s.start)) open.pop_back();
        if (!open.empty() && s.end > open.back()->end)
            fail(QString("slices %1 and %2 overlap on worker %3").arg(open.back()->name.c_str(), s.name.c_str()).arg(s.tid));
        open.push_back(&s);
    }
    if (starts.size() != finishes.size()) fail(QString("%1 flow starts, %2 flow ends").arg(starts.size()).arg(finishes.size()));
    for (const auto& [id, s] : starts) {
        auto f = finishes.find(id);
        if (f == finishes.end() || f->second.name != s.name || f->second.cat != s.cat) { fail(QString("flow %1 does not pair up").arg(id)); continue; }
        const Slice* from = enclosing(t.slices, s.tid, s.ts);
        const Slice* to = enclosing(t.slices, f->second.tid, f->second.ts);
        if (!from || !to) { fail(QString("flow %1 is not inside a slice at both ends").arg(id)); continue; }
        t.flows[id] = {from->name, to->name, s.tid, f->second.tid};
    }
    return t;
}

// The producer -> consumer pairs of `run` where the consumer, or a part of it (`parts`), ran on another
// worker than the producer, by node name.
std::set<std::pair<std::string, std::string>> crossWorkerEdges(const ExecutionPlan& plan, const std::vector<NodeTiming>& run,
                                                               const std::vector<PartTiming>& parts) {
    const PlanGraph& g = plan.graph();
    std::map<int, int> producer;
    for (const PlanNode& pn : g.nodes)
        for (const auto& list : pn.outputSlots)
            for (int s : list) producer[s] = pn.index;
    std::map<int, std::set<int>> ranOn; // node -> workers
    for (const NodeTiming& t : run)
        if (t.node >= 0) ranOn[t.node].insert(t.thread);
    for (const PartTiming& p : parts) ranOn[p.node].insert(p.thread);
    std::set<std::pair<std::string, std::string>> edges;
    for (const PlanNode& c : g.nodes)
        for (int s : c.inputSlots) {
            auto p = producer.find(s);
            if (p == producer.end() || run[static_cast<size_t>(c.index)].node < 0 || run[static_cast<size_t>(p->second)].node < 0) continue;
            const std::set<int>& workers = ranOn[c.index];
            if (workers.size() > 1 || !workers.count(run[static_cast<size_t>(p->second)].thread))
                edges.insert({g.nodes[static_cast<size_t>(p->second)].node->name, c.node->name});
        }
    return edges;
}

std::set<std::pair<std::string, std::string>> flowEdges(const ReadTrace& t) {
    std::set<std::pair<std::string, std::string>> edges;
    for (const auto& [id, f] : t.flows) edges.insert({f.from, f.to});
    return edges;
}

double counterPeak(const ReadTrace& t) {
    double peak = -1;
    for (const auto& [ts, v] : t.counter) peak = std::max(peak, v);
    return peak;
}

// Two chains from x joined by an add: a0 = x @ x -> a1 = relu(a0), the same for b, then n = a1 + b1.
irlens::testing::FixturePlan twoChains() {
    ProgramBuilder b;
    // 128 x 128 products: each worth a task of its own, so two workers can take one chain each
    const TensorMeta m = makeTensorMeta(ScalarType::Float32, std::vector<int64_t>{128, 128});
    b.userInput("x", m);
    for (const char* chain : {"a", "b"}) {
        const std::string first = std::string(chain) + "0", second = std::string(chain) + "1";
        b.call("torch.ops.aten.mm.default", first).arg("self", "x").arg("mat2", "x").out(m).stackTrace("  File \"model.py\", line 7, in forward\n    y = x @ x");
        b.call("torch.ops.aten.relu.default", second).arg("self", first).out(m).module("L__self__", "", "M").module("L__self___act", "act", "torch.nn.ReLU");
    }
    b.call("torch.ops.aten.add.Tensor", "n").arg("self", "a1").arg("other", "b1").out(m);
    b.userOutput("n");
    auto built = irlens::testing::builtPlan(b);
    if (!built) qFatal("%s", built.error().c_str());
    return *built;
}

} // namespace

class TstChromeTrace : public QObject {
    Q_OBJECT
private slots:
    void flowsWhereWorkersChange();
    void partsOnOtherWorkers();
    void engineRunAtTwoThreads_data();
    void engineRunAtTwoThreads();
};

void TstChromeTrace::flowsWhereWorkersChange() {
    // a run set by hand on two workers: a0, a1, b1 on worker 0, b0 and n on worker 1
    const auto plan = twoChains().plan;
    std::map<std::string, std::pair<int, std::pair<int64_t, int64_t>>> placed = {
        {"a0", {0, {0, 1000}}}, {"a1", {0, {1000, 2000}}}, {"b0", {1, {100, 1500}}}, {"b1", {0, {2000, 3000}}}, {"n", {1, {3100, 4000}}}};
    Profile profile;
    profile.onRunStart(*plan, 2);
    for (const PlanNode& pn : plan->graph().nodes) {
        const auto& [thread, span] = placed.at(pn.node->name);
        profile.onNode({pn.index, span.first, span.second, thread, 128 * 128 * 4, 0});
    }
    profile.onRunEnd(4100, 3 * 128 * 128 * 4);
    const ReadTrace t = readTrace(chromeTrace(*plan, profile));
    QVERIFY2(t.error.isEmpty(), qPrintable(t.error));
    QCOMPARE(t.slices.size(), size_t(5));
    const std::set<std::pair<std::string, std::string>> expected = {{"b0", "b1"}, {"a1", "n"}, {"b1", "n"}};
    QCOMPARE(flowEdges(t), expected);
    for (const auto& [id, f] : t.flows) { // the s on the producer's worker, the f on the consumer's
        QCOMPARE(f.fromTid, int64_t(placed.at(f.from).first));
        QCOMPARE(f.toTid, int64_t(placed.at(f.to).first));
    }
    const MemoryTimeline memory = memoryTimeline(*plan, measureRun(*plan, profile));
    QCOMPARE(counterPeak(t), static_cast<double>(memory.peakBytes));
    QCOMPARE(t.counter.size(), memory.steps.size() + 1);
    // args: op, module, source line, shapes
    for (size_t k = 0; k < t.slices.size(); ++k) {
        const json& a = t.args[k];
        QVERIFY(a.contains("op") && a.contains("module") && a.contains("inputs") && a.contains("outputs"));
        QVERIFY(a["outputs"] == json::array({"f32[128, 128]"}));
        if (t.slices[k].name == "a0") {
            QVERIFY(a["source"] == "model.py:7");
            QVERIFY(a["inputs"] == json::array({"f32[128, 128]", "f32[128, 128]"}));
        }
        if (t.slices[k].name == "a1") QVERIFY(a["module"] == "act");
    }
}

// A run in graph order set by hand: every node on worker 0, worker 1 running parts of a1 (two parts
// 0.5 us apart: one slice) and of a2 (two parts 5 us apart: two slices). The values a1 and a2 read
// cross to worker 1: one arrow each, into the first slice of the consumer there.
void TstChromeTrace::partsOnOtherWorkers() {
    const auto plan = irlens::testing::productChains(1, 4).plan;
    Profile profile;
    profile.onRunStart(*plan, 2);
    std::map<std::string, int> index;
    int64_t at = 0;
    for (const PlanNode& pn : plan->graph().nodes) {
        index[pn.node->name] = pn.index;
        profile.onNode({pn.index, at, at + 20000, 0, 256 * 256 * 4, 0});
        at += 20000;
    }
    const int a1 = index.at("a1"), a2 = index.at("a2");
    profile.onParts({{a1, 1, 21000, 25000}, {a1, 1, 25500, 30000}, {a2, 1, 41000, 45000}, {a2, 1, 50000, 55000}});
    profile.onRunEnd(at, 3 * 256 * 256 * 4);
    const ReadTrace t = readTrace(chromeTrace(*plan, profile));
    QVERIFY2(t.error.isEmpty(), qPrintable(t.error));
    std::vector<std::pair<int64_t, int64_t>> parts; // on worker 1
    for (const Slice& slice : t.slices)
        if (slice.tid == 1) parts.push_back({slice.start, slice.end});
    const std::vector<std::pair<int64_t, int64_t>> expectedParts = {{21000, 30000}, {41000, 45000}, {50000, 55000}};
    QCOMPARE(parts, expectedParts);
    const std::set<std::pair<std::string, std::string>> expected = {{"a0", "a1"}, {"a1", "a2"}};
    QCOMPARE(flowEdges(t), expected);
    for (const auto& [id, f] : t.flows) {
        QCOMPARE(f.fromTid, int64_t(0));
        QCOMPARE(f.toTid, int64_t(1));
    }
}

void TstChromeTrace::engineRunAtTwoThreads_data() {
    QTest::addColumn<QString>("model");
    QTest::addRow("a built program") << QString();
    QTest::addRow("two chains of products") << "two chains";
    QTest::addRow("one chain of products") << "one chain";
    QTest::addRow("zoo/gpt_block") << "zoo/gpt_block";
    QTest::addRow("tiny_gpt") << "tiny_gpt";
}

void TstChromeTrace::engineRunAtTwoThreads() {
    QFETCH(QString, model);
    std::shared_ptr<ExecutionPlan> plan;
    std::vector<EValue> inputs;
    if (model.isEmpty() || model.endsWith("chain") || model.endsWith("chains")) {
        auto built = model.isEmpty() ? twoChains() : irlens::testing::productChains(model == "one chain" ? 1 : 2, 4);
        plan = built.plan;
        inputs = built.inputs;
    } else {
        IRLENS_REQUIRE_FIXTURE(model);
        auto f = irlens::testing::loadFixturePlan(model.toStdString());
        QVERIFY2(f.isOk(), f.error().c_str());
        plan = f->plan;
        inputs = f->inputs;
    }
    // rounds of runs until the median run crossed workers somewhere (a busy machine may keep the
    // second worker away for a while): at most 10 s, and one round where everything runs on one thread
    const GraphSchedule schedule = scheduleFor(plan->graph(), 2);
    Profile profile;
    std::vector<NodeTiming> shown;
    std::vector<PartTiming> shownParts;
    Engine engine(plan);
    RunOptions options;
    options.threads = 2;
    QElapsedTimer clock;
    clock.start();
    for (int round = 0; round == 0 || clock.elapsed() < 10000; ++round) {
        profile = Profile();
        options.observer = &profile;
        for (int k = 0; k < 15; ++k) QVERIFY(engine.run(inputs, options).isOk());
        shown = profile.sampleRun(profile.medianSample());
        shownParts = profile.sampleParts(profile.medianSample());
        if (!crossWorkerEdges(*plan, shown, shownParts).empty() || schedule == GraphSchedule::OneThread) break;
    }
    MachineRoofs roofs;
    roofs.peakGflops = 50;
    roofs.bandwidthGBs = 10;
    const MeasuredRun measured = measureRun(*plan, profile);
    const Roofline roof = roofline(*plan, measured, roofs);
    const ReadTrace t = readTrace(chromeTrace(*plan, profile, &roof));
    QVERIFY2(t.error.isEmpty(), qPrintable(t.error));
    const auto edges = crossWorkerEdges(*plan, shown, shownParts);
    qInfo("%zu slices (%zu parts on other workers), %zu flows across workers", t.slices.size(), shownParts.size(), t.flows.size());
    QCOMPARE(flowEdges(t), edges);
    QCOMPARE(counterPeak(t), static_cast<double>(memoryTimeline(*plan, measured).peakBytes));
    int withSource = 0, partSlices = 0;
    for (size_t k = 0; k < t.slices.size(); ++k) {
        const json& a = t.args[k];
        const int node = [&] {
            for (const PlanNode& pn : plan->graph().nodes)
                if (pn.node->name == t.slices[k].name) return pn.index;
            return -1;
        }();
        QVERIFY2(node >= 0, t.slices[k].name.c_str());
        if (a.contains("part_of")) { // a part of the node on another worker than its own
            ++partSlices;
            QCOMPARE(a["part_of"].get<std::string>(), t.slices[k].name);
            QVERIFY(t.slices[k].tid != shown[static_cast<size_t>(node)].thread);
            continue;
        }
        QVERIFY2(a.contains("module") && a.contains("inputs") && a.contains("outputs"), t.slices[k].name.c_str());
        withSource += a.contains("source") ? 1 : 0;
        const NodeRoof* r = roof.find(node);
        QVERIFY(r);
        QCOMPARE(a.contains("roof_percent"), r->movesData());
        if (r->movesData()) QCOMPARE(a["roof_percent"].get<double>(), 100.0 * r->share);
    }
    QVERIFY(withSource > 0);
    QCOMPARE(partSlices > 0, !shownParts.empty());
    // Where the engine hands ready nodes to idle workers (two chains of products side by side), the second
    // worker takes one whenever it gets a core; where it runs the nodes in graph order and splits their
    // kernels (one chain of products; tiny_gpt, one chain at heart), every node runs on the calling thread
    // and the second worker takes parts of the products, drawn on its track with arrows from the values
    // they read. The built program's small chains and the zoo's block run on one thread.
    if (model == "tiny_gpt" || model == "one chain") QCOMPARE(schedule, GraphSchedule::InOrder);
    if (model == "two chains") QCOMPARE(schedule, GraphSchedule::TaskGraph);
    if (schedule == GraphSchedule::OneThread) QVERIFY(edges.empty() && shownParts.empty());
    if (schedule == GraphSchedule::InOrder)
        for (const NodeTiming& n : shown) QVERIFY2(n.node < 0 || n.thread == shown.front().thread, "a node ran off the calling thread in graph order");
    if (schedule != GraphSchedule::OneThread && edges.empty()) {
        double load = 0;
        std::ifstream("/proc/loadavg") >> load;
        if (load >= Engine::hardwareThreads())
            QSKIP(qPrintable(QString("the second worker never joined the median run in 10 s of runs: load average %1 on %2 CPUs")
                                 .arg(load).arg(Engine::hardwareThreads())));
        QFAIL("the second worker never joined the median run in 10 s of runs on a machine with a core to spare");
    }
}

QTEST_GUILESS_MAIN(TstChromeTrace)
#include "tst_chrome_trace.moc"
