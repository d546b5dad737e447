#pragma once
// Which module groups are open. The root is always open; a node is visible when every module on its
// stack is expanded, otherwise it is folded into the outermost collapsed module's box.

#include "core/layout/module_tree.h"

#include <optional>
#include <set>
#include <string>

namespace irlens::core {

/// Programs above this many nodes open collapsed to their top-level modules.
inline constexpr int kAutoCollapseNodes = 1500;

class CollapseState {
public:
    /// Everything expanded (the flat graph, grouped in clusters).
    static CollapseState allExpanded(const ModuleTree& tree);
    /// Only the root open: top-level modules are boxes.
    static CollapseState topLevel();
    /// allExpanded for small graphs, topLevel above kAutoCollapseNodes nodes.
    static CollapseState automatic(const ModuleTree& tree, int nodeCount);

    bool isExpanded(int module) const { return module == 0 || m_expanded.count(module) > 0; }
    void setExpanded(int module, bool expanded);
    void toggle(int module) { setExpanded(module, !isExpanded(module)); }
    const std::set<int>& expanded() const { return m_expanded; }
    /// A stable text key for caches ("3,7,12").
    std::string key() const;
    bool operator==(const CollapseState&) const = default;

private:
    std::set<int> m_expanded; // module indices (the root is implicit)
};

/// Boxes a state draws, counted from the tree alone: in each open module (expanded, ancestors too),
/// its own nodes plus its collapsed child modules. Folds and graph inputs are not counted.
int estimatedBoxes(const CollapseState& state, const ModuleTree& tree);

/// A coarser state to show while `target` is laid out: `target` cut to its modules of depth <= D,
/// for the deepest D that draws at most `maxBoxes` boxes and at most half of what `target` draws;
/// nullopt when no depth does.
std::optional<CollapseState> previewOf(const CollapseState& target, const ModuleTree& tree, int maxBoxes);

} // namespace irlens::core
