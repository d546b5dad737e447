#include "core/layout/module_tree.h"

#include <algorithm>

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

std::string ModuleInfo::label() const {
    return call > 1 ? path + " #" + std::to_string(call) : path;
}

ModuleTree ModuleTree::build(const Graph& graph) {
    ModuleTree t;
    ModuleInfo root;
    t.m_modules.push_back(root);
    t.m_byPath.emplace("", 0);
    t.m_nodeModule.assign(graph.nodes.size(), 0);
    std::unordered_map<std::string, int> latest; // path -> its most recent call
    std::vector<int> previousChain;              // module calls open at the previous node
    const std::vector<ModuleStackEntry>* previousStack = nullptr;
    for (size_t n = 0; n < graph.nodes.size(); ++n) {
        const auto& stack = graph.nodes[n].meta.moduleStack;
        // the same (shared) stack as the node before: the same module calls continue
        if (n > 0 && stack && stack.get() == previousStack) {
            const int current = t.m_nodeModule[n - 1];
            t.m_nodeModule[n] = current;
            t.m_modules[static_cast<size_t>(current)].nodes.push_back(static_cast<int>(n));
            continue;
        }
        previousStack = stack.get();
        int current = 0;
        std::vector<int> chain;
        if (stack) {
            for (const auto& entry : *stack) {
                if (entry.path.empty()) {
                    if (t.m_modules[0].type.empty()) t.m_modules[0].type = entry.type;
                    continue;
                }
                if (chain.size() >= 256) break; // bounded nesting
                auto it = latest.find(entry.path);
                int idx = -1;
                if (it != latest.end()) {
                    const int prev = it->second;
                    const bool open = std::find(previousChain.begin(), previousChain.end(), prev) != previousChain.end();
                    // the same call continues while the previous node was inside it, under the same parent
                    if (open && t.m_modules[static_cast<size_t>(prev)].parent == current) idx = prev;
                    // guard against cycles from hostile stacks: never descend into an ancestor
                    if (idx < 0 && t.isWithin(current, prev)) continue;
                }
                if (idx < 0) {
                    idx = static_cast<int>(t.m_modules.size());
                    ModuleInfo m;
                    m.path = entry.path;
                    m.type = entry.type;
                    m.parent = current;
                    m.depth = t.m_modules[static_cast<size_t>(current)].depth + 1;
                    if (it != latest.end()) m.call = t.m_modules[static_cast<size_t>(it->second)].call + 1;
                    t.m_modules.push_back(std::move(m));
                    t.m_modules[static_cast<size_t>(current)].children.push_back(idx);
                    t.m_byPath.emplace(entry.path, idx); // keeps the first call
                    latest[entry.path] = idx;
                }
                current = idx;
                chain.push_back(idx);
            }
        }
        previousChain = std::move(chain);
        t.m_nodeModule[n] = current;
        t.m_modules[static_cast<size_t>(current)].nodes.push_back(static_cast<int>(n));
    }
    for (size_t n = 0; n < t.m_nodeModule.size(); ++n)
        for (int m = t.m_nodeModule[n]; m >= 0; m = t.m_modules[static_cast<size_t>(m)].parent)
            ++t.m_modules[static_cast<size_t>(m)].totalNodes;
    return t;
}

std::string ModuleTree::nameInParent(int module) const {
    const ModuleInfo& mod = this->module(module);
    if (mod.parent <= 0) return mod.path.empty() ? mod.shortName() : mod.label();
    const std::string& parent = this->module(mod.parent).path;
    std::string name = mod.path.size() > parent.size() + 1 && mod.path.compare(0, parent.size(), parent) == 0 &&
                               mod.path[parent.size()] == '.'
                           ? mod.path.substr(parent.size() + 1)
                           : mod.path;
    return mod.call > 1 ? name + " #" + std::to_string(mod.call) : name;
}

int ModuleTree::counterpart(int module, int fromRoot, int toRoot) const {
    if (module < 0 || module >= size() || fromRoot <= 0 || toRoot <= 0 || fromRoot >= size() || toRoot >= size() ||
        !isWithin(module, fromRoot))
        return -1;
    if (module == fromRoot) return toRoot;
    const ModuleInfo& mod = this->module(module);
    const std::string& from = this->module(fromRoot).path;
    if (mod.path.compare(0, from.size(), from) != 0) return -1; // a hostile stack: nested, but not by path
    const std::string path = this->module(toRoot).path + mod.path.substr(from.size());
    // a path's later calls come after its first
    for (int m = find(path); m >= 0 && m < size(); ++m) {
        const ModuleInfo& other = m_modules[static_cast<size_t>(m)];
        if (other.path == path && other.call == mod.call) return isWithin(m, toRoot) ? m : -1;
    }
    return -1;
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
