#pragma once
// The zoo: small runnable programs the project owns, built with the project's builder, one for each shape of
// program a reader, printer, verifier, layout, engine or view meets in the wild: an MLP (also at the
// training-IR level, as torch.export.export() returns it before run_decompositions()), a GPT-like block
// (embedding, causal attention, softmax, layer norm, GELU), a conv net with batch norm (the bundled example),
// a dtype mix, buffer mutations, a cond, a dynamic batch and a deep residual stack. Every program has its
// weights, node names as torch.export writes them, module stacks and stack traces, and recorded metas that
// the meta functions reproduce. support/zoo_files.h writes them as .pt2 files at test time.

// Compiled once into irlens_test_support (zoo_programs.cpp) rather than into every test that includes this.

#include "core/ir/builder.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace irlens::testing::zoo {

/// A contiguous tensor meta.
core::TensorMeta dense(const std::vector<int64_t>& sizes, core::ScalarType dtype = core::ScalarType::Float32);

/// A [rows, cols] matrix's transpose as permute(w, [1, 0]) records it: [cols, rows] with strides [1, cols].
core::TensorMeta transposed(int64_t rows, int64_t cols);

/// The finished program, with the lifted state (parameters, buffers, constants) before the user inputs as
/// export lists them: the zoo declares a layer's weights where the layer is built.
core::ProgramPtr finish(core::ProgramBuilder& b);

/// x f32[4, 16] -> Linear(16, 32) -> ReLU -> Linear(32, 32) -> ReLU -> Linear(32, 10): 8 nodes.
core::ProgramPtr mlp();

/// One pre-LN transformer block over 8 tokens of a 32-word vocabulary, width 16: token and position
/// embeddings, layer norm, q/k/v projections, scores with a causal mask (a lifted constant), softmax,
/// the attention output, a residual add, a GELU MLP, a second residual, a final layer norm and the LM head.
core::ProgramPtr gptBlock();

struct ZooProgram {
    const char* name;
    std::function<core::ProgramPtr()> make;
};

/// Every zoo program, smallest first. Each is called "model", as torch.export names the one program of a file.
const std::vector<ZooProgram>& programs();

/// A zoo program by name, or "deep_residual_stack": 240 residual blocks and a head (1,682 nodes), big enough
/// that the views open it collapsed and lay it out composed; nullptr for a name the zoo does not have.
core::ProgramPtr byName(const std::string& name);

} // namespace irlens::testing::zoo
