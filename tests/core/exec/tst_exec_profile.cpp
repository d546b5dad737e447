// The profiling observer on real programs: node intervals tile each worker's time (one clock read
// per node), a serial run's node times add up to its wall time, threads never overlap themselves,
// the Profile keeps a bounded sample of many runs with exact counts and extremes, and observers
// without a per-node array get one onNode per node. Each observed run reports how long the engine's
// threads waited on a run queue: a thread made to share its core with a spinning one waits, and the
// Profile keeps that per run.
#include "core/exec/engine.h"
#include "core/exec/inputs.h"
#include "core/exec/profile.h"
#include "core/io/pt2_reader.h"
#include "support/shared_core.h"
#include "support/shared_fixtures.h"
#include "support/zoo_files.h"

#include <QTest>

#include <algorithm>
#include <chrono>
#include <map>

using namespace irlens::core;
using namespace irlens::core::exec;

namespace {

struct Loaded {
    std::shared_ptr<ExecutionPlan> plan;
    std::vector<EValue> inputs;
};

Loaded load(const std::string& name) {
    const auto dir = irlens::testing::fixture(irlens::testing::programFolder(name));
    auto prog = loadPt2((dir / "model.pt2").string());
    if (!prog) qFatal("%s: %s", name.c_str(), prog.error().c_str());
    auto plan = ExecutionPlan::compile(*prog);
    if (!plan) qFatal("%s: %s", name.c_str(), plan.error().c_str());
    auto expected = loadExpected((dir / "model.expected").string());
    if (!expected) qFatal("%s: %s", name.c_str(), expected.error().c_str());
    return {*plan, expected->main.inputs};
}

class CountingObserver : public ExecObserver {
public:
    void onNode(const NodeTiming& t) override { seen.push_back(t); }
    std::vector<NodeTiming> seen;
};

} // namespace

class TstExecProfile : public QObject {
    Q_OBJECT
private slots:
    void intervalsTileEachWorker_data();
    void intervalsTileEachWorker();
    void boundedSamplesExactCounts();
    void observerWithoutSlots();
    void queuedTimeOfSharedCore_data();
    void queuedTimeOfSharedCore();
    void unobservedRunsReportNoQueue();
};

void TstExecProfile::intervalsTileEachWorker_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("threads");
    QTest::addRow("zoo/mlp, 1 thread") << "zoo/mlp" << 1;
    QTest::addRow("zoo/conv_attention, 1 thread") << "zoo/conv_attention" << 1;
    QTest::addRow("zoo/conv_attention, 2 threads") << "zoo/conv_attention" << 2;
    QTest::addRow("zoo/gpt_block, 2 threads") << "zoo/gpt_block" << 2;
    QTest::addRow("zoo/conv_net, 1 thread") << "zoo/conv_net" << 1;
    QTest::addRow("zoo/conv_net, 2 threads") << "zoo/conv_net" << 2;
    QTest::addRow("zoo/decoder_stack, 2 threads") << "zoo/decoder_stack" << 2;
}

void TstExecProfile::intervalsTileEachWorker() {
    QFETCH(QString, model);
    QFETCH(int, threads);
    IRLENS_REQUIRE_FIXTURE(model);
    const Loaded m = load(model.toStdString());
    Engine engine(m.plan);
    Profile profile;
    RunOptions options;
    options.threads = threads;
    options.observer = &profile;
    auto r = engine.run(m.inputs, options);
    QVERIFY2(r.isOk(), r.isOk() ? "" : r.error().c_str());
    const auto& last = profile.lastRun();
    QCOMPARE(last.size(), m.plan->graph().nodes.size());
    std::map<int, std::vector<NodeTiming>> perThread;
    for (const auto& t : last) {
        QVERIFY(t.node >= 0); // every node ran
        QVERIFY(t.thread >= 0 && t.thread < threads);
        QVERIFY(t.startNs >= 0 && t.endNs >= t.startNs && t.endNs <= r->wallNs);
        perThread[t.thread].push_back(t);
    }
    for (auto& [thread, ts] : perThread) {
        std::sort(ts.begin(), ts.end(), [](const auto& a, const auto& b) { return a.startNs < b.startNs; });
        for (size_t k = 1; k < ts.size(); ++k) QVERIFY2(ts[k].startNs >= ts[k - 1].endNs, qPrintable(QString::number(thread)));
    }
    if (threads == 1) {
        // one worker: each node starts where the previous one ended, from the run's start to (almost) its end
        const auto& ts = perThread[0];
        QCOMPARE(ts.front().startNs, int64_t(0));
        int64_t sum = 0;
        for (size_t k = 0; k < ts.size(); ++k) {
            if (k > 0) QCOMPARE(ts[k].startNs, ts[k - 1].endNs);
            sum += ts[k].endNs - ts[k].startNs;
        }
        QVERIFY2(static_cast<double>(sum) >= 0.9 * static_cast<double>(r->wallNs), qPrintable(QString("%1 of %2 ns").arg(sum).arg(r->wallNs)));
        QCOMPARE(profile.threads(), 1);
    }
}

void TstExecProfile::boundedSamplesExactCounts() {
    const Loaded m = load("zoo/mlp");
    Engine engine(m.plan);
    Profile profile;
    RunOptions options;
    options.threads = 1;
    options.observer = &profile;
    const int runs = 300;
    for (int k = 0; k < runs; ++k) QVERIFY(engine.run(m.inputs, options).isOk());
    QCOMPARE(profile.runs(), runs);
    QCOMPARE(profile.sampleCapacity(), 256);
    QCOMPARE(profile.samples(), 256); // bounded: not one per run
    QCOMPARE(static_cast<int>(profile.wallNs().size()), runs);
    const auto nodes = profile.nodes();
    QCOMPARE(nodes.size(), m.plan->graph().nodes.size());
    for (const auto& n : nodes) {
        QCOMPARE(n.calls, runs);
        QVERIFY(n.minNs <= n.medianNs && n.medianNs <= n.maxNs);
        QVERIFY(n.minNs >= 0);
    }
    // the trace shows one sampled run: one complete event per node
    const std::string trace = profile.chromeTraceJson();
    size_t events = 0;
    for (size_t at = trace.find("\"ph\":\"X\""); at != std::string::npos; at = trace.find("\"ph\":\"X\"", at + 1)) ++events;
    QCOMPARE(events, nodes.size());
}

void TstExecProfile::observerWithoutSlots() {
    const Loaded m = load("zoo/conv_attention");
    Engine engine(m.plan);
    CountingObserver obs;
    RunOptions options;
    options.threads = 2;
    options.observer = &obs;
    auto r = engine.run(m.inputs, options);
    QVERIFY(r.isOk());
    QCOMPARE(obs.seen.size(), m.plan->graph().nodes.size());
    std::vector<int> nodes;
    for (const auto& t : obs.seen) nodes.push_back(t.node);
    std::sort(nodes.begin(), nodes.end());
    for (size_t k = 0; k < nodes.size(); ++k) QCOMPARE(nodes[k], static_cast<int>(k)); // each node once
}

void TstExecProfile::queuedTimeOfSharedCore_data() {
    QTest::addColumn<int>("threads");
    QTest::addRow("1 thread") << 1;
    QTest::addRow("2 threads") << 2;
}

// The calling thread and a thread that only spins, both held to one core: the scheduler shares the
// core between them, so in the runs the calling thread spends a good part of its time runnable and
// waiting, and the runs' queued time says so.
void TstExecProfile::queuedTimeOfSharedCore() {
    QFETCH(int, threads);
    if (!RunQueueWait::available()) QSKIP("this system reports no run-queue wait (/proc/self/task/*/schedstat)");
    const Loaded m = load("zoo/conv_net");
    Engine engine(m.plan);
    Profile profile;
    RunOptions options;
    options.threads = threads;
    options.observer = &profile;

    irlens::testing::SharedCore sharedCore;
    QVERIFY(sharedCore.pinned());
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(300);
    bool ok = true;
    while (ok && (profile.runs() < 5 || std::chrono::steady_clock::now() < until)) ok = engine.run(m.inputs, options).isOk();
    sharedCore.stop();
    QVERIFY(ok);

    const auto& queued = profile.queuedNs();
    QCOMPARE(queued.size(), profile.wallNs().size());
    int64_t queuedSum = 0, wallSum = 0;
    for (size_t k = 0; k < queued.size(); ++k) {
        QVERIFY2(queued[k] >= 0, "every observed run is measured where the system reports the wait");
        queuedSum += queued[k];
        wallSum += profile.wallNs()[k];
    }
    // the spinner has the core about half the time; a tenth leaves room for how the scheduler slices it
    QVERIFY2(queuedSum > wallSum / 10, qPrintable(QString("queued %1 ms of %2 ms").arg(queuedSum / 1e6).arg(wallSum / 1e6)));
    // the summary the CLI and the GUI show: the sum, and the slowest run's own
    const Profile::Queued summary = profile.queued();
    QVERIFY(summary.measured);
    QCOMPARE(summary.totalNs, queuedSum);
    const auto& walls = profile.wallNs();
    QCOMPARE(summary.slowestRunNs, queued[static_cast<size_t>(std::max_element(walls.begin(), walls.end()) - walls.begin())]);
}

void TstExecProfile::unobservedRunsReportNoQueue() {
    const Loaded m = load("zoo/mlp");
    Engine engine(m.plan);
    auto r = engine.run(m.inputs, RunOptions{});
    QVERIFY(r.isOk());
    QCOMPARE(r->queuedNs, int64_t(-1)); // nothing read for a run nobody observes
    Profile profile;
    RunOptions observed;
    observed.observer = &profile;
    auto o = engine.run(m.inputs, observed);
    QVERIFY(o.isOk());
    QCOMPARE(o->queuedNs >= 0, RunQueueWait::available());
    QCOMPARE(profile.queuedNs().size(), size_t(1));
    QCOMPARE(profile.queuedNs().front(), o->queuedNs);
}

QTEST_GUILESS_MAIN(TstExecProfile)
#include "tst_exec_profile.moc"
