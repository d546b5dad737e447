// A decomposition step reports its progress and can be cancelled: the session's progress hook
// (nodes looked at / total, then the re-checks), a cancel at any point leaving the session where it
// was, the pane's progress bar and Cancel button leaving the Document's program, node count and
// verifier state as before the step, and the event loop never blocked over 100 ms by the pane while
// "Step all" runs on the biggest fixtures (a 10 ms timer measures the gaps; the Document's own swap
// turn is measured apart).
#include "support/zoo_files.h"
#include "support/gui_test_util.h"
#include "core/decomp/decomp_session.h"
#include "sanitizers/sanitizer_build.h"
#include "core/io/pt2_reader.h"
#include "core/ir/example_program.h"
#include "views/decomp/decomp_models.h"
#include "views/decomp/decomp_pane.h"
#include "views/decomp/decomposition.h"
#include "views/document.h"
#include "views/graph/graph_scene.h"

#include <QElapsedTimer>
#include <QProgressBar>
#include <QTimer>
#include <QTest>

using namespace irlens;
using namespace irlens::views;
using Phase = core::DecompProgress::Phase;

namespace {

constexpr qint64 kMaxGapMs = 100;

core::ProgramPtr loadFixture(const QString& which) {
    if (which.startsWith("zoo/")) testing::writeViewPrograms();
    auto p = core::loadPt2(testing::fixture(which.toStdString()).string());
    return p ? *p : nullptr;
}

bool waitStep(DecompPane& pane, int timeoutMs = 120000) {
    QElapsedTimer t;
    t.start();
    while (pane.isBusy() && t.elapsed() < timeoutMs) QTest::qWait(5);
    return !pane.isBusy();
}

/// Ticks every 10 ms and keeps the longest gap between ticks.
class Watchdog {
public:
    Watchdog() {
        m_timer.setInterval(10);
        m_timer.setTimerType(Qt::PreciseTimer);
        QObject::connect(&m_timer, &QTimer::timeout, [this] { tick(); });
        m_clock.start();
        m_timer.start();
    }
    void tick() {
        const qint64 now = m_clock.elapsed();
        m_gaps.push_back({m_last, now});
        m_last = now;
    }
    qint64 now() const { return m_clock.elapsed(); }
    /// The longest gap, leaving out the one around `except` (-1: none left out).
    qint64 worst(qint64 except = -1) const {
        qint64 w = 0;
        for (const auto& [from, to] : m_gaps)
            if (!(except >= from && except <= to)) w = std::max(w, to - from);
        return w;
    }
    /// The gap around `at`.
    qint64 gapAt(qint64 at) const {
        for (const auto& [from, to] : m_gaps)
            if (at >= from && at <= to) return to - from;
        return 0;
    }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0;
    std::vector<std::pair<qint64, qint64>> m_gaps;
};

} // namespace

class TstDecompProgress : public QObject {
    Q_OBJECT
private slots:
    void sessionReportsProgress_data();
    void sessionReportsProgress();
    void sessionCancelKeepsProgram_data();
    void sessionCancelKeepsProgram();
    void cancelSecondStageOfPrims();
    void paneCancelRestores();
    void newProgramDuringStepWins();
    void stepAllNeverBlocks_data();
    void stepAllNeverBlocks();
};

void TstDecompProgress::sessionReportsProgress_data() {
    QTest::addColumn<QString>("which");
    QTest::addColumn<int>("stage"); // DecompStage
    QTest::addRow("zoo mlp_training -> core") << "zoo/mlp_training/model.pt2" << int(core::DecompStage::ToCore);
    QTest::addRow("zoo gpt_block -> prims") << "zoo/gpt_block/model.pt2" << int(core::DecompStage::ToPrims);
    QTest::addRow("zoo decoder_like_training -> core") << "zoo/decoder_like_training/model.pt2" << int(core::DecompStage::ToCore);
    QTest::addRow("zoo encoder_layer_like -> prims") << "zoo/encoder_layer_like/model.pt2" << int(core::DecompStage::ToPrims);
}

void TstDecompProgress::sessionReportsProgress() {
    QFETCH(QString, which);
    QFETCH(int, stage);
    IRLENS_REQUIRE_FIXTURE(which);
    const core::ProgramPtr program = loadFixture(which);
    QVERIFY(program);
    core::DecompSession session(program);
    std::vector<core::DecompProgress> seen;
    session.setProgress([&](const core::DecompProgress& p) {
        seen.push_back(p);
        return true;
    });
    auto step = session.stepAll(core::DecompStage(stage));
    QVERIFY2(step.isOk(), step.isOk() ? "" : step.error().c_str());
    QVERIFY(!(*step)->applied.empty());
    // the rewrite counts every node of the program once, in order, ending at the total
    const size_t total = program->graph.nodes.size();
    size_t rewrites = 0, last = 0;
    std::vector<Phase> phases;
    for (const auto& p : seen) {
        if (phases.empty() || phases.back() != p.phase) phases.push_back(p.phase);
        if (p.phase != Phase::Rewrite) continue;
        ++rewrites;
        QCOMPARE(p.total, total);
        QVERIFY(p.done >= last && p.done <= total);
        last = p.done;
    }
    QCOMPARE(last, total);
    QVERIFY(rewrites >= total / core::DecompSession::kProgressEvery);
    // then the re-checks the options ask for, in order (no numeric check by default), then done
    QVERIFY(phases == (std::vector<Phase>{Phase::Rewrite, Phase::Verify, Phase::MetaCheck, Phase::Done}));
    QCOMPARE(seen.back().done, size_t(1));
}

void TstDecompProgress::sessionCancelKeepsProgram_data() {
    QTest::addColumn<int>("phase");
    QTest::addColumn<double>("fraction"); // of the nodes, for the rewrite
    QTest::addRow("before the rewrite") << int(Phase::Rewrite) << 0.0;
    QTest::addRow("half way through the rewrite") << int(Phase::Rewrite) << 0.5;
    QTest::addRow("while verifying") << int(Phase::Verify) << 0.0;
    QTest::addRow("while checking meta") << int(Phase::MetaCheck) << 0.0;
}

void TstDecompProgress::sessionCancelKeepsProgram() {
    QFETCH(int, phase);
    QFETCH(double, fraction);
    const core::ProgramPtr program = loadFixture("zoo/mlp_training/model.pt2");
    QVERIFY(program);
    const core::Program copy = *program;
    core::DecompSession session(program);
    bool cancelled = false;
    session.setProgress([&](const core::DecompProgress& p) {
        if (p.phase == Phase(phase) && p.done >= size_t(fraction * double(p.total))) cancelled = true;
        return !cancelled;
    });
    auto step = session.stepAll(core::DecompStage::ToCore);
    QVERIFY(cancelled);
    QVERIFY(!step.isOk());
    QVERIFY(core::DecompSession::isCancelled(step.error()));
    QCOMPARE(session.position(), size_t(0));
    QCOMPARE(session.current(), program);
    QVERIFY(session.history().empty());
    QVERIFY(!session.canUndo() && !session.canRedo());
    QVERIFY(program->graph == copy.graph); // the snapshot itself was never touched
    // and the session still steps
    session.setProgress({});
    auto again = session.stepAll(core::DecompStage::ToCore);
    QVERIFY(again.isOk());
    QCOMPARE(session.position(), size_t(1));
}

void TstDecompProgress::cancelSecondStageOfPrims() {
    // "to prims" from training is two steps; a cancel in the second keeps the first
    const core::ProgramPtr program = loadFixture("zoo/mlp_training/model.pt2");
    QVERIFY(program);
    core::DecompSession session(program);
    int rewriteStarts = 0;
    session.setProgress([&](const core::DecompProgress& p) {
        if (p.phase == Phase::Rewrite && p.done == 0) ++rewriteStarts;
        return rewriteStarts < 2;
    });
    auto step = session.stepToLevel(core::IrLevel::Prims);
    QVERIFY(!step.isOk() && core::DecompSession::isCancelled(step.error()));
    QCOMPARE(rewriteStarts, 2);
    QCOMPARE(session.position(), size_t(1));
    QVERIFY(session.history().front()->stage == core::DecompStage::ToCore);
}

void TstDecompProgress::paneCancelRestores() {
    testing::writeViewPrograms();
    Document doc;
    DecompPane pane(&doc);
    GraphScene scene(&doc);
    QCOMPARE(testing::openAndWait(doc, testing::fixture("zoo/deep_decoder_like/model.pt2")), QString());
    QTRY_VERIFY_WITH_TIMEOUT(!doc.verifierSummary().contains("verifying"), 60000);
    const core::ProgramPtr original = doc.program();
    const size_t nodes = original->graph.nodes.size();
    const QString verifier = doc.verifierSummary();
    const size_t diagnostics = doc.diagnostics().size();
    const QString title = doc.title();
    const core::IrLevel level = pane.currentLevel();

    QVERIFY(pane.stepAll());
    QVERIFY(pane.isBusy());
    QVERIFY(!pane.progressBar()->isHidden());
    QVERIFY(!pane.stepAll()); // one step at a time
    // Cancel once the bar shows the worker's progress, whichever phase that is: the bar is refreshed by a
    // 50 ms GUI timer, so on a busy machine the rewrite phase can pass between two refreshes (cancelling
    // mid-rewrite and during each re-check is covered deterministically by sessionCancelKeepsProgram).
    QElapsedTimer t;
    t.start();
    auto started = [&] { return !pane.progressBar()->format().startsWith("starting"); };
    while (pane.isBusy() && !started() && t.elapsed() < 60000) QTest::qWait(5);
    QVERIFY2(pane.isBusy(), "the step finished before it could be cancelled");
    if (pane.progressBar()->format().startsWith("rewriting")) {
        QCOMPARE(pane.progressBar()->maximum(), int(nodes));
        QVERIFY(pane.progressBar()->value() <= int(nodes));
    }
    const int doneAtCancel = pane.progressBar()->value();
    QElapsedTimer latency;
    latency.start();
    QVERIFY(pane.cancelStep());
    QVERIFY(waitStep(pane));
    qInfo("cancelled at %d / %zu nodes; idle again after %lld ms", doneAtCancel, nodes, latency.elapsed());
    QVERIFY(!pane.cancelStep()); // idle now
    QCOMPARE(doc.program(), original);
    QCOMPARE(doc.program()->graph.nodes.size(), nodes);
    QCOMPARE(doc.title(), title);
    QCOMPARE(pane.decomposition()->session()->position(), size_t(0));
    QCOMPARE(pane.historyModel()->rowCount(), 0);
    QVERIFY(!pane.decomposition()->isModified());
    QVERIFY(doc.newNodes().names.isEmpty());
    QCOMPARE(doc.verifierSummary(), verifier);
    QCOMPARE(doc.diagnostics().size(), diagnostics);
    QVERIFY(pane.statusText().contains("Cancelled: the program is as it was before the step"));
    QVERIFY(pane.progressBar()->isHidden());
    QCOMPARE(int(pane.currentLevel()), int(level));
}

void TstDecompProgress::newProgramDuringStepWins() {
    // a program opened while a step runs replaces the session; the step's result is dropped
    testing::writeViewPrograms();
    Document doc;
    DecompPane pane(&doc);
    QCOMPARE(testing::openAndWait(doc, testing::fixture("zoo/deep_decoder_like/model.pt2")), QString());
    QVERIFY(pane.stepAll());
    QVERIFY(pane.isBusy());
    const core::ProgramPtr other = core::makeExampleProgram();
    doc.setProgram(other, "example");
    QVERIFY(waitStep(pane));
    QCOMPARE(doc.program(), other);
    QCOMPARE(pane.decomposition()->session()->current(), other);
    QCOMPARE(pane.historyModel()->rowCount(), 0);
    QVERIFY(doc.newNodes().names.isEmpty());
    QVERIFY(!pane.decomposition()->isModified());
    QCOMPARE(int(pane.currentLevel()), int(core::IrLevel::CoreAten)); // the example's level
    QVERIFY(testing::waitForLayout(doc));
}

void TstDecompProgress::stepAllNeverBlocks_data() {
    QTest::addColumn<QString>("which");
    QTest::addColumn<int>("level");         // IrLevel to step to
    QTest::addColumn<bool>("countsNodes");  // long enough for the 50 ms bar refresh to see the rewrite
    testing::writeViewPrograms();
    // deep_stack (11,166 nodes in prims): the owned deep stack grows to 18,964 and its worst gap came within a few ms
    // of the limit on a loaded machine
    QTest::addRow("deep_stack -> prims") << "generated/deep_stack/model.pt2" << int(core::IrLevel::Prims) << true;
    QTest::addRow("zoo decoder_like_training -> prims") << "zoo/decoder_like_training/model.pt2" << int(core::IrLevel::Prims) << false;
}

void TstDecompProgress::stepAllNeverBlocks() {
    QFETCH(QString, which);
    QFETCH(int, level);
    QFETCH(bool, countsNodes);
    IRLENS_REQUIRE_FIXTURE(which);
    Document doc;
    DecompPane pane(&doc);
    GraphScene scene(&doc);
    QCOMPARE(testing::openAndWait(doc, testing::fixture(which.toStdString())), QString());
    const size_t before = doc.program()->graph.nodes.size();
    Watchdog dog;
    QElapsedTimer t;
    t.start();
    // the turn in which the Document takes the new program (views/document.cpp, another area)
    qint64 swapAt = -1;
    QObject::connect(&doc, &Document::programChanged, &pane, [&] { swapAt = dog.now(); });
    QVERIFY(pane.stepToLevel(core::IrLevel(level)));
    int maxSeen = 0;
    bool barShown = false;
    while (pane.isBusy() && t.elapsed() < 300000) {
        QTest::qWait(5);
        maxSeen = std::max(maxSeen, pane.progressBar()->value());
        barShown = barShown || !pane.progressBar()->isHidden();
    }
    QVERIFY(!pane.isBusy());
    const qint64 stepMs = t.elapsed();

    QTest::qWait(30); // the swap and its first repaint
    dog.tick();
    QVERIFY(swapAt >= 0);
    const qint64 swapGap = dog.gapAt(swapAt);
    const qint64 worst = dog.worst(swapAt);
    qInfo("%s: step %lld ms, %zu -> %zu nodes, worst event-loop gap %lld ms (the Document's swap: %lld ms)",
          qPrintable(which), stepMs, before, doc.program()->graph.nodes.size(), worst, swapGap);
    QCOMPARE(int(pane.currentLevel()), level);
    QVERIFY(doc.program()->graph.nodes.size() != before);
    QVERIFY(barShown);
    if (countsNodes) QVERIFY(maxSeen > 0); // the bar counted nodes
    QVERIFY(pane.progressBar()->isHidden());
    IRLENS_SKIP_IF_SANITIZED("event-loop gaps");
    // Everything the pane does (starting the step, the progress bar while the worker rewrites and
    // re-checks, the lists' rebuild) stays under 100 ms per event-loop turn.
    QVERIFY2(worst <= kMaxGapMs, qPrintable(QString("the event loop stalled %1 ms").arg(worst)));
    // The turn of Document::setProgram is measured apart: it builds the module tree and the
    // incremental-layout replacement map on the GUI thread (about 50 + 70 ms for deep_stack's 11k
    // nodes on a loaded two-core box), which is the Document's to move to a worker. Bounded here
    // so that a regression in it is still caught.
    QVERIFY2(swapGap <= 4 * kMaxGapMs, qPrintable(QString("the Document's swap stalled %1 ms").arg(swapGap)));
}

QTEST_MAIN(TstDecompProgress)
#include "tst_decomp_progress.moc"
