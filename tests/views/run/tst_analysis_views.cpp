// Where the time and the memory go, on the graph and in the source: the Source pane of the Source
// lines dock (a line selects the nodes whose innermost user frame it is, a selected node scrolls to
// its line, a missing file is named), the heatmap overlay in memory mode and the memory band of the
// timeline, on real fixture runs.
// engine headers (oneTBB) before Qt's
#include "core/exec/engine.h"

#include "support/zoo_files.h"
#include "support/gui_test_util.h"
#include "views/document.h"
#include "views/graph/graph_items.h"
#include "views/graph/graph_pane.h"
#include "views/graph/graph_scene.h"
#include "views/graph/overlay_items.h"
#include "views/main_window.h"
#include "views/run/analysis_docks.h"
#include "views/run/heatmap_overlay.h"
#include "views/inspect/node_inspector_model.h"
#include "views/run/profile_table_model.h"
#include "views/run/run_controller.h"
#include "views/run/run_snapshot.h"
#include "views/run/source_pane.h"
#include "views/run/timeline_widget.h"

#include <QAction>
#include <QCheckBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QSettings>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace irlens;
using namespace irlens::views;

class TstAnalysisViews : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void sourceLineSelectsItsNodes_data();
    void sourceLineSelectsItsNodes();
    void selectingANodeScrollsToItsLine();
    void missingFileIsNamed();
    void memoryOverlay();
    void timelineMemoryPeak();
    void libraryLinesFoldedByDefault();
    void foldedBatchNormSaysWhere();
};

void TstAnalysisViews::initTestCase() {
    QCoreApplication::setOrganizationName("irlens-tests");
    QCoreApplication::setApplicationName("tst_analysis_views");
    QSettings().setValue("run/warmup", 1);
    QSettings().setValue("run/repeat", 3);
    QSettings().remove("source/roots");
}

namespace {

QString sharedTools() { return QString::fromStdString((testing::sharedDir() / "tools").string()); }

/// Opens a generated fixture or a zoo program ("zoo/<name>"), runs it and waits until the analysis docks are filled; "" or the error.
QString openAndRun(MainWindow& w, const QString& name) {
    if (name.startsWith("zoo/")) testing::writeViewPrograms();
    w.resize(1400, 900);
    const QString err = testing::openAndWait(*w.document(), testing::fixture(testing::programFolder(name.toStdString()) + "/model.pt2"));
    if (!err.isEmpty()) return err;
    w.resetLayout();
    w.show();
    w.runController()->run();
    if (!QTest::qWaitFor([&] { return w.document()->runResult() != nullptr; }, 60000)) return "the run did not finish";
    AnalysisDocks* ad = w.analysisDocks();
    if (!QTest::qWaitFor([&] { return !ad->memoryCurve()->memory().curve.empty() && ad->linesModel()->rowCount() > 0; }, 10000))
        return "the docks were not filled";
    return {};
}

/// A stand-in for a model's source file at `relative` under `root`: 400 numbered comment lines (the lines' nodes
/// come from the stack traces, not from the text); false when it cannot be written.
bool writeStandInSource(const QString& root, const QString& relative) {
    if (!QDir(root).mkpath(QFileInfo(relative).path())) return false;
    QFile file(QDir(root).filePath(relative));
    if (!file.open(QIODevice::WriteOnly)) return false;
    for (int line = 1; line <= 400; ++line) file.write(QString("# line %1\n").arg(line).toUtf8());
    return true;
}

/// Brings the Source lines dock to the front, tall enough to read, and waits for its text to show.
bool showSourceDock(MainWindow& w) {
    auto* dock = w.findChild<QDockWidget*>("runSourceLines");
    dock->raise();
    w.resizeDocks({dock}, {450}, Qt::Vertical);
    SourceText* text = w.analysisDocks()->sourcePane()->text();
    return QTest::qWaitFor([text] { return text->isVisible() && text->viewport()->height() > 150; }, 5000);
}

/// Independently of the views: the innermost frame whose path has no `torch/` (else the last frame).
std::pair<std::string, int> innermostUserLine(const core::Node& n) {
    const auto& frames = n.meta.frames.items();
    for (auto it = frames.rbegin(); it != frames.rend(); ++it)
        if (it->file.find("torch/") == std::string::npos) return {it->file, it->line};
    return frames.empty() ? std::pair<std::string, int>{} : std::pair{frames.back().file, frames.back().line};
}

std::vector<int> nodesAt(const core::Graph& g, const std::string& file, int line) {
    std::vector<int> out;
    for (size_t k = 0; k < g.nodes.size(); ++k)
        if (innermostUserLine(g.nodes[k]) == std::pair{file, line}) out.push_back(static_cast<int>(k));
    return out;
}

} // namespace

void TstAnalysisViews::sourceLineSelectsItsNodes_data() {
    QTest::addColumn<QString>("fixture");
    QTest::addColumn<QString>("standIn");
    QTest::addRow("tiny_gpt") << "tiny_gpt" << QString();
    // the owned conv net's source is nowhere on disk: a stand-in file of as many lines under a temporary root
    QTest::addRow("zoo/resnet_like") << "zoo/resnet_like" << "views/models.py";
}

// Clicking a line of the shown file selects exactly the nodes whose innermost user frame is that
// line, as counted here from the nodes' stack traces, and the gutter's count says as many.
void TstAnalysisViews::sourceLineSelectsItsNodes() {
    QFETCH(QString, fixture);
    QFETCH(QString, standIn);
    IRLENS_REQUIRE_FIXTURE(fixture);
    QTemporaryDir root;
    if (!standIn.isEmpty()) QVERIFY(writeStandInSource(root.path(), standIn));
    MainWindow w;
    QCOMPARE(openAndRun(w, fixture), QString());
    SourcePane* src = w.analysisDocks()->sourcePane();
    QVERIFY(showSourceDock(w));
    src->setRoots({sharedTools(), root.path()}, false);
    w.document()->selectNode(-1);
    src->setLines(linesOf(*w.document()->runResult()->analysis));
    QVERIFY2(!src->resolvedFile().isEmpty(), qPrintable(src->message()->text()));
    const core::Graph& g = *w.document()->graph();
    int checked = 0;
    for (const auto& [line, time] : src->text()->annotations()) {
        if (time.selfNodes == 0) continue;
        const std::vector<int> expected = nodesAt(g, src->traceFile().toStdString(), line);
        src->text()->showLine(line);
        const QRect r = src->text()->lineRect(line);
        QVERIFY2(src->text()->viewport()->rect().contains(r.center()), qPrintable(QString("line %1 not shown").arg(line)));
        QTest::mouseClick(src->text()->viewport(), Qt::LeftButton, {}, QPoint(30, r.center().y()));
        QCOMPARE(w.document()->searchHits(), expected);
        QCOMPARE(time.selfNodes, static_cast<int>(expected.size()));
        QCOMPARE(w.document()->selectedNode(), expected.front());
        ++checked;
    }
    QVERIFY(checked >= 3);
}

// Selecting a node shows its innermost user frame's file with that line under the cursor, in view.
void TstAnalysisViews::selectingANodeScrollsToItsLine() {
    QTemporaryDir root;
    QVERIFY(writeStandInSource(root.path(), "views/models.py"));
    MainWindow w;
    QCOMPARE(openAndRun(w, "zoo/resnet_like"), QString());
    SourcePane* src = w.analysisDocks()->sourcePane();
    QVERIFY(showSourceDock(w));
    src->setRoots({root.path()}, false);
    const core::Graph& g = *w.document()->graph();
    int checked = 0;
    for (size_t k = 0; k < g.nodes.size() && checked < 6; k += 5) {
        const auto [file, line] = innermostUserLine(g.nodes[k]);
        if (file.empty()) continue;
        src->text()->showLine(1);
        w.document()->selectNode(static_cast<int>(k));
        QCOMPARE(src->traceFile(), QString::fromStdString(file));
        QVERIFY(!src->resolvedFile().isEmpty());
        QCOMPARE(src->text()->cursorLine(), line);
        QVERIFY(src->text()->viewport()->rect().contains(src->text()->lineRect(line).center()));
        ++checked;
    }
    QVERIFY(checked >= 3);
}

// Without the file under any root, the pane names the file and the roots, and the table still works.
void TstAnalysisViews::missingFileIsNamed() {
    MainWindow w;
    QCOMPARE(openAndRun(w, "zoo/resnet_like"), QString());
    QTemporaryDir empty, holding;
    QVERIFY(writeStandInSource(holding.path(), "views/models.py"));
    SourcePane* src = w.analysisDocks()->sourcePane();
    src->setRoots({empty.path()}, false);
    src->showSource("views/models.py", 30);
    QVERIFY(src->resolvedFile().isEmpty());
    QCOMPARE(src->message()->text(), QString("views/models.py not found under %1").arg(empty.path()));
    QVERIFY(src->text()->toPlainText().isEmpty());
    src->setRoots({}, false);
    QVERIFY(src->message()->text().contains("no source roots are set"));
    // the file:line table is unaffected: its first row still selects its nodes
    w.analysisDocks()->selectLine(0);
    QVERIFY(!w.document()->searchHits().empty());
    // and found again once a root holds it
    src->setRoots({empty.path(), holding.path()}, false);
    QCOMPARE(src->resolvedFile(), QDir::cleanPath(holding.path() + "/views/models.py"));
}

// The memory toggle recolours the boxes by the bytes live at the peak: the box holding the most gets
// another colour than one holding a little, the legend reads bytes, and turning it off restores the
// op colours (the heatmap is off).
void TstAnalysisViews::memoryOverlay() {
    MainWindow w; // on a conv net: its values shrink layer by layer, so the boxes differ in bytes
    // before a run there is nothing to colour: the action is off and says to run first
    QVERIFY(!w.analysisDocks()->memoryOverlayAction()->isEnabled());
    QVERIFY(w.analysisDocks()->memoryOverlayAction()->toolTip().contains("run the program first"));
    QCOMPARE(openAndRun(w, "zoo/resnet_like"), QString());
    HeatmapOverlay* overlay = w.runController()->heatmap();
    QVERIFY(!overlay->isEnabled());
    // View › Memory overlay and the dock's check box are one toggle
    QAction* action = w.analysisDocks()->memoryOverlayAction();
    QVERIFY(action->isEnabled());
    QVERIFY(w.findChild<QAction*>("memoryOverlayAction") == action && !action->associatedObjects().isEmpty());
    action->trigger();
    QVERIFY(w.analysisDocks()->memoryOverlayToggle()->isChecked());
    QVERIFY(overlay->isMemoryMode());
    const NodeItem* most = nullptr;
    const NodeItem* least = nullptr;
    for (NodeItem* box : w.graphPane()->scene()->nodeItems()) {
        const int64_t bytes = overlay->bytesOfItem(box->index());
        if (!overlay->overlayOf(box) || bytes <= 0) continue;
        if (!most || bytes > overlay->bytesOfItem(most->index())) most = box;
        if (!least || bytes < overlay->bytesOfItem(least->index())) least = box;
    }
    QVERIFY(most && least);
    QVERIFY(overlay->bytesOfItem(most->index()) > overlay->bytesOfItem(least->index()));
    QVERIFY(overlay->heatColorOf(most) != overlay->heatColorOf(least));
    QCOMPARE(overlay->heatColorOf(most), viridis(1.0));
    QVERIFY(overlay->legend()->isVisible());
    // a box holding nothing at the peak says so, rather than "0 KiB · 0.0%"
    int empty = 0;
    for (NodeItem* box : w.graphPane()->scene()->nodeItems()) {
        auto* note = dynamic_cast<const OverlayBox*>(overlay->overlayOf(box));
        if (!note) continue;
        QVERIFY2(!note->note().startsWith("0 "), qPrintable(note->note()));
        if (overlay->bytesOfItem(box->index()) == 0) {
            QCOMPARE(note->note(), QString("nothing live at the peak"));
            ++empty;
        }
    }
    QVERIFY(empty > 0);
    w.analysisDocks()->memoryOverlayToggle()->setChecked(false);
    QVERIFY(!overlay->overlayOf(most));
    QVERIFY(!overlay->legend()->isVisible());
    QVERIFY(!action->isChecked());
}

// The timeline's memory band peaks at the Memory dock's activations + workspace at its peak, and shows it while the peak node runs.
void TstAnalysisViews::timelineMemoryPeak() {
    MainWindow w;
    QCOMPARE(openAndRun(w, "zoo/gpt_block"), QString());
    const MemorySummary& mem = w.analysisDocks()->memoryCurve()->memory();
    TimelineWidget* tl = w.runController()->timeline();
    QVERIFY(mem.peakBytes > 0);
    // the band counts what the engine allocates (activations + workspace), as the Profile's peak does:
    // the weights and inputs, held throughout, are left out
    QCOMPARE(tl->memoryPeakBytes(), mem.runPeakBytes);
    QVERIFY(mem.peakBytes > mem.runPeakBytes); // the weights and inputs
    QVERIFY(!tl->memoryBand().isEmpty());
    const int peakNode = mem.curve[static_cast<size_t>(mem.peak)].node;
    for (const RunTiming& t : w.document()->runResult()->timings)
        if (t.node == peakNode) QCOMPARE(tl->memoryAt(t.startNs), mem.runPeakBytes);
}

// A ResNet's batch norms are folded into their convolutions: each runs in next to no time and
// allocates nothing, and the Profile's tooltip and the Node pane name the convolution that does the work.
void TstAnalysisViews::foldedBatchNormSaysWhere() {
    MainWindow w;
    QCOMPARE(openAndRun(w, "zoo/resnet_like"), QString());
    const RunSnapshotPtr run = w.document()->runResult();
    const auto bn = std::find_if(run->nodes.begin(), run->nodes.end(), [](const RunNode& n) { return n.op.find("batch_norm") != std::string::npos; });
    QVERIFY2(bn != run->nodes.end(), "the conv net has batch norms");
    QVERIFY2(bn->fusedInto.starts_with("convolution"), bn->fusedInto.c_str());
    const QString into = QString::fromStdString(bn->fusedInto);
    // the Profile row's tooltip
    ProfileTableModel* profile = w.runController()->profileModel();
    QCOMPARE(profile->grouping(), ProfileTableModel::Grouping::ByNode);
    int row = -1;
    for (int r = 0; r < profile->rowCount() && row < 0; ++r)
        if (profile->index(r, 0).data().toString() == QString::fromStdString(bn->name)) row = r;
    QVERIFY(row >= 0);
    const QString tip = profile->index(row, ProfileTableModel::SelfMs).data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains("folded into " + into), qPrintable(tip));
    // the Node pane, with a link to the convolution
    w.document()->selectNode(bn->node);
    NodeInspectorModel* inspector = w.inspectorModel();
    const QModelIndex folded = inspector->findRow("Last run", "folded into");
    QVERIFY2(folded.isValid(), "no 'folded into' row under Last run");
    QCOMPARE(folded.siblingAtColumn(1).data().toString(), into);
    QCOMPARE(folded.siblingAtColumn(1).data(InfoTreeModel::LinkRole).toString(), "node:" + into);
    // a convolution is not folded anywhere: its Last run section has no such row
    w.document()->selectNode(w.document()->nodeIndexOf(into));
    QVERIFY(inspector->findRow("Last run", "median").isValid());
    QVERIFY(!inspector->findRow("Last run", "folded into").isValid());
}

QTEST_MAIN(TstAnalysisViews)
// PyTorch's own lines (torch/nn/...) are left out of the Source lines table until asked for: every
// row shown is a line of the model's source, and with the toggle on the table lists every line of the
// run (as many as core's line profile has).
void TstAnalysisViews::libraryLinesFoldedByDefault() {
    MainWindow w;
    QCOMPARE(openAndRun(w, "zoo/resnet_like"), QString());
    AnalysisDocks* ad = w.analysisDocks();
    const LineSummary all = linesOf(*w.document()->runResult()->analysis);
    const auto library = std::count_if(all.rows.begin(), all.rows.end(), [](const LineRow& l) { return l.file.contains("torch/"); });
    QVERIFY2(library > 0, "the conv net's stack traces name PyTorch's files");
    QVERIFY(!ad->libraryLinesToggle()->isChecked());
    QCOMPARE(ad->linesModel()->rowCount(), static_cast<int>(all.rows.size() - library));
    for (int r = 0; r < ad->linesModel()->rowCount(); ++r)
        QVERIFY2(!ad->linesModel()->item(r, 0)->text().contains("torch/"), qPrintable(ad->linesModel()->item(r, 0)->text()));
    QVERIFY(ad->libraryLinesToggle()->text().contains(QString::number(library)));
    ad->libraryLinesToggle()->click();
    QCOMPARE(ad->linesModel()->rowCount(), static_cast<int>(all.rows.size()));
    // a row still selects its own nodes once the table holds PyTorch's lines too
    int row = -1;
    for (int r = 0; r < ad->linesModel()->rowCount() && row < 0; ++r)
        if (ad->linesModel()->item(r, 0)->text().contains("torch/")) row = r;
    QVERIFY(row >= 0);
    ad->selectLine(row);
    QCOMPARE(static_cast<int>(w.document()->searchHits().size()), ad->linesModel()->item(row, 3)->text().toInt());
}

#include "tst_analysis_views.moc"
