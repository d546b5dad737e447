#pragma once
// Checks every layout must pass, flat or composed: each item has its box inside the drawing, edges
// start on their source's border and end with the arrow tip on their target's, module frames hold
// their items, no label covers a frame's title, and nothing overlaps what it should not.
// Qt Test checks: call, then return when QTest::currentTestFailed().

#include "core/layout/layout_result.h"
#include "core/layout/module_tree.h"
#include "support/fixture_program.h"
#include "support/shared_fixtures.h"
#include "support/view_programs.h"
#include "support/zoo_programs.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace irlens::testing {

/// A generated fixture's program (no weights), or an owned one for "zoo/<name>" (the zoo's or
/// support/view_programs.h's, built in memory), and its module tree; `program` is null when it does not load.
struct ProgramWithTree {
    core::ProgramPtr program;
    core::ModuleTree tree;
};

inline ProgramWithTree loadGeneratedWithTree(const std::string& name) {
    ProgramWithTree out;
    out.program = name.rfind("zoo/", 0) == 0 ? ownedProgram(name) : loadFixtureGraph("generated/" + name + "/model.pt2");
    if (out.program) out.tree = core::ModuleTree::build(out.program->graph);
    return out;
}

/// A `name` row per zoo program ("zoo/<name>") and per generated fixture, deep_stack left out (its full
/// layout has its own test); a fixture with an owned program of its shape (support/view_programs.h) is that program.
inline void addGeneratedFixtureRows() {
    QTest::addColumn<QString>("name");
    for (const auto& z : zoo::programs()) QTest::addRow("zoo/%s", z.name) << QString("zoo/") + z.name;
    for (const char* name : kGeneratedFixtures) {
        if (std::string(name) == "deep_stack") continue;
        const std::string standIn = owned::standInFor(name);
        if (standIn.empty()) QTest::addRow("%s", name) << name;
        else QTest::addRow("zoo/%s", standIn.c_str()) << QString::fromStdString("zoo/" + standIn);
    }
}

/// Distance from p to the rectangle's outline.
inline double distanceToBorder(const core::LRect& r, core::LPoint p) {
    double dx = std::max({r.x - p.x, 0.0, p.x - (r.x + r.w)});
    double dy = std::max({r.y - p.y, 0.0, p.y - (r.y + r.h)});
    if (dx > 0 || dy > 0) return std::hypot(dx, dy);
    return std::min({p.x - r.x, r.x + r.w - p.x, p.y - r.y, r.y + r.h - p.y});
}

inline void checkEdgeLabelsOffTitles(const core::LayoutResult& r) {
    for (const auto& e : r.edges) {
        const std::string& text = r.graph.edges[static_cast<size_t>(e.edge)].label;
        if (text.empty()) continue;
        const double left = e.labelPos.x + 3, right = left + static_cast<double>(text.size()) * 5.0 + 8;
        const double top = e.labelPos.y - 7, bottom = top + 12;
        for (const auto& c : r.clusters)
            QVERIFY2(!(c.box.y < bottom && c.box.y + 18 > top && c.box.x < right && c.box.x + c.box.w > left),
                     (text + " on the title of " + c.label).c_str());
    }
}

/// linkFrames: a frame's parent is the frame of its nearest open ancestor module, an item's frame its
/// innermost open module's, an edge's the innermost frame holding both its ends (what a view nests
/// items by). `clusterOf` maps a module to its cluster (-1 if none).
inline void checkFrameLinks(const core::LayoutResult& r, const core::ModuleTree& tree, const std::vector<int>& clusterOf) {
    auto frameOf = [&](int module) {
        for (int m = module; m > 0; m = tree.module(m).parent)
            if (clusterOf[static_cast<size_t>(m)] >= 0) return clusterOf[static_cast<size_t>(m)];
        return -1;
    };
    QCOMPARE(r.itemFrame.size(), r.graph.items.size());
    QCOMPARE(r.edgeFrame.size(), r.graph.edges.size());
    for (const auto& c : r.clusters) {
        QCOMPARE(c.parent, frameOf(tree.module(c.module).parent));
        if (c.parent >= 0) QVERIFY2(r.clusters[static_cast<size_t>(c.parent)].box.contains(c.box, 0.5), c.label.c_str());
    }
    for (size_t k = 0; k < r.graph.items.size(); ++k) QCOMPARE(r.itemFrame[k], frameOf(r.graph.items[k].cluster));
    auto chain = [&](int c) { // the frame and every frame around it
        std::vector<int> out;
        for (; c >= 0; c = r.clusters[static_cast<size_t>(c)].parent) out.push_back(c);
        return out;
    };
    for (size_t k = 0; k < r.graph.edges.size(); ++k) {
        const auto a = chain(r.itemFrame[static_cast<size_t>(r.graph.edges[k].from)]);
        const auto b = chain(r.itemFrame[static_cast<size_t>(r.graph.edges[k].to)]);
        int common = -1; // the innermost frame on both chains
        for (int c : a)
            if (std::find(b.begin(), b.end(), c) != b.end()) {
                common = c;
                break;
            }
        QCOMPARE(r.edgeFrame[k], common);
    }
}

inline void checkLayoutGeometry(const core::LayoutResult& r, const core::ModuleTree& tree) {
    QCOMPARE(r.boxes.size(), r.graph.items.size());
    QCOMPARE(r.edges.size(), r.graph.edges.size());
    for (size_t k = 0; k < r.boxes.size(); ++k) {
        const auto& b = r.boxes[k];
        QVERIFY2(b.w > 0 && b.h > 0, r.graph.items[k].id.c_str());
        QVERIFY2(r.bounds.contains(b, 1.0), r.graph.items[k].id.c_str());
        QCOMPARE(b.w, r.graph.items[k].width);
    }
    checkEdgeLabelsOffTitles(r);
    for (const auto& e : r.edges) {
        const auto& ve = r.graph.edges[static_cast<size_t>(e.edge)];
        QVERIFY(e.points.size() >= 4);
        QCOMPARE((e.points.size() - 1) % 3, size_t(0));
        QVERIFY(e.arrow);
        const core::LRect& to = r.boxes[static_cast<size_t>(ve.to)];
        const core::LRect& from = r.boxes[static_cast<size_t>(ve.from)];
        // the arrow tip touches the target's border; the line leaves from the source's border
        QVERIFY2(distanceToBorder(to, e.arrowTip) < 2.0, (ve.value + " -> " + r.graph.items[static_cast<size_t>(ve.to)].id).c_str());
        QVERIFY2(distanceToBorder(from, e.points.front()) < 2.0, ve.value.c_str());
    }
    // each frame holds the items of its module: one pass per item over its module chain
    std::vector<int> clusterOf(static_cast<size_t>(tree.size()), -1);
    for (size_t c = 0; c < r.clusters.size(); ++c) {
        QVERIFY(r.clusters[c].module > 0 && r.clusters[c].module < tree.size());
        clusterOf[static_cast<size_t>(r.clusters[c].module)] = static_cast<int>(c);
    }
    for (size_t k = 0; k < r.graph.items.size(); ++k)
        for (int m = r.graph.items[k].cluster; m > 0; m = tree.module(m).parent) {
            const int c = clusterOf[static_cast<size_t>(m)];
            QVERIFY2(c >= 0, ("no frame for the module of " + r.graph.items[k].id).c_str());
            QVERIFY2(r.clusters[static_cast<size_t>(c)].box.contains(r.boxes[k], 0.5),
                     (r.clusters[static_cast<size_t>(c)].label + " holds " + r.graph.items[k].id).c_str());
        }
    QCOMPARE(r.clusters.size(), r.graph.clusters.size());
    checkFrameLinks(r, tree, clusterOf);
}

/// No two boxes overlap; two frames overlap only when one holds the other; a box overlaps a frame
/// only when the frame is its module's (or an ancestor's), and then below its title strip. A sweep
/// over everything sorted by top.
inline void checkNoOverlaps(const core::LayoutResult& r, const core::ModuleTree& tree) {
    struct Entry {
        core::LRect box;
        int item = -1;   // or
        int module = -1; // a frame
    };
    std::vector<Entry> entries;
    for (size_t k = 0; k < r.boxes.size(); ++k) entries.push_back({r.boxes[k], static_cast<int>(k), -1});
    for (const auto& c : r.clusters) entries.push_back({c.box, -1, c.module});
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.box.y < b.box.y; });
    auto name = [&](const Entry& e) { return e.item >= 0 ? r.graph.items[static_cast<size_t>(e.item)].id : tree.module(e.module).label(); };
    constexpr double kSlack = 0.5;
    constexpr double kTitleStrip = 16;
    for (size_t i = 0; i < entries.size(); ++i) {
        const Entry& a = entries[i];
        for (size_t j = i + 1; j < entries.size() && entries[j].box.y < a.box.y + a.box.h - kSlack; ++j) {
            const Entry& b = entries[j];
            const bool overlap = a.box.x + a.box.w > b.box.x + kSlack && b.box.x + b.box.w > a.box.x + kSlack &&
                                 b.box.y + b.box.h > a.box.y + kSlack;
            if (!overlap) continue;
            bool fine = false;
            if (a.item < 0 && b.item < 0) fine = a.box.contains(b.box, kSlack) || b.box.contains(a.box, kSlack);
            else if (a.item < 0 || b.item < 0) {
                const Entry& frame = a.item < 0 ? a : b;
                const Entry& box = a.item < 0 ? b : a;
                fine = tree.isWithin(r.graph.items[static_cast<size_t>(box.item)].cluster, frame.module) &&
                       box.box.y >= frame.box.y + kTitleStrip - kSlack; // the views draw the title there
            }
            QVERIFY2(fine, (name(a) + " overlaps " + name(b)).c_str());
        }
    }
}

} // namespace irlens::testing
