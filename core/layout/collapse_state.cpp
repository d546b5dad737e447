#include "core/layout/collapse_state.h"

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

} // namespace irlens::core
