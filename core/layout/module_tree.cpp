#include "core/layout/module_tree.h"

namespace irlens::core {

std::string ModuleInfo::shortName() const {
    if (path.empty()) return "(root)";
    auto dot = path.rfind('.');
    return dot == std::string::npos ? path : path.substr(dot + 1);
}

std::string ModuleInfo::shortType() const {
    auto dot = type.rfind('.');
    return dot == std::string::npos ? type : type.substr(dot + 1);
}

ModuleTree ModuleTree::build(const Graph& graph) {
    ModuleTree t;
    ModuleInfo root;
    t.m_modules.push_back(root);
    t.m_byPath.emplace("", 0);
    t.m_nodeModule.assign(graph.nodes.size(), 0);
    for (size_t n = 0; n < graph.nodes.size(); ++n) {
        const auto& stack = graph.nodes[n].meta.moduleStack;
        int current = 0;
        if (stack) {
            for (const auto& entry : *stack) {
                if (entry.path.empty()) {
                    if (t.m_modules[0].type.empty()) t.m_modules[0].type = entry.type;
                    continue;
                }
                auto it = t.m_byPath.find(entry.path);
                int idx;
                if (it == t.m_byPath.end()) {
                    // A module is first met under its parent in the stack; later stacks agree in
                    // programs torch writes, so the first parent wins.
                    idx = static_cast<int>(t.m_modules.size());
                    ModuleInfo m;
                    m.path = entry.path;
                    m.type = entry.type;
                    m.parent = current;
                    m.depth = t.m_modules[static_cast<size_t>(current)].depth + 1;
                    t.m_modules.push_back(std::move(m));
                    t.m_modules[static_cast<size_t>(current)].children.push_back(idx);
                    t.m_byPath.emplace(entry.path, idx);
                } else {
                    idx = it->second;
                    // a module reached again through a different parent keeps its first parent;
                    // guard against cycles from hostile stacks by never descending into an ancestor
                    if (t.isWithin(current, idx)) continue;
                }
                current = idx;
            }
        }
        t.m_nodeModule[n] = current;
        t.m_modules[static_cast<size_t>(current)].nodes.push_back(static_cast<int>(n));
    }
    for (size_t n = 0; n < t.m_nodeModule.size(); ++n)
        for (int m = t.m_nodeModule[n]; m >= 0; m = t.m_modules[static_cast<size_t>(m)].parent)
            ++t.m_modules[static_cast<size_t>(m)].totalNodes;
    return t;
}

int ModuleTree::find(const std::string& path) const {
    auto it = m_byPath.find(path);
    return it == m_byPath.end() ? -1 : it->second;
}

int ModuleTree::moduleOfNode(int nodeIndex) const {
    if (nodeIndex < 0 || static_cast<size_t>(nodeIndex) >= m_nodeModule.size()) return 0;
    return m_nodeModule[static_cast<size_t>(nodeIndex)];
}

std::vector<int> ModuleTree::chainOfNode(int nodeIndex) const {
    std::vector<int> chain;
    for (int m = moduleOfNode(nodeIndex); m > 0; m = m_modules[static_cast<size_t>(m)].parent) chain.push_back(m);
    return {chain.rbegin(), chain.rend()};
}

bool ModuleTree::isWithin(int module, int ancestor) const {
    for (int m = module; m >= 0; m = m_modules[static_cast<size_t>(m)].parent)
        if (m == ancestor) return true;
    return false;
}

} // namespace irlens::core
