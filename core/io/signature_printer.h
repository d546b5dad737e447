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

#include <string>

namespace irlens::core {

/// One input spec line ("p_fc_weight: PARAMETER target='fc.weight'").
std::string formatInputSpec(const InputSpec& spec);
/// One output spec line ("add: USER_OUTPUT").
std::string formatOutputSpec(const OutputSpec& spec);
/// The whole signature, exactly as str(ep.graph_signature) (it starts and ends with a newline).
std::string printSignature(const GraphSignature& signature);

} // namespace irlens::core
