// The graph scene on real programs: one box per visible node (collapsed or not), expand/collapse,
// HOP subgraphs, symbols, search and keyboard navigation.
#include "core/decomp/decomp_session.h"
#include "core/ir/example_program.h"
#include "core/io/fx_printer.h"
#include "core/ops/op_family.h"
#include "core/layout/visible_graph.h"
#include "support/zoo_files.h"
#include "support/color_distance.h"
#include "support/gui_test_util.h"
#include "views/decomp/decomposition.h"
#include "views/graph/graph_items.h"
#include "views/graph/graph_navigation.h"
#include "views/graph/graph_pane.h"
#include "views/graph/graph_scene.h"
#include "views/graph/graph_view.h"

#include <QLabel>
#include <QMenu>
#include <QGraphicsView>
#include <QTest>
#include <QToolButton>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace irlens;
using namespace irlens::views;
using irlens::testing::fixture;

class TstGraphScene : public QObject {
    Q_OBJECT
private slots:
    void exampleWithoutFiles();
    void everyFixture_data();
    void everyFixture();
    void expandCollapseDeepStack_data();
    void expandCollapseDeepStack();
    void hopSubgraph();
    void fitThenZoomInOnExpandedGiant();
    void oneNamePerNode();
    void nodeContextMenu();
    void symbolHighlight();
    void searchAndNavigate();
    void textReadableInBothThemes_data();
    void textReadableInBothThemes();
    void familiesToldApart();
    void decompositionStepKeepsTheDrawing();
    void bigLayoutBuiltInSlices_data();
    void bigLayoutBuiltInSlices();
    void oldItemsHiddenAtOnceDeletedLater();
    void longLayoutShowsACoarserOneFirst();
    void indexDeepEnoughAfterExpanding();
    void framesHoldTheirItems_data();
    void framesHoldTheirItems();
    void smallerRectWaitsForTheOldItems();
};

namespace {

struct Counts {
    int ops = 0, inputs = 0, outputs = 0, modules = 0, hidden = 0;
};

Counts countScene(const GraphScene& scene) {
    Counts c;
    for (auto* item : scene.nodeItems()) {
        switch (item->item().kind) {
        case core::VisibleItem::Kind::Op: ++c.ops; break;
        case core::VisibleItem::Kind::Input: ++c.inputs; break;
        case core::VisibleItem::Kind::Output: ++c.outputs; break;
        case core::VisibleItem::Kind::Module: ++c.modules; c.hidden += item->item().hiddenNodes; break;
        }
    }
    return c;
}

int userInputs(const core::Program& p) {
    int n = 0;
    for (const auto& s : p.signature.inputSpecs)
        n += s.kind == core::InputKind::UserInput || s.kind == core::InputKind::ConstantInput;
    return n;
}

} // namespace

void TstGraphScene::exampleWithoutFiles() {
    Document doc;
    GraphScene scene(&doc);
    doc.setProgram(core::makeExampleProgram(), "example");
    QVERIFY(testing::waitForLayout(doc));
    const auto& p = *doc.program();
    Counts c = countScene(scene);
    // small program: everything expanded, one box per node, plus the input pill(s) and the output
    QCOMPARE(c.ops, static_cast<int>(p.graph.nodes.size()));
    QCOMPARE(c.modules, 0);
    QCOMPARE(c.inputs, userInputs(p));
    QCOMPARE(c.outputs, 1);
    QCOMPARE(scene.edgeItemCount(), static_cast<int>(doc.layout()->graph.edges.size()));
    QVERIFY(scene.clusterItemCount() > 0);
}

void TstGraphScene::everyFixture_data() {
    QTest::addColumn<QString>("path");
    for (const auto& f : testing::allFixtures()) QTest::addRow("%s", qPrintable(f)) << f;
}

void TstGraphScene::everyFixture() {
    QFETCH(QString, path);
    IRLENS_REQUIRE_FIXTURE(path);
    Document doc;
    GraphScene scene(&doc);
    const QString error = testing::openAndWait(doc, fixture(path.toStdString()));
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const auto& p = *doc.program();
    const int nodes = static_cast<int>(p.graph.nodes.size());
    Counts c = countScene(scene);
    // every graph node is drawn exactly once: as its own box or inside a collapsed module's box
    QCOMPARE(c.ops + c.hidden, nodes);
    QCOMPARE(scene.nodeItemCount(), static_cast<int>(doc.layout()->graph.items.size()));
    QCOMPARE(c.outputs, 1);
    QCOMPARE(c.inputs, userInputs(p));
    if (nodes > core::kAutoCollapseNodes) {
        QCOMPARE(c.ops, 0); // opens collapsed to top-level modules
        QVERIFY(c.modules > 0);
    } else {
        QCOMPARE(c.ops, nodes);
        QCOMPARE(c.modules, 0);
    }
    // parameters never get a box of their own
    for (auto* item : scene.nodeItems()) QVERIFY(item->item().id.rfind("in:p_", 0) != 0);
}

// 240 blocks under "layers", then a head: the zoo's deep residual stack and the deep decoder stack.
void TstGraphScene::expandCollapseDeepStack_data() {
    QTest::addColumn<QString>("model");
    QTest::newRow("zoo/deep_residual_stack") << "zoo/deep_residual_stack/model.pt2";
    QTest::newRow("zoo/deep_decoder_like") << "zoo/deep_decoder_like/model.pt2";
}

void TstGraphScene::expandCollapseDeepStack() {
    QFETCH(QString, model);
    IRLENS_REQUIRE_FIXTURE(model);
    testing::writeViewPrograms();
    Document doc;
    doc.setFoldRepeatedBlocks(false); // every block its own box (the decoder stack is big enough to fold)
    GraphScene scene(&doc);
    QVERIFY(testing::openAndWait(doc, fixture(model.toStdString())).isEmpty());
    const auto& tree = *doc.scope().tree;
    const int layers = tree.find("layers");
    QVERIFY(layers > 0);
    const int collapsed = scene.nodeItemCount();
    QCOMPARE(collapsed, 4); // x, layers, head, output
    // expanding "layers" shows its 240 blocks as boxes (and head's 4 nodes stay folded)
    doc.toggleModule(layers);
    QVERIFY(testing::waitForLayout(doc));
    QTRY_COMPARE(scene.nodeItemCount(), collapsed - 1 + static_cast<int>(tree.module(layers).children.size()));
    QCOMPARE(static_cast<int>(tree.module(layers).children.size()), 240);
    QCOMPARE(scene.clusterItemCount(), 1);
    // one block opened: its nodes get their own boxes
    const int block = tree.find("layers.7");
    doc.toggleModule(block);
    QVERIFY(testing::waitForLayout(doc));
    Counts c = countScene(scene);
    QVERIFY(c.ops > 0);
    QCOMPARE(c.ops + c.hidden, static_cast<int>(doc.program()->graph.nodes.size()));
    // closing again comes from the cache, instantly
    doc.toggleModule(block);
    doc.toggleModule(layers);
    QVERIFY(!doc.isBusy());
    QCOMPARE(scene.nodeItemCount(), collapsed);
}

void TstGraphScene::hopSubgraph() {
    testing::zooDir();
    Document doc;
    GraphPane pane(&doc);
    GraphScene& scene = *pane.scene();
    GraphView& view = *pane.view();
    QVERIFY(testing::openAndWait(doc, fixture("zoo/cond_branch/model.pt2")).isEmpty());
    const auto& g = doc.program()->graph;
    int cond = -1;
    for (size_t k = 0; k < g.nodes.size(); ++k)
        if (g.nodes[k].target.kind == core::Target::Kind::HigherOrder) cond = static_cast<int>(k);
    QVERIFY(cond >= 0);
    QCOMPARE(QString::fromStdString(g.nodes[size_t(cond)].name), QString("cond")); // FX's name, not its getitem's
    auto* item = scene.itemForNode(cond);
    QVERIFY(item && item->item().isHop);
    // both branches are chips on the box
    std::vector<int> branchChips;
    for (size_t c = 0; c < item->item().chips.size(); ++c)
        if (item->item().chips[c].kind == core::Chip::Kind::Subgraph) branchChips.push_back(int(c));
    QCOMPARE(branchChips.size(), size_t(2));
    QCOMPARE(QString::fromStdString(item->item().chips[size_t(branchChips[1])].value), QString("false_graph_0"));
    // double-click on the HOP box enters its first subgraph
    QVERIFY(view.activateAt(item->sceneBoundingRect().center()));
    QVERIFY(testing::waitForLayout(doc));
    QCOMPARE(doc.scopes().size(), size_t(2));
    QCOMPARE(doc.scope().label, QString("cond · true_graph_0"));
    Counts c = countScene(scene);
    QCOMPARE(c.ops, static_cast<int>(doc.graph()->nodes.size()));
    QVERIFY(c.ops > 0);
    // the breadcrumb: "graph" (a button) › the branch in bold text, and the other branch one click away
    auto* here = pane.findChild<QLabel*>("breadcrumbHere");
    QVERIFY(here && here->isEnabled() && here->text().contains("true_graph_0"));
    auto* sibling = pane.findChild<QToolButton*>("siblingSubgraph");
    QVERIFY(sibling && sibling->text().contains("false_graph_0"));
    sibling->click();
    QTRY_VERIFY(doc.scope().label.contains("false_graph_0"));
    QVERIFY(testing::waitForLayout(doc));
    QCOMPARE(doc.scopes().size(), size_t(2));
    QCOMPARE(countScene(scene).ops, static_cast<int>(doc.graph()->nodes.size()));
    // back up, then a click on the false branch's chip opens it directly
    doc.leaveSubgraph(0);
    QVERIFY(testing::waitForLayout(doc));
    QCOMPARE(doc.scopes().size(), size_t(1));
    QCOMPARE(countScene(scene).ops, static_cast<int>(g.nodes.size()));
    item = scene.itemForNode(cond);
    const QRectF chip = item->chipRect(branchChips[1]);
    QVERIFY(!chip.isEmpty());
    view.selectAt(chip.center());
    QTRY_COMPARE(doc.scopes().size(), size_t(2));
    QVERIFY(doc.scope().label.contains("false_graph_0"));
    QVERIFY(testing::waitForLayout(doc));
}

void TstGraphScene::fitThenZoomInOnExpandedGiant() {
    IRLENS_REQUIRE_SHARED();
    Document doc;
    GraphPane pane(&doc);
    pane.resize(1200, 800);
    pane.show();
    GraphView& view = *pane.view();
    QVERIFY(testing::openAndWait(doc, fixture("generated/llama_deep/model.pt2")).isEmpty());
    doc.setFoldRepeatedBlocks(false); // all 128 layers drawn
    doc.expandAll();
    QVERIFY(testing::waitForLayout(doc, 300000));
    // the scene builds in slices: wait for the last one (a slow machine needs more than 5 s)
    QTRY_VERIFY_WITH_TIMEOUT(!pane.scene()->isBuilding() && pane.scene()->nodeItemCount() > 10000, 120000);
    // Fit: the whole 12k-node column, below the wheel's floor
    view.fitAll();
    const double fitted = view.zoom();
    QVERIFY(fitted < GraphView::kMinZoom);
    // to a few pixels: at this zoom (a pixel is 730 points) Qt places the fitted column up to 7 px off its centre
    const double pixels = 8 / fitted;
    const QRectF seen = view.mapToScene(view.viewport()->rect()).boundingRect(), whole = pane.scene()->drawingRect();
    QVERIFY2(seen.adjusted(-pixels, -pixels, pixels, pixels).contains(whole) && seen.height() > whole.height(),
             qPrintable(QString("%1 + %2 of %3 + %4 at %5").arg(seen.y()).arg(seen.height()).arg(whole.y()).arg(whole.height()).arg(fitted)));
    // and zooming in works from there, by keys and by wheel
    QTest::keyClick(&view, Qt::Key_Equal, Qt::ControlModifier);
    QVERIFY(view.zoom() > fitted * 1.2);
    const double z = view.zoom();
    view.zoomBy(1.15);
    QVERIFY(view.zoom() > z);
    // zoom out is clamped, not refused: many steps out end at the whole graph, one step in leaves it
    for (int k = 0; k < 40; ++k) view.zoomBy(0.8);
    QCOMPARE(view.zoom(), fitted);
    view.zoomBy(1.25);
    QVERIFY(view.zoom() > fitted);
    // a search hit is brought into view at a zoom where it can be read
    view.fitAll();
    QVERIFY(pane.search("rsqrt") > 100);
    const int hit = pane.nextHit();
    QVERIFY(hit >= 0);
    QVERIFY(view.zoom() >= GraphView::kLegibleZoom);
    const QRectF visible = view.mapToScene(view.viewport()->rect()).boundingRect();
    NodeItem* hitBox = pane.scene()->itemForNode(hit);
    QVERIFY(hitBox);
    QVERIFY(visible.contains(hitBox->sceneBoundingRect().center()));
}

void TstGraphScene::oneNamePerNode() {
    IRLENS_REQUIRE_SHARED();
    Document doc;
    GraphScene scene(&doc);
    QVERIFY(testing::openAndWait(doc, fixture("generated/deep_stack/model.pt2")).isEmpty());
    // deep_stack's file names no node; a layer norm (three outputs) is named as FX names it
    const auto& g = *doc.graph();
    const std::string fx = core::printFxGraph(*doc.program());
    int norms = 0;
    for (const auto& n : g.nodes) {
        if (n.target.op() != "native_layer_norm") continue;
        ++norms;
        QVERIFY2(n.name.rfind("native_layer_norm_default", 0) == 0, n.name.c_str());
        QVERIFY2(fx.find("%" + n.name + " : [num_users=") != std::string::npos, n.name.c_str());
    }
    QCOMPARE(norms, 240);
    for (const auto& n : g.nodes) QVERIFY2(n.name.rfind("getitem", 0) != 0 || n.target.op() == "getitem", n.name.c_str());
}

void TstGraphScene::nodeContextMenu() {
    testing::zooDir();
    Document doc;
    GraphPane pane(&doc);
    GraphView& view = *pane.view();
    QVERIFY(testing::openAndWait(doc, fixture("zoo/mlp_training/model.pt2")).isEmpty());
    const auto& g = *doc.graph();
    // a linear that reads another node (the first reads only the input x)
    int linear = -1;
    for (size_t k = 0; k < g.nodes.size() && linear < 0; ++k)
        if (g.nodes[k].target.op() == "linear" && !producersOf(g, int(k)).empty()) linear = int(k);
    QVERIFY(linear >= 0);
    int linearsBefore = 0;
    for (const auto& node : g.nodes) linearsBefore += node.target.op() == "linear";
    {
        QMenu menu;
        view.addNodeActions(menu, linear);
        std::map<QString, QAction*> a;
        for (QAction* act : menu.actions())
            if (!act->isSeparator()) a[act->text().section(" (", 0, 0)] = act;
        for (const char* t : {"Show source", "Decompose this node", "Find producers", "Find users"})
            QVERIFY2(a.count(t), t);
        QVERIFY(a["Show source"]->isEnabled()); // the program records the model's stack
        QVERIFY(a["Decompose this node"]->isEnabled()); // linear has a training -> core rule
        // Find users: the users become the search hits and the first is selected
        const auto users = usersOf(g, linear);
        QVERIFY(!users.empty());
        a["Find users"]->trigger();
        QCOMPARE(doc.searchHits(), users);
        QCOMPARE(doc.selectedNode(), users.front());
        QVERIFY(a["Find producers"]->isEnabled());
        a["Find producers"]->trigger();
        QCOMPARE(doc.searchHits(), producersOf(g, linear));
        QVERIFY(!doc.searchHits().empty());
        // Decompose this node: one step, the linear node replaced
        a["Decompose this node"]->trigger();
    }
    auto linears = [&] {
        int n = 0;
        for (const auto& node : doc.graph()->nodes) n += node.target.op() == "linear";
        return n;
    };
    QTRY_VERIFY_WITH_TIMEOUT(!doc.decomposition()->isBusy(), 60000);
    QTRY_COMPARE(linears(), linearsBefore - 1);
    QVERIFY(doc.decomposition()->isModified());
    // the placeholder inputs have no stack: Show source says why it cannot act
    QVERIFY(testing::waitForLayout(doc));
    int t = -1;
    for (size_t k = 0; k < doc.graph()->nodes.size() && t < 0; ++k)
        if (doc.graph()->nodes[k].meta.frames.empty()) t = int(k);
    if (t >= 0) {
        QMenu menu;
        view.addNodeActions(menu, t);
        QAction* src = menu.actions().front();
        QCOMPARE(src->text(), QString("Show source"));
        QVERIFY(!src->isEnabled());
        QVERIFY(!src->toolTip().isEmpty());
    }
}

void TstGraphScene::symbolHighlight() {
    testing::zooDir();
    Document doc;
    GraphScene scene(&doc);
    QVERIFY(testing::openAndWait(doc, fixture("zoo/dynamic_mlp/model.pt2")).isEmpty());
    const auto using_s0 = GraphScene::nodesUsingSymbol(*doc.graph(), "s0");
    // every node whose output has the dynamic batch: all but sym_size and the transposes of weights
    QVERIFY(!using_s0.empty());
    for (int n : using_s0) {
        const auto& node = doc.graph()->nodes[static_cast<size_t>(n)];
        QVERIFY2(node.target.op() != "t", node.name.c_str());
    }
    doc.setHighlightSymbol("s0");
    int marked = 0;
    for (auto* item : scene.nodeItems()) marked += (item->emphasis() & int(Emphasis::Symbol)) != 0;
    QCOMPARE(marked, static_cast<int>(using_s0.size()));
    QVERIFY(GraphScene::nodesUsingSymbol(*doc.graph(), "s").empty()); // whole words only
}

void TstGraphScene::searchAndNavigate() {
    testing::zooDir();
    Document doc;
    GraphPane pane(&doc);
    QVERIFY(testing::openAndWait(doc, fixture("zoo/gpt_block/model.pt2")).isEmpty());
    const auto& g = *doc.graph();
    int norms = 0;
    for (const auto& n : g.nodes) norms += n.target.op() == "native_layer_norm";
    QCOMPARE(norms, 3); // ln1, ln2, ln_f
    QCOMPARE(pane.search("native_layer_norm"), norms);
    QCOMPARE(pane.search("attn.q_proj"), [&] {
        int n = 0;
        for (size_t k = 0; k < g.nodes.size(); ++k)
            n += doc.scope().tree->module(doc.scope().tree->moduleOfNode(static_cast<int>(k))).path.rfind("attn.q_proj", 0) == 0;
        return n;
    }());
    QCOMPARE(pane.search("^add.*_1$", true), [&] {
        int n = 0;
        for (const auto& node : g.nodes) n += QRegularExpression("^add.*_1$", QRegularExpression::CaseInsensitiveOption)
                                                   .match(QString::fromStdString(node.name)).hasMatch();
        return n;
    }());
    QCOMPARE(pane.search("([", true), 0); // invalid regex: no hits, no crash
    pane.search("native_layer_norm");
    const int first = pane.nextHit();
    QCOMPARE(doc.selectedNode(), first);
    QCOMPARE(g.nodes[static_cast<size_t>(first)].target.op(), std::string("native_layer_norm"));
    const int last = pane.nextHit(true);
    QVERIFY(last != first);
    // search hits are outlined
    int outlined = 0;
    for (auto* item : pane.scene()->nodeItems()) outlined += (item->emphasis() & int(Emphasis::SearchHit)) != 0;
    QCOMPARE(outlined, norms);
    // Alt+Down walks to the first user, Alt+Up back to the producer
    doc.selectNode(first);
    const int user = firstUserOf(g, first);
    QVERIFY(user > first);
    QTest::keyClick(pane.view(), Qt::Key_Down, Qt::AltModifier);
    QCOMPARE(doc.selectedNode(), user);
    QTest::keyClick(pane.view(), Qt::Key_Up, Qt::AltModifier);
    QCOMPARE(doc.selectedNode(), producerOf(g, user));
    QCOMPARE(producerOf(g, user), first);
}

void TstGraphScene::textReadableInBothThemes_data() {
    QTest::addColumn<int>("family");
    QTest::addColumn<bool>("dark");
    for (int f = 0; f <= int(core::OpFamily::Other); ++f) {
        QTest::addRow("%s light", core::opFamilyName(core::OpFamily(f))) << f << false;
        QTest::addRow("%s dark", core::opFamilyName(core::OpFamily(f))) << f << true;
    }
}

void TstGraphScene::textReadableInBothThemes() {
    // WCAG contrast of the label colour on the node fill, on light and dark palettes
    QFETCH(int, family);
    QFETCH(bool, dark);
    const QColor fill = themedFill(core::opFamilyColor(core::OpFamily(family)), dark);
    const QColor text = readableTextOn(fill);
    auto lum = [](const QColor& c) {
        auto ch = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
        return 0.2126 * ch(c.redF()) + 0.7152 * ch(c.greenF()) + 0.0722 * ch(c.blueF());
    };
    const double a = lum(fill), b = lum(text);
    const double contrast = (std::max(a, b) + 0.05) / (std::min(a, b) + 0.05);
    QVERIFY2(contrast >= 4.5, qPrintable(QString("contrast %1 of %2 on %3").arg(contrast).arg(text.name(), fill.name())));
}

// A step through the Document (what the decomposition pane does): the boxes the step did not touch keep
// their scene position (above the replaced node) or move straight down; Relayout lays out afresh.
void TstGraphScene::familiesToldApart() {
    // the measure first: three of Sharma, Wu and Dalal's published pairs
    using testing::ciede2000;
    QVERIFY(std::abs(ciede2000(testing::Lab{50, 2.6772, -79.7751}, testing::Lab{50, 0, -82.7485}) - 2.0425) < 1e-4);
    QVERIFY(std::abs(ciede2000(testing::Lab{50, 2.5, 0}, testing::Lab{73, 25, -18}) - 27.1492) < 1e-4);
    QVERIFY(std::abs(ciede2000(testing::Lab{60.2574, -34.0099, 36.2677}, testing::Lab{60.4626, -34.1751, 39.4387}) - 1.2644) < 1e-4);
    // every pair of op-family fills, as the graph paints them in a light and in a dark theme, differs
    // by at least 10 (CIEDE2000): told apart at a glance, by colour-blind users less so (hue pairs
    // differ in lightness too where the search could make them)
    const int n = int(core::OpFamily::Other) + 1;
    for (bool dark : {false, true}) {
        double worst = 1e9;
        QString pair;
        for (int a = 0; a < n; ++a)
            for (int b = a + 1; b < n; ++b) {
                const double d = ciede2000(themedFill(core::opFamilyColor(core::OpFamily(a)), dark),
                                           themedFill(core::opFamilyColor(core::OpFamily(b)), dark));
                if (d < worst) {
                    worst = d;
                    pair = QString("%1 / %2").arg(core::opFamilyName(core::OpFamily(a)), core::opFamilyName(core::OpFamily(b)));
                }
            }
        QVERIFY2(worst >= 10, qPrintable(QString("%1 theme: %2 differ by %3").arg(dark ? "dark" : "light", pair).arg(worst)));
    }
}

void TstGraphScene::decompositionStepKeepsTheDrawing() {
    testing::zooDir();
    Document doc;
    GraphScene scene(&doc);
    GraphView view(&doc, &scene);
    view.resize(900, 700);
    QVERIFY(testing::openAndWait(doc, fixture("zoo/gpt_block/model.pt2")).isEmpty());
    QHash<QString, QRectF> before;
    for (auto* item : scene.nodeItems()) before[QString::fromStdString(item->item().id)] = item->sceneBoundingRect();
    core::DecompSessionOptions o;
    o.verify = false;
    core::DecompSession session(doc.program(), o);
    std::string node;
    for (const auto& c : session.candidates(core::DecompStage::ToPrims))
        if (c.target.find("layer_norm") != std::string::npos) node = c.node;
    QVERIFY(!node.empty());
    auto step = session.stepNode(node, core::DecompStage::ToPrims);
    QVERIFY2(step.isOk(), step.error().c_str());
    const QRectF replaced = before.value(QString::fromStdString(node));
    doc.setProgram(session.current(), "gpt_block (prims)");
    QVERIFY(testing::waitForLayout(doc));
    QVERIFY(doc.layoutIsIncremental());
    int kept = 0, moved = 0, fresh = 0;
    double down = -1;
    for (auto* item : scene.nodeItems()) {
        const QString id = QString::fromStdString(item->item().id);
        const QRectF now = item->sceneBoundingRect();
        if (!before.contains(id)) {
            QVERIFY2(now.top() >= replaced.top() - 9, qPrintable(id)); // hangs from where the node was
            ++fresh;
            continue;
        }
        const QRectF was = before.value(id);
        if (was.bottom() <= replaced.top()) {
            QCOMPARE(now, was);
            ++kept;
        } else if (was.top() >= replaced.bottom()) {
            QCOMPARE(now.left(), was.left());
            if (down < 0) down = now.top() - was.top();
            QCOMPARE(now.top() - was.top(), down); // one uniform shift
            ++moved;
        }
    }
    QVERIFY(kept > 0 && moved > 0 && fresh > 1);
    if (const QByteArray out = qgetenv("IRLENS_SCENE_SHOT"); !out.isEmpty()) {
        view.show();
        view.centerOn(replaced.center());
        QTest::qWait(50);
        view.grab().save(QString::fromUtf8(out));
    }
    doc.relayout();
    QVERIFY(testing::waitForLayout(doc));
    QVERIFY(!doc.layoutIsIncremental());
    QCOMPARE(scene.nodeItemCount(), static_cast<int>(doc.layout()->graph.items.size()));
}

// a deep stack with 40 blocks open: more items than kSyncItems, built across several event-loop turns
// (creating items is cheap, about 1 ms per 2,000 here, so slices are capped by count to see them).
void TstGraphScene::bigLayoutBuiltInSlices_data() { expandCollapseDeepStack_data(); }

void TstGraphScene::bigLayoutBuiltInSlices() {
    QFETCH(QString, model);
    IRLENS_REQUIRE_FIXTURE(model);
    testing::writeViewPrograms();
    Document doc;
    doc.setFoldRepeatedBlocks(false); // the 40 blocks drawn, not one of them with a ×40 note
    GraphScene scene(&doc);
    QVERIFY(testing::openAndWait(doc, fixture(model.toStdString())).isEmpty());
    int rebuilt = 0;
    connect(&scene, &GraphScene::rebuilt, this, [&] { ++rebuilt; });
    const auto& tree = *doc.scope().tree;
    core::CollapseState open = core::CollapseState::topLevel();
    open.setExpanded(tree.find("layers"), true);
    scene.setMaxItemsPerSlice(200);
    for (int b = 0; b < 40; ++b) open.setExpanded(tree.find("layers." + std::to_string(b)), true);
    bool slicing = false;
    // connected after the scene: runs once the scene has spent its first slice
    connect(&doc, &Document::layoutReady, this, [&] { slicing = scene.isBuilding(); });
    doc.setCollapse(open);
    QVERIFY(testing::waitForLayout(doc));
    const auto layout = doc.layout();
    const int total = static_cast<int>(layout->graph.items.size() + layout->edges.size() + layout->clusters.size());
    QVERIFY2(total > GraphScene::kSyncItems, qPrintable(QString::number(total)));
    QTRY_VERIFY(!scene.isBuilding());
    qInfo("%d items built in slices", total);
    QVERIFY(slicing);
    QCOMPARE(rebuilt, 1);
    QCOMPARE(scene.nodeItemCount(), static_cast<int>(layout->graph.items.size()));
    QCOMPARE(scene.edgeItemCount(), static_cast<int>(layout->edges.size()));
}

// Collapsing the expanded deep decoder stack replaces over 10,000 items: in the turn the new layout arrives the
// old ones are all hidden (none drawn, none under the mouse) and they are deleted over the next turns.
void TstGraphScene::oldItemsHiddenAtOnceDeletedLater() {
    testing::writeViewPrograms();
    Document doc;
    doc.setFoldRepeatedBlocks(false); // all 240 blocks drawn
    GraphScene scene(&doc);
    QVERIFY(testing::openAndWait(doc, fixture("zoo/deep_decoder_like/model.pt2")).isEmpty());
    doc.expandAll();
    QVERIFY(testing::waitForLayout(doc));
    QTRY_VERIFY(!scene.isBuilding());
    const int expanded = static_cast<int>(scene.items().size());
    QVERIFY2(expanded > 10000, qPrintable(QString::number(expanded)));
    const QList<QGraphicsItem*> old = scene.items();
    int visibleOld = -1, heldOld = -1;
    connect(&doc, &Document::layoutReady, this, [&] { // after the scene's own slot, in the same turn
        const QList<QGraphicsItem*> all = scene.items();
        const std::set<const QGraphicsItem*> inScene(all.begin(), all.end());
        visibleOld = heldOld = 0;
        for (const QGraphicsItem* item : old) {
            heldOld += inScene.count(item) > 0;
            visibleOld += inScene.count(item) && item->isVisible();
        }
    });
    doc.setCollapse(core::CollapseState::topLevel());
    QVERIFY(testing::waitForLayout(doc));
    QCOMPARE(heldOld, expanded); // not deleted in that turn...
    QCOMPARE(visibleOld, 0);     // ...but none of them shown
    QTRY_VERIFY(!scene.isBuilding());
    const auto layout = doc.layout();
    const int now = static_cast<int>(layout->graph.items.size() + layout->edges.size() + layout->clusters.size());
    QTRY_COMPARE(static_cast<int>(scene.items().size()), now);
}

// A layout of many boxes is preceded by a coarser one (modules open down to a shallower depth),
// drawn while the full one is made; small layouts come alone. The zoo's deep residual stack expanded has
// about 1,700 boxes: the threshold is lowered to see it.
void TstGraphScene::longLayoutShowsACoarserOneFirst() {
    testing::zooDir();
    Document doc;
    GraphScene scene(&doc);
    QVERIFY(testing::openAndWait(doc, fixture("zoo/deep_residual_stack/model.pt2")).isEmpty());
    doc.setPreviewFromBoxes(1000);
    std::vector<core::LayoutPtr> previews;
    bool drawnWhileBusy = false;
    connect(&doc, &Document::layoutPreview, this, [&](core::LayoutPtr layout) { // after the scene's slot
        previews.push_back(layout);
        drawnWhileBusy = doc.isBusy() && scene.layout() == layout && doc.layout() != layout;
    });
    doc.expandAll();
    QVERIFY(testing::waitForLayout(doc));
    QCOMPARE(previews.size(), size_t(1));
    QVERIFY(drawnWhileBusy);
    const core::LayoutPtr full = doc.layout();
    const core::LayoutPtr coarse = previews.front();
    QVERIFY2(coarse->graph.items.size() < full->graph.items.size() / 2,
             qPrintable(QString("%1 of %2").arg(coarse->graph.items.size()).arg(full->graph.items.size())));
    // the coarser one is the same drawing cut higher up: each module it frames is framed in the full one
    std::set<int> framed;
    for (const auto& c : full->clusters) framed.insert(c.module);
    QVERIFY(!coarse->clusters.empty());
    for (const auto& c : coarse->clusters) QVERIFY2(framed.count(c.module), qPrintable(QString::number(c.module)));
    QTRY_VERIFY(!scene.isBuilding());
    QCOMPARE(scene.layout(), full);
    QCOMPARE(scene.nodeItemCount(), static_cast<int>(full->graph.items.size()));
    doc.collapseAll(); // a few boxes: no preview
    QVERIFY(testing::waitForLayout(doc));
    QCOMPARE(previews.size(), size_t(1));
}

QTEST_MAIN(TstGraphScene)
#include "tst_graph_scene.moc"

// Collapsing a big expanded drawing keeps the scene rect until the hidden items are deleted (a new
// rect re-indexes every item in the scene, hidden ones too); the drawing's own rect is what Fit and
// the minimap use meanwhile, and the scene takes it once the old items are gone.
void TstGraphScene::smallerRectWaitsForTheOldItems() {
    IRLENS_REQUIRE_SHARED();
    Document doc;
    GraphScene scene(&doc);
    QVERIFY(testing::openAndWait(doc, fixture("generated/llama_deep/model.pt2")).isEmpty());
    doc.setFoldRepeatedBlocks(false);
    doc.expandAll();
    QVERIFY(testing::waitForLayout(doc));
    QTRY_VERIFY(!scene.isBuilding());
    const QRectF expanded = scene.sceneRect();
    QVERIFY2(static_cast<size_t>(scene.items().size()) > GraphScene::kDeferRectItems, qPrintable(QString::number(scene.items().size())));
    QRectF rectWhenShown, drawingWhenShown;
    connect(&doc, &Document::layoutReady, this, [&] { // after the scene's own slot, in the same turn
        rectWhenShown = scene.sceneRect();
        drawingWhenShown = scene.drawingRect();
    });
    doc.collapseAll();
    QVERIFY(testing::waitForLayout(doc));
    QCOMPARE(rectWhenShown, expanded);
    QVERIFY(expanded.contains(drawingWhenShown) && drawingWhenShown.height() < expanded.height() / 10);
    QTRY_COMPARE_WITH_TIMEOUT(scene.sceneRect(), drawingWhenShown, 20000);
    QCOMPARE(scene.drawingRect(), drawingWhenShown);
}

// The scene's BSP index holds the top-level items only (the others are inside frames that contain
// them) and is as deep as those need (about 16 a leaf) after a small drawing grew into a big one:
// left to Qt, the depth chosen for the first few items indexed stays, and every repaint of the
// expanded graph then sorted thousands of items from a handful of leaves.
void TstGraphScene::indexDeepEnoughAfterExpanding() {
    testing::zooDir();
    Document doc;
    GraphScene scene(&doc);
    QGraphicsView view(&scene);
    view.resize(800, 600);
    view.show();
    QVERIFY(testing::openAndWait(doc, fixture("zoo/deep_residual_stack/model.pt2")).isEmpty());
    QTRY_VERIFY(!scene.isBuilding());
    view.viewport()->repaint(); // the collapsed drawing indexed and painted first
    const int collapsed = static_cast<int>(scene.items().size());
    doc.expandAll();
    QVERIFY(testing::waitForLayout(doc));
    QTRY_VERIFY(!scene.isBuilding());
    view.viewport()->repaint();
    const auto all = scene.items();
    const int expanded = static_cast<int>(all.size());
    QVERIFY2(expanded > 20 * collapsed, qPrintable(QString("%1 -> %2 items").arg(collapsed).arg(expanded)));
    const int topLevel = static_cast<int>(std::count_if(all.begin(), all.end(), [](QGraphicsItem* i) { return !i->parentItem(); }));
    QVERIFY2(topLevel * 20 < expanded, qPrintable(QString("%1 of %2 items at the top level").arg(topLevel).arg(expanded)));
    const int needed = static_cast<int>(std::floor(std::log2(topLevel / 16.0 + 1)));
    QVERIFY2(scene.bspTreeDepth() >= needed,
             qPrintable(QString("BSP depth %1 for %2 top-level items, at least %3 needed").arg(scene.bspTreeDepth()).arg(topLevel).arg(needed)));
}

// A frame says it contains its children (Qt skips them when the frame is out of view): every item
// inside a frame must lie within the frame's bounding rect, or it would vanish while in view. Both
// layout paths: Graphviz (the conv nets) and the composed layout (the deep stacks, over 600 boxes).
void TstGraphScene::framesHoldTheirItems_data() {
    QTest::addColumn<QString>("model");
    QTest::newRow("graphviz, zoo") << "zoo/conv_attention/model.pt2";
    QTest::newRow("composed, zoo") << "zoo/deep_residual_stack/model.pt2";
    QTest::newRow("graphviz, resnet_like") << "zoo/resnet_like/model.pt2";
    QTest::newRow("composed, deep_decoder_like") << "zoo/deep_decoder_like/model.pt2";
}

void TstGraphScene::framesHoldTheirItems() {
    QFETCH(QString, model);
    IRLENS_REQUIRE_FIXTURE(model);
    testing::writeViewPrograms();
    Document doc;
    GraphScene scene(&doc);
    QVERIFY(testing::openAndWait(doc, fixture(model.toStdString())).isEmpty());
    doc.expandAll();
    QVERIFY(testing::waitForLayout(doc));
    QTRY_VERIFY(!scene.isBuilding());
    int nested = 0;
    for (QGraphicsItem* item : scene.items()) {
        QGraphicsItem* frame = item->parentItem();
        if (!frame || frame->type() != ClusterItem::Type) continue;
        ++nested;
        QVERIFY(frame->flags() & QGraphicsItem::ItemContainsChildrenInShape);
        const QRectF outer = frame->sceneBoundingRect(), inner = item->sceneBoundingRect();
        QVERIFY2(outer.contains(inner), qPrintable(QString("item type %1 at (%2, %3, %4 x %5) outside its frame (%6, %7, %8 x %9)")
                                                       .arg(item->type()).arg(inner.x()).arg(inner.y()).arg(inner.width()).arg(inner.height())
                                                       .arg(outer.x()).arg(outer.y()).arg(outer.width()).arg(outer.height())));
    }
    QVERIFY2(nested > scene.nodeItemCount() / 2, qPrintable(QString("%1 items in frames").arg(nested)));
    // and every box is found where it is drawn
    for (NodeItem* box : scene.nodeItems()) {
        const auto under = scene.items(box->sceneBoundingRect().center());
        QVERIFY(std::find(under.begin(), under.end(), box) != under.end());
    }
}
