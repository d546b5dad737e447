#pragma once
// Internal helpers shared by the meta functions (not part of the public API).

#include "core/ops/meta.h"
#include "core/ops/node_args.h"

#include <functional>
#include <string>
#include <vector>

namespace irlens::core::meta {

using MetaOutputs = std::vector<InferredValue>;
using MetaFn = std::function<Result<MetaOutputs>(const NodeArgs&)>;

/// Registers meta functions by "ns::op.overload" (one table, filled by each meta_*.cpp).
void registerPointwise(std::vector<std::pair<std::string, MetaFn>>& table);
void registerShape(std::vector<std::pair<std::string, MetaFn>>& table);
void registerNn(std::vector<std::pair<std::string, MetaFn>>& table);
void registerPrims(std::vector<std::pair<std::string, MetaFn>>& table);
void registerQuant(std::vector<std::pair<std::string, MetaFn>>& table);
void registerBackward(std::vector<std::pair<std::string, MetaFn>>& table);
void registerFft(std::vector<std::pair<std::string, MetaFn>>& table);

inline MetaOutputs singleTensor(TensorMeta m) { return {InferredValue::tensor(std::move(m))}; }

/// Wraps a possibly negative dim into [0, rank); `rank` 0 accepts -1 and 0 (scalars).
Result<int64_t> wrapDim(const NodeArgs& a, const std::string& arg, int64_t dim, int64_t rank);
std::vector<int64_t> staticOr(const std::vector<SymInt>& sizes, int64_t fallback);
SymInt mulSym(const SymInt& a, const SymInt& b);
SymInt numel(const std::vector<SymInt>& sizes);
bool isStaticOne(const SymInt& s);
bool isContiguous(const TensorMeta& m);
/// Dense and non-overlapping (some permutation of contiguous).
bool isNonOverlappingAndDense(const TensorMeta& m);
/// empty_like(preserve_format): the input's strides when dense, else a stride permutation of them.
std::vector<SymInt> preservedStrides(const TensorMeta& in, const std::vector<SymInt>& sizes);
/// TensorIterator's output strides for `sizes` given its tensor operands (broadcast ones included).
std::vector<SymInt> iteratorStrides(const std::vector<const TensorMeta*>& operands, const std::vector<SymInt>& sizes);
/// Strides of a view of `in` with new sizes (ATen computeStride); nullopt when not viewable.
std::optional<std::vector<SymInt>> viewStrides(const TensorMeta& in, const std::vector<SymInt>& newSizes);
/// Resolves one -1 in `shape` against the numel of `sizes` (symbolic factors cancel by name).
Result<std::vector<SymInt>> inferViewShape(const NodeArgs& a, const std::vector<SymInt>& sizes, std::vector<SymInt> shape);

} // namespace irlens::core::meta
