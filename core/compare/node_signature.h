#pragma once
// What a node is, as far as comparing two programs goes: never its name (independent exports number
// their nodes differently), but its op, the structure of its arguments (literals, parameters by FQN,
// user inputs by position, other values by dtype and shape), where it came from in the model
// (source_fn_stack's module class, torch_fn without its counter) and the meta of its outputs.

#include "core/ir/program.h"

#include <string>
#include <vector>

namespace irlens::core {

struct NodeSignature {
    std::string scope;      // innermost nn_module_stack path ("" when none)
    std::string scopeType;  // its class
    std::string target;     // "torch.ops.aten.gelu.default"
    std::string args;       // argument structure
    std::string origin;     // source_fn class + torch_fn function
    std::string outDtypes;  // "f32,i64"
    std::string outShapes;  // "[1, 64, 512];[1, 64]"
    std::string strong;     // every field above except the scope: equal strong = same node
    std::string outKey;     // outDtypes + outShapes
};

/// The signature of every top-level node of `program`, in graph order.
std::vector<NodeSignature> nodeSignatures(const Program& program);

/// ChangeFlag bits that tell `a` from `b`.
unsigned signatureChanges(const NodeSignature& a, const NodeSignature& b);
/// "aten.gelu.default -> aten.silu.default; module type GELU -> SiLU" (what changed, for people).
std::string describeChanges(const NodeSignature& a, const NodeSignature& b, unsigned flags);

} // namespace irlens::core
