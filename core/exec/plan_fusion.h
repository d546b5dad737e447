#pragma once
// Inference rewrites of a compiled plan. The program (and so the graph the user sees, its nodes and
// their names) stays as it is: only how nodes execute changes.
//
// A convolution whose only reader is an inference batch norm over constant statistics gets the
// batch norm folded into its weights and bias (w' = w·γ/√(σ²+ε), b' = (b-μ)·γ/√(σ²+ε) + β, computed
// once here in double), and a following relu / hardtanh that is the only reader becomes the
// convolution's post-op. A relu that is the only reader of a matrix product's result (mm, addmm,
// linear) becomes the product's post-op the same way, also when a view or reshape of the product
// stands between them (transformer feed-forward layers): one pass over the activations fewer. The folded nodes still run, in the same order, but only pass their
// input through (their profile time is then the bookkeeping of a node; PlanNode::fusedInto names the
// convolution or product that does their work).

#include "core/exec/plan.h"

#include <set>
#include <string>

namespace irlens::core::exec {

/// What the convolution and product kernels read from the arguments fusion appends (absent: no post-op).
inline constexpr const char* kFusedActivationArg = "irlens.fused_activation"; // int: FusedActivation
inline constexpr const char* kFusedMinArg = "irlens.fused_min";               // double (Clip)
inline constexpr const char* kFusedMaxArg = "irlens.fused_max";               // double (Clip)
enum class FusedActivation { None = 0, Relu = 1, Clip = 2 };

/// Applies the rewrites above to `g` (the top-level graph of a plan). `inputs` give the tensors of
/// the parameter/buffer/constant slots; those named in `mutated` (targets of buffer or parameter
/// mutations) are never folded. Returns the number of nodes folded away.
int fuseForInference(PlanGraph& g, const std::vector<PlanInput>& inputs, const std::set<std::string>& mutated);

} // namespace irlens::core::exec
