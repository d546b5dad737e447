#pragma once
// Internal: builds a Graphviz graph from a VisibleGraph and reads the geometry back.
// Only graph_layout.cpp and graphviz_session.cpp see Graphviz types.

#include "core/ir/status.h"
#include "core/layout/layout_result.h"
#include "core/layout/module_tree.h"

#include <string>

namespace irlens::core::detail {

/// Lays out `result.graph` and fills boxes, edges, clusters and bounds. `decorated` adds labels and
/// colours (for Graphviz's own renderers); then, when `renderFormat` is set, `rendered` receives the output.
Status runDot(LayoutResult& result, const ModuleTree& tree, const Graph* source, bool decorated,
              const std::string& renderFormat, std::string* rendered);

/// Places the chips of item `itemIndex` inside its box (fills result.chips[itemIndex], which must exist and be empty).
void placeChips(LayoutResult& result, size_t itemIndex);

} // namespace irlens::core::detail
