#pragma once
// Programs the project owns for the layout, scene and run-analysis tests, in the shapes of the bigger models those
// tests meet: a ResNet-like conv net (conv, batch norm, ReLU, max pool, basic blocks with a strided downsample,
// average pool, a Linear head), a MobileNet-like depthwise net (depthwise and pointwise convs, ReLU6 as hardtanh,
// inverted residuals), a post-norm encoder layer (two heads through view, permute and bmm; a ReLU feed-forward), and
// a decoder stack (pre-norm attention and a gated MLP per block, under "layers") at 4 blocks, also at the
// training-IR level, and, as "deep_decoder_like", at 240 blocks (6,002 nodes). Built with the project's builder with weights,
// sample inputs, module stacks and stack traces, runnable on the engine; writeViewPrograms() saves them with the
// project's writer beside the zoo (support/zoo_files.h), so "zoo/<name>" rows resolve them like the zoo's own.

// Compiled once into irlens_test_support (view_programs.cpp) rather than into every test that includes this.

#include "core/ir/program.h"

#include <string>
#include <vector>

namespace irlens::testing::owned {

/// A decoder stack: pre-norm attention and a gated MLP per block, under "layers"; `trainingIr` at
/// torch.export's training-IR level.
core::ProgramPtr decoderStack(int blocks = 4, bool trainingIr = false);

/// The programs of this header by name ("resnet_like", "mobilenet_like", "decoder_like", its training-IR form
/// "decoder_like_training", "encoder_layer_like", "deep_decoder_like"); nullptr for another name.
core::ProgramPtr byName(const std::string& name);

/// Every name byName() knows.
const std::vector<std::string>& names();

/// The program here in the shape of a generated fixture of ../shared (resnet18, mobilenet_v2, tiny_gpt,
/// transformer_layer, deep_stack), so a test's rows over those run on it; "" for another name.
std::string standInFor(const std::string& generated);

} // namespace irlens::testing::owned

namespace irlens::testing {

/// A program the project owns by row name: "zoo/<name>" of the zoo or of this header (built in memory); nullptr otherwise.
core::ProgramPtr ownedProgram(const std::string& row);

/// Writes this header's programs as `<zoo folder>/<name>/model.pt2` (once a process; the zoo written first), so
/// fixture("zoo/<name>/model.pt2") finds them. They have no model.expected/: nothing here has PyTorch's numbers.
void writeViewPrograms();

} // namespace irlens::testing
