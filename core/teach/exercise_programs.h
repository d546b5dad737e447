#pragma once
// The programs the exercises break, each clean as built here (tst_teach checks that), so that the
// one edit an exercise makes is the only fault. Internal to core/teach.

#include "core/ir/builder.h"

#include <optional>
#include <string>

namespace irlens::core::teach::drill {

/// A two-layer MLP at Core ATen: x f32[2, 8] -> permute + addmm (fc1) -> act -> permute_1 + addmm_1
/// (fc2) -> output addmm_1, with its parameters, a sample input and full node metadata.
struct MlpOptions {
    const char* dialect = "ATEN";
    const char* act = "torch.ops.aten.relu.default"; // the activation's target
    const char* actName = "relu";
    bool fc2AsLinear = false;        // fc2 as one aten.linear node named "linear"
    bool userInputBeforeFc2Bias = false; // x listed among the parameters, before p_fc2_bias
    std::optional<SymInt> batch;     // a symbolic batch size (no range constraint added)
    bool withSample = true;
};
ProgramBuilder mlp(const MlpOptions& options = {});
/// mlp() returning addmm_1 (or linear), unchecked.
Program mlpProgram(const MlpOptions& options = {});

/// A call counter buffer `calls` (int64) next to the MLP: `add = calls + 1` written back with a
/// BUFFER_MUTATION output (`inplace`: `add_` in place and nothing returned, in a TRAINING program).
/// `mutationLast` lists the mutation output after the user output.
Program counterProgram(bool inplace, bool mutationLast = false);

/// At Prims: x f32[2, 8] and `steps` i64[2, 8] -> neg, exp, mul, then `add` of mul and steps, with
/// the convert_element_type and broadcast_in_dim the level needs (`promote` / `broadcast` leave one out).
Program primsProgram(bool skipConvert, bool skipBroadcast);

/// The cond lesson's shape: sum, gt, cond over [h] with branches of `falseInputs` inputs (1 is right).
Program condProgram(int falseInputs);

} // namespace irlens::core::teach::drill
