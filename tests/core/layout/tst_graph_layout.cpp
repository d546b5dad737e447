// Graphviz layout geometry: every item has a box, edges end on borders, clusters hold their items;
// timings of large graphs when collapsed.
#include "core/io/pt2_reader.h"
#include "core/layout/graph_layout.h"
#include "core/layout/layout_cache.h"
#include "support/synthetic_program.h"
#include "sanitizers/sanitizer_build.h"
#include "support/fixture_program.h"
#include "support/layout_checks.h"
#include "support/shared_fixtures.h"

#include <QTest>

#include <chrono>
#include <cmath>

using namespace irlens::core;
using irlens::testing::makeBlockStack;

using irlens::testing::checkLayoutGeometry;

class TstGraphLayout : public QObject {
    Q_OBJECT
public:
    static void checkGeometry(const LayoutResult& r, const ModuleTree& tree);
private slots:
    void geometry_data();
    void geometry();
    void chipsInsideTheirBox();
    void cacheReturnsSameLayout();
    void cancelledBeforeStart();
    void largeCollapsedIsFast();
    void renderSvg();
    void fixtureGeometry_data();
    void fixtureGeometry();
    void deepStackCollapsedTiming();
};

namespace {

ProgramPtr loadFixture(const std::string& relative) { return irlens::testing::loadFixtureGraph(relative); }

double secondsOf(const std::function<void()>& fn) {
    auto t0 = std::chrono::steady_clock::now();
    fn();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

void TstGraphLayout::checkGeometry(const LayoutResult& r, const ModuleTree& tree) { checkLayoutGeometry(r, tree); }

void TstGraphLayout::geometry_data() {
    QTest::addColumn<int>("blocks");
    QTest::addColumn<bool>("expanded");
    QTest::addRow("4 blocks flat") << 4 << true;
    QTest::addRow("4 blocks collapsed") << 4 << false;
    QTest::addRow("40 blocks flat") << 40 << true;
}

void TstGraphLayout::geometry() {
    QFETCH(int, blocks);
    QFETCH(bool, expanded);
    auto p = makeBlockStack(blocks);
    auto tree = ModuleTree::build(p->graph);
    auto cs = expanded ? CollapseState::allExpanded(tree) : CollapseState::topLevel();
    auto r = layoutGraph(p->graph, &p->signature, tree, cs);
    QVERIFY2(r.isOk(), r.error().c_str());
    checkGeometry(**r, tree);
    if (expanded) QCOMPARE((*r)->graph.visibleOpNodes, static_cast<int>(p->graph.nodes.size()));
}

void TstGraphLayout::chipsInsideTheirBox() {
    auto p = makeBlockStack(3);
    auto tree = ModuleTree::build(p->graph);
    auto r = layoutGraph(p->graph, &p->signature, tree, CollapseState::allExpanded(tree));
    QVERIFY(r.isOk());
    int chips = 0;
    for (size_t k = 0; k < (*r)->boxes.size(); ++k) {
        QCOMPARE((*r)->chips[k].size(), (*r)->graph.items[k].chips.size());
        for (const auto& c : (*r)->chips[k]) {
            QVERIFY((*r)->boxes[k].contains(c.box, 0.01));
            ++chips;
        }
    }
    QCOMPARE(chips, 4); // three block weights and the head weight
}

void TstGraphLayout::cacheReturnsSameLayout() {
    auto p = makeBlockStack(3);
    auto tree = ModuleTree::build(p->graph);
    LayoutCache cache(2);
    auto r = layoutGraph(p->graph, &p->signature, tree, CollapseState::topLevel());
    QVERIFY(r.isOk());
    auto key = LayoutCache::key("p1", "", CollapseState::topLevel().key());
    QVERIFY(!cache.find(key));
    cache.insert(key, *r);
    QCOMPARE(cache.find(key).get(), r->get());
    cache.insert("b", *r);
    cache.insert("c", *r); // evicts the least recently used
    QCOMPARE(cache.size(), size_t(2));
    QVERIFY(!cache.find(key));
}

void TstGraphLayout::cancelledBeforeStart() {
    auto p = makeBlockStack(3);
    auto tree = ModuleTree::build(p->graph);
    std::atomic<bool> cancel{true};
    LayoutOptions opt;
    opt.cancel = &cancel;
    auto r = layoutGraph(p->graph, &p->signature, tree, CollapseState::topLevel(), opt);
    QVERIFY(!r.isOk());
    QCOMPARE(r.error(), std::string("layout cancelled"));
}

void TstGraphLayout::largeCollapsedIsFast() {
    // 1,800 blocks (5,401 nodes): opens collapsed; expanding "layers" shows 1,800 boxes
    auto p = makeBlockStack(1800);
    auto tree = ModuleTree::build(p->graph);
    auto cs = CollapseState::automatic(tree, static_cast<int>(p->graph.nodes.size()));
    auto t0 = std::chrono::steady_clock::now();
    auto r = layoutGraph(p->graph, &p->signature, tree, cs);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    QVERIFY(r.isOk());
    QCOMPARE(static_cast<int>((*r)->graph.items.size()), 4); // x, layers, head, output
    IRLENS_SKIP_IF_SANITIZED("layout time");
    QVERIFY2(s < 1.0, qPrintable(QString("collapsed layout took %1 s").arg(s)));
}

void TstGraphLayout::renderSvg() {
    auto p = makeBlockStack(2);
    auto tree = ModuleTree::build(p->graph);
    auto svg = renderGraphviz(p->graph, &p->signature, tree, CollapseState::allExpanded(tree), "svg");
    QVERIFY2(svg.isOk(), svg.error().c_str());
    QVERIFY(svg->find("<svg") != std::string::npos);
    QVERIFY(svg->find("relu") != std::string::npos);
    QVERIFY(svg->find("f32[1, 16]") != std::string::npos);
    auto bad = renderGraphviz(p->graph, &p->signature, tree, CollapseState::topLevel(), "no-such-format");
    QVERIFY(!bad.isOk());
    QCOMPARE(bad.error(), std::string("Graphviz cannot render format 'no-such-format' on this machine"));
}

void TstGraphLayout::fixtureGeometry_data() { irlens::testing::addGeneratedFixtureRows(); }

void TstGraphLayout::fixtureGeometry() {
    QFETCH(QString, name);
    IRLENS_REQUIRE_FIXTURE(name);
    auto [p, tree] = irlens::testing::loadGeneratedWithTree(name.toStdString());
    QVERIFY(p);
    auto r = layoutGraph(p->graph, &p->signature, tree, CollapseState::allExpanded(tree));
    QVERIFY2(r.isOk(), r.error().c_str());
    checkGeometry(**r, tree);
    QCOMPARE((*r)->graph.visibleOpNodes, static_cast<int>(p->graph.nodes.size()));
    // edges are labelled with the producer's output shape, never unknown
    for (const auto& e : (*r)->graph.edges) QVERIFY2(!e.label.empty() && e.label.find('?') == std::string::npos, e.value.c_str());
    // parameters, buffers and constants are chips, not boxes
    int state = 0;
    for (const auto& spec : p->signature.inputSpecs)
        state += spec.kind == InputKind::Parameter || spec.kind == InputKind::Buffer || spec.kind == InputKind::TensorConstant;
    int inputs = 0;
    for (const auto& item : (*r)->graph.items) inputs += item.kind == VisibleItem::Kind::Input;
    QCOMPARE(inputs + state, static_cast<int>(p->signature.inputSpecs.size()));
}

void TstGraphLayout::deepStackCollapsedTiming() {
    auto p = loadFixture("zoo/deep_residual_stack/model.pt2");
    QVERIFY(p);
    QCOMPARE(static_cast<int>(p->graph.nodes.size()), 240 * 7 + 2); // 240 blocks of 7 nodes and the head's 2
    ModuleTree tree;
    const double treeSeconds = secondsOf([&] { tree = ModuleTree::build(p->graph); });
    auto cs = CollapseState::automatic(tree, static_cast<int>(p->graph.nodes.size()));
    QVERIFY(cs.expanded().empty()); // opens collapsed
    Result<LayoutPtr> top = Status::error("not run");
    const double topSeconds = secondsOf([&] { top = layoutGraph(p->graph, &p->signature, tree, cs); });
    QVERIFY(top.isOk());
    QCOMPARE(static_cast<int>((*top)->graph.items.size()), 4);
    checkGeometry(**top, tree);
    // expanding "layers" lays out its 240 blocks as boxes
    cs.setExpanded(tree.find("layers"), true);
    Result<LayoutPtr> layers = Status::error("not run");
    const double layersSeconds = secondsOf([&] { layers = layoutGraph(p->graph, &p->signature, tree, cs); });
    QVERIFY(layers.isOk());
    QCOMPARE(static_cast<int>((*layers)->graph.items.size()), 4 - 1 + 240);
    checkGeometry(**layers, tree);
    // and one block inside it
    cs.setExpanded(tree.find("layers.100"), true);
    Result<LayoutPtr> block = Status::error("not run");
    const double blockSeconds = secondsOf([&] { block = layoutGraph(p->graph, &p->signature, tree, cs); });
    QVERIFY(block.isOk());
    checkGeometry(**block, tree);
    qInfo("deep residual stack: tree %.1f ms, collapsed layout %.1f ms, layers open %.1f ms, one block open %.1f ms",
          treeSeconds * 1e3, topSeconds * 1e3, layersSeconds * 1e3, blockSeconds * 1e3);
    IRLENS_SKIP_IF_SANITIZED("layout time");
    QVERIFY2(treeSeconds + topSeconds < 0.5, "the collapsed deep stack must be interactive at once");
    QVERIFY2(layersSeconds < 3.0, "expanding a 240-block module must stay interactive");
    QVERIFY2(blockSeconds < 3.0, "expanding one block must stay interactive");
}

QTEST_GUILESS_MAIN(TstGraphLayout)
#include "tst_graph_layout.moc"
