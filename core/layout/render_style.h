#pragma once
// How a headless drawing labels and colours a box (Graphviz's renderers and the SVG writer alike),
// so that a graph drawn whole by dot and one laid out per module look the same.

#include "core/ir/graph.h"
#include "core/layout/visible_graph.h"

#include <string>

namespace irlens::core::detail {

/// The text of an item's box, one line each: title, subtitle, and the chips in brackets.
std::string itemLabel(const VisibleItem& item);

/// The fill of an item's box as "#rrggbb": inputs green, the output red, collapsed modules grey, ops
/// in their family's colour (`source` is the graph the items were built from; null: plain grey).
std::string itemFill(const VisibleItem& item, const Graph* source);

} // namespace irlens::core::detail
