#pragma once
// Plain geometry of a laid-out graph (points, y down, origin at the top-left of the drawing).
// Views turn it into scene items; the CLI into SVG. No Graphviz or Qt type leaks out.

#include "core/layout/visible_graph.h"

#include <memory>
#include <string>
#include <vector>

namespace irlens::core {

struct LPoint {
    double x = 0;
    double y = 0;
};

struct LRect {
    double x = 0;
    double y = 0;
    double w = 0;
    double h = 0;
    bool contains(LPoint p, double slack = 0) const {
        return p.x >= x - slack && p.x <= x + w + slack && p.y >= y - slack && p.y <= y + h + slack;
    }
    bool contains(const LRect& r, double slack = 0) const {
        return r.x >= x - slack && r.y >= y - slack && r.x + r.w <= x + w + slack && r.y + r.h <= y + h + slack;
    }
    LPoint center() const { return {x + w / 2, y + h / 2}; }
};

struct LayoutEdge {
    int edge = -1;               // index into VisibleGraph::edges
    std::vector<LPoint> points;  // cubic Bézier: p0, c1, c2, p1, c1, c2, p2, ... (3n+1 points)
    bool arrow = false;
    LPoint arrowTip;             // on the target's border; the arrowhead spans points.back() -> arrowTip
    LPoint labelPos;             // where the edge label goes (spline midpoint)
};

struct LayoutCluster {
    int module = -1;             // ModuleTree index
    LRect box;
    std::string label;           // "layer1.0 · BasicBlock"
    int depth = 0;
    int parent = -1;             // the enclosing cluster (index into clusters), -1 at the top (linkFrames)
};

struct ChipBox {
    int chip = -1;               // index into the item's chips
    LRect box;
};

struct LayoutResult {
    VisibleGraph graph;               // what was laid out
    std::vector<LRect> boxes;         // one per graph.items
    std::vector<std::vector<ChipBox>> chips; // per item
    std::vector<LayoutEdge> edges;    // one per graph.edges
    std::vector<LayoutCluster> clusters;
    LRect bounds;
    double seconds = 0;               // time spent laying out (a flat layout: in Graphviz; a composed one: all of it)
    // Set by layoutIncremental (core/layout/incremental_layout.h); a full layout leaves them empty.
    int incrementalSteps = 0;         // incremental layouts since the last full one
    std::vector<LRect> touchedRegions; // where replacement boxes were placed, in this layout's coordinates
    // Which frame holds what (linkFrames, on every finished layout): per item the innermost cluster
    // holding it, per edge the innermost cluster holding both its ends; -1 for the top level. A view
    // nests items in their frames so that it can skip a frame's contents as a whole.
    std::vector<int> itemFrame;
    std::vector<int> edgeFrame;
};

using LayoutPtr = std::shared_ptr<const LayoutResult>;

} // namespace irlens::core
