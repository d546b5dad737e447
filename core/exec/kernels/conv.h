#pragma once
// What the convolution kernels share (op_conv.cpp) and transposed convolution (op_conv_transpose.cpp),
// the gradient of convolution with respect to its input; 1-D and 2-D (transposed also 3-D).

#include "core/exec/kernel_context.h"

#include <optional>
#include <vector>

namespace irlens::core::exec {

/// Refuses operands the kernels cannot take (1 to `spatialAxes` spatial axes, weight of the same rank
/// and dtype); `what` names the op.
void checkConvOperands(const char* what, const Tensor& input, const Tensor& weight, int spatialAxes = 2);
/// A contiguous rank-3 tensor [N, C, W] viewed as [N, C, 1, W]: 1-D convolutions run as 2-D with H = 1.
Tensor asConv2d(const Tensor& t);

/// One spatial entry of a stride / padding / dilation list: a single value applies to every axis,
/// an empty list means `fallback`.
inline int64_t convParam(const std::vector<int64_t>& v, size_t k, int64_t fallback) {
    if (v.empty()) return fallback;
    return v.size() == 1 ? v[0] : (k < v.size() ? v[k] : fallback);
}

/// input [N, C, ((D,) H,) W], weight [C, O / groups, ((KD,) KH,) KW]; writes output 0 of ctx.
void convTranspose(KernelContext& ctx, const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                   const std::vector<int64_t>& stride, const std::vector<int64_t>& padding, const std::vector<int64_t>& outputPadding,
                   const std::vector<int64_t>& dilation, int64_t groups);

} // namespace irlens::core::exec
