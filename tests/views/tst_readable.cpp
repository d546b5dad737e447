// What a person sees, at 1366×768 and 1920×1200 with fresh settings: a program opened and run, every
// dock shown in turn, each table and tree on screen readable (support/readable_checks.h), the graph's
// labels clear of each other, of the module titles and of the frames' borders, its tooltips wrapped and
// drawable, nothing floating on the canvas over a box after Fit, and the legend and the minimap still
// in their corners after a click on the minimap and on a Critical path row. On the bundled example always, on resnet18, tiny_gpt and llama_deep (folded and not) and
// in the Compare window when ../shared is present.
// engine headers (oneTBB) before Qt's
#include "core/exec/stepper.h"

#include "core/io/pt2_reader.h"
#include "support/gui_test_util.h"
#include "support/readable_checks.h"
#include "views/compare/compare_window.h"
#include "views/graph/graph_pane.h"
#include "views/graph/graph_scene.h"
#include "views/graph/graph_view.h"
#include "views/main_window.h"
#include "views/run/run_controller.h"
#include "views/run/step_controller.h"
#include "views/teach/spec_reference.h"

#include <QDockWidget>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>

using namespace irlens;
using namespace irlens::views;

namespace {

/// Waits until the scene holds the document's layout (built in slices after layoutReady).
bool waitSceneBuilt(GraphPane* pane, Document* doc) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 120000) {
        if (doc->layout() && !doc->isBusy() && !pane->scene()->isBuilding()) return true;
        QTest::qWait(20);
    }
    return false;
}

/// The graph after Fit: labels, tags and what floats on the canvas.
QStringList graphProblems(GraphView* view) {
    view->fitAll();
    QTest::qWait(50);
    const auto& scene = *static_cast<GraphScene*>(view->scene());
    QStringList problems = testing::checkSceneLabels(scene);
    problems << testing::checkSceneTooltips(scene) << testing::checkOverlayText(*view);
    problems << testing::checkCanvasOverlays(*view) << testing::checkOverlaysInside(*view) << testing::checkMiniMapDrawn(*view);
    return problems;
}

/// The canvas after the view moved without Fit: what floats on it still inside it, after a click on
/// the minimap and on the last Critical path row (each scrolls the drawing).
QStringList afterMoves(MainWindow& w) {
    GraphView* view = w.graphPane()->view();
    QStringList problems;
    view->setZoom(GraphView::kStartZoom);
    QTest::qWait(30);
    if (MiniMap* mini = view->miniMap(); mini->isVisible()) {
        QTest::mouseClick(mini->viewport(), Qt::LeftButton, {}, QPoint(mini->viewport()->width() / 2, mini->viewport()->height() - 3));
        for (const QString& p : testing::checkOverlaysInside(*view)) problems << "after a click on the minimap: " + p;
    }
    auto* dock = w.findChild<QDockWidget*>("runCriticalPath");
    auto* rows = dock ? dock->findChild<QAbstractItemView*>() : nullptr;
    if (!rows) return problems << "no Critical path rows to click";
    dock->show();
    dock->raise();
    QTest::qWait(30);
    const QModelIndex last = rows->model()->index(rows->model()->rowCount() - 1, 0);
    rows->scrollTo(last);
    QTest::mouseClick(rows->viewport(), Qt::LeftButton, {}, rows->visualRect(last).center());
    QTest::qWait(30);
    for (const QString& p : testing::checkOverlaysInside(*view)) problems << "after a click on a Critical path row: " + p;
    return problems;
}

/// Every dock brought to the front in turn, its tables and trees checked, and the tab bars.
QStringList dockProblems(MainWindow& w) {
    QStringList problems;
    for (QDockWidget* dock : w.findChildren<QDockWidget*>()) {
        dock->show();
        dock->raise();
        QTest::qWait(30); // columns are fitted on a queued call once the rows are on screen
        problems << testing::checkItemViews(dock);
        problems << testing::checkTabBars(&w);
    }
    problems << testing::checkSpinBoxes(&w); // the toolbar's and the graph pane's
    return problems;
}

/// The problems without repeats, each also logged (a failure message shows only the first few).
QStringList unique(QStringList list) {
    list.removeDuplicates();
    for (const QString& p : list) qInfo().noquote() << "unreadable:" << p;
    return list;
}

/// The node with the longest name: the Node pane's widest values.
int longestNamedNode(const core::Graph& g) {
    int best = 0;
    for (size_t k = 0; k < g.nodes.size(); ++k)
        if (g.nodes[k].name.size() > g.nodes[static_cast<size_t>(best)].name.size()) best = static_cast<int>(k);
    return best;
}

} // namespace

class TstReadable : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void mainWindow_data();
    void mainWindow();
    void compareWindow_data();
    void compareWindow();
};

void TstReadable::initTestCase() {
    QCoreApplication::setOrganizationName("irlens-tests");
    QCoreApplication::setApplicationName("tst_readable");
}

void TstReadable::init() { QSettings().clear(); } // a fresh start: the layout a new user gets

void TstReadable::mainWindow_data() {
    QTest::addColumn<QSize>("size");
    QTest::addColumn<QString>("fixture"); // "" for the bundled example
    QTest::addColumn<bool>("folded");
    for (const QSize size : {QSize(1366, 768), QSize(1920, 1200)}) {
        const QByteArray at = QByteArray::number(size.width()) + "x" + QByteArray::number(size.height());
        QTest::addRow("example %s", at.constData()) << size << QString() << true;
        for (const char* name : {"resnet18", "tiny_gpt", "llama_deep"})
            QTest::addRow("%s %s", name, at.constData()) << size << QString("generated/%1/model.pt2").arg(name) << true;
        QTest::addRow("llama_deep unfolded %s", at.constData()) << size << QString("generated/llama_deep/model.pt2") << false;
    }
}

void TstReadable::mainWindow() {
    QFETCH(QSize, size);
    QFETCH(QString, fixture);
    QFETCH(bool, folded);
    if (!fixture.isEmpty()) IRLENS_REQUIRE_SHARED();
    MainWindow w;
    w.resize(size);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    if (fixture.isEmpty()) w.openExample();
    else QCOMPARE(testing::openAndWait(*w.document(), testing::fixture(fixture.toStdString())), QString());
    if (!folded) {
        w.setFoldRepeated(false);
        QVERIFY(waitSceneBuilt(w.graphPane(), w.document()));
        w.document()->expandAll();
    }
    QVERIFY(waitSceneBuilt(w.graphPane(), w.document()));
    QStringList problems = graphProblems(w.graphPane()->view());

    // a run, a step (the Values dock), the node with the longest name selected (the Node pane)
    w.runController()->run();
    QTRY_VERIFY_WITH_TIMEOUT(w.document()->runResult() != nullptr && !w.runController()->isRunning(), 120000);
    if (!w.runController()->heatmapAction()->isChecked()) w.runController()->heatmapAction()->trigger();
    w.stepController()->step();
    QTRY_VERIFY_WITH_TIMEOUT(!w.stepController()->isBusy(), 60000);
    w.document()->selectNode(longestNamedNode(*w.document()->graph()));
    QVERIFY(waitSceneBuilt(w.graphPane(), w.document()));
    problems << graphProblems(w.graphPane()->view()); // the heatmap's legend is up now
    problems << afterMoves(w);
    problems << dockProblems(w);

    // the windows of the Help menu
    w.showSpecReference();
    QVERIFY(QTest::qWaitForWindowExposed(w.specReference()));
    problems << testing::checkItemViews(w.specReference());
    w.specReference()->close();

    problems = unique(problems);
    QVERIFY2(problems.isEmpty(), qPrintable("\n" + problems.join('\n')));
}

void TstReadable::compareWindow_data() {
    QTest::addColumn<QSize>("size");
    QTest::addRow("1366x768") << QSize(1366, 768);
    QTest::addRow("1920x1200") << QSize(1920, 1200);
}

// tiny_gpt against its edited copy: the differences list, the module table and both graphs.
void TstReadable::compareWindow() {
    QFETCH(QSize, size);
    IRLENS_REQUIRE_SHARED();
    auto left = core::loadPt2(testing::fixture("generated/tiny_gpt/model.pt2").string());
    auto right = core::loadPt2(testing::fixture("generated/tiny_gpt_edit/model.pt2").string());
    QVERIFY2(left && right, "tiny_gpt and tiny_gpt_edit load");
    CompareWindow cw;
    cw.resize(size);
    cw.show();
    QVERIFY(QTest::qWaitForWindowExposed(&cw));
    cw.comparePrograms(*left, *right);
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 60000 && !(cw.match() && !cw.isBusy() && cw.leftDocument()->layout() && cw.rightDocument()->layout() &&
                                      !cw.leftScene()->isBuilding() && !cw.rightScene()->isBuilding()))
        QTest::qWait(20);
    QVERIFY(cw.match());
    QSignalSpy numeric(&cw, &CompareWindow::divergenceReady); // the "diverges" tags too
    if (!cw.divergence()) numeric.wait(60000);
    QTest::qWait(50);
    QStringList problems = testing::checkItemViews(&cw);
    problems << testing::checkTabBars(&cw);
    problems << graphProblems(cw.leftView()) << graphProblems(cw.rightView());
    problems = unique(problems);
    QVERIFY2(problems.isEmpty(), qPrintable("\n" + problems.join('\n')));
}

QTEST_MAIN(TstReadable)
#include "tst_readable.moc"
