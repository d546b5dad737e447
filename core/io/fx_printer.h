#pragma once
// The FX text of a program, as `print(ep.graph)` shows it after `torch.export.load` (torch/fx/graph.py
// Graph.__str__ and Node.format_node applied to the graph the export deserializer rebuilds):
//
//   graph():
//       %x : [num_users=1] = placeholder[target=x]
//       %add : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%x, %x), kwargs = {})
//       return (add,)
//
// Multi-output nodes are followed by the `operator.getitem` nodes the deserializer recreates; HOP
// subgraphs appear as `get_attr` nodes and are printed after the main graph. Which FX nodes there are
// and their names: core/ir/fx_names.h.

#include "core/ir/program.h"
#include "core/ops/op_registry.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace irlens::core {

/// The schema of a target, or nullptr. Used to split inputs into args and kwargs the way the
/// deserializer does when a file does not record each argument's kind.
using SchemaLookup = std::function<const OpSchema*(const Target&)>;

struct FxPrintOptions {
    SchemaLookup schemaLookup;   // optional; without it, inputs of unknown kind are positional
    bool printSubgraphs = true;  // append each HOP subgraph after the graph that uses it
};

/// The FX text of the top-level graph (and its subgraphs). Placeholders of constant inputs take the
/// signature's input name, like the deserializer.
std::string printFxGraph(const Program& program, const FxPrintOptions& options = {});
/// The FX text of one graph (a HOP subgraph, or a graph without a program).
std::string printFxGraph(const Graph& graph, const FxPrintOptions& options = {});

/// One line of a printed view of the graph and the FX node it stands for ("output" for the return,
/// "" for none); `placeholder` marks a placeholder's line.
struct FxLine {
    std::string text;
    std::string node;
    bool placeholder = false;
};

/// The graph as Python code, as `GraphModule.code` prints its forward() (torch/fx/graph.py CodeGen):
/// placeholders become parameters, each node one assignment with the values it last uses freed
/// (`;  x = None`), operator.* nodes as Python operators, `return (...)`. Strings and devices as repr.
std::vector<FxLine> printFxCode(const Program& program, const FxPrintOptions& options = {});
std::vector<FxLine> printFxCode(const Graph& graph, const FxPrintOptions& options = {});
/// `graph.print_tabular()`: one row per FX node (opcode, name, target, args, kwargs) in tabulate's
/// "simple" format, two header lines first.
std::vector<FxLine> printFxTabular(const Program& program, const FxPrintOptions& options = {});
std::vector<FxLine> printFxTabular(const Graph& graph, const FxPrintOptions& options = {});

/// Python's repr of a float: "1e-05", "0.1", "1.0", "-inf", "nan".
std::string pythonFloatRepr(double value);

} // namespace irlens::core
