#pragma once
// The module hierarchy of a graph, rebuilt from each node's nn_module_stack.

#include "core/ir/program.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace irlens::core {

/// One call of an nn.Module seen in the stacks. Index 0 is always the root (path "").
/// A module called twice (resnet's `relu` in BasicBlock) gets one entry per call: its nodes are
/// not contiguous, and one group for both would force `dot` to fold edges back up the drawing.
struct ModuleInfo {
    std::string path;             // FQN, "" for the root
    int call = 1;                 // 1 for the first call of this path, 2 for the second, ...
    std::string type;             // class qualified name ("torch.nn.modules.conv.Conv2d")
    int parent = -1;
    int depth = 0;                // root 0, top-level modules 1
    std::vector<int> children;    // in order of first appearance
    std::vector<int> nodes;       // graph node indices whose innermost module is this one
    int totalNodes = 0;           // nodes here and in every descendant

    /// Last path component ("conv1" for "layer1.0.conv1"), "(root)" for the root.
    std::string shortName() const;
    /// Class name without its module path ("Conv2d").
    std::string shortType() const;
    /// "layer1.0.relu", or "layer1.0.relu #2" for a second call.
    std::string label() const;
};

class ModuleTree {
public:
    /// Builds the tree of `graph` (top-level nodes only; HOP subgraphs get their own tree).
    static ModuleTree build(const Graph& graph);

    const std::vector<ModuleInfo>& modules() const { return m_modules; }
    const ModuleInfo& module(int index) const { return m_modules[static_cast<size_t>(index)]; }
    int size() const { return static_cast<int>(m_modules.size()); }
    /// The index of a module's first call by FQN, -1 if absent.
    int find(const std::string& path) const;
    /// The innermost module of a node (0 = root when the node has no stack).
    int moduleOfNode(int nodeIndex) const;
    /// Module indices from the top-level module down to the node's innermost module (root excluded).
    std::vector<int> chainOfNode(int nodeIndex) const;
    /// True when `ancestor` is `module` or one of its ancestors.
    bool isWithin(int module, int ancestor) const;
    /// A module's name below its parent: its path without the parent's ("conv1" in layer1.0,
    /// "layers.57" at the top, where no ModuleList is called to stand between), " #2" for a second call.
    std::string nameInParent(int module) const;
    /// The module at the same place below `toRoot` as `module` is below `fromRoot` (the attention of
    /// layers.57 for that of layers.0: the same path after the roots' paths, the same call); -1 when
    /// `module` is not within `fromRoot` or `toRoot` has none there.
    int counterpart(int module, int fromRoot, int toRoot) const;

private:
    std::vector<ModuleInfo> m_modules;
    std::vector<int> m_nodeModule;
    std::unordered_map<std::string, int> m_byPath;
};

} // namespace irlens::core
