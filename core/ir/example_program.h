#pragma once
// The bundled example: a realistic Core ATen program built by project code, so the GUI has something to
// open on a fresh clone and tests have a clean program that needs no fixtures.

#include "core/ir/program.h"

namespace irlens::core {

/// A small vision-transformer-like net at the Core ATen level (verifiers ["ATEN"]): a conv stem
/// (convolution, batch norm without training, relu, max pool), one attention block (q/k/v linears as
/// permute + addmm, view/permute into heads, bmm, scaled softmax, output projection, residual add,
/// layer norm) and a GELU MLP with a residual. Input x: f32[1, 3, 16, 16]; output f32[1, 64, 16].
/// Weights are seeded (the same bytes every time); sample inputs, stack traces and module stacks
/// are filled in; every node's val has the shape and strides PyTorch would record.
ProgramPtr makeExampleProgram();

} // namespace irlens::core
