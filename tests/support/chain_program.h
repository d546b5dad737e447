#pragma once
// A long chain of relus without any metadata: what a program looks like after a pass that dropped
// nn_module_stack and stack_trace. The shape of the big-file cases (load memory, render, verify).

#include "core/ir/builder.h"

#include <string>

namespace irlens::testing {

/// `length` relus in a chain, each with its f32[1, 8] value and no metadata at all; nullptr when the
/// builder refuses it.
inline core::ProgramPtr makeBareChain(int length) {
    using namespace irlens::core;
    ProgramBuilder b;
    const TensorMeta meta = makeTensorMeta(ScalarType::Float32, {1, 8});
    std::string prev = b.userInput("x", meta);
    for (int k = 0; k < length; ++k) {
        std::string name = "relu_" + std::to_string(k);
        b.call("torch.ops.aten.relu.default", name).arg("self", prev).out(meta);
        prev = std::move(name);
    }
    b.userOutput(prev);
    auto p = b.build();
    return p ? *p : nullptr;
}

} // namespace irlens::testing
