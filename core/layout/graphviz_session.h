#pragma once
// Internal: builds a Graphviz graph from a VisibleGraph and reads the geometry back.
// Only graph_layout.cpp and graphviz_session.cpp see Graphviz types.

#include "core/ir/status.h"
#include "core/layout/layout_result.h"
#include "core/layout/module_tree.h"

#include <string>
#include <vector>

namespace irlens::core::detail {

/// Lays out `result.graph` and fills boxes, edges, clusters and bounds. `decorated` adds labels and
/// colours (for Graphviz's own renderers); then, when `renderFormat` is set, `rendered` receives the output.
Status runDot(LayoutResult& result, const ModuleTree& tree, const Graph* source, bool decorated,
              const std::string& renderFormat, std::string* rendered);

/// Draws an already laid-out result (a composed layout) with Graphviz's renderers, labelled and
/// coloured as runDot's decorated output, every position kept (call under runGraphvizJob).
Status renderLaidOut(const LayoutResult& layout, const ModuleTree& tree, const Graph* source, const std::string& format,
                     std::string* rendered);

/// Places the chips of item `itemIndex` inside its box (fills result.chips[itemIndex], which must exist and be empty).
void placeChips(LayoutResult& result, size_t itemIndex);

/// A small graph laid out on its own by a composed layout (one module's inside, or one window of a
/// long chain): boxes of given sizes, and ports pinned to the first rank (what enters) or the last
/// (what leaves).
struct LocalGraph {
    enum class Role { Box, InPort, OutPort };
    struct Node {
        double w = 0;
        double h = 0;
        Role role = Role::Box;
    };
    struct Edge {
        int from = -1;
        int to = -1;
        bool arrow = true; // false: the line runs on into a module or a port, the arrowhead comes later
        bool fromBottom = false; // leaves its tail at the bottom centre (a module, whose port is there)
        bool toTop = false;      // enters its head at the top centre
    };
    std::vector<Node> nodes;
    std::vector<Edge> edges;
};

/// Its geometry: y down, origin at the top-left of the drawing's bounding box.
struct LocalGeometry {
    double w = 0;
    double h = 0;
    std::vector<LRect> nodes;       // per LocalGraph node, of the size asked for
    std::vector<LayoutEdge> edges;  // per LocalGraph edge; no points when dot left it unrouted
};

/// Lays out one local graph (call under runGraphvizJob).
Status runLocalDot(const LocalGraph& graph, LocalGeometry& out);

/// Where an edge's label goes: the middle of its spline.
LPoint splineMidpoint(const std::vector<LPoint>& points);

} // namespace irlens::core::detail
