#pragma once
// Layout that stays put between decomposition steps. A step replaces a few nodes by others; a full
// `dot` run would reshuffle the whole drawing and the user loses their place. Instead every box that
// survived the step keeps its position, each replacement is laid out on its own (dot on just the new
// boxes) and put where the replaced boxes were, the drawing below is pushed down by the extra height
// (and boxes beside it aside by the extra width), and only the edges touching new boxes are re-routed.
//
// When the change is too big or too tangled to place locally, the call fails with the reason and the
// caller lays out in full (also what a "Relayout" asks for).

#include "core/ir/status.h"
#include "core/layout/layout_result.h"
#include "core/layout/module_tree.h"

#include <atomic>
#include <map>
#include <string>
#include <vector>

namespace irlens::core {

/// One step's node replacements: old node name -> the nodes that now stand in its place.
using NodeReplacementMap = std::map<std::string, std::vector<std::string>>;

struct IncrementalLayoutOptions {
    const std::atomic<bool>* cancel = nullptr;
    /// After this many incremental layouts in a row the drawing is laid out in full again.
    int maxSteps = 16;
    /// More boxes replaced than this share of the drawing: lay out in full.
    double maxChangedShare = 0.3;
    /// Gap kept between a placed replacement and the boxes pushed aside (dot's nodesep, 0.25 in).
    double gap = 18.0;
};

/// Lays out `next` (the visible graph after the step, built with `tree`) reusing `previous`.
/// `replaced` links removed boxes to the boxes replacing them (by node name / item id); boxes that are
/// new but not in the map join the replacement they are connected to.
Result<LayoutPtr> layoutIncremental(const LayoutResult& previous, VisibleGraph next, const ModuleTree& tree,
                                    const NodeReplacementMap& replaced, const IncrementalLayoutOptions& options = {});

/// The replacements between two versions of a graph read from the nodes' `derivedFrom`: a node of
/// `after` derived from a node only in `before` replaces it (a step); a node of `before` derived from a
/// node only in `after` was replaced by it (an undo, read backwards). Empty when nothing links them.
NodeReplacementMap replacementsBetween(const Graph& before, const Graph& after);

} // namespace irlens::core
