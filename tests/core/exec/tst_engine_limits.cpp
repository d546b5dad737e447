// Engine resource limits on real programs: a memory plan over budget is refused before any node runs,
// the plan's peak agrees with what the engine really allocates, and cancel stops a long run quickly.
#include "sanitizers/sanitizer_build.h"
#include "support/shared_fixtures.h"
#include "support/zoo_files.h"

#include "core/exec/engine.h"
#include "core/exec/inputs.h"
#include "core/exec/memory_budget.h"
#include "core/io/pt2_reader.h"

#include <QElapsedTimer>
#include <QTest>

#include <atomic>
#include <chrono>
#include <thread>

using namespace irlens::core;
using namespace irlens::core::exec;
using namespace irlens::testing;

namespace {

struct CountingObserver : ExecObserver {
    std::atomic<int> nodes{0};
    void onNode(const NodeTiming&) override { nodes.fetch_add(1, std::memory_order_relaxed); }
};

std::shared_ptr<ExecutionPlan> compileFixture(const std::string& name) {
    auto p = loadPt2(fixture(irlens::testing::programFolder(name) + "/model.pt2").string());
    if (!p) qFatal("%s: %s", name.c_str(), p.error().c_str());
    auto plan = ExecutionPlan::compile(*p);
    if (!plan) qFatal("%s: %s", name.c_str(), plan.error().c_str());
    return *plan;
}

} // namespace

class TstEngineLimits : public QObject {
    Q_OBJECT
private slots:
    void formatBytes_data();
    void formatBytes();
    void budgetRefusesBeforeRunning_data();
    void budgetRefusesBeforeRunning();
    void planPeakMatchesRun_data();
    void planPeakMatchesRun();
    void cancelStopsWithin100ms();
};

void TstEngineLimits::formatBytes_data() {
    QTest::addColumn<qint64>("bytes");
    QTest::addColumn<QString>("text");
    QTest::addRow("bytes") << qint64(12) << "12 bytes";
    QTest::addRow("KiB") << qint64(1536) << "1.5 KiB";
    QTest::addRow("MiB") << qint64(640) * 1024 * 1024 << "640.0 MiB";
    QTest::addRow("GiB") << (qint64(3) << 29) << "1.5 GiB";
}

void TstEngineLimits::formatBytes() {
    QFETCH(qint64, bytes);
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(exec::formatBytes(bytes)), text);
}

void TstEngineLimits::budgetRefusesBeforeRunning_data() {
    QTest::addColumn<QString>("model");
    for (const char* m : {"zoo/mlp", "zoo/conv_attention", "zoo/gpt_block", "zoo/conv_net", "zoo/decoder_stack"}) QTest::addRow("%s", m) << m;
}

// Budget one byte under the plan's peak: refused, naming the peak, the node and the budget, and no node
// ran. At exactly the peak the same run goes ahead.
void TstEngineLimits::budgetRefusesBeforeRunning() {
    QFETCH(QString, model);
    IRLENS_REQUIRE_FIXTURE(model);
    auto plan = compileFixture(model.toStdString());
    const MemoryPlan mp = planMemory(*plan);
    QVERIFY(mp.peakBytes > mp.inputBytes);
    QVERIFY(mp.peakNode >= 0);
    QCOMPARE(mp.peakNodeName, plan->program().graph.nodes[size_t(mp.peakNode)].name);

    auto inputs = generateInputs(*plan, 7);
    QVERIFY2(inputs, inputs.error().c_str());
    Engine engine(plan);
    CountingObserver observer;
    RunOptions options;
    options.threads = 2;
    options.observer = &observer;
    auto refused = runWithinBudget(engine, *inputs, options, mp.peakBytes - 1);
    QVERIFY(!refused);
    const std::string expected = "memory plan needs " + exec::formatBytes(mp.peakBytes) + " at its peak (at node '" +
                                 mp.peakNodeName + "'), more than the budget of " + exec::formatBytes(mp.peakBytes - 1) +
                                 "; not running (raise the memory budget or use smaller inputs)";
    QCOMPARE(QString::fromStdString(refused.error()), QString::fromStdString(expected));
    QCOMPARE(observer.nodes.load(), 0);

    auto ran = runWithinBudget(engine, *inputs, options, mp.peakBytes);
    QVERIFY2(ran, ran.error().c_str());
    QCOMPARE(observer.nodes.load(), int(plan->program().graph.nodes.size()));
}

void TstEngineLimits::planPeakMatchesRun_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<double>("minRatio");
    // the MLP's intermediates are mostly views of its weights (permute), which the plan counts as
    // allocations and the engine does not: there the plan is only an upper bound.
    QTest::addRow("zoo/mlp") << "zoo/mlp" << 0.0;
    QTest::addRow("zoo/conv_attention") << "zoo/conv_attention" << 0.0;
    QTest::addRow("zoo/conv_net") << "zoo/conv_net" << 0.5;
    QTest::addRow("zoo/depthwise_net") << "zoo/depthwise_net" << 0.5;
}

// The plan is only useful if it predicts the run: single-threaded, the engine's measured peak must not
// exceed the plan's by more than 25% (kernel scratch), and for convolution nets it must be close to it.
void TstEngineLimits::planPeakMatchesRun() {
    QFETCH(QString, model);
    IRLENS_REQUIRE_FIXTURE(model);
    QFETCH(double, minRatio);
    auto plan = compileFixture(model.toStdString());
    const MemoryPlan mp = planMemory(*plan);
    auto inputs = generateInputs(*plan, 7);
    QVERIFY2(inputs, inputs.error().c_str());
    Engine engine(plan);
    RunOptions options;
    options.threads = 1;
    auto run = engine.run(*inputs, options);
    QVERIFY2(run, run.error().c_str());
    const double ratio = double(run->peakBytes) / double(mp.peakBytes - mp.inputBytes);
    qInfo("%s: plan peak %s (inputs %s), measured %s, ratio %.2f", qPrintable(model), exec::formatBytes(mp.peakBytes).c_str(),
          exec::formatBytes(mp.inputBytes).c_str(), exec::formatBytes(run->peakBytes).c_str(), ratio);
    QVERIFY2(ratio >= minRatio && ratio <= 1.25, qPrintable(QString("ratio %1").arg(ratio)));
}

// The zoo's deep residual stack (1,682 nodes) run repeatedly on 2 threads; cancel 50 ms into a run and
// measure how long the engine takes to notice and return.
void TstEngineLimits::cancelStopsWithin100ms() {
    auto plan = compileFixture("zoo/deep_residual_stack");
    auto inputs = generateInputs(*plan, 7);
    QVERIFY2(inputs, inputs.error().c_str());
    Engine engine(plan);
    RunOptions options;
    options.threads = 2;
    QElapsedTimer full;
    full.start();
    auto warm = engine.run(*inputs, options);
    QVERIFY2(warm, warm.error().c_str());
    const qint64 fullMs = full.elapsed();

    std::atomic<bool> cancel{false};
    options.cancel = &cancel;
    // Runs shorter than 50 ms would finish before the cancel: loop runs until the flag is seen.
    std::atomic<int64_t> cancelledAtNs{0};
    std::thread canceller([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        cancelledAtNs = std::chrono::steady_clock::now().time_since_epoch().count();
        cancel = true;
    });
    Result<RunResult> last = Status::error("never ran");
    int runs = 0;
    do {
        last = engine.run(*inputs, options);
        ++runs;
    } while (last && runs < 1000);
    const int64_t returnedNs = std::chrono::steady_clock::now().time_since_epoch().count();
    canceller.join();
    QVERIFY2(!last, "the run never saw the cancel flag");
    const double latencyMs = double(returnedNs - cancelledAtNs.load()) / 1e6;
    qInfo("deep residual stack: full run %lld ms; cancelled during run %d, returned %.1f ms after the flag was set: %s", fullMs,
          runs, latencyMs, last.error().c_str());
    QVERIFY2(last.error().rfind("cancelled", 0) == 0 || last.error().find("cancelled") != std::string::npos,
             last.error().c_str());
    IRLENS_SKIP_IF_SANITIZED("cancel latency");
    QVERIFY2(latencyMs < 100.0, qPrintable(QString("cancel took %1 ms").arg(latencyMs)));
}

QTEST_GUILESS_MAIN(TstEngineLimits)
#include "tst_engine_limits.moc"
