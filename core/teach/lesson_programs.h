#pragma once
// The programs the guided tour teaches on besides the bundled example, built in code so the tour
// needs no file: each shows one part of the Export IR the example does not have. Every one verifies
// clean (the dynamic lesson's in-place op is an info finding, which is what the tour points at).

#include "core/ir/program.h"

#include <string>

namespace irlens::core::teach {

/// A Linear, then `torch.cond(h.sum() > 0, true_fn, false_fn, [h])` with true_fn = relu(h) * 2 and
/// false_fn = tanh(h) - 1 (dialect ATEN). The cond node holds its two branches as subgraphs
/// true_graph_0 and false_graph_0; its single result is `getitem`.
ProgramPtr makeCondLesson();

/// A Linear whose batch mean updates a running mean and a step counter, both buffers (dialect
/// ATEN, functionalized): `add` is written back to `steps` and `add_1` to `running_mean` as
/// BUFFER_MUTATION outputs, before the user output `div`, which divides the centred batch (f32) by
/// the new step count (int64): type promotion that the Prims level makes explicit.
ProgramPtr makeBufferLesson();

/// Two Linear layers with an in-place ReLU between them, exported with a dynamic batch: input x is
/// f32[s0, 16] with s0 in [2, 64] (dialect TRAINING: `linear` stays whole and `relu_` in place).
ProgramPtr makeDynamicLesson();

/// The lessons by name ("example", "cond", "buffer", "dynamic"); null for another name.
ProgramPtr makeLesson(const std::string& name);

} // namespace irlens::core::teach
