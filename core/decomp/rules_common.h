#pragma once
// Internal helpers for rule implementations.

#include "core/decomp/rules.h"
#include "core/ops/meta_common.h"

namespace irlens::core::rules {

/// The value of a Result, or `fallback` when it holds an error.
template <class T, class U>
T valueOr(const Result<T>& r, U fallback) { return r.isOk() ? *r : static_cast<T>(fallback); }

/// The value name of a required tensor argument of the node being replaced.
inline Result<std::string> input(const RewriteBuilder& b, const std::string& name) {
    std::string v = b.args().tensorName(name);
    if (v.empty()) return b.args().error(name, "expected a tensor");
    return v;
}

/// Rank of a value.
inline int64_t rankOf(const RewriteBuilder& b, const std::string& value) {
    const TensorMeta* m = b.meta(value);
    return m ? static_cast<int64_t>(m->sizes.size()) : 0;
}

/// Emits permute(x, perm).
inline Result<std::string> permute(RewriteBuilder& b, const std::string& x, const std::vector<int64_t>& perm) {
    return b.call(atenTarget("permute"), {arg::tensor("self", x), arg::ints("dims", perm)});
}

/// view(x, sizes) when the strides allow it, else clone(contiguous) + view (reshape's CIA kernel).
Result<std::string> reshapeTo(RewriteBuilder& b, const std::string& x, const std::vector<SymInt>& sizes);

} // namespace irlens::core::rules

namespace irlens::core::rules {

/// An operand of an elementwise op at the prims level: a tensor value or a Python number as written.
struct PrimOperand {
    std::string tensor; // value name, "" for a number
    Argument number;
    bool isTensor() const { return !tensor.empty(); }
};

Result<PrimOperand> operandOf(const RewriteBuilder& b, const std::string& argName);
NamedArgument primArg(const std::string& name, const PrimOperand& op);

/// prims.convert_element_type when the dtype differs (a number is turned into the dtype's Python type).
Result<PrimOperand> convertTo(RewriteBuilder& b, const PrimOperand& op, ScalarType dtype);
Result<std::string> convertTensor(RewriteBuilder& b, const std::string& v, ScalarType dtype);
/// prims.broadcast_in_dim to `shape` (right-aligned) when the shape differs; 0-dim tensors pass.
Result<std::string> broadcastTo(RewriteBuilder& b, const std::string& v, const std::vector<SymInt>& shape, bool scalarsToo = false);
/// A prim call with one tensor output.
Result<std::string> prim(RewriteBuilder& b, const std::string& name, std::vector<NamedArgument> args);
/// Binary prim on two operands of the same dtype/shape.
Result<std::string> binaryPrim(RewriteBuilder& b, const std::string& name, const PrimOperand& x, const PrimOperand& y);
inline PrimOperand tensorOperand(const std::string& v) { return PrimOperand{v, {}}; }
inline PrimOperand num(double v) { return PrimOperand{"", Argument::floating(v)}; }
/// prims.<reduction>(x, dims) followed, when keepdim, by broadcast_in_dim back to the kept rank.
Result<std::string> reducePrim(RewriteBuilder& b, const std::string& prim, const std::string& x, const std::vector<int64_t>& dims,
                               bool keepdim, std::vector<NamedArgument> extra = {});

} // namespace irlens::core::rules
