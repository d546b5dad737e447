// ModuleTree, CollapseState and the visible graph: what is drawn under each collapse state.
#include "core/layout/collapse_state.h"
#include "core/layout/module_tree.h"
#include "core/layout/visible_graph.h"
#include "core/ir/builder.h"
#include "support/synthetic_program.h"

#include <QTest>

using namespace irlens::core;
using irlens::testing::makeBlockStack;

class TstModuleTree : public QObject {
    Q_OBJECT
private slots:
    void treeFromStacks();
    void oldStackForm();
    void secondCallIsItsOwnGroup();
    void namesBelowParentAndCounterparts();
    void visibleCounts_data();
    void visibleCounts();
    void parametersAreChips();
    void fanOutBecomesChips();
    void fxPlaceholdersDrawStateAndBranches();
    void edgeLabelsComeFromProducer();
    void cacheKeys();
};

void TstModuleTree::treeFromStacks() {
    auto p = makeBlockStack(4);
    auto tree = ModuleTree::build(p->graph);
    // root, layers, 4 blocks, 4 fc, head
    QCOMPARE(tree.size(), 11);
    QCOMPARE(tree.module(0).type, std::string("models.Stack"));
    int layers = tree.find("layers");
    QVERIFY(layers > 0);
    QCOMPARE(tree.module(layers).depth, 1);
    QCOMPARE(tree.module(layers).children.size(), size_t(4));
    QCOMPARE(tree.module(layers).totalNodes, 12);
    QCOMPARE(tree.module(0).totalNodes, 13);
    int fc2 = tree.find("layers.2.fc");
    QCOMPARE(tree.module(fc2).shortName(), std::string("fc"));
    QCOMPARE(tree.module(fc2).shortType(), std::string("Linear"));
    QCOMPARE(tree.module(fc2).nodes, std::vector<int>{6});
    QCOMPARE(tree.moduleOfNode(7), tree.find("layers.2"));
    std::vector<int> chain{layers, tree.find("layers.2"), fc2};
    QCOMPARE(tree.chainOfNode(6), chain);
    QCOMPARE(tree.moduleOfNode(99), 0);
}

void TstModuleTree::oldStackForm() {
    Graph g;
    Node n = irlens::testing::makeNode("a", "torch.ops.aten.relu.default", {}, "");
    n.meta.raw["nn_module_stack"] = "L__self__:(,M);L__self__enc:(enc,models.Encoder);L__self__enc_l:(enc.l,torch.nn.Linear)";
    n.meta.parseFromRaw();
    g.nodes.push_back(n);
    Node bare = irlens::testing::makeNode("b", "torch.ops.aten.relu.default", {}, "");
    bare.meta.raw.erase("nn_module_stack");
    bare.meta.parseFromRaw();
    g.nodes.push_back(bare);
    auto tree = ModuleTree::build(g);
    QCOMPARE(tree.size(), 3);
    QCOMPARE(tree.module(tree.find("enc.l")).parent, tree.find("enc"));
    QCOMPARE(tree.moduleOfNode(1), 0); // no stack: the root
}

void TstModuleTree::secondCallIsItsOwnGroup() {
    // resnet's BasicBlock calls self.relu twice: conv, relu, conv, add, relu
    using irlens::testing::makeNode;
    const std::string block = "L__self__,,M;L__self__b,b,Block";
    const std::string relu = block + ";L__self__b.relu,b.relu,torch.nn.ReLU";
    Graph g;
    g.nodes = {makeNode("c1", "torch.ops.aten.convolution.default", {}, block + ";L__self__b.c1,b.c1,Conv2d"),
               makeNode("r1", "torch.ops.aten.relu.default", {}, relu),
               makeNode("c2", "torch.ops.aten.convolution.default", {}, block + ";L__self__b.c2,b.c2,Conv2d"),
               makeNode("add", "torch.ops.aten.add.Tensor", {}, block),
               makeNode("r2", "torch.ops.aten.relu.default", {}, relu)};
    auto tree = ModuleTree::build(g);
    QCOMPARE(tree.size(), 6); // root, b, c1, relu, c2, relu #2
    const int first = tree.moduleOfNode(1), second = tree.moduleOfNode(4);
    QVERIFY(first != second);
    QCOMPARE(tree.find("b.relu"), first);
    QCOMPARE(tree.module(second).path, std::string("b.relu"));
    QCOMPARE(tree.module(second).call, 2);
    QCOMPARE(tree.module(second).label(), std::string("b.relu #2"));
    QCOMPARE(tree.module(second).parent, tree.find("b"));
    QCOMPARE(tree.module(tree.find("b")).totalNodes, 5);
    // a contiguous module keeps one call
    QCOMPARE(tree.module(tree.find("b")).call, 1);
    QCOMPARE(tree.moduleOfNode(3), tree.find("b"));
}

// A Llama's decoder layers sit in a ModuleList that is never called: the stack goes from the root to
// "layers.0" directly, and the layer is named "layers.0" there, not "0". The attention of layers.2 is
// the counterpart of that of layers.0; a second call keeps its number.
void TstModuleTree::namesBelowParentAndCounterparts() {
    using irlens::testing::makeNode;
    auto layer = [](int k) {
        const std::string p = "layers." + std::to_string(k);
        return "L__self__,,M;L__self__" + p + "," + p + ",Block;L__self__" + p + ".attn," + p + ".attn,Attention";
    };
    Graph g;
    for (int k = 0; k < 3; ++k) {
        g.nodes.push_back(makeNode("mm" + std::to_string(k), "torch.ops.aten.mm.default", {}, layer(k)));
        g.nodes.push_back(makeNode("relu" + std::to_string(k), "torch.ops.aten.relu.default", {},
                                   "L__self__,,M;L__self__layers." + std::to_string(k) + ",layers." + std::to_string(k) + ",Block"));
        g.nodes.push_back(makeNode("mm" + std::to_string(k) + "b", "torch.ops.aten.mm.default", {}, layer(k))); // attn again
    }
    g.nodes.push_back(makeNode("head", "torch.ops.aten.relu.default", {}, "L__self__,,M;L__self__head,head,Head"));
    auto tree = ModuleTree::build(g);
    const int l0 = tree.find("layers.0"), l2 = tree.find("layers.2"), attn0 = tree.find("layers.0.attn");
    QVERIFY(l0 > 0 && l2 > 0 && attn0 > 0);
    QCOMPARE(tree.module(l0).parent, 0);
    QCOMPARE(tree.nameInParent(l0), std::string("layers.0"));
    QCOMPARE(tree.nameInParent(attn0), std::string("attn"));
    QCOMPARE(tree.nameInParent(0), std::string("(root)"));
    const int attn0second = tree.moduleOfNode(2);
    QCOMPARE(tree.module(attn0second).call, 2);
    QCOMPARE(tree.nameInParent(attn0second), std::string("attn #2"));
    QCOMPARE(tree.counterpart(attn0, l0, l2), tree.find("layers.2.attn"));
    QCOMPARE(tree.counterpart(attn0second, l0, l2), tree.moduleOfNode(8)); // the second call, not the first
    QCOMPARE(tree.counterpart(l0, l0, l2), l2);
    QCOMPARE(tree.counterpart(tree.find("head"), l0, l2), -1); // not within layers.0
    QCOMPARE(tree.counterpart(attn0, l0, 0), -1);
    QCOMPARE(tree.counterpart(attn0, l0, 999), -1);
}

void TstModuleTree::visibleCounts_data() {
    QTest::addColumn<int>("blocks");
    QTest::addColumn<QString>("state");
    QTest::addColumn<int>("opItems");
    QTest::addColumn<int>("moduleItems");
    QTest::addColumn<int>("clusters");
    // inputs: x (user) is the only pill; output adds one
    QTest::addRow("expanded") << 3 << "all" << 10 << 0 << 8;
    QTest::addRow("top level") << 3 << "top" << 0 << 2 << 0;
    QTest::addRow("layers open") << 3 << "layers" << 0 << 4 << 1;
    QTest::addRow("one block open") << 3 << "layers,layers.1" << 2 << 4 << 2;
    QTest::addRow("auto small") << 3 << "auto" << 10 << 0 << 8;
    QTest::addRow("auto large") << 600 << "auto" << 0 << 2 << 0;
}

void TstModuleTree::visibleCounts() {
    QFETCH(int, blocks);
    QFETCH(QString, state);
    QFETCH(int, opItems);
    QFETCH(int, moduleItems);
    QFETCH(int, clusters);
    auto p = makeBlockStack(blocks);
    auto tree = ModuleTree::build(p->graph);
    CollapseState cs;
    if (state == "all") cs = CollapseState::allExpanded(tree);
    else if (state == "auto") cs = CollapseState::automatic(tree, static_cast<int>(p->graph.nodes.size()));
    else if (state != "top")
        for (const auto& path : state.split(',')) cs.setExpanded(tree.find(path.toStdString()), true);
    auto vg = buildVisibleGraph(p->graph, &p->signature, tree, cs);
    int ops = 0, mods = 0, inputs = 0, outputs = 0;
    for (const auto& it : vg.items) {
        ops += it.kind == VisibleItem::Kind::Op;
        mods += it.kind == VisibleItem::Kind::Module;
        inputs += it.kind == VisibleItem::Kind::Input;
        outputs += it.kind == VisibleItem::Kind::Output;
    }
    QCOMPARE(ops, opItems);
    QCOMPARE(vg.visibleOpNodes, opItems);
    QCOMPARE(mods, moduleItems);
    QCOMPARE(inputs, 1);
    QCOMPARE(outputs, 1);
    QCOMPARE(static_cast<int>(vg.clusters.size()), clusters);
    // every graph node maps to exactly one item, and hidden counts add up
    QCOMPARE(vg.itemOfNode.size(), p->graph.nodes.size());
    int hidden = 0;
    for (const auto& it : vg.items) hidden += it.hiddenNodes;
    QCOMPARE(hidden + ops, static_cast<int>(p->graph.nodes.size()));
}

void TstModuleTree::parametersAreChips() {
    auto p = makeBlockStack(3);
    auto tree = ModuleTree::build(p->graph);
    auto vg = buildVisibleGraph(p->graph, &p->signature, tree, CollapseState::allExpanded(tree));
    for (const auto& it : vg.items) QVERIFY2(it.id.rfind("in:p_", 0) != 0, it.id.c_str());
    const auto& mm1 = vg.items[static_cast<size_t>(vg.itemOfId.at("mm_1"))];
    QCOMPARE(mm1.chips.size(), size_t(1));
    QCOMPARE(mm1.chips[0].kind, Chip::Kind::Parameter);
    QCOMPARE(mm1.chips[0].label, std::string("weight"));
    QCOMPARE(mm1.chips[0].value, std::string("p_layers_1_fc_weight"));
    QVERIFY(mm1.height > itemTextHeight(mm1));
    // no edge comes from a parameter
    for (const auto& e : vg.edges) QVERIFY(e.value.rfind("p_", 0) != 0);
}

void TstModuleTree::fanOutBecomesChips() {
    Graph g;
    g.inputs.push_back(Argument::tensor("x"));
    g.tensorValues["x"] = irlens::testing::meta({2, 3});
    for (int k = 0; k < 12; ++k) {
        auto n = irlens::testing::makeNode("r" + std::to_string(k), "torch.ops.aten.relu.default", {"x"}, "");
        g.nodes.push_back(n);
        g.outputs.push_back(Argument::tensor(n.name));
    }
    auto tree = ModuleTree::build(g);
    VisibleGraphOptions opt;
    opt.fanOutChipThreshold = 8;
    auto vg = buildVisibleGraph(g, nullptr, tree, CollapseState::allExpanded(tree), opt);
    int fromX = 0, fanChips = 0;
    for (const auto& e : vg.edges) fromX += e.value == "x";
    for (const auto& it : vg.items)
        for (const auto& c : it.chips) fanChips += c.kind == Chip::Kind::FanOut && c.value == "x";
    QCOMPARE(fromX, 1);
    QCOMPARE(fanChips, 11);
    opt.fanOutChipThreshold = 0;
    vg = buildVisibleGraph(g, nullptr, tree, CollapseState::allExpanded(tree), opt);
    fromX = 0;
    for (const auto& e : vg.edges) fromX += e.value == "x";
    QCOMPARE(fromX, 12);
}

// The FX form: lifted state becomes placeholder boxes with edges, a HOP's branches get_attr boxes.
void TstModuleTree::fxPlaceholdersDrawStateAndBranches() {
    auto p = makeBlockStack(3);
    auto tree = ModuleTree::build(p->graph);
    VisibleGraphOptions fx;
    fx.fxPlaceholders = true;
    auto vg = buildVisibleGraph(p->graph, &p->signature, tree, CollapseState::allExpanded(tree), fx);
    QVERIFY(vg.itemOfId.count("in:p_layers_1_fc_weight"));
    const int weight = vg.itemOfId.at("in:p_layers_1_fc_weight");
    const auto& w = vg.items[static_cast<size_t>(weight)];
    QCOMPARE(w.kind, VisibleItem::Kind::Input);
    QVERIFY2(w.subtitle.rfind("PARAMETER · ", 0) == 0, w.subtitle.c_str());
    const int mm1 = vg.itemOfId.at("mm_1");
    QVERIFY(vg.items[static_cast<size_t>(mm1)].chips.empty());
    bool edge = false;
    for (const auto& e : vg.edges) edge |= e.from == weight && e.to == mm1 && e.value == "p_layers_1_fc_weight";
    QVERIFY(edge);
    int placeholders = 0;
    for (const auto& it : vg.items) placeholders += it.kind == VisibleItem::Kind::Input;
    QCOMPARE(placeholders, static_cast<int>(p->graph.inputs.size())); // one box per FX placeholder

    // a cond: its two branches become get_attr boxes feeding it, not chips
    auto branch = [] {
        GraphBuilder g;
        g.input("x", irlens::testing::meta({3}));
        g.call("torch.ops.aten.relu.default", "relu").arg("self", "x").out(irlens::testing::meta({3}));
        g.outputTensor("relu");
        return g.build().value();
    };
    Graph g;
    g.inputs.push_back(Argument::tensor("x"));
    g.tensorValues["x"] = irlens::testing::meta({3});
    auto cond = irlens::testing::makeNode("cond", "torch.ops.higher_order.cond", {"x"}, "");
    cond.inputs.push_back({"", graphArgument("true_graph_0", branch()), ArgumentKind::Positional});
    cond.inputs.push_back({"", graphArgument("false_graph_0", branch()), ArgumentKind::Positional});
    g.nodes.push_back(cond);
    auto t2 = ModuleTree::build(g);
    auto plain = buildVisibleGraph(g, nullptr, t2, CollapseState::allExpanded(t2));
    QCOMPARE(plain.items[static_cast<size_t>(plain.itemOfId.at("cond"))].chips.size(), size_t(2));
    auto drawn = buildVisibleGraph(g, nullptr, t2, CollapseState::allExpanded(t2), fx);
    const int hop = drawn.itemOfId.at("cond");
    QVERIFY(drawn.items[static_cast<size_t>(hop)].chips.empty());
    for (const char* name : {"true_graph_0", "false_graph_0"}) {
        const int at = drawn.itemOfId.at(std::string("attr:0:") + name);
        const auto& item = drawn.items[static_cast<size_t>(at)];
        QCOMPARE(item.nodeIndex, 0);
        QCOMPARE(item.subgraph, std::string(name) == "true_graph_0" ? 0 : 1);
        bool feeds = false;
        for (const auto& e : drawn.edges) feeds |= e.from == at && e.to == hop;
        QVERIFY2(feeds, name);
    }
}

void TstModuleTree::edgeLabelsComeFromProducer() {
    // a two-output producer: the edge to each consumer carries the shape of the output it reads
    Graph g;
    g.inputs.push_back(Argument::tensor("x"));
    g.tensorValues["x"] = irlens::testing::meta({4, 8});
    Node split = irlens::testing::makeNode("split", "torch.ops.aten.var_mean.correction", {"x"}, "");
    split.outputs = {Argument::tensor("var"), Argument::tensor("mean")};
    g.nodes.push_back(split);
    g.tensorValues["var"] = irlens::testing::meta({4, 1});
    g.tensorValues["mean"] = irlens::testing::meta({4});
    g.nodes.push_back(irlens::testing::makeNode("use_mean", "torch.ops.aten.relu.default", {"mean"}, ""));
    g.tensorValues["use_mean"] = irlens::testing::meta({4});
    g.outputs.push_back(Argument::tensor("use_mean"));
    auto tree = ModuleTree::build(g);
    auto vg = buildVisibleGraph(g, nullptr, tree, CollapseState::allExpanded(tree));
    bool found = false;
    for (const auto& e : vg.edges)
        if (vg.items[static_cast<size_t>(e.to)].id == "use_mean") {
            QCOMPARE(e.label, std::string("f32[4]"));
            found = true;
        }
    QVERIFY(found);
    QCOMPARE(vg.items[static_cast<size_t>(vg.itemOfId.at("split"))].subtitle, std::string("f32[4, 1] +1"));
}

void TstModuleTree::cacheKeys() {
    CollapseState a, b;
    a.setExpanded(3, true);
    a.setExpanded(12, true);
    b.setExpanded(12, true);
    b.setExpanded(3, true);
    QCOMPARE(a.key(), b.key());
    QCOMPARE(a.key(), std::string("3,12"));
    a.toggle(3);
    QCOMPARE(a.key(), std::string("12"));
    a.setExpanded(0, false); // the root stays open
    QVERIFY(a.isExpanded(0));
}

QTEST_GUILESS_MAIN(TstModuleTree)
#include "tst_module_tree.moc"
