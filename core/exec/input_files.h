#pragma once
// A run's user inputs from the files a user holds (core/io/tensor_file.h: .pt, .npy, .npz,
// .safetensors) or from a `model.expected/` folder, matched to the program's user inputs and checked
// against them before anything runs.

#include "core/exec/plan.h"

#include <string>
#include <vector>

namespace irlens::core::exec {

/// The user inputs in signature order from `paths`: one `model.expected/` folder (its main case), or
/// tensor files. When every value found carries a name (a dict .pt, named .npz arrays, safetensors),
/// values are matched to inputs by name; when none does (a tensor or tuple .pt, .npy files, an .npz
/// of arr_0, arr_1 ...), by position across the files in order. `from` describes where they came
/// from. Errors are one line naming the input, what was given and what the program expects.
Result<std::vector<EValue>> inputsFromFiles(const ExecutionPlan& plan, const std::vector<std::string>& paths, std::string& from);

/// Checks user inputs (signature order) against the program: tensors of the recorded dtype and rank,
/// static sizes equal, a symbolic size the same wherever its symbol appears and within its range
/// constraint. The error names the input: "input 'x': given f64[4, 64], the program expects f32[4, 64]".
Status checkUserInputs(const ExecutionPlan& plan, const std::vector<EValue>& inputs);

} // namespace irlens::core::exec
