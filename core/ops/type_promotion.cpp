// Type promotion and broadcasting, following torch/_prims_common/__init__.py (see type_promotion.h).

#include "core/ops/type_promotion.h"

#include <algorithm>

namespace irlens::core {

const char* promotionKindName(PromotionKind kind) {
    switch (kind) {
    case PromotionKind::Default: return "DEFAULT";
    case PromotionKind::NoOpmath: return "NO_OPMATH";
    case PromotionKind::IntToFloat: return "INT_TO_FLOAT";
    case PromotionKind::AlwaysBool: return "ALWAYS_BOOL";
    case PromotionKind::ComplexToFloat: return "COMPLEX_TO_FLOAT";
    case PromotionKind::BoolToLong: return "BOOL_TO_LONG";
    }
    return "?";
}

TypeCategory categoryOf(ScalarType t) {
    if (t == ScalarType::Bool) return TypeCategory::Bool;
    if (isComplexType(t)) return TypeCategory::Complex;
    if (isFloatingType(t)) return TypeCategory::Floating;
    return TypeCategory::Integer;
}

namespace {

// The tiers of get_higher_dtype's ordered chain; -1 for dtypes outside it.
int tierOf(ScalarType t) {
    switch (t) {
    case ScalarType::Bool: return 0;
    case ScalarType::UInt8: case ScalarType::Int8: return 1;
    case ScalarType::Int16: return 2;
    case ScalarType::Int32: return 3;
    case ScalarType::Int64: return 4;
    case ScalarType::Float16: case ScalarType::BFloat16: return 5;
    case ScalarType::Float32: return 6;
    case ScalarType::Float64: return 7;
    case ScalarType::ComplexHalf: return 8;
    case ScalarType::Complex64: return 9;
    case ScalarType::Complex128: return 10;
    default: return -1;
    }
}

// The first dtype of each tier.
constexpr ScalarType kTierHead[] = {ScalarType::Bool,    ScalarType::UInt8,   ScalarType::Int16,
                                    ScalarType::Int32,   ScalarType::Int64,   ScalarType::Float16,
                                    ScalarType::Float32, ScalarType::Float64, ScalarType::ComplexHalf,
                                    ScalarType::Complex64, ScalarType::Complex128};

bool isIntegerNotBool(ScalarType t) { return t != ScalarType::Bool && isIntegralType(t, false); }

} // namespace

Result<ScalarType> promoteTypes(ScalarType a, ScalarType b) {
    if (a == b) return a;
    int ta = tierOf(a), tb = tierOf(b);
    if (ta < 0 || tb < 0)
        return Status::error("cannot promote " + dtypeName(a) + " with " + dtypeName(b) + ": " +
                             dtypeName(ta < 0 ? a : b) + " is outside the promotion chain of torch._prims_common");
    if (ta == tb) {
        if (ta + 1 >= static_cast<int>(std::size(kTierHead)))
            return Status::error("no dtype above " + dtypeName(a) + " to promote to");
        return kTierHead[ta + 1];
    }
    return ta > tb ? a : b;
}

ScalarType opmathType(ScalarType t) {
    switch (t) {
    case ScalarType::Float16: case ScalarType::BFloat16: return ScalarType::Float32;
    case ScalarType::ComplexHalf: return ScalarType::Complex64;
    default: return t;
    }
}

ScalarType complexCounterpart(ScalarType t) {
    switch (t) {
    case ScalarType::Float16: return ScalarType::ComplexHalf;
    case ScalarType::BFloat16: return ScalarType::Complex64;
    case ScalarType::Float32: return ScalarType::Complex64;
    case ScalarType::Float64: return ScalarType::Complex128;
    default: return t;
    }
}

ScalarType realCounterpart(ScalarType t) {
    switch (t) {
    case ScalarType::ComplexHalf: return ScalarType::Float16;
    case ScalarType::Complex64: return ScalarType::Float32;
    case ScalarType::Complex128: return ScalarType::Float64;
    default: return t;
    }
}

namespace {

// _find_highest_dtype_filtered: dimensioned tensors decide; 0-dim tensors only when none exists.
template <class Filter>
Result<std::optional<ScalarType>> highestFiltered(const std::vector<PromotionOperand>& ops, Filter filter, bool floatAsComplex) {
    std::optional<ScalarType> zeroDim, plusDim;
    for (const auto& op : ops) {
        if (!op.isTensor || !filter(op.dtype)) continue;
        ScalarType d = op.dtype;
        if (floatAsComplex && isFloatingType(d)) d = complexCounterpart(d);
        auto& slot = op.ndim == 0 ? zeroDim : plusDim;
        if (!slot) {
            slot = d;
        } else {
            auto h = promoteTypes(*slot, d);
            if (!h) return h.status();
            slot = *h;
        }
    }
    return plusDim ? plusDim : zeroDim;
}

} // namespace

Result<PromotedTypes> elementwiseDtypes(const std::vector<PromotionOperand>& operands, PromotionKind kind,
                                        ScalarType defaultFloat) {
    TypeCategory highest = TypeCategory::Bool;
    for (const auto& op : operands) {
        TypeCategory c = op.isTensor ? categoryOf(op.dtype) : op.numberCategory;
        highest = std::max(highest, c);
    }
    ScalarType result = ScalarType::Bool;
    switch (highest) {
    case TypeCategory::Floating: {
        auto r = highestFiltered(operands, [](ScalarType t) { return isFloatingType(t); }, false);
        if (!r) return r.status();
        result = r->value_or(defaultFloat);
        break;
    }
    case TypeCategory::Complex: {
        auto r = highestFiltered(operands, [](ScalarType t) { return isFloatingType(t) || isComplexType(t); }, true);
        if (!r) return r.status();
        result = r->value_or(complexCounterpart(defaultFloat));
        break;
    }
    case TypeCategory::Integer: {
        auto r = highestFiltered(operands, isIntegerNotBool, false);
        if (!r) return r.status();
        result = r->value_or(ScalarType::Int64);
        break;
    }
    case TypeCategory::Bool: result = ScalarType::Bool; break;
    }

    switch (kind) {
    case PromotionKind::Default: return PromotedTypes{opmathType(result), result};
    case PromotionKind::NoOpmath: return PromotedTypes{result, result};
    case PromotionKind::IntToFloat:
        if (categoryOf(result) <= TypeCategory::Integer) result = defaultFloat;
        return PromotedTypes{opmathType(result), result};
    case PromotionKind::AlwaysBool: return PromotedTypes{opmathType(result), ScalarType::Bool};
    case PromotionKind::ComplexToFloat: {
        // The computation may stay complex (abs of a complex number computes in complex).
        ScalarType computation = opmathType(result);
        return PromotedTypes{computation, realCounterpart(result)};
    }
    case PromotionKind::BoolToLong:
        if (result == ScalarType::Bool) return PromotedTypes{ScalarType::Int64, ScalarType::Int64};
        return PromotedTypes{opmathType(result), result};
    }
    return Status::error("unknown type promotion kind");
}

PromotedTypes reductionDtypes(ScalarType input, ReductionKind kind, std::optional<ScalarType> requested) {
    ScalarType in = requested.value_or(input);
    PromotedTypes t{opmathType(in), in};
    switch (kind) {
    case ReductionKind::Same: break;
    case ReductionKind::ComplexToFloat: t.result = realCounterpart(in); break;
    case ReductionKind::KeepPromotedType: break;
    case ReductionKind::AlwaysBool: t.result = ScalarType::Bool; break;
    }
    return t;
}

ScalarType sumResultType(ScalarType input, std::optional<ScalarType> requested) {
    if (requested) return *requested;
    if (categoryOf(input) <= TypeCategory::Integer) return ScalarType::Int64;
    return input;
}

bool sameSize(const SymInt& a, const SymInt& b) {
    if (a.isStatic() != b.isStatic()) return false;
    if (a.isStatic()) return a.value == b.value;
    return a.expr() == b.expr() || prettySymExpr(a.expr()) == prettySymExpr(b.expr());
}

std::string shapeString(const std::vector<SymInt>& shape) {
    std::string s = "[";
    for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + shape[i].toString();
    return s + "]";
}

std::vector<SymInt> literalShape(const std::vector<int64_t>& sizes) {
    std::vector<SymInt> out;
    out.reserve(sizes.size());
    for (int64_t v : sizes) out.push_back(SymInt::literal(v));
    return out;
}

Result<std::vector<SymInt>> broadcastShapes(const std::vector<std::vector<SymInt>>& shapes) {
    size_t rank = 0;
    for (const auto& s : shapes) rank = std::max(rank, s.size());
    std::vector<SymInt> common(rank, SymInt::literal(1));
    for (size_t argIndex = 0; argIndex < shapes.size(); ++argIndex) {
        const auto& shape = shapes[argIndex];
        for (size_t k = 1; k <= shape.size(); ++k) {
            const SymInt& size = shape[shape.size() - k];
            SymInt& acc = common[rank - k];
            if (size.isStatic() && size.value < 0)
                return Status::error("negative size " + std::to_string(size.value) + " in shape " + shapeString(shape));
            if (acc.isStatic() && acc.value == 1) {
                acc = size;
                continue;
            }
            if (size.isStatic() && size.value == 1) continue;
            if (sameSize(acc, size)) continue;
            if (!acc.isStatic() && size.isStatic()) {
                acc = size; // torch would guard the symbol to this literal
                continue;
            }
            if (acc.isStatic() != size.isStatic() || !acc.isStatic()) {
                if (!acc.isStatic() && acc.hint() && *acc.hint() == 1) acc = size;
                continue; // literal acc vs symbol, or two symbols: keep the accumulated size
            }
            return Status::error("cannot broadcast dimension " + std::to_string(-static_cast<int64_t>(k)) + ": size " +
                                 size.toString() + " of argument " + std::to_string(argIndex) + " (shape " +
                                 shapeString(shape) + ") against " + acc.toString() + " (shape so far " +
                                 shapeString(common) + ")");
        }
    }
    return common;
}

} // namespace irlens::core
