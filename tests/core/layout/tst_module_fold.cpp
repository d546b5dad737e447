// Repeated blocks: groups of identical sibling modules, and the maps between an instance's nodes and
// the nodes drawn for them.
#include "core/layout/module_fold.h"
#include "core/layout/composed_layout.h"
#include "core/layout/visible_graph.h"
#include "support/fixture_program.h"
#include "support/shared_fixtures.h"
#include "support/synthetic_program.h"
#include "support/zoo_programs.h"

#include <QTest>

#include <chrono>
#include <set>

using namespace irlens::core;
using irlens::testing::makeBlockStack;

class TstModuleFold : public QObject {
    Q_OBJECT
private slots:
    void identicalBlocksFoldIntoOneGroup();
    void everyNodeMapsToItsRepresentativeAndBack();
    void aDifferentBlockIsLeftOut_data();
    void aDifferentBlockIsLeftOut();
    void stackOfLayersFoldsIntoOne_data();
    void stackOfLayersFoldsIntoOne();
    void deepStackAlternatesTwoKindsOfBlock();
    void foldedStackDrawsOneLayer_data();
    void foldedStackDrawsOneLayer();
};

namespace {

int nodeIndex(const Graph& g, const std::string& name) {
    for (size_t k = 0; k < g.nodes.size(); ++k)
        if (g.nodes[k].name == name) return static_cast<int>(k);
    return -1;
}

const ModuleFold* largestFold(const ModuleFolds& folds) {
    const ModuleFold* best = nullptr;
    for (const auto& f : folds.folds())
        if (!best || f.count() > best->count()) best = &f;
    return best;
}

/// Checks the round trip of every node of every group: instance -> representative -> instance.
void checkRoundTrips(const ModuleFolds& folds, size_t nodeCount) {
    for (size_t n = 0; n < nodeCount; ++n) {
        const auto place = folds.placeOfNode(static_cast<int>(n));
        if (place.fold < 0) {
            QCOMPARE(folds.representativeNode(static_cast<int>(n)), static_cast<int>(n));
            continue;
        }
        const int rep = folds.representativeNode(static_cast<int>(n));
        QCOMPARE(folds.placeOfNode(rep).instance, 0);
        QCOMPARE(folds.instanceNode(place.fold, place.instance, rep), static_cast<int>(n));
    }
}

} // namespace

void TstModuleFold::identicalBlocksFoldIntoOneGroup() {
    auto p = makeBlockStack(5);
    auto tree = ModuleTree::build(p->graph);
    auto folds = ModuleFolds::detect(p->graph, &p->signature, tree);
    // the five blocks under "layers"; their fc children are alone in their block, so no group there
    QCOMPARE(folds.folds().size(), size_t(1));
    const auto& f = folds.folds().front();
    QCOMPARE(f.count(), 5);
    QVERIFY(f.consecutive);
    QCOMPARE(f.representative(), tree.find("layers.0"));
    QCOMPARE(f.instances.back(), tree.find("layers.4"));
    QCOMPARE(f.nodes[3].size(), size_t(3));
    QCOMPARE(folds.foldOfModule(tree.find("layers.3")), 0);
    QCOMPARE(folds.instanceOfModule(tree.find("layers.3")), 3);
    QCOMPARE(folds.foldOfModule(tree.find("head")), -1);
    QCOMPARE(folds.signatureOf(tree.find("layers.1")), folds.signatureOf(tree.find("layers.2")));
    QVERIFY(folds.signatureOf(tree.find("layers.1")) != folds.signatureOf(tree.find("layers.1.fc")));
}

void TstModuleFold::everyNodeMapsToItsRepresentativeAndBack() {
    auto p = makeBlockStack(6);
    auto tree = ModuleTree::build(p->graph);
    auto folds = ModuleFolds::detect(p->graph, &p->signature, tree);
    const auto& g = p->graph;
    QCOMPARE(folds.representativeNode(nodeIndex(g, "relu_4")), nodeIndex(g, "relu_0"));
    QCOMPARE(folds.representativeNode(nodeIndex(g, "mm_5")), nodeIndex(g, "mm_0"));
    QCOMPARE(folds.representativeNode(nodeIndex(g, "head")), nodeIndex(g, "head"));
    QCOMPARE(folds.instanceNode(0, 4, nodeIndex(g, "add_0")), nodeIndex(g, "add_4"));
    QCOMPARE(folds.instanceNode(0, 2, nodeIndex(g, "add_5")), nodeIndex(g, "add_2")); // from any instance
    QCOMPARE(folds.instanceNode(0, 6, nodeIndex(g, "add_0")), -1);                   // no seventh block
    QCOMPARE(folds.instanceNode(0, 1, nodeIndex(g, "head")), -1);                    // not in the group
    checkRoundTrips(folds, g.nodes.size());
}

void TstModuleFold::aDifferentBlockIsLeftOut_data() {
    QTest::addColumn<QString>("change");
    QTest::addColumn<int>("count");
    QTest::addRow("names only") << "rename" << 5;
    QTest::addRow("other op") << "op" << 4;
    QTest::addRow("other shape") << "shape" << 4;
    QTest::addRow("other parameter shape") << "param" << 4;
    QTest::addRow("other wiring") << "wiring" << 4;
    QTest::addRow("other argument") << "argument" << 4;
}

void TstModuleFold::aDifferentBlockIsLeftOut() {
    // five blocks; block 2 differs in one way: the group is blocks 0, 1, 3 and 4, not consecutive
    QFETCH(QString, change);
    QFETCH(int, count);
    Program p = *makeBlockStack(5); // a copy to edit
    auto& g = p.graph;
    const int relu2 = nodeIndex(g, "relu_2"), add2 = nodeIndex(g, "add_2");
    if (change == "rename") {
        // names never count: a node, its value and a parameter renamed
        g.nodes[static_cast<size_t>(relu2)].name = "renamed";
        g.nodes[static_cast<size_t>(relu2)].outputs = {Argument::tensor("renamed")};
        g.tensorValues["renamed"] = g.tensorValues["relu_2"];
        g.nodes[static_cast<size_t>(add2)].inputs[0].arg.s = "renamed";
    } else if (change == "op") {
        g.nodes[static_cast<size_t>(relu2)].target = Target::parse("torch.ops.aten.gelu.default");
    } else if (change == "shape") {
        g.tensorValues["relu_2"] = irlens::testing::meta({2, 16});
    } else if (change == "param") {
        g.tensorValues["p_layers_2_fc_weight"] = irlens::testing::meta({16, 8});
    } else if (change == "wiring") {
        // add_2 = relu_2 + relu_2 instead of relu_2 + the block's input
        g.nodes[static_cast<size_t>(add2)].inputs[1].arg.s = "relu_2";
    } else if (change == "argument") {
        g.nodes[static_cast<size_t>(add2)].inputs.push_back({"alpha", Argument::integer(2), ArgumentKind::Keyword});
    }
    auto tree = ModuleTree::build(g);
    auto folds = ModuleFolds::detect(g, &p.signature, tree);
    QCOMPARE(folds.folds().size(), size_t(1));
    const ModuleFold& f = folds.folds().front();
    QCOMPARE(f.count(), count);
    QCOMPARE(f.consecutive, count == 5);
    if (count == 4) {
        QCOMPARE(folds.foldOfModule(tree.find("layers.2")), -1);
        QCOMPARE(f.instances[2], tree.find("layers.3"));
        QCOMPARE(folds.instanceOfModule(tree.find("layers.3")), 2);
    }
    checkRoundTrips(folds, g.nodes.size());
}

// A stack of identical layers: llama_deep's 128 decoder layers. (Not the zoo's residual stack: its largest
// group of identical modules is its 481 Linear layers, not its blocks.)
void TstModuleFold::stackOfLayersFoldsIntoOne_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("layers");
    QTest::addRow("zoo/deep_residual_stack") << "zoo/deep_residual_stack" << 240;
    QTest::addRow("llama_deep") << "llama_deep" << 128;
}

void TstModuleFold::stackOfLayersFoldsIntoOne() {
    QFETCH(QString, name);
    QFETCH(int, layers);
    IRLENS_REQUIRE_FIXTURE(name);
    auto p = name.startsWith("zoo/") ? irlens::testing::zoo::byName(name.mid(4).toStdString())
                                     : irlens::testing::loadFixtureGraph("generated/" + name.toStdString() + "/model.pt2");
    QVERIFY(p);
    auto tree = ModuleTree::build(p->graph);
    auto t0 = std::chrono::steady_clock::now();
    auto folds = ModuleFolds::detect(p->graph, &p->signature, tree);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const ModuleFold* f = largestFold(folds);
    QVERIFY(f);
    QCOMPARE(f->count(), layers);
    QVERIFY(f->consecutive);
    QCOMPARE(f->depth, tree.module(f->representative()).depth);
    // every decoder layer is one instance, all of one size
    int layerNodes = 0;
    for (int m : f->instances) layerNodes += tree.module(m).totalNodes;
    QCOMPARE(layerNodes, layers * tree.module(f->representative()).totalNodes);
    for (const auto& nodes : f->nodes) QCOMPARE(nodes.size(), f->nodes.front().size());
    checkRoundTrips(folds, p->graph.nodes.size());
    qInfo("%s: %zu groups, the largest %d x %s (%d nodes each), detected in %.1f ms", qPrintable(name), folds.folds().size(), f->count(),
          tree.module(f->representative()).shortType().c_str(), tree.module(f->representative()).totalNodes, ms);
}

void TstModuleFold::deepStackAlternatesTwoKindsOfBlock() {
    // 240 blocks, MLP and attention in turn: two groups of 120, neither consecutive
    IRLENS_REQUIRE_SHARED();
    auto p = irlens::testing::loadFixtureGraph("generated/deep_stack/model.pt2");
    QVERIFY(p);
    auto tree = ModuleTree::build(p->graph);
    auto folds = ModuleFolds::detect(p->graph, &p->signature, tree);
    std::vector<const ModuleFold*> top;
    for (const auto& f : folds.folds())
        if (f.count() == 120) top.push_back(&f);
    QCOMPARE(top.size(), size_t(2));
    QVERIFY(!top[0]->consecutive && !top[1]->consecutive);
    QCOMPARE(top[0]->instances[1] , tree.module(tree.module(top[0]->instances[0]).parent).children[2]);
    checkRoundTrips(folds, p->graph.nodes.size());
}

// A stack drawn with its layers folded: one box (or one open layer) stands for all, every node of every
// layer maps onto it, no edge runs from a layer to the next, any instance can be the one shown, and
// unfolding draws every layer again.
void TstModuleFold::foldedStackDrawsOneLayer_data() { stackOfLayersFoldsIntoOne_data(); }

void TstModuleFold::foldedStackDrawsOneLayer() {
    QFETCH(QString, name);
    QFETCH(int, layers);
    IRLENS_REQUIRE_FIXTURE(name);
    auto p = name.startsWith("zoo/") ? irlens::testing::zoo::byName(name.mid(4).toStdString())
                                     : irlens::testing::loadFixtureGraph("generated/" + name.toStdString() + "/model.pt2");
    QVERIFY(p);
    auto tree = ModuleTree::build(p->graph);
    auto folds = ModuleFolds::detect(p->graph, &p->signature, tree);
    const ModuleFold* f = largestFold(folds);
    QVERIFY(f && f->count() == layers);
    const int fi = static_cast<int>(f - folds.folds().data());
    CollapseState cs; // the layers' parents open, the layers themselves closed
    for (int m = tree.module(f->representative()).parent; m > 0; m = tree.module(m).parent) cs.setExpanded(m, true);
    VisibleGraphOptions opt;
    opt.folds = &folds;
    auto layerItems = [&](const VisibleGraph& vg) {
        std::set<int> items;
        for (int m : f->instances)
            for (const auto& it : vg.items)
                if (it.kind == VisibleItem::Kind::Module && it.moduleIndex == m) items.insert(static_cast<int>(&it - vg.items.data()));
        return items;
    };
    auto vg = buildVisibleGraph(p->graph, &p->signature, tree, cs, opt);
    auto items = layerItems(vg);
    QCOMPARE(items.size(), size_t(1));
    const int box = *items.begin();
    // the box names the instance it shows, of which run, and how many it stands for
    const std::string range = tree.module(f->instances.front()).label() + " … " + tree.module(f->instances.back()).label();
    QCOMPARE(QString::fromStdString(vg.items[size_t(box)].title), QString::fromStdString(tree.module(f->instances[0]).label() + " of " + range));
    QVERIFY2(vg.items[size_t(box)].subtitle.find("×" + std::to_string(layers) + " · ") != std::string::npos, vg.items[size_t(box)].subtitle.c_str());
    for (const auto& nodes : f->nodes)
        for (int n : nodes) QCOMPARE(vg.itemOfNode.at(n), box);
    for (const auto& e : vg.edges) QVERIFY(e.from != e.to);
    // instance 57 shown instead, its box open: the nodes of every layer map onto layer 57's boxes
    opt.shownInstance[fi] = 57;
    cs.setExpanded(f->instances[57], true);
    vg = buildVisibleGraph(p->graph, &p->signature, tree, cs, opt);
    QVERIFY(layerItems(vg).empty());
    const auto* shownFold = vg.foldShownAs(f->instances[57]);
    QVERIFY(shownFold && shownFold->shown == 57 && shownFold->count == layers && shownFold->fold == fi);
    // the frame says which instance of which run it is
    const std::string title = moduleTitle(tree, vg, f->instances[57]);
    QCOMPARE(QString::fromStdString(title), QString::fromStdString(tree.module(f->instances[57]).label() + " of " + range + " · " +
                                                                   tree.module(f->instances[57]).shortType() + " ×" + std::to_string(layers)));
    for (size_t k = 0; k < f->nodes[3].size(); ++k) {
        const int node = f->nodes[3][k], shown = f->nodes[57][k];
        QCOMPARE(vg.itemOfNode.at(node), vg.itemOfNode.at(shown));
        const auto& item = vg.items[size_t(vg.itemOfNode.at(shown))];
        if (item.kind == VisibleItem::Kind::Op) QCOMPARE(item.nodeIndex, shown); // else a closed sub-module of layer 57
    }
    for (const auto& e : vg.edges) {
        QVERIFY(e.from != e.to);
        QCOMPARE(e.values, 1); // one value per edge inside the shown layer: the hidden layers add none
    }
    auto laidOut = layoutComposed(vg, tree);
    QVERIFY2(laidOut.isOk(), laidOut.isOk() ? "" : laidOut.error().c_str());
    bool titled = false;
    for (const auto& c : (*laidOut)->clusters) titled |= c.module == f->instances[57] && c.label.find("×" + std::to_string(layers)) != std::string::npos;
    QVERIFY(titled);
    // unfolded: all 128 drawn
    cs = CollapseState();
    for (int m = tree.module(f->representative()).parent; m > 0; m = tree.module(m).parent) cs.setExpanded(m, true);
    opt.unfolded.insert(fi);
    QCOMPARE(layerItems(buildVisibleGraph(p->graph, &p->signature, tree, cs, opt)).size(), size_t(layers));
}

QTEST_GUILESS_MAIN(TstModuleFold)
#include "tst_module_fold.moc"
