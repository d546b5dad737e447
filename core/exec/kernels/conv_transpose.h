#pragma once
// Transposed convolution (the gradient of convolution with respect to its input), 1-D and 2-D.

#include "core/exec/kernel_context.h"

#include <optional>
#include <vector>

namespace irlens::core::exec {

/// input [N, C, (H,) W], weight [C, O / groups, (KH,) KW]; writes output 0 of ctx.
void convTranspose(KernelContext& ctx, const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                   const std::vector<int64_t>& stride, const std::vector<int64_t>& padding, const std::vector<int64_t>& outputPadding,
                   const std::vector<int64_t>& dilation, int64_t groups);

} // namespace irlens::core::exec
