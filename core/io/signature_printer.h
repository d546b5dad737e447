#pragma once
// The graph signature as PyTorch prints `ep.graph_signature` (torch/export/graph_signature.py,
// ExportGraphSignature.__str__): a "# inputs" block then a "# outputs" block, one spec per line:
//
//   p_fc_weight: PARAMETER target='fc.weight'
//   b_bn_running_mean: BUFFER target='bn.running_mean' persistent=True
//   x: USER_INPUT
//   add_2: BUFFER_MUTATION target='my_buffer2'
//   add: USER_OUTPUT

#include "core/ir/program.h"

#include <map>
#include <string>

namespace irlens::core {

/// Serialized value name -> the name to print (fxValueNames); a value it does not list prints as stored.
using ValueNames = std::map<std::string, std::string>;

/// One input spec line ("p_fc_weight: PARAMETER target='fc.weight'").
std::string formatInputSpec(const InputSpec& spec, const ValueNames& names = {});
/// One output spec line ("add: USER_OUTPUT").
std::string formatOutputSpec(const OutputSpec& spec, const ValueNames& names = {});
/// The whole signature, exactly as str(ep.graph_signature) (it starts and ends with a newline). Values are
/// named as the FX text names their nodes (fxValueNames): an output "sum" prints as "sum_1", the node
/// `print(ep.graph)` returns, so the signature and the graph never name one value two ways.
std::string printSignature(const Program& program);

} // namespace irlens::core
