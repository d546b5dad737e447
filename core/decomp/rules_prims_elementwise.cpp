// Core ATen -> Prims for elementwise ops, as torch._refs trace: explicit convert_element_type to the
// computation dtype (elementwise_type_promotion_wrapper), explicit broadcast_in_dim (_maybe_broadcast),
// the prim, and a final convert_element_type to the result dtype.

#include "core/decomp/rules_common.h"
#include "core/ops/op_semantics.h"

#include <cmath>

namespace irlens::core::rules {

// ---------------------------------------------------------------- helpers

Result<PrimOperand> operandOf(const RewriteBuilder& b, const std::string& argName) {
    const Argument* a = b.args().get(argName);
    if (!a) return b.args().error(argName, "missing");
    if (a->kind == ArgKind::Tensor) return PrimOperand{a->s, {}};
    if (a->kind == ArgKind::Int || a->kind == ArgKind::Float || a->kind == ArgKind::Bool) return PrimOperand{"", *a};
    return b.args().error(argName, "expected a tensor or a number");
}

NamedArgument primArg(const std::string& name, const PrimOperand& op) {
    return op.isTensor() ? arg::tensor(name, op.tensor) : arg::copy(name, op.number);
}

Result<std::string> convertTensor(RewriteBuilder& b, const std::string& v, ScalarType dtype) {
    const TensorMeta* m = b.meta(v);
    if (m && m->dtype == dtype) return v;
    return prim(b, "convert_element_type", {arg::tensor("a", v), arg::dtype("dtype", dtype)});
}

Result<PrimOperand> convertTo(RewriteBuilder& b, const PrimOperand& op, ScalarType dtype) {
    if (op.isTensor()) {
        IRLENS_ASSIGN_OR_RETURN(v, convertTensor(b, op.tensor, dtype));
        return tensorOperand(v);
    }
    // A Python number takes the Python type of the computation dtype (int -> float, ...).
    PrimOperand out = op;
    double value = op.number.kind == ArgKind::Float ? op.number.f : op.number.kind == ArgKind::Bool ? (op.number.b ? 1 : 0) : double(op.number.i);
    switch (categoryOf(dtype)) {
    case TypeCategory::Floating: case TypeCategory::Complex: out.number = Argument::floating(value); break;
    case TypeCategory::Integer: out.number = op.number.kind == ArgKind::Float ? op.number : Argument::integer(static_cast<int64_t>(value)); break;
    case TypeCategory::Bool: break;
    }
    return out;
}

Result<std::string> broadcastTo(RewriteBuilder& b, const std::string& v, const std::vector<SymInt>& shape, bool scalarsToo) {
    const TensorMeta* m = b.meta(v);
    if (!m) return b.args().error("", "no meta for '" + v + "'");
    if (m->sizes.empty() && !scalarsToo) return v; // CPU scalar tensors are exempt (_maybe_broadcast)
    bool same = m->sizes.size() == shape.size();
    for (size_t i = 0; same && i < shape.size(); ++i) same = sameSize(m->sizes[i], shape[i]);
    if (same) return v;
    std::vector<int64_t> dims;
    int64_t offset = static_cast<int64_t>(shape.size() - m->sizes.size());
    for (size_t i = 0; i < m->sizes.size(); ++i) dims.push_back(offset + static_cast<int64_t>(i));
    return prim(b, "broadcast_in_dim", {arg::tensor("a", v), b.sizes("shape", shape), arg::ints("broadcast_dimensions", dims)});
}

Result<std::string> prim(RewriteBuilder& b, const std::string& name, std::vector<NamedArgument> args) {
    return b.call(primsTarget(name), std::move(args));
}

Result<std::string> binaryPrim(RewriteBuilder& b, const std::string& name, const PrimOperand& x, const PrimOperand& y) {
    return prim(b, name, {primArg("self", x), primArg("other", y)});
}

Result<std::string> reducePrim(RewriteBuilder& b, const std::string& name, const std::string& x, const std::vector<int64_t>& dims,
                               bool keepdim, std::vector<NamedArgument> extra) {
    const TensorMeta* m = b.meta(x);
    std::vector<NamedArgument> args{arg::tensor("inp", x), arg::ints("dims", dims)};
    args.insert(args.end(), extra.begin(), extra.end());
    IRLENS_ASSIGN_OR_RETURN(r, prim(b, name, std::move(args)));
    if (!keepdim) return r;
    std::vector<SymInt> kept = m->sizes;
    std::vector<int64_t> bdims;
    for (size_t i = 0; i < kept.size(); ++i) {
        if (std::find(dims.begin(), dims.end(), static_cast<int64_t>(i)) != dims.end()) kept[i] = SymInt::literal(1);
        else bdims.push_back(static_cast<int64_t>(i));
    }
    return prim(b, "broadcast_in_dim", {arg::tensor("a", r), b.sizes("shape", kept), arg::ints("broadcast_dimensions", bdims)});
}

namespace {

// ---------------------------------------------------------------- the generic elementwise rule

Status elementwise(RewriteBuilder& b) {
    const Node& n = b.original();
    const ElementwiseInfo* info = elementwiseInfo(n.target.op(), n.target.overload());
    if (!info || info->prim.empty()) return b.args().error("", "no elementwise prim for " + n.target.shortName());
    if (n.target.overload().find("mode") != std::string::npos && !b.args().isNone("rounding_mode"))
        return b.args().error("rounding_mode", "div with a rounding mode is not decomposed by irlens yet");

    std::vector<PrimOperand> ops;
    std::vector<PromotionOperand> promo;
    for (const auto& name : info->promoting) {
        IRLENS_ASSIGN_OR_RETURN(op, operandOf(b, name));
        IRLENS_ASSIGN_OR_RETURN(p, b.args().operand(name));
        ops.push_back(op);
        promo.push_back(p);
    }
    auto types = elementwiseDtypes(promo, info->kind);
    if (!types) return b.args().error("", types.error());
    for (auto& op : ops) {
        IRLENS_ASSIGN_OR_RETURN(c, convertTo(b, op, types->computation));
        op = c;
    }
    // where: the condition takes part in broadcasting, not in promotion.
    std::string condition = n.target.op() == "where" ? b.args().tensorName("condition") : std::string();
    std::vector<std::vector<SymInt>> shapes;
    for (const auto& op : ops)
        if (op.isTensor()) shapes.push_back(b.meta(op.tensor)->sizes);
    if (!condition.empty()) shapes.push_back(b.meta(condition)->sizes);
    IRLENS_ASSIGN_OR_RETURN(shape, broadcastShapes(shapes));
    for (auto& op : ops)
        if (op.isTensor()) {
            IRLENS_ASSIGN_OR_RETURN(v, broadcastTo(b, op.tensor, shape));
            op.tensor = v;
        }
    if (!condition.empty()) {
        IRLENS_ASSIGN_OR_RETURN(c, broadcastTo(b, condition, shape));
        condition = c;
    }
    // alpha scales `other` before add/sub (refs.add: b = prims.mul(b, alpha)).
    if ((n.target.op() == "add" || n.target.op() == "sub") && !b.args().isNone("alpha")) {
        IRLENS_ASSIGN_OR_RETURN(alpha, b.args().number("alpha"));
        if (alpha != 1) {
            IRLENS_ASSIGN_OR_RETURN(scaled, convertTo(b, PrimOperand{"", Argument::floating(alpha)}, types->computation));
            IRLENS_ASSIGN_OR_RETURN(m, binaryPrim(b, "mul", ops[1], scaled));
            ops[1] = tensorOperand(m);
        }
    }
    std::string out;
    if (n.target.op() == "rsub") std::swap(ops[0], ops[1]);
    if (!condition.empty()) {
        IRLENS_ASSIGN_OR_RETURN(r, prim(b, "where", {arg::tensor("pred", condition), primArg("a", ops[0]), primArg("b", ops[1])}));
        out = r;
    } else if (ops.size() == 1) {
        IRLENS_ASSIGN_OR_RETURN(r, prim(b, info->prim, {primArg("self", ops[0])}));
        out = r;
    } else {
        IRLENS_ASSIGN_OR_RETURN(r, binaryPrim(b, info->prim, ops[0], ops[1]));
        out = r;
    }
    IRLENS_ASSIGN_OR_RETURN(result, convertTensor(b, out, types->result));
    b.replaceOutput(0, result);
    return Status::ok();
}

// Unary refs written in terms of other refs: promote the input, run `body` in the computation
// dtype, convert the result.
template <class Body>
Status composite(RewriteBuilder& b, PromotionKind kind, Body body) {
    IRLENS_ASSIGN_OR_RETURN(x, input(b, "self"));
    const TensorMeta* m = b.meta(x);
    IRLENS_ASSIGN_OR_RETURN(types, elementwiseDtypes({PromotionOperand::tensor(m->dtype, static_cast<int>(m->sizes.size()))}, kind));
    IRLENS_ASSIGN_OR_RETURN(xc, convertTensor(b, x, types.computation));
    auto r = body(xc, types.computation);
    if (!r) return r.status();
    IRLENS_ASSIGN_OR_RETURN(out, convertTensor(b, *r, types.result));
    b.replaceOutput(0, out);
    return Status::ok();
}

Status sigmoid(RewriteBuilder& b) {
    return composite(b, PromotionKind::IntToFloat, [&](const std::string& x, ScalarType) -> Result<std::string> {
        IRLENS_ASSIGN_OR_RETURN(neg, prim(b, "neg", {arg::tensor("self", x)}));
        IRLENS_ASSIGN_OR_RETURN(e, prim(b, "exp", {arg::tensor("self", neg)}));
        IRLENS_ASSIGN_OR_RETURN(d, binaryPrim(b, "add", num(1.0), tensorOperand(e)));
        return binaryPrim(b, "div", num(1.0), tensorOperand(d));
    });
}

Status relu(RewriteBuilder& b) {
    return composite(b, PromotionKind::Default, [&](const std::string& x, ScalarType dt) -> Result<std::string> {
        IRLENS_ASSIGN_OR_RETURN(zero, convertTo(b, PrimOperand{"", Argument::integer(0)}, dt));
        IRLENS_ASSIGN_OR_RETURN(le, binaryPrim(b, "le", tensorOperand(x), zero));
        return prim(b, "where", {arg::tensor("pred", le), primArg("a", zero), arg::tensor("b", x)});
    });
}

Status gelu(RewriteBuilder& b) {
    std::string approximate = b.args().string("approximate", "none");
    return composite(b, PromotionKind::Default, [&](const std::string& x, ScalarType) -> Result<std::string> {
        if (approximate == "tanh") {
            // 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3)))
            const double kBeta = std::sqrt(2.0) * (2.0 / std::sqrt(M_PI)) * 0.5;
            IRLENS_ASSIGN_OR_RETURN(x2, binaryPrim(b, "mul", tensorOperand(x), tensorOperand(x)));
            IRLENS_ASSIGN_OR_RETURN(x3, binaryPrim(b, "mul", tensorOperand(x2), tensorOperand(x)));
            IRLENS_ASSIGN_OR_RETURN(k, binaryPrim(b, "mul", tensorOperand(x3), num(0.044715)));
            IRLENS_ASSIGN_OR_RETURN(inner0, binaryPrim(b, "add", tensorOperand(x), tensorOperand(k)));
            IRLENS_ASSIGN_OR_RETURN(inner, binaryPrim(b, "mul", tensorOperand(inner0), num(kBeta)));
            IRLENS_ASSIGN_OR_RETURN(th, prim(b, "tanh", {arg::tensor("self", inner)}));
            IRLENS_ASSIGN_OR_RETURN(one, binaryPrim(b, "add", num(1.0), tensorOperand(th)));
            IRLENS_ASSIGN_OR_RETURN(half, binaryPrim(b, "mul", tensorOperand(x), num(0.5)));
            return binaryPrim(b, "mul", tensorOperand(half), tensorOperand(one));
        }
        // x * 0.5 * (1 + erf(x * M_SQRT1_2))
        IRLENS_ASSIGN_OR_RETURN(half, binaryPrim(b, "mul", tensorOperand(x), num(0.5)));
        IRLENS_ASSIGN_OR_RETURN(scaled, binaryPrim(b, "mul", tensorOperand(x), num(M_SQRT1_2)));
        IRLENS_ASSIGN_OR_RETURN(e, prim(b, "erf", {arg::tensor("self", scaled)}));
        IRLENS_ASSIGN_OR_RETURN(one, binaryPrim(b, "add", num(1.0), tensorOperand(e)));
        return binaryPrim(b, "mul", tensorOperand(half), tensorOperand(one));
    });
}

// clamp/hardtanh: for each bound, where(ge(a, min) | isnan(a), a, min) (refs.clamp).
Status clampLike(RewriteBuilder& b, const std::string& minArg, const std::string& maxArg) {
    return composite(b, PromotionKind::Default, [&](const std::string& x, ScalarType dt) -> Result<std::string> {
        IRLENS_ASSIGN_OR_RETURN(isnan, binaryPrim(b, "ne", tensorOperand(x), tensorOperand(x)));
        std::string a = x;
        for (const auto& [name, cmp] : {std::pair<std::string, std::string>{minArg, "ge"}, {maxArg, "le"}}) {
            if (name.empty() || b.args().isNone(name)) continue;
            IRLENS_ASSIGN_OR_RETURN(bound0, operandOf(b, name));
            if (bound0.isTensor()) return b.args().error(name, "tensor bounds are not decomposed by irlens yet");
            IRLENS_ASSIGN_OR_RETURN(bound, convertTo(b, bound0, dt));
            IRLENS_ASSIGN_OR_RETURN(c, binaryPrim(b, cmp, tensorOperand(a), bound));
            IRLENS_ASSIGN_OR_RETURN(keep, binaryPrim(b, "bitwise_or", tensorOperand(c), tensorOperand(isnan)));
            IRLENS_ASSIGN_OR_RETURN(w, prim(b, "where", {arg::tensor("pred", keep), arg::tensor("a", a), primArg("b", bound)}));
            a = w;
        }
        return a;
    });
}

Status leakyRelu(RewriteBuilder& b) {
    return composite(b, PromotionKind::Default, [&](const std::string& x, ScalarType dt) -> Result<std::string> {
        double slope = valueOr(b.args().number("negative_slope"), 0.01);
        IRLENS_ASSIGN_OR_RETURN(zero, convertTo(b, PrimOperand{"", Argument::integer(0)}, dt));
        IRLENS_ASSIGN_OR_RETURN(gt, binaryPrim(b, "gt", tensorOperand(x), zero));
        IRLENS_ASSIGN_OR_RETURN(m, binaryPrim(b, "mul", tensorOperand(x), num(slope)));
        return prim(b, "where", {arg::tensor("pred", gt), arg::tensor("a", x), arg::tensor("b", m)});
    });
}

Status logicalNot(RewriteBuilder& b) {
    IRLENS_ASSIGN_OR_RETURN(x, input(b, "self"));
    const TensorMeta* m = b.meta(x);
    std::string out;
    if (m->dtype == ScalarType::Bool) {
        IRLENS_ASSIGN_OR_RETURN(r, prim(b, "bitwise_not", {arg::tensor("self", x)}));
        out = r;
    } else {
        IRLENS_ASSIGN_OR_RETURN(zero, convertTo(b, PrimOperand{"", Argument::integer(0)}, m->dtype));
        IRLENS_ASSIGN_OR_RETURN(r, binaryPrim(b, "eq", tensorOperand(x), zero));
        out = r;
    }
    b.replaceOutput(0, out);
    return Status::ok();
}

} // namespace

const DecompRule& elementwiseToPrims() {
    static const DecompRule rule{"aten::<elementwise>", DecompStage::ToPrims, "elementwise op -> convert_element_type + broadcast_in_dim + prim",
                                 "torch._refs (elementwise_type_promotion_wrapper, _maybe_broadcast)",
                                 "Prims neither promote nor broadcast. The reference computes (computation, result) dtypes with elementwise_dtypes, converts each tensor operand to the computation dtype, broadcasts every operand that is not a 0-dim tensor to the common shape with broadcast_in_dim, calls the prim, and converts the result to the result dtype.",
                                 elementwise};
    return rule;
}

void registerPrimsElementwise(std::vector<DecompRule>& out) {
    const auto S = DecompStage::ToPrims;
    out.push_back({"aten::sigmoid.default", S, "sigmoid -> 1 / (1 + exp(-x))", "torch._refs.sigmoid",
                   "INT_TO_FLOAT promotion, then true_divide(1, add(1, exp(neg(x)))) in prims: neg, exp, add, div.", sigmoid});
    out.push_back({"aten::relu.default", S, "relu -> where(le(x, 0), 0, x)", "torch._refs.nn.functional.relu",
                   "relu is where(x <= 0, 0, x): a comparison prim and prims.where with a scalar 0.", relu});
    out.push_back({"aten::gelu.default", S, "gelu -> x * 0.5 * (1 + erf(x / sqrt(2)))", "torch._refs.nn.functional.gelu",
                   "The exact gelu is x * 0.5 * (1 + erf(x * M_SQRT1_2)); the tanh approximation uses 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3))). Half inputs compute in float32 (opmath).", gelu});
    out.push_back({"aten::hardtanh.default", S, "hardtanh -> clamp (ge/le, isnan, bitwise_or, where)", "torch._refs.nn.functional.hardtanh -> torch._refs.clamp",
                   "clamp keeps NaNs: for each bound it selects a where (a >= min) | isnan(a), else the bound.",
                   [](RewriteBuilder& b) { return clampLike(b, "min_val", "max_val"); }});
    out.push_back({"aten::clamp.default", S, "clamp -> ge/le, isnan, bitwise_or, where", "torch._refs.clamp",
                   "For each bound: where((a >= min) | isnan(a), a, min), then the same with <= max.", [](RewriteBuilder& b) { return clampLike(b, "min", "max"); }});
    out.push_back({"aten::leaky_relu.default", S, "leaky_relu -> where(x > 0, x, x * slope)", "torch._refs.nn.functional.leaky_relu",
                   "where(gt(x, 0), x, mul(x, negative_slope)).", leakyRelu});
    out.push_back({"aten::logical_not.default", S, "logical_not -> bitwise_not (bool) or eq(x, 0)", "torch._refs.logical_not",
                   "A bool input is negated bitwise; other dtypes compare with zero.", logicalNot});
}

} // namespace irlens::core::rules
