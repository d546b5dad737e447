#pragma once
// C[M,N] = alpha * A[M,K] @ B[K,N] + beta * C for 2-D strided views. float32 goes through oneDNN's
// sgemm when available (transposed views need no copy); other dtypes use a blocked loop.

#include "core/exec/kernel_context.h"

namespace irlens::core::exec {

/// `c` must be a contiguous [M, N] tensor of the same dtype as a and b. beta == 0 ignores c's contents.
void gemm(KernelContext& ctx, const Tensor& a, const Tensor& b, const Tensor& c, double alpha, double beta);

} // namespace irlens::core::exec
