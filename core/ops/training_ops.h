#pragma once
// The hand-written table of non-core ATen ops (training IR, CompositeImplicitAutograd, in-place).

#include <vector>

namespace irlens::core {

/// Schema strings ("linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor").
const std::vector<const char*>& trainingOpSchemas();

} // namespace irlens::core
