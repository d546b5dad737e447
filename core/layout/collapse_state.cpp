#include "core/layout/collapse_state.h"

#include <algorithm>
#include <vector>

namespace irlens::core {

CollapseState CollapseState::allExpanded(const ModuleTree& tree) {
    CollapseState s;
    for (int m = 1; m < tree.size(); ++m) s.m_expanded.insert(m);
    return s;
}

CollapseState CollapseState::topLevel() { return {}; }

CollapseState CollapseState::automatic(const ModuleTree& tree, int nodeCount) {
    return nodeCount > kAutoCollapseNodes ? topLevel() : allExpanded(tree);
}

void CollapseState::setExpanded(int module, bool expanded) {
    if (module <= 0) return;
    if (expanded)
        m_expanded.insert(module);
    else
        m_expanded.erase(module);
}

std::string CollapseState::key() const {
    std::string k;
    for (int m : m_expanded) {
        if (!k.empty()) k += ',';
        k += std::to_string(m);
    }
    return k;
}

namespace {

CollapseState cutToDepth(const CollapseState& state, const ModuleTree& tree, int depth) {
    CollapseState cut;
    for (int m : state.expanded())
        if (m < tree.size() && tree.module(m).depth <= depth) cut.setExpanded(m, true);
    return cut;
}

} // namespace

int estimatedBoxes(const CollapseState& state, const ModuleTree& tree) {
    // from the root down through expanded modules only: a module under a collapsed one is not visited
    int boxes = 0;
    std::vector<int> open{0};
    while (!open.empty()) {
        const ModuleInfo& info = tree.module(open.back());
        open.pop_back();
        boxes += static_cast<int>(info.nodes.size());
        for (int c : info.children) {
            if (state.isExpanded(c)) open.push_back(c);
            else ++boxes;
        }
    }
    return boxes;
}

std::optional<CollapseState> previewOf(const CollapseState& target, const ModuleTree& tree, int maxBoxes) {
    int deepest = 0;
    for (int m : target.expanded())
        if (m < tree.size()) deepest = std::max(deepest, tree.module(m).depth);
    const int all = estimatedBoxes(target, tree);
    for (int depth = deepest - 1; depth >= 1; --depth) {
        CollapseState cut = cutToDepth(target, tree, depth);
        const int boxes = estimatedBoxes(cut, tree);
        if (boxes <= maxBoxes && 2 * boxes <= all) return cut; // at most half: cheap beside the full one
    }
    return std::nullopt;
}

} // namespace irlens::core
