#pragma once
// Helpers every kernel family uses: shapes and broadcasting, dim wrapping, type promotion,
// strided copies with dtype conversion, views.

#include "core/exec/kernel_context.h"
#include "core/exec/kernels/util/float_to_int.h"

#include <initializer_list>
#include <optional>
#include <vector>

namespace irlens::core::exec {

/// Wraps a possibly negative dim into [0, rank) (rank 0 accepts -1 and 0); throws a KernelError otherwise.
int64_t wrapDim(int64_t dim, int64_t rank);
/// Broadcast shape of two shapes (numpy rules); throws naming both shapes when incompatible.
Shape broadcastShapes(const Shape& a, const Shape& b);
/// A stride-0 view of `t` with shape `shape` (t must broadcast to it).
Tensor expandTo(const Tensor& t, const Shape& shape);

/// torch.promote_types.
ScalarType promoteTypes(ScalarType a, ScalarType b);

/// One operand of torch.result_type: a tensor or a Python scalar.
struct TypeOperand {
    const Tensor* tensor = nullptr;
    std::optional<Scalar> scalar;
};
/// torch.result_type over tensors (dimensioned ones first, then 0-dim) and scalars (wrapped numbers).
ScalarType resultType(std::initializer_list<TypeOperand> operands);

/// Copies src into dst element by element (same shape after broadcasting src), converting dtype.
void copyInto(const Tensor& dst, const Tensor& src, int threads);
/// A fresh tensor for the output of a pointwise op, laid out as PyTorch's TensorIterator lays it out:
/// dimensions ordered by the inputs' strides (the first input that tells two dimensions apart
/// decides; broadcast dimensions are skipped), so transposed inputs give a transposed output;
/// contiguous inputs give a contiguous one.
/// `t` as a contiguous tensor of `size` from its storage offset (resize_ / prims.resize): a view of its
/// storage when that holds enough elements, else a larger zeroed storage with the old bytes first
/// (PyTorch leaves the new elements uninitialised). `op` names the op in errors.
Tensor resizedOver(KernelContext& ctx, const Tensor& t, const Shape& size, const char* op);
/// `t` converted to `dtype` in a new tensor laid out like `t` (a dense permutation keeps its strides).
Tensor toDtypeKeepLayout(KernelContext& ctx, const Tensor& t, ScalarType dtype);
Tensor allocLike(KernelContext& ctx, ScalarType dtype, const Shape& shape, std::initializer_list<const Tensor*> inputs);
/// `t` itself when contiguous, else a contiguous copy.
Tensor contiguous(KernelContext& ctx, const Tensor& t);
/// `t` itself when it already has `dtype`, else a converted contiguous copy.
Tensor toDtype(KernelContext& ctx, const Tensor& t, ScalarType dtype);

/// View with new sizes if the strides allow it (torch's computeStride); nullopt otherwise.
std::optional<Shape> viewStrides(const Tensor& t, const Shape& newSizes);
/// Resolves one -1 in a target shape against numel; throws on mismatch.
Shape inferSize(const Shape& sizes, int64_t numel);
/// torch.reshape: a view when possible, else a contiguous copy.
Tensor reshape(KernelContext& ctx, const Tensor& t, const Shape& sizes);
Tensor permute(const Tensor& t, const std::vector<int64_t>& dims);
Tensor transpose(const Tensor& t, int64_t d0, int64_t d1);

/// Value of a Scalar converted to T (bool: non-zero; an integer T as PyTorch's copy converts, see
/// float_to_int.h).
template <class T> T scalarAs(double v) { return convertValue<T>(v); }

} // namespace irlens::core::exec
