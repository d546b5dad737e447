// The Decomposition pane: its item models, stepping to a level through the Document, undo / redo,
// new nodes marked "new" in the graph (not as search hits; quietly, keeping the family colours, said
// once when most boxes are new, back after an undo for the step that remains), the selection following the old -> new
// map, the reason an op stays, saving the decomposed program, and the before / after view of a
// rewrite (from the history and from a selected new node).
#include "support/zoo_files.h"
#include "support/gui_test_util.h"
#include "core/decomp/rules.h"
#include "core/io/pt2_reader.h"
#include "core/ir/example_program.h"
#include "core/ops/op_registry.h"
#include "views/compare/compare_window.h"
#include "views/decomp/decomp_compare.h"
#include "views/decomp/decomp_compare_view.h"
#include "views/decomp/decomp_models.h"
#include "views/decomp/decomp_pane.h"
#include "views/decomp/decomposition.h"
#include "views/document.h"
#include "support/color_distance.h"
#include "core/ops/op_family.h"
#include "views/graph/graph_items.h"
#include "views/graph/graph_pane.h"
#include "views/graph/graph_scene.h"
#include "views/graph/new_node_marker.h"
#include "views/main_window.h"

#include <QComboBox>
#include <QLabel>
#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <QPlainTextEdit>
#include <QPushButton>

#include <QAbstractItemModelTester>
#include <QDockWidget>
#include <QTemporaryDir>
#include <QTreeView>
#include <QTest>

#include <set>

using namespace irlens;
using namespace irlens::views;

namespace {

/// Loads the row's program into the document: "example" or a fixture path under fixtures/.
bool load(Document& doc, const QString& which) {
    if (which == "example") {
        doc.setProgram(core::makeExampleProgram(), "example");
        return testing::waitForLayout(doc);
    }
    if (which.startsWith("zoo/")) testing::writeViewPrograms();
    return testing::openAndWait(doc, testing::fixture(which.toStdString())).isEmpty();
}

bool waitStep(DecompPane& pane) {
    QElapsedTimer t;
    t.start();
    while (pane.isBusy() && t.elapsed() < 60000) QTest::qWait(10);
    return !pane.isBusy();
}

/// Graph node names of the boxes carrying the "new" mark, and checks each mark's tooltip.
QStringList markedNodes(const Document& doc, const GraphScene& scene, int step) {
    QStringList out;
    for (NodeItem* item : scene.nodeItems()) {
        if (item->newStep() == 0) continue;
        if (item->newStep() != step || !item->toolTipText().contains(QString("added by step %1: ").arg(step))) return {"bad mark"};
        const int k = item->item().nodeIndex;
        if (k >= 0) out << QString::fromStdString(doc.graph()->nodes[size_t(k)].name);
    }
    out.sort();
    return out;
}

/// The nodes the step at history position `step` (1-based) made, sorted.
QStringList madeByStep(const DecompPane& pane, int step) {
    QStringList out;
    for (const auto& a : pane.decomposition()->session()->history()[size_t(step - 1)]->applied)
        for (const auto& n : a.newNodes) out << QString::fromStdString(n);
    out.sort();
    return out;
}

/// The colour `box` paints at its point `at` (item coordinates) when drawn at `zoom`.
QColor paintedAt(NodeItem* box, double zoom, const QPointF& at) {
    QImage image(QSize(8, 8) + (box->boundingRect().size() * zoom).toSize(), QImage::Format_ARGB32);
    image.fill(Qt::white);
    QPainter p(&image);
    p.translate(4, 4);
    p.scale(zoom, zoom);
    p.translate(-box->boundingRect().topLeft());
    QStyleOptionGraphicsItem option;
    box->paint(&p, &option, nullptr);
    p.end();
    return image.pixelColor((QPointF(4, 4) + (at - box->boundingRect().topLeft()) * zoom).toPoint());
}

int countAtLevel(const core::Program& p, core::IrLevel level) {
    int n = 0;
    for (const auto& node : p.graph.nodes)
        if (core::OpRegistry::instance().levelOf(node.target) == level) ++n;
    return n;
}

} // namespace

class TstDecompGui : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void stepAllThenUndoRedo_data();
    void stepAllThenUndoRedo();
    void newMarksQuietAndBackAfterUndo();
    void selectionFollowsMap();
    void blockedOpsShowReason();
    void stepButtonsSayWhyNot();
    void stepOneNodeAndOneOp();
    void saveAsWritesLoadableProgram();
    void mainWindowHasDock();
    void compareStepSideBySide_data();
    void compareStepSideBySide();
    void compareFromSelectedNewNode();
    void compareKeepsInputNames();
};

void TstDecompGui::initTestCase() {
    QCoreApplication::setOrganizationName("irlens-tests");
    QCoreApplication::setApplicationName("tst_decomp_gui");
}

void TstDecompGui::stepAllThenUndoRedo_data() {
    QTest::addColumn<QString>("which");
    QTest::addColumn<int>("startLevel"); // IrLevel
    QTest::addColumn<int>("endLevel");
    QTest::addRow("example core->prims") << "example" << int(core::IrLevel::CoreAten) << int(core::IrLevel::Prims);
    QTest::addRow("zoo mlp_training training->core") << "zoo/mlp_training/model.pt2" << int(core::IrLevel::Training)
                                                     << int(core::IrLevel::CoreAten);
    QTest::addRow("zoo gpt_block core->prims") << "zoo/gpt_block/model.pt2" << int(core::IrLevel::CoreAten) << int(core::IrLevel::Prims);
    QTest::addRow("tiny_mlp training->core") << "generated/tiny_mlp/model.training.pt2" << int(core::IrLevel::Training)
                                             << int(core::IrLevel::CoreAten);
    QTest::addRow("zoo decoder_like_training training->core") << "zoo/decoder_like_training/model.pt2" << int(core::IrLevel::Training)
                                                              << int(core::IrLevel::CoreAten);
}

void TstDecompGui::stepAllThenUndoRedo() {
    QFETCH(QString, which);
    QFETCH(int, startLevel);
    QFETCH(int, endLevel);
    if (which != "example") IRLENS_REQUIRE_FIXTURE(which);
    Document doc;
    DecompPane pane(&doc);
    GraphScene scene(&doc);
    QAbstractItemModelTester opsTester(pane.opsModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester historyTester(pane.historyModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(load(doc, which));
    const core::ProgramPtr original = doc.program();
    const size_t before = original->graph.nodes.size();
    QCOMPARE(int(pane.currentLevel()), startLevel);
    QVERIFY(pane.opsModel()->candidateCount() > 0);
    QCOMPARE(pane.historyModel()->rowCount(), 0);

    QVERIFY(pane.stepAll());
    QVERIFY(waitStep(pane));
    QVERIFY2(doc.program() != original, qPrintable(pane.statusText()));
    QCOMPARE(doc.program(), pane.decomposition()->session()->current());
    QCOMPARE(int(pane.currentLevel()), endLevel);
    if (startLevel == int(core::IrLevel::Training)) QCOMPARE(countAtLevel(*doc.program(), core::IrLevel::Training), 0);
    const size_t after = doc.program()->graph.nodes.size();
    QVERIFY(after != before);
    // the history has the step with its counts and its rules' teaching text
    QCOMPARE(pane.historyModel()->rowCount(), 1);
    QCOMPARE(pane.historyModel()->index(0, DecompHistoryModel::ColNodes).data().toString(),
             QString("%1 → %2").arg(before).arg(after));
    const QString teaching = pane.historyModel()->index(0, 0).data(DecompHistoryModel::TeachingRole).toString();
    const auto* step = pane.decomposition()->session()->history().front();
    QVERIFY(!step->applied.empty());
    QVERIFY2(teaching.contains(QString::fromStdString(step->applied.front().rule->reference)), qPrintable(teaching));
    // nodes made by the step carry the "new" mark of step 1 (not the search-hit outline), and the
    // marked boxes are exactly the step's new nodes
    QVERIFY(!doc.newNodes().names.isEmpty());
    QCOMPARE(doc.newNodes().step, 1);
    QVERIFY(doc.searchHits().empty());
    QVERIFY(testing::waitForLayout(doc));
    QStringList expected;
    for (const auto& a : step->applied)
        for (const auto& n : a.newNodes) expected << QString::fromStdString(n);
    expected.sort();
    // the scene builds in slices and the marks follow one event-loop turn after the last slice
    QTRY_COMPARE_WITH_TIMEOUT(markedNodes(doc, scene, 1), expected, 30000);
    for (const QString& n : expected)
        QVERIFY2(!doc.graph()->nodes[size_t(doc.nodeIndexOf(n))].derivedFrom.empty(), qPrintable(n));
    QVERIFY(pane.decomposition()->isModified());

    QVERIFY(pane.undo());
    QCOMPARE(doc.program(), original);
    QCOMPARE(doc.program()->graph.nodes.size(), before);
    QCOMPARE(int(pane.currentLevel()), startLevel);
    QCOMPARE(pane.historyModel()->rowCount(), 0);
    QVERIFY(!pane.decomposition()->isModified());
    QVERIFY(testing::waitForLayout(doc));
    QTRY_VERIFY(scene.nodeItemCount() > 0);
    QCOMPARE(markedNodes(doc, scene, 0), QStringList()); // nothing is new after the undo

    QVERIFY(pane.redo());
    QCOMPARE(doc.program()->graph.nodes.size(), after);
    QCOMPARE(pane.historyModel()->rowCount(), 1);
    QCOMPARE(int(pane.currentLevel()), endLevel);
    QVERIFY(testing::waitForLayout(doc));
    QTRY_COMPARE_WITH_TIMEOUT(markedNodes(doc, scene, 1), expected, 30000);
}

// Two steps on the GPT block (core ATen): one node, then the rest to prims, the second making most
// boxes new: every marked box keeps its op family's fill, drawn plain (zoomed far out) and readable; the
// mark's colour is far from every family's; with that many new the tags give way to one note above the
// graph; an undo brings back the marks of the step that remains, tagged each as they are few.
void TstDecompGui::newMarksQuietAndBackAfterUndo() {
    Document doc;
    DecompPane pane(&doc);
    GraphPane graph(&doc);
    GraphScene& scene = *graph.scene();
    QVERIFY(load(doc, "zoo/gpt_block/model.pt2"));
    const auto candidates = pane.decomposition()->candidates();
    QVERIFY(!candidates.empty());
    QVERIFY(pane.decomposition()->stepNode(QString::fromStdString(candidates.front().node)));
    QVERIFY(waitStep(pane));
    const QStringList first = madeByStep(pane, 1);
    QTRY_COMPARE_WITH_TIMEOUT(markedNodes(doc, scene, 1), first, 30000);
    QVERIFY(pane.stepAll());
    QVERIFY(waitStep(pane));
    QCOMPARE(int(pane.currentLevel()), int(core::IrLevel::Prims));
    const QStringList second = madeByStep(pane, 2);
    QVERIFY(testing::waitForLayout(doc));
    QTRY_COMPARE_WITH_TIMEOUT(markedNodes(doc, scene, 2), second, 30000);
    QVERIFY(scene.newNodeMarker()->markedCount() > NewNodeMarker::kTagEachUpTo);
    int ops = 0;
    for (NodeItem* box : scene.nodeItems()) ops += box->item().kind == core::VisibleItem::Kind::Op;
    QVERIFY2(scene.newNodeMarker()->markedCount() * 2 > ops, "most boxes are new");
    for (NodeItem* box : scene.nodeItems()) {
        if (box->newStep() == 0) continue;
        QVERIFY(!box->newTagged());
        QVERIFY(!box->data(kTagRectKey).isValid());
        const QRectF r = box->boxRect();
        QCOMPARE(paintedAt(box, 0.05, r.center()), box->fill());                                   // plain
        QCOMPARE(paintedAt(box, 1.0, QPointF(r.right() - 4, r.center().y())), box->fill());       // readable
    }
    QVERIFY(graph.newNodesNote()->isVisibleTo(&graph));
    QVERIFY2(graph.newNodesNote()->text().contains(
                 QString("step 2 made %1 of the %2 boxes").arg(scene.newNodeMarker()->markedCount()).arg(scene.nodeItemCount())),
             qPrintable(graph.newNodesNote()->text()));
    for (int f = 0; f <= int(core::OpFamily::Other); ++f) {
        const QColor fill = themedFill(core::opFamilyColor(core::OpFamily(f)), false);
        const double distance = testing::ciede2000(testing::toLab(newNodeColor()), testing::toLab(fill));
        QVERIFY2(distance > 20, qPrintable(QString("%1: %2").arg(core::opFamilyName(core::OpFamily(f))).arg(distance)));
    }

    // undo: the program of step 1, its nodes marked again (as few as they are, tagged each)
    QVERIFY(pane.undo());
    QVERIFY(testing::waitForLayout(doc));
    QTRY_COMPARE_WITH_TIMEOUT(markedNodes(doc, scene, 1), first, 30000);
    QCOMPARE(doc.newNodes().step, 1);
    for (NodeItem* box : scene.nodeItems())
        if (box->newStep() > 0) QCOMPARE(box->newTagged(), first.size() <= NewNodeMarker::kTagEachUpTo);
    QVERIFY(graph.newNodesNote()->text().contains("step 1 made"));
}

void TstDecompGui::selectionFollowsMap() {
    Document doc;
    DecompPane pane(&doc);
    QVERIFY(load(doc, "zoo/mlp_training/model.pt2"));
    QVERIFY(doc.selectNodeByName("linear_1"));
    QVERIFY(pane.stepAll());
    QVERIFY(waitStep(pane));
    const auto map = pane.decomposition()->session()->history().back()->oldToNew();
    const auto it = map.find("linear_1");
    QVERIFY(it != map.end() && !it->second.empty());
    QVERIFY(doc.selectedNode() >= 0);
    const std::string selected = doc.graph()->nodes[size_t(doc.selectedNode())].name;
    QCOMPARE(selected, it->second.back());
    QCOMPARE(doc.graph()->nodes[size_t(doc.selectedNode())].derivedFrom, std::string("linear_1"));
    // undo: back to the node it replaced
    QVERIFY(pane.undo());
    QVERIFY(doc.selectedNode() >= 0);
    QCOMPARE(doc.graph()->nodes[size_t(doc.selectedNode())].name, std::string("linear_1"));
}

void TstDecompGui::blockedOpsShowReason() {
    // the example is core ATen with a convolution, which has no prim reference
    Document doc;
    DecompPane pane(&doc);
    QVERIFY(load(doc, "example"));
    auto reasonRow = [&]() -> QModelIndex {
        auto* m = pane.opsModel();
        for (int r = 0; r < m->rowCount(); ++r) {
            const QModelIndex i = m->index(r, DecompOpsModel::ColRule);
            if (i.data(DecompOpsModel::BlockedRole).toBool() && i.data(DecompOpsModel::TargetRole).toString().contains("convolution"))
                return i;
        }
        return {};
    };
    const core::Target conv = core::Target::parse("torch.ops.aten.convolution.default");
    const auto why = core::whyNoRule(conv, core::DecompStage::ToPrims);
    QVERIFY(why.has_value());
    QModelIndex row = reasonRow();
    QVERIFY(row.isValid());
    QCOMPARE(row.data().toString(), QString("stays: %1").arg(QString::fromStdString(*why)));
    QCOMPARE(pane.opsModel()->rowCount(row.siblingAtColumn(0)), 1); // the one convolution node
    // after stepping everything to prims it still stays, and still says why
    QVERIFY(pane.stepAll());
    QVERIFY(waitStep(pane));
    QCOMPARE(int(pane.currentLevel()), int(core::IrLevel::Prims));
    QCOMPARE(pane.opsModel()->candidateCount(), 0);
    row = reasonRow();
    QVERIFY(row.isValid());
    QVERIFY(row.data().toString().contains(QString::fromStdString(*why)));
    QVERIFY(!pane.stepAll()); // nothing left
}

// Step and Step op are disabled when they cannot act, and say why on hover.
void TstDecompGui::stepButtonsSayWhyNot() {
    Document doc;
    DecompPane pane(&doc);
    QVERIFY(load(doc, "example"));
    QCOMPARE(int(pane.currentLevel()), int(core::IrLevel::CoreAten));
    QPushButton* step = pane.stepButton();
    QPushButton* stepOp = pane.stepOpButton();
    // nothing selected
    QVERIFY(!step->isEnabled());
    QVERIFY(step->toolTip().startsWith("Select a node"));
    QVERIFY(!stepOp->isEnabled());
    QVERIFY(stepOp->toolTip().startsWith("Select an op"));
    QVERIFY(!pane.stepSelectedNode());
    // a node that stays (the convolution has no prim reference): the reason the list gives
    int conv = -1, steppable = -1;
    const auto candidates = pane.decomposition()->session()->candidates(pane.decomposition()->stage());
    QVERIFY(!candidates.empty());
    for (size_t k = 0; k < doc.graph()->nodes.size(); ++k) {
        const auto& n = doc.graph()->nodes[k];
        if (n.target.shortName() == "aten.convolution.default") conv = int(k);
        if (n.name == candidates.front().node) steppable = int(k);
    }
    QVERIFY(conv >= 0 && steppable >= 0);
    doc.selectNode(conv);
    const auto why = core::whyNoRule(doc.graph()->nodes[size_t(conv)].target, core::DecompStage::ToPrims);
    QVERIFY(why.has_value());
    QVERIFY(!step->isEnabled());
    QCOMPARE(step->toolTip(), QString("%1 stays at this stage: %2").arg(QString::fromStdString(doc.graph()->nodes[size_t(conv)].name),
                                                                        QString::fromStdString(*why)));
    QVERIFY(!stepOp->isEnabled());
    QCOMPARE(stepOp->toolTip(), QString("No aten.convolution.default node can be stepped at this stage"));
    // a node with a rule
    doc.selectNode(steppable);
    QVERIFY(step->isEnabled());
    QVERIFY(step->toolTip().contains(QString::fromStdString(candidates.front().node)));
    QVERIFY(stepOp->isEnabled());
    // while a step runs, and at prims
    QVERIFY(pane.stepAll());
    QVERIFY(!step->isEnabled());
    QCOMPARE(step->toolTip(), QString("A step is running"));
    QVERIFY(waitStep(pane));
    QCOMPARE(int(pane.currentLevel()), int(core::IrLevel::Prims));
    QVERIFY(!step->isEnabled());
    QVERIFY(!stepOp->isEnabled());
    QVERIFY(step->toolTip().contains("prims"));
}

void TstDecompGui::stepOneNodeAndOneOp() {
    Document doc;
    DecompPane pane(&doc);
    QVERIFY(load(doc, "zoo/mlp_training/model.pt2"));
    const size_t before = doc.program()->graph.nodes.size();
    // one node, chosen in the graph
    QVERIFY(doc.selectNodeByName("linear"));
    QVERIFY(pane.stepSelectedNode());
    QVERIFY(waitStep(pane));
    QCOMPARE(pane.decomposition()->session()->history().size(), size_t(1));
    QCOMPARE(pane.decomposition()->session()->history().back()->applied.size(), size_t(1));
    QCOMPARE(pane.decomposition()->session()->history().back()->applied.front().oldNode, std::string("linear"));
    // linear_1 and linear_2 are left under their op (the step's own t node may follow it to core)
    auto opRow = [&](const QString& target) -> QModelIndex {
        for (int r = 0; r < pane.opsModel()->rowCount(); ++r) {
            const QModelIndex i = pane.opsModel()->index(r, 0);
            if (i.data(DecompOpsModel::TargetRole).toString() == target && !i.data(DecompOpsModel::BlockedRole).toBool())
                return i;
        }
        return {};
    };
    QModelIndex op = opRow("aten.linear.default");
    QVERIFY(op.isValid());
    QCOMPARE(pane.opsModel()->rowCount(op), 2);
    QCOMPARE(op.siblingAtColumn(DecompOpsModel::ColCount).data().toInt(), 2);
    QCOMPARE(int(pane.currentLevel()), int(core::IrLevel::Training));
    // every node of an op, chosen in the list
    pane.opsView()->setCurrentIndex(op);
    QVERIFY(pane.stepSelectedOp());
    QVERIFY(waitStep(pane));
    QCOMPARE(pane.historyModel()->rowCount(), 2);
    QCOMPARE(pane.decomposition()->session()->history().back()->applied.size(), size_t(2));
    QVERIFY(!opRow("aten.linear.default").isValid());
    // and the rest to core ATen
    if (pane.currentLevel() == core::IrLevel::Training) {
        QVERIFY(pane.stepAll());
        QVERIFY(waitStep(pane));
    }
    QCOMPARE(int(pane.currentLevel()), int(core::IrLevel::CoreAten));
    QCOMPARE(countAtLevel(*doc.program(), core::IrLevel::Training), 0);
    QVERIFY(doc.program()->graph.nodes.size() > before);
}

void TstDecompGui::saveAsWritesLoadableProgram() {
    Document doc;
    DecompPane pane(&doc);
    QVERIFY(load(doc, "zoo/mlp_training/model.pt2"));
    QVERIFY(pane.stepToLevel(core::IrLevel::CoreAten));
    QVERIFY(waitStep(pane));
    QVERIFY(pane.decomposition()->isModified());
    QTemporaryDir dir;
    const QString path = dir.filePath("core.pt2");
    QCOMPARE(pane.decomposition()->saveAs(path), QString());
    QVERIFY(!pane.decomposition()->isModified());
    auto back = core::loadPt2(path.toStdString());
    QVERIFY2(back.isOk(), back.error().c_str());
    QCOMPARE((*back)->graph.nodes.size(), doc.program()->graph.nodes.size());
    QCOMPARE(countAtLevel(**back, core::IrLevel::Training), 0);
    // an unwritable place reports the writer's error
    QVERIFY(!pane.decomposition()->saveAs(dir.filePath("no/such/dir/x.pt2")).isEmpty());
}

void TstDecompGui::mainWindowHasDock() {
    MainWindow w;
    w.openExample();
    QVERIFY(testing::waitForLayout(*w.document()));
    auto* dock = w.findChild<QDockWidget*>("decomposition");
    QVERIFY(dock);
    auto* pane = qobject_cast<DecompPane*>(dock->widget());
    QVERIFY(pane);
    QCOMPARE(int(pane->currentLevel()), int(core::IrLevel::CoreAten));
    QVERIFY(pane->opsModel()->candidateCount() > 0);
}

namespace {
QStringList sorted(QStringList l) {
    l.sort();
    return l;
}
QStringList opTitles(const std::vector<NodeItem*>& items) {
    QStringList out;
    for (NodeItem* i : items) out << QString::fromStdString(i->item().title);
    return sorted(out);
}
/// "aten.addmm.default" -> "addmm" (the box title)
QStringList shortOps(const QStringList& ops) {
    QStringList out;
    for (const QString& o : ops) out << o.section('.', 1, 1);
    return sorted(out);
}
} // namespace

void TstDecompGui::compareStepSideBySide_data() {
    QTest::addColumn<QString>("which");
    QTest::addColumn<QString>("op");          // the op of the node stepped (its first node)
    QTest::addColumn<QStringList>("afterOps"); // what replaces it, as the reference decomposition emits
    // torch's linear kernel for a 2-D input with bias: addmm(bias, x, weight.t())
    QTest::addRow("zoo mlp_training linear -> t + addmm") << "zoo/mlp_training/model.pt2" << "aten.linear.default"
                                                          << QStringList{"aten.addmm.default", "aten.t.default"};
    QTest::addRow("tiny_mlp linear -> t + addmm") << "generated/tiny_mlp/model.training.pt2" << "aten.linear.default"
                                                  << QStringList{"aten.addmm.default", "aten.t.default"};
    QTest::addRow("zoo conv_attention addmm -> prims") << "zoo/conv_attention/model.pt2" << "aten.addmm.default"
                                                       << QStringList{"aten.mm.default", "prims.add.default", "prims.broadcast_in_dim.default"};
    // torch._decomp addmm (beta = alpha = 1): mm, the bias broadcast, one add
    QTest::addRow("zoo resnet_like addmm -> prims") << "zoo/resnet_like/model.pt2" << "aten.addmm.default"
                                             << QStringList{"aten.mm.default", "prims.add.default", "prims.broadcast_in_dim.default"};
}

void TstDecompGui::compareStepSideBySide() {
    QFETCH(QString, which);
    QFETCH(QString, op);
    QFETCH(QStringList, afterOps);
    IRLENS_REQUIRE_FIXTURE(which);
    Document doc;
    DecompPane pane(&doc);
    QVERIFY(load(doc, which));
    if (op.startsWith("aten.addmm")) {
        // addmm steps to prims: first the program's last training node to core ATen
        if (pane.currentLevel() == core::IrLevel::Training) {
            QVERIFY(pane.stepAll());
            QVERIFY(waitStep(pane));
        }
        QCOMPARE(int(pane.currentLevel()), int(core::IrLevel::CoreAten));
    }
    const int row = pane.historyModel()->rowCount(); // the history row of the step below
    const core::ProgramPtr before = doc.program();
    QString node;
    for (const auto& n : before->graph.nodes)
        if (node.isEmpty() && QString::fromStdString(n.target.shortName()) == op) node = QString::fromStdString(n.name);
    QVERIFY2(!node.isEmpty(), qPrintable(op));
    QVERIFY(doc.selectNodeByName(node));
    QVERIFY(pane.stepSelectedNode());
    QVERIFY(waitStep(pane));
    QVERIFY2(pane.historyModel()->rowCount() == row + 1, qPrintable(pane.statusText()));
    const core::ProgramPtr after = doc.program();
    QVERIFY(after != before);

    QVERIFY(!pane.compareStep(row + 1)); // no such history row
    QVERIFY(pane.compareStep(row));
    DecompCompareView* view = pane.compareView();
    QVERIFY(view);
    QVERIFY(view->window()->isVisible());
    QCOMPARE(view->rewriteBox()->count(), 1);
    QVERIFY(view->rewriteBox()->currentText().startsWith(node + " (" + op + ")"));
    QVERIFY(view->comparison().has_value());
    const DecompComparison& c = *view->comparison();
    QCOMPARE(c.step, row + 1);
    QCOMPARE(c.oldNode, node);
    QCOMPARE(c.before.nodes, QStringList{node});
    QCOMPARE(c.before.ops, QStringList{op});
    QCOMPARE(sorted(c.after.ops), afterOps);
    QVERIFY2(c.schema.startsWith(op.section('.', 1, 1)) && c.schema.contains(") -> "), qPrintable(c.schema));
    QVERIFY(view->headline().contains(c.reference));
    // the same boundary: the replacement reads what the node read, and its result stands where the
    // node's did, with the same value
    QCOMPARE(sorted(c.after.inputs), sorted(c.before.inputs));
    QCOMPARE(c.before.outputs, QStringList{node});
    QCOMPARE(c.after.outputs.size(), 1);
    QCOMPARE(core::valueLabel(after->graph, c.after.outputs.front().toStdString()),
             core::valueLabel(before->graph, node.toStdString()));
    QVERIFY(!core::valueLabel(before->graph, node.toStdString()).empty());
    for (const QString& n : c.after.nodes)
        QCOMPARE(after->graph.nodes[size_t(doc.nodeIndexOf(n))].derivedFrom, node.toStdString());
    // FX lines: the op on the left, each replacing op on the right, nothing else called
    QVERIFY(view->beforeText()->toPlainText().contains("call_function[target=torch.ops." + op + "]"));
    QCOMPARE(view->beforeText()->toPlainText().count("call_function"), 1);
    QCOMPARE(view->afterText()->toPlainText().count("call_function"), afterOps.size());
    for (const QString& o : afterOps) QVERIFY2(view->afterText()->toPlainText().contains("call_function[target=torch.ops." + o + "]"), qPrintable(o));
    // the drawn pair: one box on the left, the new ones on the right, each marked new by the step
    QTRY_VERIFY_WITH_TIMEOUT(!view->isLayoutPending(), 30000);
    QCOMPARE(opTitles(view->opItems(false)), QStringList{op.section('.', 1, 1)});
    QCOMPARE(opTitles(view->opItems(true)), shortOps(afterOps));
    for (NodeItem* i : view->opItems(false)) QCOMPARE(i->newStep(), 0);
    for (NodeItem* i : view->opItems(true)) {
        QCOMPARE(i->newStep(), row + 1);
        QVERIFY(i->toolTipText().contains(QString("added by step %1: ").arg(row + 1) + c.rule));
    }
    // boundary values as pills on both sides (inputs + the output box)
    QVERIFY(size_t(view->beforeScene()->items().size()) > view->opItems(false).size());

    // the whole programs in the Compare window, matched through the step, opened on this rewrite
    QVERIFY(!view->programCompare());
    auto* whole = view->findChild<QPushButton*>("compareWholeProgram");
    QVERIFY(whole);
    whole->click();
    CompareWindow* programs = view->programCompare();
    QVERIFY(programs && programs->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(programs->match() != nullptr, 30000);
    QCOMPARE(int(programs->match()->method), int(core::ProgramMatch::Method::Decomposition));
    QCOMPARE(programs->match()->count(core::MatchKind::Changed), size_t(1)); // this one node, nothing else
    const auto nameOf = [](Document* d) {
        const int k = d->selectedNode();
        return k < 0 ? QString() : QString::fromStdString(d->graph()->nodes[size_t(k)].name);
    };
    QTRY_COMPARE_WITH_TIMEOUT(nameOf(programs->leftDocument()), node, 30000);
    QVERIFY2(c.after.nodes.contains(nameOf(programs->rightDocument())), qPrintable(nameOf(programs->rightDocument())));
    QTRY_VERIFY_WITH_TIMEOUT(!programs->isBusy(), 60000); // its numeric check done before the window goes
}

// A step that replaces a node and its producer: the consumer's rewrite reads the producer's
// replacement ("add_9" in the program after), shown under the name it had before ("add").
void TstDecompGui::compareKeepsInputNames() {
    IRLENS_REQUIRE_SHARED();
    Document doc;
    DecompPane pane(&doc);
    QVERIFY(load(doc, "generated/tiny_gpt/model.pt2"));
    QVERIFY(pane.stepAll());
    QVERIFY(waitStep(pane));
    const auto steps = pane.decomposition()->session()->history();
    QVERIFY(!steps.empty());
    const auto& applied = steps.back()->applied;
    const auto& before = *pane.decomposition()->session()->snapshot(steps.size() - 1);
    const auto& after = *pane.decomposition()->session()->snapshot(steps.size());
    std::set<std::string> replaced;
    for (const auto& a : applied) replaced.insert(a.oldNode);
    int chained = 0; // rewrites reading a value another rewrite of the step replaced
    for (size_t r = 0; r < applied.size(); ++r) {
        const auto c = compareRewrite(before, after, applied, r, int(steps.size()));
        QVERIFY(c.has_value());
        bool readsReplaced = false;
        for (const QString& in : c->before.inputs) readsReplaced |= replaced.count(in.toStdString()) > 0;
        if (!readsReplaced) continue;
        ++chained;
        // every input of the after side is one of the before side's, by name, in the FX text too
        for (const QString& in : c->after.inputs) {
            QVERIFY2(c->before.inputs.contains(in), qPrintable(c->oldNode + ": " + in + " not in " + c->before.inputs.join(",")));
            QVERIFY(c->after.fxText.contains(in));
        }
    }
    QVERIFY2(chained > 0, "the step has no rewrite reading another's value: the test shows nothing");

    // "Whole program…" on the last rewrite of the step opens both programs on that rewrite's node
    QVERIFY(pane.compareStep(int(steps.size()) - 1));
    DecompCompareView* view = pane.compareView();
    QVERIFY(view->rewriteBox()->count() == int(applied.size()) && applied.size() > 1);
    QVERIFY(view->showRewrite(int(applied.size()) - 1));
    view->compareWholeProgram();
    CompareWindow* programs = view->programCompare();
    QVERIFY(programs);
    QTRY_VERIFY_WITH_TIMEOUT(programs->leftDocument()->selectedNode() >= 0, 30000);
    const int k = programs->leftDocument()->selectedNode();
    QCOMPARE(programs->leftDocument()->graph()->nodes[size_t(k)].name, applied.back().oldNode);
    QTRY_VERIFY_WITH_TIMEOUT(!programs->isBusy(), 60000);
}

void TstDecompGui::compareFromSelectedNewNode() {
    Document doc;
    DecompPane pane(&doc);
    QVERIFY(load(doc, "zoo/mlp_training/model.pt2"));
    QVERIFY(pane.stepAll());
    QVERIFY(waitStep(pane));
    const auto* step = pane.decomposition()->session()->history().back();
    // the node that now carries linear_1's value came from it
    const auto now = pane.decomposition()->session()->currentNodesFor("linear_1");
    QVERIFY(now.size() >= 2);
    QVERIFY(doc.selectNodeByName(QString::fromStdString(now.back())));
    QVERIFY(pane.compareSelection());
    const auto& c = pane.compareView()->comparison();
    QVERIFY(c.has_value());
    QCOMPARE(c->oldNode, QString("linear_1"));
    QVERIFY(c->after.nodes.contains(QString::fromStdString(now.back())));
    QCOMPARE(pane.compareView()->rewriteBox()->count(), int(step->applied.size()));
    // another rewrite of the same step from the combo box
    const int other = pane.compareView()->rewriteBox()->currentIndex() == 0 ? 1 : 0;
    QVERIFY(pane.compareView()->showRewrite(other));
    QCOMPARE(pane.compareView()->comparison()->oldNode, QString::fromStdString(step->applied[size_t(other)].oldNode));
    // with the window open, selecting another new node follows it
    const auto first = pane.decomposition()->session()->currentNodesFor("linear");
    QVERIFY(doc.selectNodeByName(QString::fromStdString(first.back())));
    QCOMPARE(pane.compareView()->comparison()->oldNode, QString("linear"));
    // a node no step made has nothing to compare
    QString kept;
    for (const auto& n : doc.program()->graph.nodes)
        if (kept.isEmpty() && n.derivedFrom.empty()) kept = QString::fromStdString(n.name);
    QVERIFY(!kept.isEmpty()); // relu stays at core ATen
    QVERIFY(!pane.compareNode(kept));
    QVERIFY2(pane.statusText().contains(kept + " was not made by a decomposition step"), qPrintable(pane.statusText()));
    QTRY_VERIFY_WITH_TIMEOUT(!pane.compareView()->isLayoutPending(), 30000);
}

QTEST_MAIN(TstDecompGui)
#include "tst_decomp_gui.moc"
