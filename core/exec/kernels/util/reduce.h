#pragma once
// Reductions over a set of dims: the input is laid out as [outer, inner] with the reduced dims
// innermost (a contiguous copy only when they are not already trailing), then each row reduces.

#include "core/exec/kernel_context.h"

#include <vector>

namespace irlens::core::exec {

struct ReduceLayout {
    Tensor rows;        // contiguous, outer * inner elements (dtype of the input)
    Shape outShape;     // result shape (keepdim or not)
    int64_t outer = 1;
    int64_t inner = 1;
};

/// `dims` empty = every dim. Duplicate or out-of-range dims throw.
ReduceLayout prepareReduce(KernelContext& ctx, const Tensor& x, std::vector<int64_t> dims, bool keepdim);

/// Dims argument of reductions: int[1]? dim / int[]? dims / int dim; nullopt or [] = all.
std::vector<int64_t> reduceDimsArg(KernelContext& ctx, int position);

} // namespace irlens::core::exec
