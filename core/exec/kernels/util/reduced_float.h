#pragma once
// float16 / bfloat16 for kernels written for float32 and float64: the call runs on float32 copies and
// each float32 result is rounded back once. PyTorch's CPU kernels compute reduced floats the same way
// (in float32, their "opmath" type) for reductions, normalisations, pooling and matrix products.

#include "core/exec/kernel_context.h"

namespace irlens::core::exec {

/// Runs `inner` on `ctx`; when the call has a float16 / bfloat16 tensor (or a `dtype` argument naming
/// one) the tensors of that dtype are widened to float32 (strides kept), a reduced `dtype` argument
/// becomes float32, and the float32 outputs are rounded to the reduced dtype (or to the `dtype`
/// argument when it names another float: sum(x_f16, dtype=float32) stays float32). Outputs of other
/// dtypes (indices, masks) pass unchanged.
void runWidened(KernelContext& ctx, KernelFn inner);

/// The kernel `Inner` taking float16 and bfloat16 through runWidened (a registrable KernelFn).
template <KernelFn Inner> void viaFloat32(KernelContext& ctx) { runWidened(ctx, Inner); }

} // namespace irlens::core::exec
