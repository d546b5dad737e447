#pragma once
// An SVG of a laid-out graph drawn from its geometry alone, without Graphviz. Graphviz's own SVG
// renderer measures every label with Pango and prints every number through printf: for a composed
// layout of 100,000 boxes that takes most of a minute and a gigabyte. This writer is linear, writes
// each box, frame and edge where the layout put it, labelled and coloured as Graphviz's decorated
// output (render_style.h), with the edge labels where the views draw them.

#include "core/ir/graph.h"
#include "core/layout/layout_result.h"

#include <string>

namespace irlens::core {

/// The drawing as an SVG document (points, y down). `source` is the graph the layout's items were
/// built from (op boxes take their family's colour); null draws every op box grey.
std::string writeLayoutSvg(const LayoutResult& layout, const Graph* source);

} // namespace irlens::core
