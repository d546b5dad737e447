#pragma once
// Repeated blocks: structurally identical sibling modules (the 32 decoder layers of a Llama, the
// blocks of a ResNet stage, every other block of a stack that alternates attention and MLP blocks).
// A view draws a run of them once with a ×N badge; every instance stays addressable through the node
// maps below (an instance's node <-> the node drawn for it).
//
// Two modules are identical when their subtrees hold the same ops in the same order, wired the same
// way inside, with the same output shapes and dtypes, the same non-tensor arguments and the same
// parameter shapes; the names of nodes, values and parameters do not count.

#include "core/ir/program.h"
#include "core/layout/module_tree.h"

#include <cstdint>
#include <vector>

namespace irlens::core {

/// Identical siblings (two or more).
struct ModuleFold {
    std::vector<int> instances;         // ModuleTree indices in graph order; instances.front() is drawn
    bool consecutive = false;           // nothing else between them: one box with ×N can stand for all
    std::vector<std::vector<int>> nodes; // per instance, the graph nodes of its subtree in graph order
    uint64_t signature = 0;
    int depth = 0;                      // the instances' depth in the module tree

    int representative() const { return instances.front(); }
    /// Whether a view draws this group once: its instances follow each other and there are at least `minRun`.
    bool drawnOnce(int minRun) const { return consecutive && count() >= minRun; }
    int count() const { return static_cast<int>(instances.size()); }
};

class ModuleFolds {
public:
    /// Signatures of the modules that have a sibling of their size, and the groups of identical siblings.
    /// `signature` may be null (every graph input then counts as an outside value). O(nodes × module depth).
    static ModuleFolds detect(const Graph& graph, const GraphSignature* signature, const ModuleTree& tree);

    /// Outer groups first (by depth), then in graph order.
    const std::vector<ModuleFold>& folds() const { return m_folds; }
    /// The structural signature of a module: equal signatures, identical subtrees. 0 for the root and
    /// for a module no sibling could match (none has as many nodes below it): it is not compared.
    uint64_t signatureOf(int module) const;
    /// The group a module is an instance of (-1: none), and its place in that group.
    int foldOfModule(int module) const;
    int instanceOfModule(int module) const;

    /// Where a node sits in the outermost group that holds it: the group (-1: none), the instance and the
    /// node's position inside the instance's subtree.
    struct Place {
        int fold = -1;
        int instance = -1;
        int position = -1;
    };
    Place placeOfNode(int node) const;
    /// The node drawn for `node`: the node at the same place in the group's first instance (`node`
    /// itself when it lies in no group, or in the first instance).
    int representativeNode(int node) const;
    /// The node of instance `instance` of group `fold` at the place of `node` (any instance's node); -1
    /// when `node` is not in that group or the indices are out of range.
    int instanceNode(int fold, int instance, int node) const;

private:
    void indexInstances(std::vector<std::vector<int>> subtree, size_t nodeCount);

    std::vector<uint64_t> m_signature;  // per module
    std::vector<int> m_foldOfModule;    // per module
    std::vector<int> m_instanceOfModule;
    std::vector<Place> m_place;         // per node
    std::vector<ModuleFold> m_folds;
};

} // namespace irlens::core
