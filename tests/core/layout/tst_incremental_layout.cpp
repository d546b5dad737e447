// Incremental layout between decomposition steps on real fixtures: after a step, boxes above the
// replaced node keep their exact position, boxes below move down by one uniform amount, boxes beside
// it only sideways; the new boxes sit in the region where the replaced node was; nothing overlaps;
// edges still end on their boxes. Undo (the map read backwards) and the fall-backs to a full layout.
#include "core/decomp/decomp_session.h"
#include "core/io/pt2_reader.h"
#include "core/layout/graph_layout.h"
#include "core/layout/incremental_layout.h"
#include "support/fixture_program.h"
#include "support/layout_checks.h"
#include "support/shared_fixtures.h"
#include "support/zoo_files.h"

#include <QTest>

#include <cmath>
#include <set>

using namespace irlens::core;

namespace {

ProgramPtr loadFixture(const std::string& relative) { return irlens::testing::loadFixtureGraph(relative); }

double distanceToBorder(const LRect& r, LPoint p) {
    double dx = std::max({r.x - p.x, 0.0, p.x - (r.x + r.w)});
    double dy = std::max({r.y - p.y, 0.0, p.y - (r.y + r.h)});
    if (dx > 0 || dy > 0) return std::hypot(dx, dy);
    return std::min({p.x - r.x, r.x + r.w - p.x, p.y - r.y, r.y + r.h - p.y});
}

bool overlap(const LRect& a, const LRect& b) {
    return a.x + a.w > b.x + 0.5 && b.x + b.w > a.x + 0.5 && a.y + a.h > b.y + 0.5 && b.y + b.h > a.y + 0.5;
}

struct Stepped {
    ProgramPtr before, after;
    std::shared_ptr<ModuleTree> treeBefore, treeAfter;
    NodeReplacementMap map;
    LayoutPtr full;        // full layout of `before`
    LayoutPtr incremental; // `after`, placed incrementally on `full`
    QString error;
};

CollapseState expandedLike(const ModuleTree& tree) { return CollapseState::allExpanded(tree); }

/// Loads `file`, lays it out in full, steps `op` (one node, or every node when `all`) to `stage`
/// and lays the result out incrementally.
Stepped stepAndLayout(const QString& file, const QString& op, DecompStage stage, bool all) {
    Stepped s;
    s.before = loadFixture(file.toStdString());
    if (!s.before) {
        s.error = "cannot load " + file;
        return s;
    }
    s.treeBefore = std::make_shared<ModuleTree>(ModuleTree::build(s.before->graph));
    auto full = layoutGraph(s.before->graph, &s.before->signature, *s.treeBefore, expandedLike(*s.treeBefore));
    if (!full) {
        s.error = QString::fromStdString(full.error());
        return s;
    }
    s.full = *full;
    DecompSessionOptions o;
    o.verify = false;
    DecompSession session(s.before, o);
    std::string node;
    for (const auto& c : session.candidates(stage))
        if (c.target.find(op.toStdString()) != std::string::npos) {
            node = c.node;
            break;
        }
    if (node.empty()) {
        s.error = "no candidate for " + op;
        return s;
    }
    auto step = all ? session.stepOp(op.toStdString(), stage) : session.stepNode(node, stage);
    if (!step) {
        s.error = QString::fromStdString(step.error());
        return s;
    }
    s.map = (*step)->oldToNew();
    s.after = session.current();
    s.treeAfter = std::make_shared<ModuleTree>(ModuleTree::build(s.after->graph));
    auto vg = buildVisibleGraph(s.after->graph, &s.after->signature, *s.treeAfter, expandedLike(*s.treeAfter));
    auto inc = layoutIncremental(*s.full, std::move(vg), *s.treeAfter, s.map);
    if (!inc) {
        s.error = QString::fromStdString(inc.error());
        return s;
    }
    s.incremental = *inc;
    return s;
}

/// Geometry every layout must have: no overlapping boxes, edges on their boxes, frames around their boxes.
void checkSound(const LayoutResult& r, const ModuleTree& tree) {
    QCOMPARE(r.boxes.size(), r.graph.items.size());
    for (size_t a = 0; a < r.boxes.size(); ++a)
        for (size_t b = a + 1; b < r.boxes.size(); ++b)
            QVERIFY2(!overlap(r.boxes[a], r.boxes[b]), (r.graph.items[a].id + " overlaps " + r.graph.items[b].id).c_str());
    QCOMPARE(r.edges.size(), r.graph.edges.size());
    for (const auto& e : r.edges) {
        const auto& ve = r.graph.edges[static_cast<size_t>(e.edge)];
        QVERIFY(e.points.size() >= 4 && (e.points.size() - 1) % 3 == 0);
        const std::string what = r.graph.items[static_cast<size_t>(ve.from)].id + " -> " + r.graph.items[static_cast<size_t>(ve.to)].id;
        QVERIFY2(distanceToBorder(r.boxes[static_cast<size_t>(ve.to)], e.arrowTip) < 2.0, what.c_str());
        QVERIFY2(distanceToBorder(r.boxes[static_cast<size_t>(ve.from)], e.points.front()) < 2.0, what.c_str());
    }
    for (const auto& c : r.clusters)
        for (size_t k = 0; k < r.graph.items.size(); ++k)
            if (r.graph.items[k].cluster > 0 && tree.isWithin(r.graph.items[k].cluster, c.module))
                QVERIFY2(c.box.contains(r.boxes[k], 0.5), (c.label + " holds " + r.graph.items[k].id).c_str());
    for (size_t k = 0; k < r.boxes.size(); ++k) QVERIFY(r.bounds.contains(r.boxes[k], 0.5));
    std::vector<int> clusterOf(static_cast<size_t>(tree.size()), -1);
    for (size_t c = 0; c < r.clusters.size(); ++c) clusterOf[static_cast<size_t>(r.clusters[c].module)] = static_cast<int>(c);
    irlens::testing::checkFrameLinks(r, tree, clusterOf);
}

/// One replaced box: everything above it stays, everything below moves by one amount, the band beside
/// it moves only sideways; the new boxes fill a region hanging from where it was.
void checkLocal(const LayoutResult& before, const LayoutResult& after, const std::string& replaced) {
    auto rit = before.graph.itemOfId.find(replaced);
    QVERIFY(rit != before.graph.itemOfId.end());
    const LRect anchor = before.boxes[static_cast<size_t>(rit->second)];
    QCOMPARE(after.touchedRegions.size(), size_t(1));
    const LRect region = after.touchedRegions.front();
    QCOMPARE(region.y, anchor.y);
    QVERIFY(std::abs(region.center().x - anchor.center().x) < 0.01);
    const double down = std::max(0.0, region.h - anchor.h);
    int above = 0, below = 0, beside = 0;
    for (size_t k = 0; k < after.graph.items.size(); ++k) {
        const auto& id = after.graph.items[k].id;
        const LRect& now = after.boxes[k];
        auto old = before.graph.itemOfId.find(id);
        if (old == before.graph.itemOfId.end()) {
            QVERIFY2(region.contains(now, 0.01), ("new box " + id + " outside the touched region").c_str());
            continue;
        }
        const LRect& was = before.boxes[static_cast<size_t>(old->second)];
        if (was.y >= anchor.y + anchor.h) {
            QVERIFY2(now.x == was.x && now.y == was.y + down, ("below: " + id).c_str());
            ++below;
        } else if (was.y + was.h <= anchor.y) {
            QVERIFY2(now.x == was.x && now.y == was.y, ("above: " + id).c_str());
            ++above;
        } else {
            QVERIFY2(now.y == was.y, ("beside: " + id).c_str());
            QVERIFY2(!overlap(now, region), ("beside, overlapping the region: " + id).c_str());
            ++beside;
        }
    }
    QVERIFY(above > 0);
    QVERIFY(below > 0);
    qInfo("%d boxes above kept, %d below moved down %.0f pt, %d beside; region %.0f x %.0f pt", above, below, down, beside,
          region.w, region.h);
}

} // namespace

class TstIncrementalLayout : public QObject {
    Q_OBJECT
private slots:
    void oneNode_data();
    void oneNode();
    void everyNodeOfAnOp_data();
    void everyNodeOfAnOp();
    void widerReplacementPushesNeighboursAside();
    void undoReadsTheMapBackwards();
    void tooBigAChangeFallsBack();
    void tooManyStepsFallsBack();
};

void TstIncrementalLayout::oneNode_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("op");
    QTest::addColumn<int>("stage");
    irlens::testing::zooDir();
    QTest::addRow("zoo conv_attention addmm -> prims") << "zoo/conv_attention/model.pt2" << "addmm" << int(DecompStage::ToPrims);
    QTest::addRow("zoo conv_attention batch norm -> prims") << "zoo/conv_attention/model.pt2" << "batch_norm" << int(DecompStage::ToPrims);
    QTest::addRow("zoo gpt_block layer norm -> prims") << "zoo/gpt_block/model.pt2" << "layer_norm" << int(DecompStage::ToPrims);
    QTest::addRow("zoo gpt_block softmax -> prims") << "zoo/gpt_block/model.pt2" << "softmax" << int(DecompStage::ToPrims);
    QTest::addRow("zoo deep_residual_stack layer norm -> prims (composed layout)") << "zoo/deep_residual_stack/model.pt2" << "layer_norm"
                                                                                 << int(DecompStage::ToPrims);
    irlens::testing::writeViewPrograms();
    QTest::addRow("resnet_like addmm -> prims") << "zoo/resnet_like/model.pt2" << "addmm" << int(DecompStage::ToPrims);
    QTest::addRow("resnet_like batch norm -> prims") << "zoo/resnet_like/model.pt2" << "batch_norm" << int(DecompStage::ToPrims);
    QTest::addRow("decoder_like layer norm -> prims") << "zoo/decoder_like/model.pt2" << "layer_norm" << int(DecompStage::ToPrims);
    QTest::addRow("decoder_like addmm -> prims (side by side with k, v)") << "zoo/decoder_like/model.pt2" << "addmm" << int(DecompStage::ToPrims);
    QTest::addRow("decoder_like softmax -> prims") << "zoo/decoder_like/model.pt2" << "softmax" << int(DecompStage::ToPrims);
    // 6k boxes: the full layout is the composed one
    QTest::addRow("deep_decoder_like softmax -> prims (composed layout)") << "zoo/deep_decoder_like/model.pt2" << "softmax"
                                                                           << int(DecompStage::ToPrims);
}

void TstIncrementalLayout::oneNode() {
    QFETCH(QString, file);
    IRLENS_REQUIRE_FIXTURE(file);
    QFETCH(QString, op);
    QFETCH(int, stage);
    Stepped s = stepAndLayout(file, op, DecompStage(stage), false);
    QVERIFY2(s.incremental, qPrintable(s.error));
    QCOMPARE(s.map.size(), size_t(1));
    QVERIFY(s.map.begin()->second.size() > 1);
    checkSound(*s.incremental, *s.treeAfter);
    checkLocal(*s.full, *s.incremental, s.map.begin()->first);
    QCOMPARE(s.incremental->incrementalSteps, 1);
    // the map read from the nodes' derivedFrom is the step's own
    QCOMPARE(replacementsBetween(s.before->graph, s.after->graph), s.map);
}

void TstIncrementalLayout::everyNodeOfAnOp_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("op");
    QTest::addColumn<int>("stage");
    irlens::testing::zooDir();
    QTest::addRow("zoo residual_stack every layer norm") << "zoo/residual_stack/model.pt2" << "native_layer_norm" << int(DecompStage::ToPrims);
    QTest::addRow("zoo residual_stack every gelu") << "zoo/residual_stack/model.pt2" << "gelu" << int(DecompStage::ToPrims);
    irlens::testing::writeViewPrograms();
    QTest::addRow("decoder_like every layer norm") << "zoo/decoder_like/model.pt2" << "native_layer_norm" << int(DecompStage::ToPrims);
    QTest::addRow("resnet_like every relu") << "zoo/resnet_like/model.pt2" << "relu" << int(DecompStage::ToPrims);
}

void TstIncrementalLayout::everyNodeOfAnOp() {
    QFETCH(QString, file);
    IRLENS_REQUIRE_FIXTURE(file);
    QFETCH(QString, op);
    QFETCH(int, stage);
    Stepped s = stepAndLayout(file, op, DecompStage(stage), true);
    QVERIFY2(s.incremental, qPrintable(s.error));
    QVERIFY(s.map.size() > 1);
    checkSound(*s.incremental, *s.treeAfter);
    const auto& before = *s.full;
    const auto& after = *s.incremental;
    QCOMPARE(after.touchedRegions.size(), s.map.size());
    // above the first replaced node nothing moves; nothing moves up; top-to-bottom order is kept
    double firstTop = 1e18;
    for (const auto& [old, news] : s.map)
        firstTop = std::min(firstTop, before.boxes[static_cast<size_t>(before.graph.itemOfId.at(old))].y);
    std::vector<std::pair<double, double>> ys; // (old y, new y) of kept boxes
    int sideways = 0, downwards = 0;
    for (size_t k = 0; k < after.graph.items.size(); ++k) {
        auto old = before.graph.itemOfId.find(after.graph.items[k].id);
        if (old == before.graph.itemOfId.end()) {
            bool inside = false;
            for (const auto& r : after.touchedRegions) inside = inside || r.contains(after.boxes[k], 0.01);
            QVERIFY2(inside, after.graph.items[k].id.c_str());
            continue;
        }
        const LRect& was = before.boxes[static_cast<size_t>(old->second)];
        const LRect& now = after.boxes[k];
        if (was.y + was.h <= firstTop) QVERIFY2(now.x == was.x && now.y == was.y, after.graph.items[k].id.c_str());
        QVERIFY(now.y >= was.y);
        sideways += now.x != was.x;
        downwards += now.y != was.y;
        ys.push_back({was.y, now.y});
    }
    qInfo("%zu replacements; of %zu kept boxes %d moved down, %d aside", s.map.size(), ys.size(), downwards, sideways);
    std::sort(ys.begin(), ys.end());
    for (size_t k = 1; k < ys.size(); ++k) QVERIFY(ys[k].second >= ys[k - 1].second);
}

namespace {

VisibleGraph handMade(const std::vector<std::pair<std::string, double>>& boxes,
                      const std::vector<std::pair<std::string, std::string>>& edges) {
    VisibleGraph g;
    for (const auto& [id, width] : boxes) {
        VisibleItem item;
        item.id = id;
        item.title = id;
        item.width = width;
        item.height = 38;
        g.itemOfId.emplace(id, static_cast<int>(g.items.size()));
        g.items.push_back(std::move(item));
    }
    for (const auto& [from, to] : edges) {
        VisibleEdge e;
        e.from = g.itemOfId.at(from);
        e.to = g.itemOfId.at(to);
        e.value = from;
        g.edges.push_back(std::move(e));
    }
    return g;
}

} // namespace

// a -> (b1 | b2) -> c; b1 becomes a chain of two boxes much wider than it: b2, beside it, moves
// aside just enough, c moves down by the extra height, a stays.
void TstIncrementalLayout::widerReplacementPushesNeighboursAside() {
    const ModuleTree tree = ModuleTree::build(Graph{});
    auto before = layoutVisibleGraph(handMade({{"a", 90}, {"b1", 90}, {"b2", 90}, {"c", 90}},
                                              {{"a", "b1"}, {"a", "b2"}, {"b1", "c"}, {"b2", "c"}}),
                                     tree);
    QVERIFY2(before.isOk(), before.error().c_str());
    const LayoutResult& b = **before;
    auto box = [](const LayoutResult& r, const char* id) { return r.boxes[static_cast<size_t>(r.graph.itemOfId.at(id))]; };
    QCOMPARE(box(b, "b1").y, box(b, "b2").y); // side by side
    auto after = layoutIncremental(b, handMade({{"a", 90}, {"b1x", 400}, {"b1y", 400}, {"b2", 90}, {"c", 90}},
                                               {{"a", "b1x"}, {"b1x", "b1y"}, {"a", "b2"}, {"b1y", "c"}, {"b2", "c"}}),
                                   tree, {{"b1", {"b1x", "b1y"}}});
    QVERIFY2(after.isOk(), after.error().c_str());
    const LayoutResult& r = **after;
    checkSound(r, tree);
    const LRect anchor = box(b, "b1"), region = r.touchedRegions.at(0);
    QCOMPARE(region.y, anchor.y);
    QCOMPARE(region.center().x, anchor.center().x);
    QCOMPARE(box(r, "a").x, box(b, "a").x);
    QCOMPARE(box(r, "a").y, box(b, "a").y);
    const double side = box(r, "b2").x - box(b, "b2").x;
    QCOMPARE(box(r, "b2").y, box(b, "b2").y);
    QVERIFY(!overlap(box(r, "b2"), region));
    // aside by exactly what clears the region plus the gap, no further
    const double gap = IncrementalLayoutOptions{}.gap;
    if (anchor.x < box(b, "b2").x) QCOMPARE(box(r, "b2").x, region.x + region.w + gap);
    else QCOMPARE(box(r, "b2").x + box(r, "b2").w, region.x - gap);
    QVERIFY(side != 0);
    QCOMPARE(box(r, "c").x, box(b, "c").x);
    QCOMPARE(box(r, "c").y, box(b, "c").y + (region.h - anchor.h));
}

void TstIncrementalLayout::undoReadsTheMapBackwards() {
    irlens::testing::writeViewPrograms();
    Stepped s = stepAndLayout("zoo/decoder_like/model.pt2", "layer_norm", DecompStage::ToPrims, false);
    QVERIFY2(s.incremental, qPrintable(s.error));
    const NodeReplacementMap back = replacementsBetween(s.after->graph, s.before->graph);
    const std::string replaced = s.map.begin()->first;
    QCOMPARE(back.size(), s.map.begin()->second.size());
    for (const auto& [node, by] : back) QCOMPARE(by, std::vector<std::string>{replaced});
    auto vg = buildVisibleGraph(s.before->graph, &s.before->signature, *s.treeBefore, expandedLike(*s.treeBefore));
    auto undone = layoutIncremental(*s.incremental, std::move(vg), *s.treeBefore, back);
    QVERIFY2(undone.isOk(), undone.error().c_str());
    checkSound(**undone, *s.treeBefore);
    QCOMPARE((*undone)->incrementalSteps, 2);
    // the node comes back where its replacement hung, and everything above it never moved
    const LRect region = s.incremental->touchedRegions.front();
    const LRect back0 = (*undone)->boxes[static_cast<size_t>((*undone)->graph.itemOfId.at(replaced))];
    QCOMPARE(back0.y, region.y);
    for (size_t k = 0; k < s.full->graph.items.size(); ++k) {
        const LRect& was = s.full->boxes[k];
        if (was.y + was.h > region.y) continue;
        const LRect& now = (*undone)->boxes[static_cast<size_t>((*undone)->graph.itemOfId.at(s.full->graph.items[k].id))];
        QVERIFY2(now.x == was.x && now.y == was.y, s.full->graph.items[k].id.c_str());
    }
}

void TstIncrementalLayout::tooBigAChangeFallsBack() {
    auto p = loadFixture("zoo/gpt_block/model.pt2");
    QVERIFY(p);
    auto tree = ModuleTree::build(p->graph);
    auto full = layoutGraph(p->graph, &p->signature, tree, CollapseState::allExpanded(tree));
    QVERIFY(full.isOk());
    DecompSessionOptions o;
    o.verify = false;
    DecompSession session(p, o);
    auto step = session.stepAll(DecompStage::ToPrims);
    QVERIFY2(step.isOk(), step.error().c_str());
    auto after = session.current();
    auto treeAfter = ModuleTree::build(after->graph);
    auto r = layoutIncremental(**full, buildVisibleGraph(after->graph, &after->signature, treeAfter,
                                                         CollapseState::allExpanded(treeAfter)),
                               treeAfter, (*step)->oldToNew());
    QVERIFY(!r.isOk());
    QVERIFY2(QString::fromStdString(r.error()).contains(QRegularExpression("^incremental layout: \\d+ boxes replaced by \\d+ is too big a change to place locally$")),
             r.error().c_str());
}

void TstIncrementalLayout::tooManyStepsFallsBack() {
    auto p = loadFixture("zoo/conv_attention/model.pt2");
    QVERIFY(p);
    auto tree = ModuleTree::build(p->graph);
    auto full = layoutGraph(p->graph, &p->signature, tree, CollapseState::allExpanded(tree));
    QVERIFY(full.isOk());
    auto tired = std::make_shared<LayoutResult>(**full);
    IncrementalLayoutOptions options;
    tired->incrementalSteps = options.maxSteps;
    auto r = layoutIncremental(*tired, tired->graph, tree, {}, options);
    QVERIFY(!r.isOk());
    QCOMPARE(r.error(), "incremental layout: " + std::to_string(options.maxSteps) + " steps since the last full layout");
    // one step fewer and nothing changed: the same boxes
    tired->incrementalSteps = options.maxSteps - 1;
    auto same = layoutIncremental(*tired, tired->graph, tree, {}, options);
    QVERIFY2(same.isOk(), same.error().c_str());
    for (size_t k = 0; k < tired->boxes.size(); ++k) {
        QCOMPARE((*same)->boxes[k].x, tired->boxes[k].x);
        QCOMPARE((*same)->boxes[k].y, tired->boxes[k].y);
    }
}

QTEST_GUILESS_MAIN(TstIncrementalLayout)
#include "tst_incremental_layout.moc"
