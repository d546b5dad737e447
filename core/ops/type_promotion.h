#pragma once
// Type promotion and broadcasting exactly as torch._prims_common does them (elementwise_dtypes,
// get_higher_dtype, reduction_dtypes, _broadcast_shapes). Eager TensorIterator agrees on every
// dtype in the chain bool < u8|i8 < i16 < i32 < i64 < f16|bf16 < f32 < f64 < c32 < c64 < c128.

#include "core/ir/dtype.h"
#include "core/ir/status.h"
#include "core/ir/sym.h"

#include <optional>
#include <vector>

namespace irlens::core {

/// torch._prims_common.ELEMENTWISE_TYPE_PROMOTION_KIND (same numbering).
enum class PromotionKind { Default = 0, NoOpmath = 1, IntToFloat = 2, AlwaysBool = 3, ComplexToFloat = 4, BoolToLong = 5 };
const char* promotionKindName(PromotionKind kind); // "DEFAULT", "NO_OPMATH", ...

/// torch._prims_common.REDUCTION_OUTPUT_TYPE_KIND.
enum class ReductionKind { Same, ComplexToFloat, KeepPromotedType, AlwaysBool };

/// bool < integer < floating < complex.
enum class TypeCategory { Bool = 0, Integer = 1, Floating = 2, Complex = 3 };
TypeCategory categoryOf(ScalarType t);

/// One participant of promotion: a tensor (dtype and rank) or a Python number ("wrapped number",
/// also a `Scalar` argument of a `.Scalar` overload), which can only raise the category.
struct PromotionOperand {
    bool isTensor = true;
    ScalarType dtype = ScalarType::Float32; // tensors
    int ndim = 1;                           // tensors: 0 = a 0-dim tensor
    TypeCategory numberCategory = TypeCategory::Integer; // numbers

    static PromotionOperand tensor(ScalarType dtype, int ndim) { return {true, dtype, ndim, TypeCategory::Bool}; }
    static PromotionOperand number(TypeCategory category) { return {false, ScalarType::Unknown, 0, category}; }
};

struct PromotedTypes {
    ScalarType computation = ScalarType::Float32; // the dtype the math runs in (opmath)
    ScalarType result = ScalarType::Float32;      // the dtype of the output
    bool operator==(const PromotedTypes&) const = default;
};

/// get_higher_dtype: the promoted dtype of two dtypes (same tier -> first of the next tier).
/// Error for dtypes outside the chain (uint16..64, float8) unless both are the same dtype.
Result<ScalarType> promoteTypes(ScalarType a, ScalarType b);

/// get_computation_dtype: float16/bfloat16 -> float32, complex32 -> complex64, others unchanged.
ScalarType opmathType(ScalarType t);
/// corresponding_complex_dtype / corresponding_real_dtype.
ScalarType complexCounterpart(ScalarType t);
ScalarType realCounterpart(ScalarType t);

/// elementwise_dtypes(*args, type_promotion_kind). `defaultFloat` is torch.get_default_dtype().
Result<PromotedTypes> elementwiseDtypes(const std::vector<PromotionOperand>& operands, PromotionKind kind,
                                        ScalarType defaultFloat = ScalarType::Float32);

/// reduction_dtypes(arg, kind, dtype). For KeepPromotedType the result is the computation dtype's
/// input dtype (mean fixes it after the division), matching refs.mean.
PromotedTypes reductionDtypes(ScalarType input, ReductionKind kind, std::optional<ScalarType> requested = std::nullopt);

/// sum/prod without `dtype=`: bool and integer inputs accumulate and return int64.
ScalarType sumResultType(ScalarType input, std::optional<ScalarType> requested);

/// Whether two sizes are the same (literals by value, expressions by their pretty form).
bool sameSize(const SymInt& a, const SymInt& b);

/// _broadcast_shapes: right-aligned; 1 stretches, equal sizes match, anything else is an error
/// naming the dimension and the shapes. A symbolic size against a literal N != 1 resolves to N
/// (torch guards the symbol to N); two different symbols resolve to the first unless its hint is 1.
Result<std::vector<SymInt>> broadcastShapes(const std::vector<std::vector<SymInt>>& shapes);

/// "[4, s0, 3]".
std::string shapeString(const std::vector<SymInt>& shape);
std::vector<SymInt> literalShape(const std::vector<int64_t>& sizes);

} // namespace irlens::core
