#pragma once
// Lays out a graph with Graphviz `dot` (cgraph + gvc).
//
// Graphviz keeps global state and recurses deeply, so every call takes one process-wide lock and
// runs on a private thread with a 64 MB stack; callers may call from any thread (views call it from
// a worker) and simply block until the layout is done.

#include "core/ir/status.h"
#include "core/layout/layout_result.h"
#include "core/layout/module_tree.h"

#include <atomic>
#include <functional>
#include <string>

namespace irlens::core {

/// How a graph is laid out: one `dot` run over every box (the best drawing, but superlinear: 12k
/// boxes take most of a minute), or per module and composed (core/layout/composed_layout.h).
enum class LayoutMethod { Flat, Composed, Automatic };

/// Automatic lays out graphs of more boxes than this per module; below, flat dot takes well under
/// a second and draws edges across modules more directly.
inline constexpr size_t kComposedLayoutBoxes = 600;

struct LayoutOptions {
    const std::atomic<bool>* cancel = nullptr; // checked before the (uninterruptible) Graphviz run
    LayoutMethod method = LayoutMethod::Automatic;
    /// A composed layout's progress: parts (open modules, windows, the root) placed of all, called on
    /// the layout's thread after each Graphviz run. A flat layout is one run and does not call it.
    std::function<void(int done, int total)> progress;
};

/// Geometry for `graph` as built by buildVisibleGraph.
Result<LayoutPtr> layoutVisibleGraph(VisibleGraph graph, const ModuleTree& tree, const LayoutOptions& options = {});

/// One step: visible graph + layout.
/// Graphviz places edge labels without knowing where a module frame draws its title (the top 18
/// points of its box): a label that would cover a title strip moves just above the frame. Run on every
/// finished layout (full and incremental), on the layout's thread; a sweep over the strips sorted by y.
void keepEdgeLabelsOffTitles(LayoutResult& result);

/// Fills LayoutCluster::parent, LayoutResult::itemFrame and edgeFrame from the module tree the layout
/// was made with. Run on every finished layout (full, composed and incremental).
void linkFrames(LayoutResult& result, const ModuleTree& tree);

Result<LayoutPtr> layoutGraph(const Graph& graph, const GraphSignature* signature, const ModuleTree& tree,
                              const CollapseState& collapse, const LayoutOptions& options = {});

/// Lets Graphviz draw the graph itself, labelled and coloured ("svg", "png", "pdf", "dot"...).
/// Above kComposedLayoutBoxes boxes the geometry is the composed layout's and Graphviz only renders it.
/// Used by `irlens-cli render`, which keeps the command line free of Qt.
Result<std::string> renderGraphviz(const Graph& graph, const GraphSignature* signature, const ModuleTree& tree,
                                   const CollapseState& collapse, const std::string& format);

/// Runs `fn` on a thread with a large stack while holding the Graphviz lock (exposed for tests).
void runGraphvizJob(const std::function<void()>& fn);
/// The same, giving up while still waiting for the lock once `cancel` is set (false: `fn` never ran).
bool runGraphvizJob(const std::function<void()>& fn, const std::atomic<bool>* cancel);

} // namespace irlens::core
