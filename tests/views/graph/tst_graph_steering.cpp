// Steering the graph: Run › Step node drawn on it (run boxes tinted, the next one outlined, in
// agreement with the Values dock; gone after a restart or with another program), folded repeated
// blocks that say which instance they show and jump to another (the fold bar's spin box, a search hit
// in another instance, Expand all on the shown one), and Fit on a graph taller than the zoom floor.
// engine headers (oneTBB) before Qt's
#include "core/exec/stepper.h"

#include "core/ir/example_program.h"
#include "support/gui_test_util.h"
#include "support/readable_checks.h"
#include "views/graph/fold_bar.h"
#include "views/graph/graph_items.h"
#include "views/graph/graph_pane.h"
#include "views/graph/graph_scene.h"
#include "views/graph/graph_view.h"
#include "views/graph/step_marker.h"
#include "views/inspect/module_tree_model.h"
#include "views/main_window.h"
#include "views/run/step_controller.h"
#include "views/run/step_values_model.h"

#include <QAction>
#include <QLineEdit>
#include <QStatusBar>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>

#include <set>

using namespace irlens;
using namespace irlens::views;

namespace {

/// Waits until the scene holds the document's layout (built in slices after layoutReady) and the
/// queued marks are applied.
bool waitSceneBuilt(MainWindow& w) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 120000) {
        if (w.document()->layout() && !w.document()->isBusy() && !w.graphPane()->scene()->isBuilding() &&
            w.graphPane()->scene()->layout() == w.document()->layout()) {
            QTest::qWait(20);
            return true;
        }
        QTest::qWait(20);
    }
    return false;
}

QString open(MainWindow& w, const QString& fixture) {
    w.resize(1366, 768);
    if (fixture.startsWith("zoo/")) testing::zooDir();
    const QString error = testing::openAndWait(*w.document(), testing::fixture(fixture.toStdString()));
    if (!error.isEmpty()) return error;
    return waitSceneBuilt(w) ? QString() : QString("the scene was not built");
}

const StepMark* markOf(const NodeItem* box) {
    for (QGraphicsItem* child : box->childItems())
        if (child->type() == StepMark::Type) return static_cast<const StepMark*>(child);
    return nullptr;
}

/// What the graph shows of stepping: the names of the op boxes tinted as run, the box outlined as next.
struct StepMarks {
    std::set<QString> ran;
    QStringList next;
    int marks = 0;
};

StepMarks marksOnScene(const GraphScene& scene, const core::Graph& graph) {
    StepMarks out;
    for (const NodeItem* box : scene.nodeItems()) {
        const StepMark* mark = markOf(box);
        if (!mark) continue;
        ++out.marks;
        if (box->item().kind != core::VisibleItem::Kind::Op) continue;
        const QString name = QString::fromStdString(graph.nodes[static_cast<size_t>(box->item().nodeIndex)].name);
        if (mark->done() >= 1) out.ran.insert(name);
        if (mark->isNext()) out.next << name;
    }
    return out;
}

/// What the Values dock says: the rows run, the row next.
StepMarks marksInValues(const StepValuesModel& model) {
    StepMarks out;
    for (int r = 0; r < model.rowCount(); ++r) {
        const StepRow* row = model.row(r);
        if (row->executed) out.ran.insert(row->name);
        if (row->next) out.next << row->name;
    }
    return out;
}

/// The mean colour of a box as the scene paints it.
QColor paintedColour(GraphScene& scene, const NodeItem* box) {
    const QRectF r = box->sceneBoundingRect().adjusted(12, 12, -12, -12);
    QImage image(r.size().toSize(), QImage::Format_ARGB32);
    image.fill(Qt::white);
    QPainter p(&image);
    scene.render(&p, QRectF(QPointF(0, 0), r.size()), r);
    p.end();
    double red = 0, green = 0, blue = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            red += c.redF(), green += c.greenF(), blue += c.blueF();
        }
    const double n = std::max(1, image.width() * image.height());
    return QColor::fromRgbF(static_cast<float>(red / n), static_cast<float>(green / n), static_cast<float>(blue / n));
}

double colourDistance(const QColor& a, const QColor& b) {
    return std::abs(a.redF() - b.redF()) + std::abs(a.greenF() - b.greenF()) + std::abs(a.blueF() - b.blueF());
}

/// The largest folded run of the graph on screen.
int largestFold(const Document& doc) {
    const core::ModuleFolds* folds = doc.folds();
    if (!folds) return -1;
    int best = -1;
    for (size_t f = 0; f < folds->folds().size(); ++f)
        if (best < 0 || folds->folds()[f].count() > folds->folds()[static_cast<size_t>(best)].count()) best = static_cast<int>(f);
    return best;
}

/// The box or frame title the graph gives module `module`, "" when it draws neither.
QString titleOf(const GraphScene& scene, int module) {
    for (const NodeItem* box : scene.nodeItems())
        if (box->item().kind == core::VisibleItem::Kind::Module && box->item().moduleIndex == module)
            return QString::fromStdString(box->item().title + " / " + box->item().subtitle);
    for (const auto& c : scene.layout()->clusters)
        if (c.module == module) return QString::fromStdString(c.label);
    return {};
}

} // namespace

class TstGraphSteering : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("irlens-tests");
        QCoreApplication::setApplicationName("tst_graph_steering");
    }
    void stepsShownOnTheGraph();
    void moduleBoxShowsStepsInside();
    void foldSaysWhichInstanceAndJumps();
    void searchHitSwitchesInstance();
    void expandAllOpensShownInstance();
    void fitShowsATallGraph();
    void expandAllStartsAtTheTop();
};

// F10 and Run to here through the zoo's residual stack: the op boxes tinted as run are the rows the
// Values dock marks as run, the box outlined is its next row, and the tint is painted; Restart
// stepping and another program take the marks away.
void TstGraphSteering::stepsShownOnTheGraph() {
    MainWindow w;
    QCOMPARE(open(w, "zoo/residual_stack/model.pt2"), QString());
    GraphScene& scene = *w.graphPane()->scene();
    const core::Graph& graph = *w.document()->graph();
    StepController* sc = w.stepController();
    QCOMPARE(marksOnScene(scene, graph).marks, 0);
    const NodeItem* first = scene.itemForNode(0);
    QVERIFY(first);
    const QColor before = paintedColour(scene, first);

    for (int k = 0; k < 5; ++k) sc->stepAction()->trigger();
    QVERIFY(waitSceneBuilt(w));
    StepMarks shown = marksOnScene(scene, graph), values = marksInValues(*sc->valuesModel());
    QCOMPARE(shown.ran.size(), size_t(5));
    QCOMPARE(shown.ran, values.ran);
    QCOMPARE(shown.next, values.next);
    QCOMPARE(shown.next.size(), 1);
    QCOMPARE(shown.next.front(), QString::fromStdString(graph.nodes[5].name));
    QCOMPARE(w.graphPane()->scene()->findChild<StepMarker*>()->nextBox(), scene.itemForNode(5));
    // the run box is painted in the tint: nearer to it than before
    const QColor after = paintedColour(scene, first);
    QVERIFY2(colourDistance(after, StepMark::ranColor()) < colourDistance(before, StepMark::ranColor()) - 0.1,
             qPrintable(before.name() + " -> " + after.name()));

    // Run to here two thirds down: every node up to it tinted, the one after it outlined
    const int target = static_cast<int>(graph.nodes.size()) * 2 / 3;
    sc->runTo(target);
    QTRY_VERIFY_WITH_TIMEOUT(!sc->isBusy(), 30000);
    QVERIFY(waitSceneBuilt(w));
    shown = marksOnScene(scene, graph);
    values = marksInValues(*sc->valuesModel());
    QCOMPARE(shown.ran.size(), size_t(target + 1));
    QCOMPARE(shown.ran, values.ran);
    QCOMPARE(shown.next, values.next);
    QCOMPARE(shown.next, QStringList{QString::fromStdString(graph.nodes[static_cast<size_t>(target + 1)].name)});

    sc->restartAction()->trigger();
    QCOMPARE(marksOnScene(scene, graph).marks, 0);
    QVERIFY(colourDistance(paintedColour(scene, first), before) < 0.02);

    // another program: no marks on its graph
    sc->stepAction()->trigger();
    QVERIFY(marksOnScene(scene, graph).marks > 0);
    w.openExample();
    QVERIFY(waitSceneBuilt(w));
    QVERIFY(!w.document()->stepping().active);
    QCOMPARE(marksOnScene(scene, *w.document()->graph()).marks, 0);
}

// The bundled example's collapsed stem: its box shows how far stepping is through it (the share of its
// nodes run, outlined while it holds the next node), and is tinted once all of it has run.
void TstGraphSteering::moduleBoxShowsStepsInside() {
    MainWindow w;
    w.openExample();
    QVERIFY(waitSceneBuilt(w));
    Document& doc = *w.document();
    const core::ModuleTree& tree = *doc.scope().tree;
    const int block = tree.find("stem"); // conv, batch norm, ReLU and pool, each a module of its own
    QVERIFY(block > 0);
    int firstNode = -1, count = 0;
    for (int n = 0; n < static_cast<int>(doc.graph()->nodes.size()); ++n)
        if (tree.isWithin(tree.moduleOfNode(n), block)) {
            if (firstNode < 0) firstNode = n;
            ++count;
        }
    QVERIFY(count >= 3);
    doc.setModuleExpanded(block, false);
    QVERIFY(waitSceneBuilt(w));
    w.stepController()->runTo(firstNode + 1); // two of the block's nodes
    QTRY_VERIFY_WITH_TIMEOUT(!w.stepController()->isBusy(), 30000);
    doc.setModuleExpanded(block, false); // stepping opened it to show the next node
    QVERIFY(waitSceneBuilt(w));
    const NodeItem* box = w.graphPane()->scene()->itemForNode(firstNode);
    QVERIFY(box && box->item().kind == core::VisibleItem::Kind::Module);
    const StepMark* mark = markOf(box);
    QVERIFY(mark);
    QCOMPARE(mark->done(), 2.0 / count);
    QVERIFY(mark->isNext());
    // through the block: tinted whole, the next node outlined in the block after it
    int lastNode = firstNode;
    while (lastNode + 1 < static_cast<int>(doc.graph()->nodes.size()) && tree.isWithin(tree.moduleOfNode(lastNode + 1), block)) ++lastNode;
    w.stepController()->runTo(lastNode);
    QTRY_VERIFY_WITH_TIMEOUT(!w.stepController()->isBusy(), 30000);
    doc.setModuleExpanded(block, false);
    QVERIFY(waitSceneBuilt(w));
    box = w.graphPane()->scene()->itemForNode(firstNode);
    QVERIFY(box && markOf(box));
    QCOMPARE(markOf(box)->done(), 1.0);
    QVERIFY(!markOf(box)->isNext());
}

// llama_deep: the fold says which layer it shows, of which run, in the graph and in the Modules pane;
// Ctrl+L and "57" typed with Enter show layers.57 in its place, with what was open in layers.0 open.
void TstGraphSteering::foldSaysWhichInstanceAndJumps() {
    IRLENS_REQUIRE_SHARED();
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QCOMPARE(open(w, "generated/llama_deep/model.pt2"), QString());
    Document& doc = *w.document();
    GraphScene& scene = *w.graphPane()->scene();
    const int fold = largestFold(doc);
    QVERIFY(fold >= 0);
    const core::ModuleFold& run = doc.folds()->folds()[static_cast<size_t>(fold)];
    QCOMPARE(run.count(), 128);
    const core::ModuleTree& tree = *doc.scope().tree;
    QCOMPARE(titleOf(scene, run.instances[0]), QString("layers.0 of layers.0 … layers.127 / LlamaBlock ×128 · 95 nodes each"));
    // the Modules pane names the layers as the graph does
    ModuleTreeModel modules(&doc);
    QCOMPARE(modules.indexOfModule(run.instances[57]).data().toString(), QString("layers.57"));
    // the fold bar: the run's class and count, the instance shown
    InstanceSpinBox* spin = w.graphPane()->foldBar()->spinBoxOf(fold);
    QVERIFY(spin && spin->isVisibleTo(&w));
    QCOMPARE(spin->text(), QString("layers.0"));

    // open layers.0 and its attention, then go to instance 57 from the keyboard
    doc.setModuleExpanded(run.instances[0], true);
    const int proj0 = tree.find("layers.0.q_proj");
    QVERIFY(proj0 > 0);
    doc.setModuleExpanded(proj0, true);
    QVERIFY(waitSceneBuilt(w));
    auto* focus = w.findChild<QAction*>("focusInstanceAction");
    QVERIFY(focus);
    QCOMPARE(focus->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_L));
    focus->trigger();
    QVERIFY(spin->hasFocus());
    QTest::keyClicks(spin, "57");
    QTest::keyClick(spin, Qt::Key_Return);
    QVERIFY(waitSceneBuilt(w));
    QCOMPARE(doc.shownInstance(fold), 57);
    QCOMPARE(spin->text(), QString("layers.57"));
    QVERIFY(titleOf(scene, run.instances[57]).startsWith("layers.57 of layers.0 … layers.127 · LlamaBlock ×128"));
    QCOMPARE(titleOf(scene, run.instances[0]), QString());
    // layers.57's own nodes on their own boxes, named as in layers.57; none of layers.0's
    int own = 0;
    for (int n : run.nodes[57]) {
        const NodeItem* box = scene.itemForNode(n);
        QVERIFY(box);
        if (box->item().kind != core::VisibleItem::Kind::Op) continue; // a closed sub-module (the MLP)
        QCOMPARE(box->item().nodeIndex, n);
        QCOMPARE(box->item().id, doc.graph()->nodes[static_cast<size_t>(n)].name);
        ++own;
    }
    QVERIFY2(own >= 10, qPrintable(QString::number(own))); // the block's own nodes and its query projection's
    QVERIFY(doc.scope().collapse.isExpanded(tree.find("layers.57.q_proj"))); // open as layers.0's was
    for (int n : tree.module(tree.find("layers.57.q_proj")).nodes) QCOMPARE(scene.itemForNode(n)->item().nodeIndex, n);
    QVERIFY(scene.itemForNode(doc.nodeIndexOf("_softmax_57"))->item().id == "_softmax_57");
    for (int n : run.nodes[0]) QVERIFY(scene.itemForNode(n)->item().nodeIndex != n);
    // Up steps to the next layer; a name that is no instance is not taken
    QTest::keyClick(spin, Qt::Key_Up);
    QVERIFY(waitSceneBuilt(w));
    QCOMPARE(doc.shownInstance(fold), 58);
    QCOMPARE(spin->instanceNamed("layers.200"), -1);
    QCOMPARE(spin->instanceNamed("127"), 127);
    // the widest name shown whole
    spin->setValue(127);
    QVERIFY(waitSceneBuilt(w));
    QCOMPARE(spin->text(), QString("layers.127"));
    const QStringList cut = testing::checkSpinBoxes(w.graphPane());
    QVERIFY2(cut.isEmpty(), qPrintable(cut.join('\n')));
}

// Enter in the search field on the second softmax (layers.1) shows layers.1 in the fold's place with
// that node on its own box, and the search bar says so.
void TstGraphSteering::searchHitSwitchesInstance() {
    IRLENS_REQUIRE_SHARED();
    MainWindow w;
    QCOMPARE(open(w, "generated/llama_deep/model.pt2"), QString());
    Document& doc = *w.document();
    GraphPane* pane = w.graphPane();
    pane->searchField()->setText("_softmax");
    QCOMPARE(static_cast<int>(doc.searchHits().size()), 128);
    QTest::keyClick(pane->searchField(), Qt::Key_Return);
    QVERIFY(waitSceneBuilt(w));
    QCOMPARE(pane->searchCountText(), QString("1 of 128 · showing layers.0"));
    QTest::keyClick(pane->searchField(), Qt::Key_Return);
    QVERIFY(waitSceneBuilt(w));
    const int hit = doc.nodeIndexOf("_softmax_1");
    QCOMPARE(doc.selectedNode(), hit);
    QCOMPARE(pane->searchCountText(), QString("2 of 128 · showing layers.1"));
    const int fold = largestFold(doc);
    QCOMPARE(doc.shownInstance(fold), 1);
    QCOMPARE(pane->foldBar()->spinBoxOf(fold)->text(), QString("layers.1"));
    const NodeItem* box = pane->scene()->itemForNode(hit);
    QVERIFY(box);
    QCOMPARE(box->item().nodeIndex, hit); // layers.1's own box, not layers.0's
    QVERIFY(box->emphasis() & int(Emphasis::Selected));
}

// What `irlens --expand-all` calls on a folded program: the fold stays, its shown instance opens down
// to its last module, every node of it on a box of its own.
void TstGraphSteering::expandAllOpensShownInstance() {
    IRLENS_REQUIRE_SHARED();
    MainWindow w;
    QCOMPARE(open(w, "generated/llama_deep/model.pt2"), QString());
    Document& doc = *w.document();
    const int fold = largestFold(doc);
    QVERIFY(doc.showInstance(fold, 57));
    QVERIFY(waitSceneBuilt(w));
    doc.expandAll();
    QVERIFY(waitSceneBuilt(w));
    const core::ModuleFold& run = doc.folds()->folds()[static_cast<size_t>(fold)];
    GraphScene& scene = *w.graphPane()->scene();
    for (int n : run.nodes[57]) {
        const NodeItem* box = scene.itemForNode(n);
        QVERIFY(box && box->item().kind == core::VisibleItem::Kind::Op);
        QCOMPARE(box->item().nodeIndex, n);
    }
    for (const NodeItem* box : scene.nodeItems()) QVERIFY(box->item().kind != core::VisibleItem::Kind::Module);
    QVERIFY(titleOf(scene, run.instances[57]).startsWith("layers.57 of layers.0 … layers.127"));
    QVERIFY(w.graphPane()->foldBar()->spinBoxOf(fold)->isVisibleTo(&w));
}

// The zoo's deep residual stack opened whole is a column 500 times taller than wide: Fit shows all of
// it, and the wheel can come back down to that zoom. A graph of more items than Fit draws whole is
// shown from its top at the wheel's floor, and the status bar says why.
void TstGraphSteering::fitShowsATallGraph() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QCOMPARE(open(w, "zoo/deep_residual_stack/model.pt2"), QString());
    w.document()->expandAll();
    QVERIFY(waitSceneBuilt(w));
    GraphView* view = w.graphPane()->view();
    const QRectF graph = w.graphPane()->scene()->drawingRect();
    QVERIFY2(graph.height() > 100 * graph.width(), qPrintable(QString("%1 x %2").arg(graph.width()).arg(graph.height())));
    // the scroll bars place the view to the pixel
    auto visible = [view] {
        const double pixel = 1 / view->zoom();
        return view->mapToScene(view->viewport()->rect()).boundingRect().adjusted(-pixel, -pixel, pixel, pixel);
    };
    QSignalSpy notices(view, &GraphView::notice);
    view->fitAll();
    const double fitted = view->zoom();
    QVERIFY2(visible().contains(graph), qPrintable(QString::number(fitted)));
    QVERIFY(fitted < GraphView::kMinZoom);
    QCOMPARE(notices.count(), 0);
    view->zoomBy(2);
    QVERIFY(!visible().contains(graph));
    for (int k = 0; k < 10; ++k) view->zoomBy(0.8);
    QCOMPARE(view->zoom(), fitted);

    // a graph of more items than Fit draws whole: the top at the wheel's floor, and a notice that says why
    view->setFitWholeItems(w.graphPane()->scene()->nodeItemCount() / 2);
    view->fitAll();
    QCOMPARE(view->zoom(), GraphView::kMinZoom);
    const double pixel = 1 / view->zoom();
    const QRectF top = view->mapToScene(view->viewport()->rect()).boundingRect();
    QVERIFY2(top.left() < graph.left() && top.right() > graph.right() && top.top() <= graph.top() + pixel && top.bottom() < graph.bottom() / 2,
             qPrintable(QString("%1 %2").arg(top.top()).arg(graph.top())));
    QCOMPARE(notices.count(), 1);
    const QString why = notices.front().front().toString();
    QVERIFY2(why.startsWith("Fit: the whole graph") && why.contains("minimap"), qPrintable(why));
    QCOMPARE(w.statusBar()->currentMessage(), why);
}

// Expand all and Collapse all draw a new graph: with nothing selected the view starts again at its first
// box, as on open, wherever the old drawing was scrolled to; a selected node stays in view instead.
void TstGraphSteering::expandAllStartsAtTheTop() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QCOMPARE(open(w, "zoo/deep_residual_stack/model.pt2"), QString());
    Document& doc = *w.document();
    GraphView* view = w.graphPane()->view();
    GraphScene& scene = *w.graphPane()->scene();
    auto visible = [view] {
        const double pixel = 1 / view->zoom();
        return view->mapToScene(view->viewport()->rect()).boundingRect().adjusted(-pixel, -pixel, pixel, pixel);
    };
    // the box drawn highest, or lowest
    auto extremeBox = [&scene](bool lowest) {
        const NodeItem* best = nullptr;
        for (const NodeItem* box : scene.nodeItems()) {
            const double y = box->sceneBoundingRect().center().y();
            if (!best || (lowest ? y > best->sceneBoundingRect().center().y() : y < best->sceneBoundingRect().center().y())) best = box;
        }
        return best;
    };
    auto describe = [&](const QString& what) {
        const QRectF shown = visible(), first = extremeBox(false)->sceneBoundingRect();
        return QString("%1: shown %2,%3 %4x%5, first box at %6,%7").arg(what).arg(shown.left()).arg(shown.top()).arg(shown.width())
            .arg(shown.height()).arg(first.left()).arg(first.top());
    };
    for (const QString& action : {QString("expand all"), QString("collapse all"), QString("expand all")}) {
        // the drawing zoomed in and scrolled to its far corner
        view->setZoom(2);
        view->horizontalScrollBar()->setValue(view->horizontalScrollBar()->maximum());
        view->verticalScrollBar()->setValue(view->verticalScrollBar()->maximum());
        QVERIFY2(!visible().contains(extremeBox(false)->sceneBoundingRect()), qPrintable(describe("before " + action)));
        if (action == "expand all") doc.expandAll(); else doc.collapseAll();
        QVERIFY(waitSceneBuilt(w));
        QVERIFY2(visible().contains(extremeBox(false)->sceneBoundingRect()), qPrintable(describe("after " + action)));
    }
    // a selected node is what the user looks at: after Expand all it is in view, not the start
    doc.collapseAll();
    QVERIFY(waitSceneBuilt(w));
    const int node = static_cast<int>(doc.graph()->nodes.size()) - 2; // the last op: its output node follows
    QVERIFY(!scene.itemForNode(node) || scene.itemForNode(node)->item().kind != core::VisibleItem::Kind::Op);
    doc.selectNode(node);
    doc.expandAll();
    QVERIFY(waitSceneBuilt(w));
    const NodeItem* box = scene.itemForNode(node);
    QVERIFY(box);
    QVERIFY2(visible().intersects(box->sceneBoundingRect()), qPrintable(describe("selected, after expand all")));
    QVERIFY2(!visible().contains(extremeBox(false)->sceneBoundingRect()), qPrintable(describe("selected, after expand all")));
}

QTEST_MAIN(TstGraphSteering)
#include "tst_graph_steering.moc"
