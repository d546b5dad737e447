#include "core/layout/module_fold.h"

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>

namespace irlens::core {
namespace {

/// Writes a module subtree as text that names no node, value or parameter: two subtrees with the
/// same text are the same computation. Hashing the text (not comparing it) keeps memory flat.
class SignatureWriter {
public:
    SignatureWriter(const Graph& graph, const ModuleTree& tree, const std::unordered_map<std::string, std::string>& state)
        : m_graph(graph), m_tree(tree), m_state(state), m_step(static_cast<size_t>(tree.size())),
          m_outputs(graph.nodes.size()) {
        // a module's place among its siblings, written once per module: searching the parent's list
        // for each node is quadratic under a Sequential of thousands of blocks
        for (const auto& m : tree.modules())
            for (size_t k = 0; k < m.children.size(); ++k) {
                const int c = m.children[k];
                m_step[static_cast<size_t>(c)] = std::to_string(k) + ':' + tree.module(c).shortType() + '/';
            }
    }

    uint64_t write(int module, const std::vector<int>& subtree) {
        m_text.clear();
        // fresh maps (move-assigned; `= {}` and clear() keep the buckets): the buckets of the largest
        // module so far (100k after a big Sequential) would be zeroed again for every later small one
        m_position = ValueIndex();
        m_outside = ValueIndex();
        m_module = module;
        m_text += m_tree.module(module).type;
        for (size_t k = 0; k < subtree.size(); ++k) {
            const Node& node = m_graph.nodes[static_cast<size_t>(subtree[k])];
            m_text += "\n";
            writePlace(subtree[k]);
            m_text += node.target.full;
            for (const auto& in : node.inputs) {
                m_text += ' ';
                m_text += in.name;
                m_text += '=';
                writeArg(in.arg);
            }
            m_text += " ->";
            const NodeOutputs& outputs = outputsOf(subtree[k]);
            m_text += outputs.metas;
            for (const auto& out : outputs.names) m_position.try_emplace(out, static_cast<int>(k));
        }
        return std::hash<std::string>{}(m_text);
    }

private:
    /// A node's outputs and their shapes as text: the same in every module that holds the node, so
    /// written once (a node is in as many subtrees as it has enclosing modules).
    struct NodeOutputs {
        std::vector<std::string> names;
        std::string metas;
        bool done = false;
    };

    const NodeOutputs& outputsOf(int node) {
        NodeOutputs& o = m_outputs[static_cast<size_t>(node)];
        if (o.done) return o;
        o.names = m_graph.nodes[static_cast<size_t>(node)].outputNames();
        for (const auto& out : o.names) {
            const TensorMeta* meta = m_graph.tensorMeta(out);
            o.metas += meta ? meta->shortString() : std::string("?");
            o.metas += ';';
        }
        o.done = true;
        return o;
    }

    /// Where the node sits below the module: the ordinal and type of each module call on the way,
    /// so that two blocks whose sub-modules split the same ops differently do not match.
    void writePlace(int node) {
        m_chain.clear();
        for (int m = m_tree.moduleOfNode(node); m != m_module && m > 0; m = m_tree.module(m).parent) m_chain.push_back(m);
        for (auto it = m_chain.rbegin(); it != m_chain.rend(); ++it) m_text += m_step[static_cast<size_t>(*it)];
        m_text += ' ';
    }


    /// A value read: inside the subtree by the producer's position, a parameter or buffer by its
    /// shape, anything else from outside by its order of first use.
    void writeValue(const std::string& value) {
        if (auto p = m_position.find(value); p != m_position.end()) {
            m_text += '#';
            m_text += std::to_string(p->second);
            return;
        }
        if (auto s = m_state.find(value); s != m_state.end()) {
            m_text += 'P';
            m_text += s->second; // the parameter's shape, never its name
            return;
        }
        auto [it, fresh] = m_outside.try_emplace(value, static_cast<int>(m_outside.size()));
        m_text += 'E';
        m_text += std::to_string(it->second);
    }

    void writeArg(const Argument& a) {
        const bool byName = a.kind == ArgKind::Tensor || a.kind == ArgKind::OptionalTensor ||
                            ((a.kind == ArgKind::SymInt || a.kind == ArgKind::SymBool || a.kind == ArgKind::SymFloat) && a.isName);
        if (byName) {
            if (a.s.empty()) m_text += "None";
            else writeValue(a.s);
            return;
        }
        m_text += std::to_string(static_cast<int>(a.kind));
        if (a.kind == ArgKind::Graph) return; // a subgraph is named after its owner; its body is not compared
        if (!a.list.empty()) {
            m_text += '[';
            for (const auto& e : a.list) {
                writeArg(e);
                m_text += ',';
            }
            m_text += ']';
            return;
        }
        m_text += '(' + std::to_string(a.i) + ',' + std::to_string(a.f) + ',' + std::to_string(a.b) + ',' + a.s + ',' + a.key() + ')';
    }

    const Graph& m_graph;
    const ModuleTree& m_tree;
    const std::unordered_map<std::string, std::string>& m_state;
    std::vector<std::string> m_step; // per module: "ordinal:ShortType/", its step in a node's place
    std::vector<int> m_chain;        // writePlace's modules, reused
    std::vector<NodeOutputs> m_outputs;
    int m_module = 0;
    std::string m_text;
    using ValueIndex = std::unordered_map<std::string_view, int>; // keys view names held by the graph and m_outputs
    ValueIndex m_position;
    ValueIndex m_outside;
};

/// Per module, the nodes of its subtree in graph order (the root's list stays empty: it has no
/// siblings to fold with).
std::vector<std::vector<int>> subtreeNodes(const Graph& graph, const ModuleTree& tree) {
    std::vector<std::vector<int>> out(static_cast<size_t>(tree.size()));
    for (size_t n = 0; n < graph.nodes.size(); ++n)
        for (int m = tree.moduleOfNode(static_cast<int>(n)); m > 0; m = tree.module(m).parent)
            out[static_cast<size_t>(m)].push_back(static_cast<int>(n));
    return out;
}

/// The modules that have a sibling of the same subtree size: only those can be identical to one, so
/// only their signatures are written (a Sequential holding every node of the program has none, and
/// writing it would cost as much as all its blocks together).
std::vector<bool> comparedModules(const ModuleTree& tree, const std::vector<std::vector<int>>& subtree) {
    std::vector<bool> compared(subtree.size(), false);
    std::unordered_map<size_t, int> firstOfSize;
    for (const auto& parent : tree.modules()) {
        firstOfSize.clear();
        for (int c : parent.children) {
            const size_t size = subtree[static_cast<size_t>(c)].size();
            if (size == 0) continue;
            auto [it, fresh] = firstOfSize.try_emplace(size, c);
            if (fresh) continue;
            compared[static_cast<size_t>(it->second)] = true;
            compared[static_cast<size_t>(c)] = true;
        }
    }
    return compared;
}

/// Parameters, buffers and constants by value name, with their shape as text.
std::unordered_map<std::string, std::string> stateValues(const Graph& graph, const GraphSignature* signature) {
    std::unordered_map<std::string, std::string> state;
    if (!signature) return state;
    for (const auto& spec : signature->inputSpecs) {
        if (spec.kind == InputKind::UserInput) continue;
        std::vector<std::string> names;
        spec.arg.collectValueNames(names);
        for (const auto& n : names) {
            const TensorMeta* meta = graph.tensorMeta(n);
            state.emplace(n, (meta ? meta->shortString() : std::string("?")) + ';');
        }
    }
    return state;
}

/// The children of `parent` grouped by signature (and size: a cheap guard against a hash
/// collision), groups of two or more in order of first appearance.
void groupIdenticalChildren(const ModuleTree& tree, int parent, const std::vector<uint64_t>& signatures,
                            const std::vector<std::vector<int>>& subtree, std::vector<ModuleFold>& out) {
    const auto& children = tree.module(parent).children;
    std::map<std::pair<uint64_t, size_t>, std::vector<int>> groups;
    std::vector<std::pair<uint64_t, size_t>> order; // keys by first appearance
    for (int c : children) {
        if (subtree[static_cast<size_t>(c)].empty()) continue;
        const auto key = std::make_pair(signatures[static_cast<size_t>(c)], subtree[static_cast<size_t>(c)].size());
        auto& group = groups[key];
        if (group.empty()) order.push_back(key);
        group.push_back(c);
    }
    for (const auto& key : order) {
        auto& group = groups[key];
        if (group.size() < 2) continue;
        ModuleFold fold;
        fold.signature = key.first;
        fold.depth = tree.module(group.front()).depth;
        fold.consecutive = std::search(children.begin(), children.end(), group.begin(), group.end()) != children.end();
        fold.instances = std::move(group);
        out.push_back(std::move(fold));
    }
}

} // namespace

ModuleFolds ModuleFolds::detect(const Graph& graph, const GraphSignature* signature, const ModuleTree& tree) {
    ModuleFolds f;
    const size_t modules = static_cast<size_t>(tree.size());
    f.m_signature.assign(modules, 0);
    auto subtree = subtreeNodes(graph, tree);
    const auto state = stateValues(graph, signature);
    SignatureWriter writer(graph, tree, state);
    const std::vector<bool> compared = comparedModules(tree, subtree);
    for (size_t m = 1; m < modules; ++m)
        if (compared[m]) f.m_signature[m] = writer.write(static_cast<int>(m), subtree[m]);
    for (int parent = 0; parent < tree.size(); ++parent) groupIdenticalChildren(tree, parent, f.m_signature, subtree, f.m_folds);
    std::stable_sort(f.m_folds.begin(), f.m_folds.end(), [&](const ModuleFold& x, const ModuleFold& y) {
        if (x.depth != y.depth) return x.depth < y.depth;
        return subtree[static_cast<size_t>(x.representative())].front() < subtree[static_cast<size_t>(y.representative())].front();
    });
    f.indexInstances(std::move(subtree), graph.nodes.size());
    return f;
}

/// Every instance's module and nodes, indexed; a node belongs to the outermost group that holds it
/// (the groups are sorted outer first).
void ModuleFolds::indexInstances(std::vector<std::vector<int>> subtree, size_t nodeCount) {
    m_foldOfModule.assign(m_signature.size(), -1);
    m_instanceOfModule.assign(m_signature.size(), -1);
    m_place.assign(nodeCount, {});
    for (size_t k = 0; k < m_folds.size(); ++k) {
        auto& fold = m_folds[k];
        for (size_t i = 0; i < fold.instances.size(); ++i) {
            const int m = fold.instances[i];
            m_foldOfModule[static_cast<size_t>(m)] = static_cast<int>(k);
            m_instanceOfModule[static_cast<size_t>(m)] = static_cast<int>(i);
            fold.nodes.push_back(std::move(subtree[static_cast<size_t>(m)]));
            const auto& nodes = fold.nodes.back();
            for (size_t p = 0; p < nodes.size(); ++p) {
                Place& place = m_place[static_cast<size_t>(nodes[p])];
                if (place.fold < 0) place = {static_cast<int>(k), static_cast<int>(i), static_cast<int>(p)};
            }
        }
    }
}

uint64_t ModuleFolds::signatureOf(int module) const {
    return module >= 0 && static_cast<size_t>(module) < m_signature.size() ? m_signature[static_cast<size_t>(module)] : 0;
}

int ModuleFolds::foldOfModule(int module) const {
    return module >= 0 && static_cast<size_t>(module) < m_foldOfModule.size() ? m_foldOfModule[static_cast<size_t>(module)] : -1;
}

int ModuleFolds::instanceOfModule(int module) const {
    return module >= 0 && static_cast<size_t>(module) < m_instanceOfModule.size()
               ? m_instanceOfModule[static_cast<size_t>(module)]
               : -1;
}

ModuleFolds::Place ModuleFolds::placeOfNode(int node) const {
    return node >= 0 && static_cast<size_t>(node) < m_place.size() ? m_place[static_cast<size_t>(node)] : Place{};
}

int ModuleFolds::representativeNode(int node) const {
    const Place p = placeOfNode(node);
    if (p.fold < 0) return node;
    return m_folds[static_cast<size_t>(p.fold)].nodes.front()[static_cast<size_t>(p.position)];
}

int ModuleFolds::instanceNode(int fold, int instance, int node) const {
    const Place p = placeOfNode(node);
    if (fold < 0 || static_cast<size_t>(fold) >= m_folds.size() || p.fold != fold) return -1;
    const auto& nodes = m_folds[static_cast<size_t>(fold)].nodes;
    if (instance < 0 || static_cast<size_t>(instance) >= nodes.size()) return -1;
    return nodes[static_cast<size_t>(instance)][static_cast<size_t>(p.position)];
}

} // namespace irlens::core
