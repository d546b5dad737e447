#pragma once
// C[M,N] = alpha * A[M,K] @ B[K,N] + beta * C for 2-D strided views. float32 goes through oneDNN's
// sgemm when available (transposed views need no copy); other dtypes use a blocked loop.

#include "core/exec/kernel_context.h"

namespace irlens::core::exec {

/// `c` must be a contiguous [M, N] tensor of the same dtype as a and b. beta == 0 ignores c's contents.
void gemm(KernelContext& ctx, const Tensor& a, const Tensor& b, const Tensor& c, double alpha, double beta);

/// c[M,N] = a[M,K] @ w[K,N] (+ bias[N] on every row) (then relu, NaN kept) for a float32 program weight `w`
/// (read-only storage, so its values never change while the storage lives): a oneDNN matmul
/// primitive with `w` reordered once into the primitive's own layout, both kept in the node's cache
/// while the shapes and the weight's storage stay the same. With several threads the columns (or,
/// for tall products, the rows) are cut into one part per thread, each its own primitive. Returns
/// false, having done nothing, when that does not apply (no oneDNN, another dtype, a writable or
/// non-2-D operand, a bias that is not one float32 row, no node cache, a product too small to
/// repay the primitive's call): the caller then uses gemm().
bool gemmWithWeights(KernelContext& ctx, const Tensor& a, const Tensor& w, const Tensor* bias, bool relu, const Tensor& c);

} // namespace irlens::core::exec
