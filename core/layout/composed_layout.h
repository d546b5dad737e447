#pragma once
// Layout of big graphs by parts. One `dot` run over every visible box grows faster than linearly
// (12k nodes: 48 s, 640 MB); a module's inside is tens to hundreds of boxes. So each open module is
// laid out on its own, its open child modules standing in as single boxes of the size of their own
// layout, and the parts are put together top-down: a child's geometry translated into the box its
// parent reserved for it. An edge that crosses module borders leaves its module through a port on
// the module's last rank (enters through one on the first), runs in the parent like any edge, and
// the pieces are joined into one spline. Parts with the same content (the identical layers of a
// decoder) are laid out once and share their geometry. A part with too many boxes directly inside
// (a long chain without modules) is cut into windows of consecutive boxes, laid out like modules
// but drawn without a frame, so no single dot run is large.
//
// The result is the same LayoutResult as a flat layout (boxes, module frames, edge splines, label
// positions): views draw it unchanged.

#include "core/ir/status.h"
#include "core/layout/layout_result.h"
#include "core/layout/module_tree.h"

#include <atomic>
#include <functional>

namespace irlens::core {

struct ComposedLayoutOptions {
    const std::atomic<bool>* cancel = nullptr;
    /// A part with more boxes than this directly inside is cut into windows.
    int maxPartBoxes = 160;
    /// Boxes per window.
    int windowBoxes = 80;
    /// Parts placed of all, after each Graphviz run (on the layout's thread).
    std::function<void(int done, int total)> progress;
};

/// What a composed layout did (for benchmarks and tests).
struct ComposedLayoutStats {
    int parts = 0;          // open modules, windows and the root
    int distinctParts = 0;  // geometries made (by dot, or directly for a module of one box); the other parts reuse one
    double dotSeconds = 0;  // in Graphviz
};

Result<LayoutPtr> layoutComposed(VisibleGraph graph, const ModuleTree& tree, const ComposedLayoutOptions& options = {},
                                 ComposedLayoutStats* stats = nullptr);

} // namespace irlens::core
