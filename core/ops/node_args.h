#pragma once
// Typed access to a node's arguments by schema name, with the schema's defaults filled in.
// Meta functions and decomposition rules read arguments through this, so "missing", "None" and
// "default" are handled in one place and every error names the node and the argument.

#include "core/ir/program.h"
#include "core/ir/status.h"
#include "core/ops/op_registry.h"
#include "core/ops/type_promotion.h"

#include <deque>
#include <optional>
#include <string>
#include <vector>

namespace irlens::core {

class NodeArgs {
public:
    NodeArgs(const Node& node, const Graph& graph, const OpSchema* schema);

    const Node& node() const { return m_node; }
    const Graph& graph() const { return m_graph; }
    const OpSchema* schema() const { return m_schema; }

    /// The argument as written, or the schema default parsed into an Argument; nullptr if neither.
    const Argument* get(const std::string& name) const;
    bool isNone(const std::string& name) const;

    /// A required tensor argument's meta.
    Result<const TensorMeta*> tensor(const std::string& name) const;
    /// An optional tensor (None or absent -> nullptr).
    const TensorMeta* optTensor(const std::string& name) const;
    /// The value name of a tensor argument ("" when not a tensor).
    std::string tensorName(const std::string& name) const;
    Result<std::vector<const TensorMeta*>> tensorList(const std::string& name) const;

    Result<int64_t> integer(const std::string& name) const;
    std::optional<int64_t> optInteger(const std::string& name) const;
    Result<double> number(const std::string& name) const; // int, float or bool argument as a double
    Result<bool> boolean(const std::string& name) const;
    /// int[] (a bare int default like `int[2] stride=1` repeats to the list length written in the type).
    Result<std::vector<int64_t>> ints(const std::string& name) const;
    std::optional<std::vector<int64_t>> optInts(const std::string& name) const;
    /// SymInt[] with names resolved through the graph's sym_int_values.
    Result<std::vector<SymInt>> symInts(const std::string& name) const;
    Result<SymInt> symInt(const std::string& name) const;
    std::optional<ScalarType> scalarType(const std::string& name) const;
    std::string string(const std::string& name, const std::string& fallback = {}) const;

    /// The argument as a type-promotion participant: a tensor by dtype and rank, or a Python number
    /// (a number written into a Tensor slot, e.g. `mul.Tensor(x, 0.5)`, is a wrapped number too).
    Result<PromotionOperand> operand(const std::string& name) const;

    /// "node 'add_3' (aten.add.Tensor): argument 'other': <message>".
    Status error(const std::string& arg, const std::string& message) const;

private:
    const Node& m_node;
    const Graph& m_graph;
    const OpSchema* m_schema;
    mutable std::deque<std::pair<std::string, Argument>> m_defaults; // parsed defaults (deque: stable addresses)
};

/// Parses a schema default ("1", "-1", "False", "None", "[1, 1]", "1e-05", "'none'", "contiguous_format").
Argument parseDefaultValue(const std::string& text, const std::string& type);
/// The meta of a SymInt argument value (literal or a name looked up in the graph).
std::optional<SymInt> resolveSymInt(const Argument& a, const Graph& graph);

} // namespace irlens::core
