#pragma once
// The FX graph torch.fx's export deserializer rebuilds from a graph: which FX nodes it makes, in
// which order, and the name each gets (torch/fx/graph.py _Namespace). A node's FX name is part of the
// model, not of one printer: the FX printers show it, the verifier's findings name nodes by it, the
// signature printer names values by it.
//
// The deserializer makes, in order: one placeholder per graph input (keeping its serialized name),
// then for each node the get_attr node of each subgraph it takes, the node itself, and an
// `operator.getitem` node per output of a multi-output node (one per list, then one per element).

#include "core/ir/program.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace irlens::core {

/// One FX node of the rebuilt graph. Pointers and indexes refer to the graph walked; they are valid
/// for the duration of the visit only.
struct FxGraphNode {
    enum class Kind { Placeholder, GetAttr, Call, GetItem };
    Kind kind = Kind::Call;
    std::string name;                   // the FX name
    int index = 0;                      // its place in the FX graph (0, 1, 2, ...)
    int graphInput = -1;                // Placeholder: the index in graph.inputs
    const Argument* subgraph = nullptr; // GetAttr: the Graph argument fetched (its attribute name is subgraph->s)
    const Node* node = nullptr;         // Call: the graph's node
    int parent = -1;                    // GetItem: the FX index of the node (or list getitem) it indexes
    size_t item = 0;                    // GetItem: the position indexed
    std::string value;                  // the serialized value it holds; "" when none (a list getitem, a no-value call)
};

/// Walks the FX graph of `graph` in the deserializer's order. With a program, a placeholder whose
/// input names no value takes the signature's input name.
void forEachFxNode(const Graph& graph, const Program* program, const std::function<void(const FxGraphNode&)>& visit);

/// The name FX gives each node of `graph` (in node order): a multi-output node is named after its
/// target ("native_layer_norm_default"), not after its first getitem. Placeholder names come from
/// the graph's inputs, so a graph whose inputs have no value names may differ from the printed text.
std::vector<std::string> fxNodeNames(const Graph& graph);

/// The FX name of each value of the program's graph (serialized value name -> the name of the FX node that holds it):
/// placeholders keep theirs, a tensor output "sum" lives in the FX node "sum_1" (FX does not shadow the
/// builtin), a tuple element in its getitem node. The signature printer names values by it, so the
/// signature and the FX text name the same thing. Values no node defines are absent.
std::map<std::string, std::string> fxValueNames(const Program& program);

/// A Python keyword or builtin (or one of FX's own globals) that FX renames rather than shadow.
bool fxReservedName(const std::string& name);

} // namespace irlens::core
