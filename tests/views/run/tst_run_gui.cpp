// The run GUI: the Run action on the bundled example (and fixtures when ../shared is present), the
// profile table, the heatmap overlay and the per-thread timeline.
// engine headers (oneTBB) before Qt's
#include "core/exec/engine.h"
#include "core/exec/output_summary.h"
#include "core/exec/run_compare.h"
#include "core/exec/stepper.h"

#include "support/zoo_files.h"
#include "support/gui_test_util.h"
#include "views/graph/graph_items.h"
#include "views/qstring_util.h"
#include "views/graph/graph_pane.h"
#include "views/graph/graph_scene.h"
#include "views/graph/graph_view.h"
#include "views/run/heatmap_overlay.h"
#include "views/main_window.h"
#include "views/run/profile_table_model.h"
#include "views/run/run_controller.h"
#include "views/run/run_outputs_model.h"
#include "views/run/run_snapshot.h"
#include "views/run/step_controller.h"
#include "views/run/analysis_docks.h"
#include "views/run/step_values_model.h"
#include "views/document.h"
#include "views/inspect/table_pane.h"
#include "views/run/timeline_widget.h"
#include "views/settings_writer.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QSettings>
#include <QSpinBox>
#include <QImage>
#include <QLabel>
#include <QMenu>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QStandardItemModel>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QToolTip>
#include <QSignalSpy>
#include <QDockWidget>
#include <QHeaderView>
#include <QRegularExpression>
#include <QTest>

#include <set>

#include <algorithm>
#include <map>

using namespace irlens;
using namespace irlens::views;

class TstRunGui : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void runsAndShows_data();
    void runsAndShows();
    void warmRuns_data();
    void warmRuns();
    void cancelledAndStaleRunsAreDropped();
    void threadCount_data();
    void threadCount();
    void runDocksShownWhenThereIsARun();
    void stepThroughToTheEnd();
    void runToHere();
    void memoryPathAndLines();
};

void TstRunGui::initTestCase() {
    QCoreApplication::setOrganizationName("irlens-tests");
    QCoreApplication::setApplicationName("tst_run_gui");
    // short runs for the tests that do not set their own (the counts are remembered between windows)
    QSettings().setValue("run/warmup", 1);
    QSettings().setValue("run/repeat", 3);
}

void TstRunGui::runsAndShows_data() {
    QTest::addColumn<QString>("fixture");
    QTest::addRow("example") << QString();
    QTest::addRow("zoo/mlp") << QString("zoo/mlp/model.pt2");
    QTest::addRow("zoo/conv_attention") << QString("zoo/conv_attention/model.pt2");
    QTest::addRow("tiny_mlp") << QString("generated/tiny_mlp/model.pt2");
    QTest::addRow("resnet18") << QString("generated/resnet18/model.pt2"); // checked against PyTorch's outputs
}

namespace {
/// Opens `fixture` (the bundled example when empty; "zoo/..." a zoo program) in the window and waits for its layout: the error, or empty.
QString openInWindow(MainWindow& w, const QString& fixture) {
    w.resize(1400, 900);
    if (fixture.isEmpty()) {
        w.openExample();
        return testing::waitForLayout(*w.document()) ? QString() : QString("the example's layout did not arrive");
    }
    if (fixture.startsWith("zoo/")) testing::writeViewPrograms();
    return testing::openAndWait(*w.document(), testing::fixture(fixture.toStdString()));
}
} // namespace

void TstRunGui::runsAndShows() {
    QFETCH(QString, fixture);
    if (!fixture.isEmpty()) IRLENS_REQUIRE_FIXTURE(fixture);
    MainWindow w;
    const QString err = openInWindow(w, fixture);
    QVERIFY2(err.isEmpty(), qPrintable(err));
    Document* doc = w.document();
    auto* rc = w.findChild<RunController*>();
    QVERIFY(rc);
    QCOMPARE(rc->runAction()->shortcut(), QKeySequence(Qt::Key_F5));

    // nothing to colour before a run: the Heatmap action is disabled and says why
    QVERIFY(!rc->heatmapAction()->isEnabled());
    QVERIFY(rc->heatmapAction()->toolTip().contains("run the program first"));
    QSignalSpy finished(doc, &Document::runFinished);
    QSignalSpy failed(rc, &RunController::runFailed);
    rc->runAction()->trigger();
    QVERIFY(rc->isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() > 0 || failed.count() > 0, 60000);
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.front().front().toString()));
    RunSnapshotPtr run = doc->runResult();
    QVERIFY(run);
    QVERIFY(!rc->isRunning());
    QVERIFY(rc->heatmapAction()->isEnabled());

    // profile table: a sound model, one row per executed node, shares adding up to 100 %
    ProfileTableModel* model = rc->profileModel();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model->rowCount(), static_cast<int>(run->nodes.size()));
    QCOMPARE(model->rowCount(), static_cast<int>(doc->program()->graph.nodes.size())); // every node ran
    double shares = 0;
    int64_t totalNs = 0;
    std::map<QString, std::pair<int64_t, int>> perOp;
    for (int r = 0; r < model->rowCount(); ++r) {
        shares += model->index(r, ProfileTableModel::Share).data().toDouble();
        const int64_t ns = model->index(r, 0).data(ProfileTableModel::SelfNsRole).toLongLong();
        totalNs += ns;
        auto& g = perOp[model->index(r, ProfileTableModel::Detail).data().toString()];
        g.first += ns;
        g.second += 1;
    }
    QVERIFY(totalNs > 0);
    // one name per node: a row is named as the node (and the FX text), never after a getitem of it
    std::set<QString> nodeNames;
    for (const auto& n : doc->program()->graph.nodes) nodeNames.insert(QString::fromStdString(n.name));
    for (int r = 0; r < model->rowCount(); ++r) {
        const QString name = model->index(r, 0).data().toString();
        QVERIFY2(nodeNames.count(name), qPrintable(name));
        const QString detail = model->index(r, ProfileTableModel::Detail).data().toString();
        QVERIFY2(!name.startsWith("getitem") || detail.contains("getitem"), qPrintable(name + " " + detail));
    }
    QVERIFY2(std::abs(shares - 100.0) < 0.05 * model->rowCount() + 0.1, qPrintable(QString::number(shares)));
    // the count column counts runs of a node here, nodes of a group below: its header says which
    QCOMPARE(model->headerData(ProfileTableModel::Calls, Qt::Horizontal).toString(), QString("Runs"));
    QVERIFY(model->headerData(ProfileTableModel::Calls, Qt::Horizontal, Qt::ToolTipRole).toString().contains("measured runs"));

    // by op: one row per op, each the sum of its nodes
    rc->groupingCombo()->setCurrentIndex(1);
    QCOMPARE(model->grouping(), ProfileTableModel::Grouping::ByOp);
    QCOMPARE(model->rowCount(), static_cast<int>(perOp.size()));
    QCOMPARE(model->headerData(ProfileTableModel::Calls, Qt::Horizontal).toString(), QString("Nodes"));
    for (int r = 0; r < model->rowCount(); ++r) {
        const QString op = model->index(r, 0).data().toString();
        QVERIFY2(perOp.count(op), qPrintable(op));
        QCOMPARE(model->index(r, 0).data(ProfileTableModel::SelfNsRole).toLongLong(), perOp[op].first);
        QCOMPARE(model->index(r, ProfileTableModel::Calls).data().toInt(), perOp[op].second);
    }
    rc->groupingCombo()->setCurrentIndex(2); // by module: sums equal the node total
    int64_t moduleNs = 0;
    for (int r = 0; r < model->rowCount(); ++r) moduleNs += model->index(r, 0).data(ProfileTableModel::SelfNsRole).toLongLong();
    QCOMPARE(moduleNs, totalNs);
    rc->groupingCombo()->setCurrentIndex(0);

    // the first click on a time column sorts largest first, by the exact number (not the text)
    QTreeView* view = rc->profilePane()->view();
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    auto* profileDock = w.findChild<QDockWidget*>("runProfile");
    QVERIFY(profileDock);
    profileDock->raise();
    QTRY_VERIFY(view->isVisible());
    view->sortByColumn(ProfileTableModel::Name, Qt::AscendingOrder);
    const QRect header = view->header()->rect();
    const int selfX = view->header()->sectionViewportPosition(ProfileTableModel::SelfMs) + 4;
    QTest::mouseClick(view->header()->viewport(), Qt::LeftButton, {}, QPoint(selfX, header.center().y()));
    QCOMPARE(view->header()->sortIndicatorSection(), int(ProfileTableModel::SelfMs));
    QCOMPARE(view->header()->sortIndicatorOrder(), Qt::DescendingOrder);
    const QSortFilterProxyModel* proxy = rc->profilePane()->proxy();
    for (int r = 1; r < proxy->rowCount(); ++r)
        QVERIFY(proxy->index(r - 1, 0).data(ProfileTableModel::SelfNsRole).toLongLong() >=
                proxy->index(r, 0).data(ProfileTableModel::SelfNsRole).toLongLong());
    // the same digits down a column: milliseconds with 3 decimals, shares with 1
    const QRegularExpression ms3("^\\d+\\.\\d{3}$"), pct1("^\\d+\\.\\d$");
    for (int r = 0; r < model->rowCount(); ++r) {
        QVERIFY2(ms3.match(model->index(r, ProfileTableModel::SelfMs).data().toString()).hasMatch(),
                 qPrintable(model->index(r, ProfileTableModel::SelfMs).data().toString()));
        QVERIFY(pct1.match(model->index(r, ProfileTableModel::Share).data().toString()).hasMatch());
    }

    // clicking a row selects its node: click the hottest
    const QModelIndex top = rc->profilePane()->proxy()->index(0, 0);
    const int hottest = top.data(ProfileTableModel::NodeIndexRole).toInt();
    emit view->clicked(top);
    QCOMPARE(doc->selectedNode(), hottest);
    QCOMPARE(doc->program()->graph.nodes[static_cast<size_t>(hottest)].name, top.data().toString().toStdString());

    // outputs: one row per graph output with a dtype and a shape
    QCOMPARE(rc->outputsModel()->rowCount(), static_cast<int>(doc->program()->graph.outputs.size()));
    QVERIFY(!rc->outputsModel()->index(0, RunOutputsModel::Dtype).data().toString().isEmpty());
    // fixtures come with PyTorch's reference outputs: every output is compared and matches
    for (int r = 0; !fixture.isEmpty() && r < rc->outputsModel()->rowCount(); ++r) {
        const QString check = rc->outputsModel()->index(r, RunOutputsModel::Check).data().toString();
        QVERIFY2(check.startsWith("ok ("), qPrintable(check));
    }

    // heatmap: toggling recolours a box, toggling back removes it
    QTRY_VERIFY(testing::waitForLayout(*doc));
    GraphScene* scene = w.graphPane()->scene();
    // the hottest by exact time (the table sorts by milliseconds rounded to 3 places: tiny_mlp's ties)
    const int hottestExact = std::max_element(run->nodes.begin(), run->nodes.end(), [](const RunNode& a, const RunNode& b) {
                                 return a.selfNs < b.selfNs;
                             })->node;
    NodeItem* box = scene->itemForNode(hottestExact);
    QVERIFY(box);
    QVERIFY(!rc->heatmap()->overlayOf(box));
    QVERIFY(box->toolTipText().contains("self"));
    rc->heatmapAction()->setChecked(true);
    QVERIFY(rc->heatmap()->overlayOf(box));
    {
        // hovering the heat box shows its graph box's tooltip, composed on demand, with the run's time
        auto* view = w.graphPane()->view();
        view->centerOn(box);
        const QPoint at = view->mapFromScene(box->sceneBoundingRect().center());
        QHelpEvent help(QEvent::ToolTip, at, view->viewport()->mapToGlobal(at));
        QApplication::sendEvent(view->viewport(), &help);
        QTRY_VERIFY(QToolTip::isVisible());
        QCOMPARE(QToolTip::text(), box->toolTipText());
        QVERIFY(QToolTip::text().startsWith(QString::fromStdString(box->item().title)));
        QToolTip::hideText();
    }
    QCOMPARE(rc->heatmap()->heatColorOf(box), viridis(1.0)); // the hottest box is at the top of the ramp
    rc->heatmapAction()->setChecked(false);
    QVERIFY(!rc->heatmap()->overlayOf(box));

    // timeline: one bar per node; a click selects, the selection is highlighted
    TimelineWidget* tl = rc->timeline();
    tl->resize(1200, 200);
    QCOMPARE(tl->barCount(), static_cast<int>(run->nodes.size()));
    QVERIFY(tl->laneCount() >= 1);
    const int other = run->nodes.front().node;
    const QRectF bar = tl->barRect(other);
    QVERIFY(!bar.isEmpty());
    // the pixel actually clicked: a bar of tiny_mlp is a few pixels wide, so the rounded centre can
    // belong to its neighbour
    const QPoint at = bar.center().toPoint();
    QTest::mouseClick(tl, Qt::LeftButton, {}, at);
    const int clicked = tl->nodeAt(QPointF(at));
    QVERIFY(clicked >= 0);
    QCOMPARE(doc->selectedNode(), clicked);
    doc->selectNode(hottest);
    QCOMPARE(tl->highlightedNode(), hottest);
    // the bar is painted where barRect says (its op family colour, not the background)
    const QImage shot = tl->grab().toImage();
    if (qEnvironmentVariableIsSet("IRLENS_SHOT_DIR")) shot.save(qEnvironmentVariable("IRLENS_SHOT_DIR") + "/timeline_" + QTest::currentDataTag() + ".png");
    const QRectF hot = tl->barRect(hottest);
    QVERIFY(!hot.isEmpty());
    QVERIFY(shot.pixelColor(hot.center().toPoint()) != tl->palette().color(QPalette::Base));
}

void TstRunGui::warmRuns_data() {
    QTest::addColumn<QString>("fixture");
    QTest::addRow("example") << QString();
    QTest::addRow("zoo/gpt_block") << QString("zoo/gpt_block/model.pt2");
    QTest::addRow("zoo/decoder_like") << QString("zoo/decoder_like/model.pt2");
    QTest::addRow("zoo/resnet_like") << QString("zoo/resnet_like/model.pt2");
}

// Run does warm-up runs and measured runs: the Profile shows medians over the measured runs with
// their range, the cold start apart, and a heatmap on which the hottest node stands out.
void TstRunGui::warmRuns() {
    QFETCH(QString, fixture);
    if (!fixture.isEmpty()) IRLENS_REQUIRE_FIXTURE(fixture);
    MainWindow w;
    const QString err = openInWindow(w, fixture);
    QVERIFY2(err.isEmpty(), qPrintable(err));
    auto* rc = w.findChild<RunController*>();
    rc->warmupBox()->setValue(2);
    rc->repeatBox()->setValue(7);
    irlens::views::waitForSettingWrites();
    QCOMPARE(QSettings().value("run/repeat").toInt(), 7);
    QSignalSpy failed(rc, &RunController::runFailed);
    rc->run();
    QTRY_VERIFY_WITH_TIMEOUT(w.document()->runResult() != nullptr || !failed.isEmpty(), 120000);
    QVERIFY(failed.isEmpty());
    RunSnapshotPtr run = w.document()->runResult();

    // seven measured runs; the reported wall time is their median, between the fastest and slowest
    QCOMPARE(run->runs(), 7);
    QCOMPARE(run->warmup, 2);
    std::vector<int64_t> walls = run->runWallNs;
    std::sort(walls.begin(), walls.end());
    QCOMPARE(run->wallNs, walls[3]);
    QCOMPARE(run->wallMinNs, walls.front());
    QCOMPARE(run->wallMaxNs, walls.back());
    QVERIFY(run->coldWallNs > 0);
    for (const RunNode& n : run->nodes) {
        QCOMPARE(n.calls, 7);
        QVERIFY2(n.minNs <= n.selfNs && n.selfNs <= n.maxNs, n.name.c_str());
        QVERIFY2(n.coldNs >= 0, n.name.c_str());
    }
    // the Profile shows the median, its range and the cold start; the summary names the run count
    ProfileTableModel* model = rc->profileModel();
    QCOMPARE(model->headerData(ProfileTableModel::SelfMs, Qt::Horizontal).toString(), QString("Median (ms)"));
    QCOMPARE(model->headerData(ProfileTableModel::ColdMs, Qt::Horizontal).toString(), QString("Cold start (ms)"));
    QVERIFY(model->index(0, ProfileTableModel::RangeMs).data().toString().contains("–"));
    QVERIFY(model->index(0, ProfileTableModel::ColdMs).data().isValid());
    auto* summary = w.findChild<QLabel*>("runSummary");
    QVERIFY(summary);
    QVERIFY2(summary->text().contains("of 7 runs") && summary->text().contains("cold start"), qPrintable(summary->text()));
    // where the system reports it (Linux's schedstat), the slowest run's wait for cores, in the summary
    if (QFile::exists("/proc/thread-self/schedstat")) {
        QVERIFY(run->slowestRunQueuedNs >= 0);
        const QString shown = QString::number(static_cast<double>(run->slowestRunQueuedNs) / 1e6, 'f', 2);
        QVERIFY2(summary->text().contains("slowest run: " + shown + " ms waiting for cores other tasks held"), qPrintable(summary->text()));
    } else {
        QCOMPARE(run->slowestRunQueuedNs, int64_t(-1));
    }

    // the heatmap: the hottest node's colour is not the median node's, and the legend is shown
    std::vector<RunNode> byTime = run->nodes;
    std::sort(byTime.begin(), byTime.end(), [](const RunNode& a, const RunNode& b) { return a.selfNs < b.selfNs; });
    GraphScene* scene = w.graphPane()->scene();
    NodeItem* hot = scene->itemForNode(byTime.back().node);
    NodeItem* middle = scene->itemForNode(byTime[byTime.size() / 2].node);
    QVERIFY(hot && middle && hot != middle);
    rc->heatmapAction()->setChecked(true);
    QVERIFY(rc->heatmap()->legend()->isVisible() || !w.isVisible());
    QVERIFY(!rc->heatmap()->legend()->isHidden());
    const QColor hotColor = rc->heatmap()->heatColorOf(hot), middleColor = rc->heatmap()->heatColorOf(middle);
    QCOMPARE(hotColor, viridis(1.0));
    QVERIFY2(hotColor != middleColor, qPrintable(middleColor.name()));
    QCOMPARE(middleColor, heatColor(byTime[byTime.size() / 2].selfNs, run->hottestNodeNs()));
    if (qEnvironmentVariableIsSet("IRLENS_SHOT_DIR")) {
        w.show();
        QTest::qWait(200);
        w.grab().save(qEnvironmentVariable("IRLENS_SHOT_DIR") + "/warm_" + QTest::currentDataTag() + ".png");
    }
    rc->heatmapAction()->setChecked(false);
    QVERIFY(rc->heatmap()->legend()->isHidden());

    // no warm-up: no cold start to show
    rc->warmupBox()->setValue(0);
    rc->repeatBox()->setValue(2);
    rc->run();
    QTRY_VERIFY_WITH_TIMEOUT(w.document()->runResult() != run && w.document()->runResult() != nullptr, 60000);
    QCOMPARE(w.document()->runResult()->coldWallNs, int64_t(-1));
    QVERIFY(!model->index(0, ProfileTableModel::ColdMs).data().isValid());
    QSettings().setValue("run/warmup", 1);
    QSettings().setValue("run/repeat", 3);
}

void TstRunGui::cancelledAndStaleRunsAreDropped() {
    MainWindow w;
    w.openExample();
    QVERIFY(testing::waitForLayout(*w.document()));
    auto* rc = w.findChild<RunController*>();
    QSignalSpy finished(w.document(), &Document::runFinished);
    // cancel (Esc / the status bar button): nothing is published
    rc->run();
    QVERIFY(rc->isRunning());
    QVERIFY(rc->cancelAction()->isEnabled());
    rc->cancel();
    QVERIFY(!rc->isRunning());
    QTest::qWait(300);
    QCOMPARE(finished.count(), 0);
    QVERIFY(!w.document()->runResult());
    // a new program while running: the old run's result is stale and dropped
    rc->run();
    w.openExample();
    QVERIFY(!rc->isRunning());
    QTest::qWait(300);
    QVERIFY(!w.document()->runResult());
    // a finished run is cleared by the next program (runFinished(nullptr))
    rc->run();
    QTRY_VERIFY_WITH_TIMEOUT(w.document()->runResult() != nullptr, 30000);
    finished.clear();
    w.openExample();
    QVERIFY(!w.document()->runResult());
    QCOMPARE(finished.count(), 1);
    QVERIFY(!finished.front().front().value<RunSnapshotPtr>());
}

void TstRunGui::threadCount_data() {
    QTest::addColumn<QString>("fixture");
    QTest::addColumn<int>("threads");
    QTest::addRow("example, 1 thread") << QString() << 1;
    QTest::addRow("zoo/conv_attention, 2 threads") << QString("zoo/conv_attention/model.pt2") << 2;
    QTest::addRow("zoo/resnet_like, 1 thread") << QString("zoo/resnet_like/model.pt2") << 1;
    QTest::addRow("zoo/resnet_like, 2 threads") << QString("zoo/resnet_like/model.pt2") << 2;
    QTest::addRow("zoo/decoder_like, 2 threads") << QString("zoo/decoder_like/model.pt2") << 2;
}

void TstRunGui::threadCount() {
    QFETCH(QString, fixture);
    QFETCH(int, threads);
    if (threads > QThread::idealThreadCount()) QSKIP("fewer hardware threads than the row needs");
    MainWindow w;
    if (!fixture.isEmpty()) IRLENS_REQUIRE_FIXTURE(fixture);
    const QString err = openInWindow(w, fixture);
    QVERIFY2(err.isEmpty(), qPrintable(err));
    auto* rc = w.findChild<RunController*>();
    QSpinBox* box = rc->threadsBox();
    QCOMPARE(box->minimum(), 1);
    QCOMPARE(box->maximum(), QThread::idealThreadCount());
    box->setValue(threads);
    irlens::views::waitForSettingWrites();
    QCOMPARE(QSettings().value("run/threads").toInt(), threads); // remembered for the next window
    QSignalSpy failed(rc, &RunController::runFailed);
    rc->runAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(w.document()->runResult() != nullptr || !failed.isEmpty(), 60000);
    QVERIFY(failed.isEmpty());
    RunSnapshotPtr run = w.document()->runResult();
    QCOMPARE(run->threads, threads);
    TimelineWidget* tl = rc->timeline();
    QVERIFY(tl->laneCount() >= 1);
    QVERIFY2(tl->laneCount() <= threads, qPrintable(QString::number(tl->laneCount())));
    if (threads == 1) QCOMPARE(tl->laneCount(), 1);
    // a new window starts with the remembered count
    MainWindow again;
    QCOMPARE(again.findChild<RunController*>()->threadsBox()->value(), threads);
}

// The bottom area carries only what has something to show: the run's docks and the Values pane
// appear with a run and a step, and View › Reset layout keeps them while they have content.
void TstRunGui::runDocksShownWhenThereIsARun() {
    MainWindow w;
    w.openExample();
    QVERIFY(testing::waitForLayout(*w.document()));
    w.resetLayout(); // whatever an earlier test left in the settings
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const char* runDocks[] = {"runProfile", "runTimeline", "runFlameGraph", "runOutputs"};
    for (const char* name : runDocks) QVERIFY2(w.findChild<QDockWidget*>(name)->isHidden(), name);
    auto* values = w.findChild<QDockWidget*>("stepValues");
    QVERIFY(values && values->isHidden());
    QVERIFY(!w.findChild<QDockWidget*>("fx")->isHidden()); // the program's text is always there
    w.findChild<RunController*>()->run();
    QTRY_VERIFY_WITH_TIMEOUT(w.document()->runResult() != nullptr, 30000);
    for (const char* name : runDocks) QVERIFY2(!w.findChild<QDockWidget*>(name)->isHidden(), name);
    w.stepController()->step();
    QVERIFY(!values->isHidden());
    w.resetLayout();
    for (const char* name : runDocks) QVERIFY2(!w.findChild<QDockWidget*>(name)->isHidden(), name);
    QVERIFY(!values->isHidden());
    // a new program: no run, no session; Reset layout hides their docks again
    w.openExample();
    QVERIFY(testing::waitForLayout(*w.document()));
    w.resetLayout();
    for (const char* name : runDocks) QVERIFY2(w.findChild<QDockWidget*>(name)->isHidden(), name);
    QVERIFY(values->isHidden());
}

namespace {
// What the engine computes for `value` when it is made one more output of the program (2 threads).
core::exec::OutputSummary engineValue(const core::Program& program, const std::string& value, const std::vector<core::exec::EValue>& inputs) {
    auto p = std::make_shared<core::Program>(program);
    p->graph.outputs.push_back(core::Argument::tensor(value));
    p->signature.outputSpecs.push_back({core::OutputKind::UserOutput, core::Argument::tensor(value), ""});
    auto run = core::exec::compileAndRun(p, inputs, 2);
    if (!run || !run->outputs.back().isTensor()) return {};
    return core::exec::summarizeOutput(run->outputs.back().tensor);
}
} // namespace

// Run › Step node (F10) through the zoo's MLP: each step selects the next node, and every row's value
// equals the engine's value for that node in a full run.
void TstRunGui::stepThroughToTheEnd() {
    MainWindow w;
    QCOMPARE(openInWindow(w, "zoo/mlp/model.pt2"), QString());
    StepController* sc = w.stepController();
    QVERIFY(sc->stepAction()->isEnabled());
    QSignalSpy stepped(sc, &StepController::stepped);
    sc->stepAction()->trigger();
    QCOMPARE(stepped.count(), 1);
    const core::exec::Stepper* st = sc->stepper();
    QVERIFY(st);
    const int nodes = st->nodeCount();
    QVERIFY(nodes > 3);
    QCOMPARE(w.document()->selectedNode(), 1); // the next node is the one selected
    while (!st->finished()) {
        const int next = st->nextNode();
        QCOMPARE(w.document()->selectedNode(), next);
        QVERIFY(sc->valuesModel()->row(next)->next);
        sc->stepAction()->trigger();
        QVERIFY2(st->executed(next), qPrintable(sc->valuesModel()->row(next)->name));
    }
    QVERIFY(!sc->stepAction()->isEnabled()); // every node has run: the reason is on hover
    QVERIFY(sc->stepAction()->toolTip().contains("Restart"));
    // the inputs the run would use: model.expected/ next to the file
    auto expected = core::exec::loadExpected(testing::fixture("zoo/mlp/model.expected").string());
    QVERIFY2(expected.isOk(), expected.error().c_str());
    int compared = 0;
    for (int n = 0; n < nodes; ++n) {
        const StepRow* row = sc->valuesModel()->row(n);
        QVERIFY(row->executed);
        if (!row->hasStats) continue;
        const std::string value = st->outputsOf(n).front();
        const auto ref = engineValue(*w.document()->program(), value, expected->main.inputs);
        QVERIFY2(ref.count > 0, value.c_str());
        auto close = [](double a, double b) { return std::abs(a - b) <= 1e-5 * std::max(1.0, std::abs(b)); };
        QVERIFY2(close(row->min, ref.min) && close(row->max, ref.max) && close(row->mean, ref.mean), value.c_str());
        ++compared;
    }
    QVERIFY(compared >= nodes / 2);
    // freed values say so; the graph output does not
    int freed = 0;
    for (int n = 0; n < nodes; ++n) freed += sc->valuesModel()->index(n, StepValuesModel::State).data().toString().startsWith("freed after");
    QVERIFY(freed > 0);
    QCOMPARE(sc->valuesModel()->index(nodes - 1, StepValuesModel::State).data().toString(), QString("output"));
    // restart: from the first node again
    sc->restartAction()->trigger();
    QVERIFY(!sc->stepper());
    QVERIFY(sc->stepAction()->isEnabled());
}

// "Run to here" from the node's context menu runs exactly up to it; an earlier node has run already.
void TstRunGui::runToHere() {
    MainWindow w;
    QCOMPARE(openInWindow(w, "zoo/gpt_block/model.pt2"), QString());
    StepController* sc = w.stepController();
    QVERIFY(!sc->runToAction()->isEnabled()); // nothing selected: nothing to run to
    QVERIFY(sc->runToAction()->toolTip().contains("Select"));
    const int target = static_cast<int>(w.document()->graph()->nodes.size()) * 2 / 3;
    QMenu menu;
    w.graphPane()->view()->addNodeActions(menu, target);
    QAction* runTo = menu.findChild<QAction*>("runToHereNodeAction");
    QVERIFY(runTo && runTo->isEnabled());
    QSignalSpy stepped(sc, &StepController::stepped);
    runTo->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(!sc->isBusy(), 30000);
    QCOMPARE(stepped.count(), 1);
    const core::exec::Stepper* st = sc->stepper();
    QVERIFY(st->executed(target));
    QCOMPARE(st->nextNode(), target + 1);
    QCOMPARE(w.document()->selectedNode(), target + 1);
    QVERIFY(sc->valuesModel()->row(target)->executed);
    QVERIFY(!sc->valuesModel()->row(target + 1)->executed);
    // an earlier node: nothing runs, the pane says it has run
    w.document()->selectNode(target / 2);
    QVERIFY(sc->runToAction()->isEnabled());
    sc->runToAction()->trigger();
    QCOMPARE(st->nextNode(), target + 1);
    QVERIFY(w.findChild<QLabel*>("stepStatus")->text().contains("already run"));
}

// After a run of the decoder stack: the Memory dock's curve has a point per node and its live-at-peak
// blocks add up to the peak; the critical path's rows add up to its length and are outlined on the
// graph; a what-if making mm (the attention's products) free predicts a shorter run; a Source lines row
// selects exactly the nodes whose stack holds that line.
void TstRunGui::memoryPathAndLines() {
    MainWindow w;
    QCOMPARE(openInWindow(w, "zoo/decoder_like/model.pt2"), QString());
    w.resetLayout();
    AnalysisDocks* ad = w.analysisDocks();
    for (const char* name : {"runMemory", "runCriticalPath", "runSourceLines"}) QVERIFY2(w.findChild<QDockWidget*>(name)->isHidden(), name);
    w.runController()->run();
    QTRY_VERIFY_WITH_TIMEOUT(w.document()->runResult() != nullptr, 60000);
    for (const char* name : {"runMemory", "runCriticalPath", "runSourceLines"}) QVERIFY2(!w.findChild<QDockWidget*>(name)->isHidden(), name);
    // the docks fill over the next event-loop turns
    QTRY_VERIFY(!ad->memoryCurve()->memory().curve.empty() && ad->pathModel()->rowCount() > 0 && ad->linesModel()->rowCount() > 0);
    const RunSnapshot& run = *w.document()->runResult();
    // memory: a point per executed node, the peak's blocks sum to the peak
    const MemorySummary& mem = ad->memoryCurve()->memory();
    QCOMPARE(mem.curve.size(), run.nodes.size());
    QVERIFY(mem.peak >= 0 && mem.peakBytes == mem.curve[static_cast<size_t>(mem.peak)].total());
    double liveBytes = 0;
    for (int r = 0; r < ad->liveModel()->rowCount(); ++r) liveBytes += ad->liveModel()->item(r, 2)->data(Qt::UserRole + 2).toDouble();
    QCOMPARE(static_cast<int64_t>(liveBytes), mem.peakBytes);
    QVERIFY(ad->memorySummary()->text().startsWith("Peak"));
    // the curve's point under a click selects its node
    const int x = ad->memoryCurve()->width() / 2;
    const int point = ad->memoryCurve()->pointAt(x);
    if (point >= 0) {
        QTest::mouseClick(ad->memoryCurve(), Qt::LeftButton, {}, QPoint(x, ad->memoryCurve()->height() / 2));
        QCOMPARE(w.document()->selectedNode(), mem.curve[static_cast<size_t>(point)].node);
    }
    // critical path: rows add up to the length, and they are the outlined nodes
    const PathSummary base = ad->path();
    QVERIFY(!base.nodes.empty());
    int64_t sum = 0;
    for (int64_t ns : base.nodeNs) sum += ns;
    QCOMPARE(sum, base.lengthNs);
    QCOMPARE(ad->pathModel()->rowCount(), static_cast<int>(base.nodes.size()));
    QCOMPARE(w.document()->searchHits(), base.nodes);
    QVERIFY(base.predictedWallNs > 0);
    // what if mm were free: fewer predicted ns, and the mm nodes are off the path
    ad->whatIfSelector()->setText("mm");
    ad->whatIfFactor()->setValue(0);
    ad->applyWhatIf();
    const PathSummary& what = ad->path();
    QVERIFY2(what.error.isEmpty(), qPrintable(what.error));
    QVERIFY(what.scaledNodes >= 8); // two per block, four blocks
    QVERIFY(what.predictedWallNs < base.predictedWallNs);
    QVERIFY(ad->pathSummary()->text().startsWith("What if mm"));
    // one baseline, stated once: the model's prediction of the run as measured; the measured wall time,
    // a second baseline, is not in the line
    const QString whatIfLine = ad->pathSummary()->text();
    QVERIFY2(whatIfLine.contains(msCell(what.predictedWallNs) + " ms instead of the " + msCell(base.predictedWallNs) + " ms"), qPrintable(whatIfLine));
    QVERIFY2(whatIfLine.count(msCell(base.predictedWallNs) + " ms") == 1, qPrintable(whatIfLine));
    QVERIFY2(!whatIfLine.contains("measured wall time"), qPrintable(whatIfLine));
    if (msCell(base.measuredWallNs) != msCell(base.predictedWallNs) && msCell(base.measuredWallNs) != msCell(what.predictedWallNs))
        QVERIFY2(!whatIfLine.contains(msCell(base.measuredWallNs) + " ms"), qPrintable(whatIfLine));
    ad->whatIfSelector()->setText("no_such_op");
    ad->applyWhatIf();
    QVERIFY(ad->pathSummary()->text().contains("not understood"));
    // source lines: a row selects exactly the nodes whose stack has that file:line
    QVERIFY(ad->linesModel()->rowCount() > 0);
    const QString where = ad->linesModel()->item(0, 0)->text();
    const QString file = where.section(':', 0, -2);
    const int line = where.section(':', -1).toInt();
    ad->selectLine(0);
    std::vector<int> expected;
    const auto& g = *w.document()->graph();
    for (size_t k = 0; k < g.nodes.size(); ++k)
        for (const auto& f : g.nodes[k].meta.frames)
            if (QString::fromStdString(f.file) == file && f.line == line) {
                expected.push_back(static_cast<int>(k));
                break;
            }
    QVERIFY(!expected.empty());
    QCOMPARE(w.document()->searchHits(), expected);
    QCOMPARE(ad->linesModel()->item(0, 3)->text().toInt(), static_cast<int>(expected.size()));
}

QTEST_MAIN(TstRunGui)
#include "tst_run_gui.moc"
