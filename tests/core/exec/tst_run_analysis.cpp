// What a measured run means, on real runs of the shared programs: the memory timeline against an
// independent recount of allocation and free points, the critical path against an independent DP
// and a brute force on small graphs, the scheduling model's predicted wall time against the measured
// median, what-if replays, and time per source line against the node times it is made of.
#include "core/exec/critical_path.h"
#include "core/exec/engine.h"
#include "core/exec/measured_run.h"
#include "core/exec/memory_timeline.h"
#include "core/exec/profile.h"
#include "core/exec/schedule_model.h"
#include "core/exec/source_lines.h"
#include "core/exec/what_if.h"
#include "core/ir/builder.h"
#include "support/fixture_plan.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <random>
#include <set>

using namespace irlens::core;
using namespace irlens::core::exec;

namespace {

// A fixture run `runs` times (after unobserved warm-up runs) on `threads` threads, kept for the
// test functions that look at the same run.
struct Measured {
    irlens::testing::FixturePlan fixture;
    std::unique_ptr<Profile> profile = std::make_unique<Profile>();
    MeasuredRun run;
};

constexpr int kWarmup = 3;
constexpr int kRuns = 21;

Measured measure(irlens::testing::FixturePlan fixture, int threads, const std::string& label) {
    Measured m;
    m.fixture = std::move(fixture);
    Engine engine(m.fixture.plan);
    RunOptions options;
    options.threads = threads;
    for (int k = 0; k < kWarmup + kRuns; ++k) {
        options.observer = k < kWarmup ? nullptr : m.profile.get();
        auto r = engine.run(m.fixture.inputs, options);
        if (!r) qFatal("%s: %s", label.c_str(), r.error().c_str());
    }
    m.run = measureRun(*m.fixture.plan, *m.profile);
    return m;
}

const Measured& measured(const std::string& name, int threads) {
    static std::map<std::pair<std::string, int>, Measured> cache;
    auto it = cache.find({name, threads});
    if (it != cache.end()) return it->second;
    auto f = irlens::testing::loadFixturePlan(name);
    if (!f) qFatal("%s", f.error().c_str());
    return cache.emplace(std::make_pair(name, threads), measure(std::move(*f), threads, name)).first->second;
}

// The model's prediction of a measured run against its median wall time, with what shows how
// parallel the run was: node time per wall time (1 = serial) and what one worker would take.
double predictionError(const Measured& m, const QString& label, int threads) {
    const SchedulePrediction p = predictRun(m.fixture.plan->graph(), m.run);
    const auto errorOf = [&](int64_t ns) { return static_cast<double>(ns - m.run.medianWallNs) / static_cast<double>(m.run.medianWallNs); };
    // for the record: one replay of the per-node medians, which drop the delays every run has somewhere
    const int64_t medians = predictSchedule(m.fixture.plan->graph(), m.run.nodeNs, scheduleOptionsFor(m.run)).wallNs;
    std::vector<double> busy;
    for (const SampledRun& r : m.run.samples) {
        int64_t sum = 0;
        for (int64_t ns : r.nodeNs) sum += std::max<int64_t>(0, ns);
        busy.push_back(static_cast<double>(sum) / static_cast<double>(r.wallNs));
    }
    std::sort(busy.begin(), busy.end());
    const int64_t serial = predictRun(m.fixture.plan->graph(), m.run, 1).wallNs;
    qInfo("%s, %d threads: predicted %.3f ms, measured median %.3f ms over %d runs: error %+.1f%% "
          "(task start %.1f us, run overhead %.1f us; per-node medians replayed: %.3f ms, %+.1f%%; "
          "node time / wall %.2f; one worker would take %.3f ms)",
          qPrintable(label), threads, p.wallNs / 1e6, m.run.medianWallNs / 1e6, m.run.runs, 100 * errorOf(p.wallNs),
          m.run.overheads.taskStartNs / 1e3, m.run.overheads.runNs / 1e3, medians / 1e6, 100 * errorOf(medians),
          busy[busy.size() / 2], serial / 1e6);
    return errorOf(p.wallNs);
}

void addModelRows(const std::vector<int>& threadCounts) {
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("threads");
    for (const char* name : {"zoo/mlp", "zoo/conv_attention", "zoo/gpt_block", "zoo/residual_stack", "zoo/resnet_like", "zoo/decoder_like",
                             "zoo/encoder_layer_like", "tiny_mlp"})
        for (int t : threadCounts) QTest::addRow("%s, %d thread%s", name, t, t > 1 ? "s" : "") << name << t;
}

bool isTensorSlot(const PlanGraph& g, int slot) { return slot >= 0 && g.graph->tensorMeta(g.slotNames[static_cast<size_t>(slot)]); }

// The activation and workspace bytes at each step, recounted from scratch: every storage is an
// interval from its producer's step to the step of the last reader of any value that shares it
// (views: nodes that allocated nothing share their first tensor argument's storage).
struct Recount {
    std::vector<int64_t> activations, workspace;
    int64_t pinned = 0; // weights and user inputs
};

Recount recount(const ExecutionPlan& plan, const MeasuredRun& run) {
    const PlanGraph& g = plan.graph();
    const int end = static_cast<int>(run.order.size());
    std::vector<int> pos(g.nodes.size(), -1), root(g.slotNames.size(), -1), lastRead(g.slotNames.size(), -1);
    for (int i = 0; i < end; ++i) pos[static_cast<size_t>(run.order[static_cast<size_t>(i)])] = i;
    Recount r;
    for (const PlanInput& in : plan.inputs())
        if (isTensorSlot(g, in.slot) && (in.kind == InputKind::UserInput || in.kind == InputKind::Parameter ||
                                         in.kind == InputKind::Buffer || in.kind == InputKind::TensorConstant)) {
            root[static_cast<size_t>(in.slot)] = in.slot;
            r.pinned += slotMetaBytes(g, in.slot);
        }
    std::vector<int> producerStep(g.slotNames.size(), -1);
    for (int node : run.order) {
        const PlanNode& pn = g.nodes[static_cast<size_t>(node)];
        int viewed = -1;
        if (run.nodeBytes[static_cast<size_t>(node)] == 0 && pn.subgraphs.empty())
            for (const PlanArg& a : pn.args)
                if (viewed < 0 && a.source == PlanArg::Source::Slot && root[static_cast<size_t>(a.slot)] >= 0) viewed = root[static_cast<size_t>(a.slot)];
        for (const auto& outs : pn.outputSlots)
            for (int s : outs)
                if (isTensorSlot(g, s)) {
                    root[static_cast<size_t>(s)] = viewed >= 0 ? viewed : s;
                    producerStep[static_cast<size_t>(s)] = pos[static_cast<size_t>(node)];
                    lastRead[static_cast<size_t>(s)] = pos[static_cast<size_t>(node)];
                }
        for (int s : pn.inputSlots) lastRead[static_cast<size_t>(s)] = std::max(lastRead[static_cast<size_t>(s)], pos[static_cast<size_t>(node)]);
    }
    for (int s : g.outputSlots)
        if (s >= 0) lastRead[static_cast<size_t>(s)] = end; // graph outputs are never released
    std::map<int, int> freeStep; // activation storage (its owning slot) -> last step it is live
    for (size_t s = 0; s < root.size(); ++s)
        if (root[s] >= 0 && producerStep[static_cast<size_t>(root[s])] >= 0) freeStep[root[s]] = std::max(freeStep[root[s]], lastRead[s]);
    r.activations.assign(static_cast<size_t>(end), 0);
    r.workspace.assign(static_cast<size_t>(end), 0);
    std::vector<int64_t> owned(static_cast<size_t>(end), 0);
    for (const auto& [slot, last] : freeStep) {
        const int64_t bytes = slotMetaBytes(g, slot);
        owned[static_cast<size_t>(producerStep[static_cast<size_t>(slot)])] += bytes;
        for (int i = producerStep[static_cast<size_t>(slot)]; i <= std::min(last, end - 1); ++i) r.activations[static_cast<size_t>(i)] += bytes;
    }
    for (int i = 0; i < end; ++i)
        r.workspace[static_cast<size_t>(i)] = std::max<int64_t>(0, run.nodeBytes[static_cast<size_t>(run.order[static_cast<size_t>(i)])] - owned[static_cast<size_t>(i)]);
    return r;
}

// The longest path by brute force: every path from every node, depth first.
int64_t longestByBruteForce(const PlanGraph& g, const std::vector<int64_t>& w) {
    std::function<int64_t(int)> from = [&](int k) {
        int64_t best = 0;
        for (int s : g.nodes[static_cast<size_t>(k)].successors) best = std::max(best, from(s));
        return w[static_cast<size_t>(k)] + best;
    };
    int64_t best = 0;
    for (size_t k = 0; k < g.nodes.size(); ++k) best = std::max(best, from(static_cast<int>(k)));
    return best;
}

// The longest path by a forward DP over predecessors (the implementation sweeps successors backwards).
int64_t longestByForwardDp(const PlanGraph& g, const std::vector<int64_t>& w) {
    std::vector<std::vector<int>> preds(g.nodes.size());
    for (const PlanNode& pn : g.nodes)
        for (int s : pn.successors) preds[static_cast<size_t>(s)].push_back(pn.index);
    std::vector<int64_t> finish(g.nodes.size(), 0);
    int64_t best = 0;
    for (size_t k = 0; k < g.nodes.size(); ++k) {
        int64_t ready = 0;
        for (int p : preds[k]) ready = std::max(ready, finish[static_cast<size_t>(p)]);
        finish[k] = ready + std::max<int64_t>(0, w[k]);
        best = std::max(best, finish[k]);
    }
    return best;
}

// A random DAG of `n` nodes: each edge from an earlier to a later node with probability `p`.
PlanGraph randomDag(int n, double p, std::mt19937& rng) {
    PlanGraph g;
    std::bernoulli_distribution edge(p);
    for (int k = 0; k < n; ++k) {
        PlanNode pn;
        pn.index = k;
        g.nodes.push_back(std::move(pn));
    }
    for (int a = 0; a < n; ++a)
        for (int b = a + 1; b < n; ++b)
            if (edge(rng)) {
                g.nodes[static_cast<size_t>(a)].successors.push_back(b);
                ++g.nodes[static_cast<size_t>(b)].predecessorCount;
            }
    for (const PlanNode& pn : g.nodes)
        if (pn.predecessorCount == 0) g.roots.push_back(pn.index);
    return g;
}

void checkPathIsAChain(const PlanGraph& g, const CriticalPath& path, const std::vector<int64_t>& w) {
    QVERIFY(!path.nodes.empty());
    int64_t sum = 0;
    for (size_t i = 0; i < path.nodes.size(); ++i) {
        sum += std::max<int64_t>(0, w[static_cast<size_t>(path.nodes[i])]);
        if (i == 0) continue;
        const auto& succ = g.nodes[static_cast<size_t>(path.nodes[i - 1])].successors;
        QVERIFY2(std::find(succ.begin(), succ.end(), path.nodes[i]) != succ.end(), "consecutive path nodes must be linked");
    }
    QCOMPARE(path.lengthNs, sum);
}

} // namespace

class TstRunAnalysis : public QObject {
    Q_OBJECT
private slots:
    void memoryCurveMatchesRecount_data() {
        addModelRows({1, 2});
        // a higher-order cond, integer and bool values, buffer mutations, symbolic sizes
        for (const char* name : {"zoo/cond_branch", "zoo/dtype_mix", "zoo/buffer_mutation", "zoo/dynamic_mlp", "cond_branch", "dtype_mix",
                                 "buffer_mutation", "dynamic_mlp"})
            QTest::addRow("%s, 1 thread", name) << name << 1;
    }
    void memoryCurveMatchesRecount();
    void criticalPathOnFixtures_data() { addModelRows({1}); }
    void criticalPathOnFixtures();
    void criticalPathByBruteForce();
    void scheduleFollowsEnginePolicy();
    void predictionWithinTolerance_data();
    void predictionWithinTolerance();
    void predictionOnParallelBranches();
    void scheduleChoice_data();
    void scheduleChoice();
    void scheduleChoiceOnBranches();
    void whatIf_data();
    void whatIf();
    void whatIfErrors();
    void linesAddUp_data() { addModelRows({1}); }
    void linesAddUp();
    void libraryFrames_data();
    void libraryFrames();
};

void TstRunAnalysis::memoryCurveMatchesRecount() {
    QFETCH(QString, model);
    QFETCH(int, threads);
    IRLENS_REQUIRE_FIXTURE(model);
    const Measured& m = measured(model.toStdString(), threads);
    const MemoryTimeline t = memoryTimeline(*m.fixture.plan, m.run);
    const Recount r = recount(*m.fixture.plan, m.run);
    QCOMPARE(t.steps.size(), m.run.order.size());
    if (threads == 1) QVERIFY(std::is_sorted(m.run.order.begin(), m.run.order.end())); // one worker runs the graph in order
    QCOMPARE(t.weightBytes + t.inputBytes, r.pinned);
    int64_t peak = 0;
    for (size_t i = 0; i < t.steps.size(); ++i) {
        const MemoryStep& s = t.steps[i];
        QCOMPARE(s.node, m.run.order[i]);
        QCOMPARE(s.activations, r.activations[i]);
        QCOMPARE(s.workspace, r.workspace[i]);
        peak = std::max(peak, s.total());
    }
    QCOMPARE(t.peakBytes, peak);
    int64_t atPeak = 0;
    for (const LiveTensor& l : t.liveAtPeak) atPeak += l.bytes;
    QCOMPARE(atPeak, t.peakBytes);
    QVERIFY(std::is_sorted(t.liveAtPeak.begin(), t.liveAtPeak.end(), [](const auto& a, const auto& b) { return a.bytes > b.bytes; }));
    QVERIFY(t.allocatedBytes >= t.runPeakBytes() - t.steps[static_cast<size_t>(t.peakStep)].workspace);
    qInfo("%s, %d threads: peak %lld B (activations+workspace %lld B; engine measured %lld B), %lld B allocated in all",
          qPrintable(model), threads, static_cast<long long>(t.peakBytes), static_cast<long long>(t.runPeakBytes()),
          static_cast<long long>(t.measuredPeakBytes), static_cast<long long>(t.allocatedBytes));
}

void TstRunAnalysis::criticalPathOnFixtures() {
    QFETCH(QString, model);
    IRLENS_REQUIRE_FIXTURE(model);
    const Measured& m = measured(model.toStdString(), 1);
    const PlanGraph& g = m.fixture.plan->graph();
    const CriticalPath path = criticalPath(g, m.run.nodeNs);
    checkPathIsAChain(g, path, m.run.nodeNs);
    QCOMPARE(path.lengthNs, longestByForwardDp(g, m.run.nodeNs));
    QVERIFY(path.share(m.run.medianWallNs) > 0 && path.share(m.run.medianWallNs) <= 1.5);
}

void TstRunAnalysis::criticalPathByBruteForce() {
    std::mt19937 rng(7);
    std::uniform_int_distribution<int64_t> time(0, 1000);
    for (int trial = 0; trial < 200; ++trial) {
        const PlanGraph g = randomDag(2 + trial % 11, trial % 2 ? 0.2 : 0.5, rng);
        std::vector<int64_t> w;
        for (size_t k = 0; k < g.nodes.size(); ++k) w.push_back(time(rng));
        const CriticalPath path = criticalPath(g, w);
        checkPathIsAChain(g, path, w);
        QCOMPARE(path.lengthNs, longestByBruteForce(g, w));
    }
}

// A diamond A -> {B, C} -> D replayed by hand under the engine's policy: on one worker in graph
// order; on two, B inline after A and C (heavy) spawned for the idle worker (or for the other
// worker when it joins, if it does), or, when C is cheap, kept in A's worker's local queue and run after B.
void TstRunAnalysis::scheduleFollowsEnginePolicy() {
    PlanGraph g;
    const int64_t times[] = {10, 100, 50, 5};
    for (int k = 0; k < 4; ++k) {
        PlanNode pn;
        pn.index = k;
        pn.work = 1e9;
        g.nodes.push_back(std::move(pn));
    }
    g.nodes[0].successors = {1, 2};
    g.nodes[1].successors = {3};
    g.nodes[2].successors = {3};
    g.nodes[1].predecessorCount = g.nodes[2].predecessorCount = 1;
    g.nodes[3].predecessorCount = 2;
    g.roots = {0};
    const std::vector<int64_t> ns(std::begin(times), std::end(times));
    ScheduleOptions o;
    o.taskStartNs = 3;
    o.runNs = 2;
    o.workers = 1;
    QCOMPARE(predictSchedule(g, ns, o).wallNs, 10 + 100 + 50 + 5 + 2);
    o.workers = 2;
    const SchedulePrediction heavy = predictSchedule(g, ns, o);
    QCOMPARE(heavy.nodes[2].worker, 1);
    QCOMPARE(heavy.nodes[2].startNs, 10 + 3);
    QCOMPARE(heavy.nodes[3].startNs, 110);
    QCOMPARE(heavy.wallNs, 110 + 5 + 2);
    // the other worker joins late: it takes the spawned C when it comes; or never, and A's worker runs C after B
    o.workerJoinNs = {0, 50};
    const SchedulePrediction late = predictSchedule(g, ns, o);
    QCOMPARE(late.nodes[2].worker, 1);
    QCOMPARE(late.nodes[2].startNs, 50);
    QCOMPARE(late.wallNs, 110 + 5 + 2);
    o.workerJoinNs = {0, -1};
    const SchedulePrediction absent = predictSchedule(g, ns, o);
    QCOMPARE(absent.nodes[2].worker, 0);
    QCOMPARE(absent.nodes[2].startNs, 110 + 3);
    QCOMPARE(absent.wallNs, 113 + 50 + 5 + 2);
    o.workerJoinNs.clear();
    g.nodes[2].work = o.spawnWork - 1;
    const SchedulePrediction cheap = predictSchedule(g, ns, o);
    QCOMPARE(cheap.nodes[2].worker, 0);
    QCOMPARE(cheap.nodes[2].startNs, 110);
    QCOMPARE(cheap.wallNs, 165 + 2);
}

void TstRunAnalysis::predictionWithinTolerance_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("threads");
    // the owned nets' layers are too small to be worth a task, so their runs on two threads replay like serial
    // ones; resnet18's convolutions on two threads are the run where spawned tasks and steals shape the wall time
    const std::pair<const char*, int> rows[] = {{"zoo/resnet_like", 1},   {"zoo/decoder_like", 1}, {"zoo/decoder_like", 2},
                                                {"zoo/encoder_layer_like", 1}, {"zoo/encoder_layer_like", 2}, {"resnet18", 2}};
    for (const auto& [name, t] : rows) QTest::addRow("%s, %d thread%s", name, t, t > 1 ? "s" : "") << name << t;
}

// The model replays each measured run; the median replay should land near the median measured wall time.
void TstRunAnalysis::predictionWithinTolerance() {
    QFETCH(QString, model);
    QFETCH(int, threads);
    IRLENS_REQUIRE_FIXTURE(model);
    const double error = predictionError(measured(model.toStdString(), threads), model, threads);
    QVERIFY2(std::abs(error) <= 0.25, qPrintable(QString("prediction off by %1%").arg(100 * error, 0, 'f', 1)));
}

// The fixtures are chains at heart (node time / wall stays near 1 on two threads); two independent
// chains give the spawn and steal policy something to do.
void TstRunAnalysis::predictionOnParallelBranches() {
    const Measured m = measure(irlens::testing::productChains(2, 4), 2, "two branches");
    const double error = predictionError(m, "two branches of 4 matrix products", 2);
    QVERIFY2(std::abs(error) <= 0.25, qPrintable(QString("prediction off by %1%").arg(100 * error, 0, 'f', 1)));
}

void TstRunAnalysis::scheduleChoice_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("expected");
    // one chain at heart: graph order with split kernels; llama_deep has 29 % of its work off its longest
    // chain, but in nodes too small for a task of their own
    for (const char* name : {"resnet18", "mobilenet_v2", "transformer_layer", "tiny_gpt", "llama_deep"})
        QTest::addRow("%s", name) << name << static_cast<int>(GraphSchedule::InOrder);
    // nothing worth a second thread
    for (const char* name : {"tiny_mlp", "deep_stack", "zoo/mlp", "zoo/resnet_like"}) QTest::addRow("%s", name) << name << static_cast<int>(GraphSchedule::OneThread);
}

// The schedule the engine takes at two threads, from the plan's work estimates; at one thread always OneThread.
void TstRunAnalysis::scheduleChoice() {
    QFETCH(QString, model);
    QFETCH(int, expected);
    IRLENS_REQUIRE_FIXTURE(model);
    auto f = irlens::testing::loadFixturePlan(model.toStdString());
    QVERIFY2(f, f ? "" : f.error().c_str());
    const PlanGraph& g = f->plan->graph();
    QCOMPARE(static_cast<int>(scheduleFor(g, 2)), expected);
    QCOMPARE(scheduleFor(g, 1), GraphSchedule::OneThread);
    QVERIFY(g.spanWork > 0 && g.spanWork <= g.totalWork);
}

// Two chains of products side by side: half the work is off the longest chain, so ready nodes go to idle
// workers; one of the chains alone is graph order.
void TstRunAnalysis::scheduleChoiceOnBranches() {
    const irlens::testing::FixturePlan two = irlens::testing::productChains(2, 4);
    const PlanGraph& g = two.plan->graph();
    QCOMPARE(scheduleFor(g, 2), GraphSchedule::TaskGraph);
    QVERIFY2(g.offChainTaskWork >= 0.4 * g.totalWork, qPrintable(QString("off chain %1 of %2").arg(g.offChainTaskWork).arg(g.totalWork)));
    const irlens::testing::FixturePlan one = irlens::testing::productChains(2, 0);
    QCOMPARE(scheduleFor(one.plan->graph(), 2), GraphSchedule::OneThread); // a single add: nothing worth a thread
}

void TstRunAnalysis::whatIf_data() {
    QTest::addColumn<QString>("model");
    QTest::addRow("zoo/conv_attention") << "zoo/conv_attention";
    QTest::addRow("zoo/resnet_like") << "zoo/resnet_like";
}

void TstRunAnalysis::whatIf() {
    QFETCH(QString, model);
    IRLENS_REQUIRE_FIXTURE(model);
    for (int threads : {1, 2}) {
        const Measured& m = measured(model.toStdString(), threads);
        const ExecutionPlan& plan = *m.fixture.plan;
        // a bare name is the op, before any node of that name; node: takes the node
        int convolutions = 0;
        for (const PlanNode& pn : plan.graph().nodes) convolutions += pn.node->target.op() == "convolution" ? 1 : 0;
        QCOMPARE(static_cast<int>(selectNodes(plan, "convolution")->size()), convolutions);
        QCOMPARE(static_cast<int>(selectNodes(plan, "node:" + plan.graph().nodes[0].node->name)->size()), 1);
        auto same = exec::whatIf(plan, m.run, {{"convolution", 1.0}});
        QVERIFY2(same.isOk(), same.isOk() ? "" : same.error().c_str());
        QCOMPARE(same->predicted.wallNs, same->baseline.wallNs);
        QCOMPARE(same->path.nodes, same->baselinePath.nodes);
        // the op that takes the most time on the critical path, made free
        std::map<std::string, int64_t> onPath;
        for (int k : same->baselinePath.nodes) onPath[plan.graph().nodes[static_cast<size_t>(k)].node->target.shortName()] += m.run.nodeNs[static_cast<size_t>(k)];
        const auto heaviest = std::max_element(onPath.begin(), onPath.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
        auto free = exec::whatIf(plan, m.run, {{heaviest->first, 0.0}});
        QVERIFY2(free.isOk(), free.isOk() ? "" : free.error().c_str());
        QVERIFY(free->scaledNodes > 0);
        QVERIFY2(free->predicted.wallNs < free->baseline.wallNs, qPrintable(QString::fromStdString(heaviest->first)));
        QVERIFY(free->path.lengthNs < free->baselinePath.lengthNs);
        QCOMPARE(free->path.lengthNs, criticalPath(plan.graph(), free->nodeNs).lengthNs);
        qInfo("%s, %d threads: %s free: predicted %.3f -> %.3f ms, critical path %.3f -> %.3f ms", qPrintable(model), threads,
              heaviest->first.c_str(), free->baseline.wallNs / 1e6, free->predicted.wallNs / 1e6,
              free->baselinePath.lengthNs / 1e6, free->path.lengthNs / 1e6);
    }
}

void TstRunAnalysis::whatIfErrors() {
    QCOMPARE(QString::fromStdString(parseWhatIf("convolution").error()),
             "what-if 'convolution': expected SELECTOR=FACTOR, e.g. convolution=0.5 or module:layer4=0");
    QCOMPARE(QString::fromStdString(parseWhatIf("relu=-1").error()),
             "what-if 'relu=-1': the factor '-1' must be a number >= 0 (0 makes the nodes free)");
    QVERIFY(!parseWhatIf("relu=fast").isOk());
    auto ok = parseWhatIf("module:layer4.0=0.5");
    QVERIFY(ok.isOk());
    QCOMPARE(QString::fromStdString(ok->selector), "module:layer4.0");
    QCOMPARE(ok->factor, 0.5);
    const Measured& m = measured("zoo/mlp", 1);
    QCOMPARE(QString::fromStdString(selectNodes(*m.fixture.plan, "module:nowhere").error()),
             "what-if: 'module:nowhere' names no module of the program");
    QVERIFY(QString::fromStdString(selectNodes(*m.fixture.plan, "frobnicate").error()).startsWith("what-if: 'frobnicate' names no op, module or node"));
    QVERIFY(!exec::whatIf(*m.fixture.plan, MeasuredRun{}, {}).isOk());
}

// Per line, recounted here: inclusive over each node's distinct lines, self at its innermost user frame.
void TstRunAnalysis::linesAddUp() {
    QFETCH(QString, model);
    IRLENS_REQUIRE_FIXTURE(model);
    const Measured& m = measured(model.toStdString(), 1);
    const LineProfile lp = lineProfile(*m.fixture.plan, m.run.nodeNs);
    std::map<std::pair<std::string, int>, int64_t> inclusive, self;
    int64_t traced = 0, all = 0;
    for (const PlanNode& pn : m.fixture.plan->graph().nodes) {
        const int64_t ns = m.run.nodeNs[static_cast<size_t>(pn.index)];
        all += ns;
        if (!pn.node->meta.stackTrace || pn.node->meta.stackTrace->empty()) continue;
        traced += ns;
        const auto& frames = pn.node->meta.frames.items();
        std::set<std::pair<std::string, int>> lines;
        for (const StackFrame& f : frames) lines.insert({f.file, f.line});
        for (const auto& l : lines) inclusive[l] += ns;
        auto user = std::find_if(frames.rbegin(), frames.rend(), [](const StackFrame& f) { return f.file.find("torch/") != 0 && f.file.find("/torch/") == std::string::npos; });
        const StackFrame* at = user != frames.rend() ? &*user : frames.empty() ? nullptr : &frames.back();
        self[at ? std::make_pair(at->file, at->line) : std::make_pair(std::string(), 0)] += ns;
    }
    QVERIFY(lp.tracedNodes > 0);
    QCOMPARE(lp.tracedNs, traced);
    QCOMPARE(lp.tracedNs + lp.untracedNs, all);
    int64_t selfSum = 0;
    int selfNodes = 0;
    for (const SourceLine& l : lp.lines) {
        selfSum += l.selfNs;
        selfNodes += l.selfNodes;
        QCOMPARE(l.selfNs, self[std::make_pair(l.file, l.line)]);
        QCOMPARE(l.inclusiveNs, inclusive[std::make_pair(l.file, l.line)]);
        QVERIFY(l.inclusiveNs >= l.selfNs || l.nodes == 0);
    }
    QCOMPARE(selfSum, traced);
    QCOMPARE(selfNodes, lp.tracedNodes);
    const SourceLine& top = lp.lines.front();
    qInfo("%s: %d lines; most self time at %s:%d (%.3f ms of %.3f ms): %s", qPrintable(model), static_cast<int>(lp.lines.size()),
          top.file.c_str(), top.line, top.selfNs / 1e6, lp.tracedNs / 1e6, top.code.c_str());
}

void TstRunAnalysis::libraryFrames_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("library");
    QTest::addRow("torch relative") << "torch/nn/modules/linear.py" << true;
    QTest::addRow("torch installed") << "/usr/lib/python3/dist-packages/torch/nn/functional.py" << true;
    QTest::addRow("windows") << "C:\\Python\\Lib\\site-packages\\torch\\nn\\modules\\conv.py" << true;
    QTest::addRow("user") << "pt2gen/models.py" << false;
    QTest::addRow("user dir named like torch") << "/home/me/my_torch/model.py" << false;
    QTest::addRow("user file torch.py") << "/home/me/torch.py" << false;
}

void TstRunAnalysis::libraryFrames() {
    QFETCH(QString, file);
    QFETCH(bool, library);
    QCOMPARE(isLibraryFrame(file.toStdString()), library);
}

QTEST_GUILESS_MAIN(TstRunAnalysis)
#include "tst_run_analysis.moc"
