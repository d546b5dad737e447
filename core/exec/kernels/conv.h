#pragma once
// What the convolution kernels share (op_conv.cpp) and transposed convolution (op_conv_transpose.cpp),
// the gradient of convolution with respect to its input; 1-D and 2-D (transposed also 3-D).

#include "core/exec/kernel_context.h"
#include "core/exec/plan_fusion.h"

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

/// One 2-D convolution call (1-D ones run with H = 1) and the activation plan fusion folded into it.
struct ConvParams {
    int64_t strideH = 1, strideW = 1, padH = 0, padW = 0, dilH = 1, dilW = 1, groups = 1;
    FusedActivation activation = FusedActivation::None; // a relu / clamp folded in by plan fusion
    double lo = 0, hi = 0;                                 // its bounds (Relu: lo 0)
};

/// Whether depthwiseConv takes the call: float32, one input channel per group (groups == C).
bool isDepthwise(const Tensor& x, const Tensor& w, const ConvParams& p);
/// out = activation(conv(x, w) + b) for a depthwise call: x contiguous [N, C, H, W], w contiguous
/// [O, 1, KH, KW] (O a multiple of C), out allocated [N, O, OH, OW]; splits the planes over ctx's threads.
void depthwiseConv(KernelContext& ctx, const Tensor& x, const Tensor& w, const std::optional<Tensor>& b, const Tensor& out,
                   const ConvParams& p);

/// input [N, C, ((D,) H,) W], weight [C, O / groups, ((KD,) KH,) KW]; writes output 0 of ctx.
void convTranspose(KernelContext& ctx, const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                   const std::vector<int64_t>& stride, const std::vector<int64_t>& padding, const std::vector<int64_t>& outputPadding,
                   const std::vector<int64_t>& dilation, int64_t groups);

} // namespace irlens::core::exec
