#pragma once
// Builds the replacement of one node: new call_function nodes with inferred `val`, the replaced
// node's stack_trace / nn_module_stack / source_fn_stack (and custom meta, which PyTorch's
// run_decompositions drops, pytorch#147338), `derivedFrom` = the replaced node, fresh unique names.

#include "core/ir/program.h"
#include "core/ir/status.h"
#include "core/ops/node_args.h"

#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace irlens::core {

/// Unique value/node names for one graph, torch.fx style ("permute", "permute_1", ...).
class NameTable {
public:
    explicit NameTable(const Graph& graph);
    std::string fresh(const std::string& base);
    void reserve(const std::string& name) { m_used.insert(name); }

private:
    std::unordered_set<std::string> m_used;
    std::unordered_map<std::string, int> m_next;
};

/// Argument shorthands for rules.
namespace arg {
NamedArgument tensor(const std::string& name, const std::string& value);
NamedArgument none(const std::string& name);
NamedArgument integer(const std::string& name, int64_t v);
NamedArgument floating(const std::string& name, double v);
NamedArgument boolean(const std::string& name, bool v);
NamedArgument ints(const std::string& name, const std::vector<int64_t>& v);
/// Sizes; a symbolic size is written as the graph's sym value that holds it (`graph` may be null).
NamedArgument symInts(const std::string& name, const std::vector<SymInt>& v, const Graph* graph = nullptr);
NamedArgument dtype(const std::string& name, ScalarType t);
NamedArgument memoryFormat(const std::string& name, MemoryFormat f);
NamedArgument copy(const std::string& name, const Argument& a); // a value as written (number or tensor)
NamedArgument kw(NamedArgument a);                               // marks it ArgumentKind::Keyword
} // namespace arg

/// "torch.ops.aten.permute.default".
std::string atenTarget(const std::string& op, const std::string& overload = "default");
std::string primsTarget(const std::string& op);

class RewriteBuilder {
public:
    RewriteBuilder(Graph& graph, NameTable& names, const Node& original);

    const Node& original() const { return m_original; }
    const NodeArgs& args() const { return m_args; }
    const Graph& graph() const { return m_graph; }
    const TensorMeta* meta(const std::string& value) const { return m_graph.tensorMeta(value); }
    /// A sizes argument. A symbolic size is written as a sym value defined before this point; when
    /// there is none, a sym_size.int node reading it off an input tensor is emitted first.
    NamedArgument sizes(const std::string& name, const std::vector<SymInt>& v);
    /// Names defined before the node being replaced (set by the rewriting pass).
    void setDefined(const std::unordered_set<std::string>* defined) { m_defined = defined; }

    /// Emits one node with a single tensor output; returns the output value name.
    Result<std::string> call(const std::string& target, std::vector<NamedArgument> inputs);
    /// Emits a node with several outputs (a tuple, or a Tensor[] list when the schema says so).
    Result<std::vector<std::string>> callMulti(const std::string& target, std::vector<NamedArgument> inputs);

    /// The original's output slot `slot` (tensor lists flattened) is now `value`.
    void replaceOutput(size_t slot, const std::string& value) { m_replacements[slot] = value; }
    /// In-place ops: every later read of `mutated` reads `value` instead (functionalization).
    void replaceAlias(const std::string& mutated, const std::string& value) { m_aliases[mutated] = value; }

    std::vector<Node>& nodes() { return m_nodes; }
    const std::map<size_t, std::string>& replacements() const { return m_replacements; }
    const std::map<std::string, std::string>& aliases() const { return m_aliases; }

private:
    Result<Node> makeNode(const std::string& target, std::vector<NamedArgument> inputs);

    Graph& m_graph;
    NameTable& m_names;
    const Node& m_original;
    NodeArgs m_args;
    std::vector<Node> m_nodes;
    std::map<size_t, std::string> m_replacements;
    std::map<std::string, std::string> m_aliases;
    const std::unordered_set<std::string>* m_defined = nullptr;
};

} // namespace irlens::core
