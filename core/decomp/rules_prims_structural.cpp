// Core ATen -> Prims for reductions, normalizations, softmax, views, copies and factories, as the
// torch._refs references trace. Ops without a reference stay ATen (see whyNoRule in rules.cpp).

#include "core/decomp/rules_common.h"

namespace irlens::core::rules {

namespace {

std::vector<int64_t> wrapDims(const RewriteBuilder& b, const std::string& x, std::optional<std::vector<int64_t>> dims) {
    int64_t rank = rankOf(b, x);
    std::vector<int64_t> out;
    if (!dims || dims->empty()) {
        for (int64_t i = 0; i < rank; ++i) out.push_back(i);
        return out;
    }
    for (int64_t d : *dims) out.push_back(d < 0 ? d + rank : d);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

int64_t countOf(const RewriteBuilder& b, const std::string& x, const std::vector<int64_t>& dims) {
    int64_t n = 1;
    for (int64_t d : dims) n *= b.meta(x)->sizes[d].value;
    return n;
}

// softmax: m = amax(x, keepdim); e = exp(x - m); e / sum(e, keepdim)   (refs.softmax)
Status softmax(RewriteBuilder& b, bool log) {
    IRLENS_ASSIGN_OR_RETURN(x0, input(b, "self"));
    IRLENS_ASSIGN_OR_RETURN(dim0, b.args().integer("dim"));
    bool halfToFloat = valueOr(b.args().boolean("half_to_float"), false);
    const TensorMeta* m = b.meta(x0);
    ScalarType computation = opmathType(m->dtype);
    ScalarType result = halfToFloat ? ScalarType::Float32 : m->dtype;
    int64_t dim = dim0 < 0 ? dim0 + static_cast<int64_t>(m->sizes.size()) : dim0;
    IRLENS_ASSIGN_OR_RETURN(x, convertTensor(b, x0, computation));
    IRLENS_ASSIGN_OR_RETURN(mx, reducePrim(b, "amax", x, {dim}, true));
    IRLENS_ASSIGN_OR_RETURN(mxb, broadcastTo(b, mx, m->sizes));
    IRLENS_ASSIGN_OR_RETURN(shifted, binaryPrim(b, "sub", tensorOperand(x), tensorOperand(mxb)));
    IRLENS_ASSIGN_OR_RETURN(e, prim(b, "exp", {arg::tensor("self", shifted)}));
    IRLENS_ASSIGN_OR_RETURN(s, reducePrim(b, "sum", e, {dim}, true));
    std::string out;
    if (log) {
        IRLENS_ASSIGN_OR_RETURN(ls, prim(b, "log", {arg::tensor("self", s)}));
        IRLENS_ASSIGN_OR_RETURN(lsb, broadcastTo(b, ls, m->sizes));
        IRLENS_ASSIGN_OR_RETURN(r, binaryPrim(b, "sub", tensorOperand(shifted), tensorOperand(lsb)));
        out = r;
    } else {
        IRLENS_ASSIGN_OR_RETURN(sb, broadcastTo(b, s, m->sizes));
        IRLENS_ASSIGN_OR_RETURN(r, binaryPrim(b, "div", tensorOperand(e), tensorOperand(sb)));
        out = r;
    }
    IRLENS_ASSIGN_OR_RETURN(res, convertTensor(b, out, result));
    b.replaceOutput(0, res);
    return Status::ok();
}

// native_layer_norm: var_mean(correction=0, keepdim) over the trailing dims, rstd = rsqrt(var + eps).
Status layerNorm(RewriteBuilder& b) {
    IRLENS_ASSIGN_OR_RETURN(x0, input(b, "input"));
    IRLENS_ASSIGN_OR_RETURN(shape, b.args().symInts("normalized_shape"));
    IRLENS_ASSIGN_OR_RETURN(eps, b.args().number("eps"));
    const TensorMeta* m = b.meta(x0);
    ScalarType computation = opmathType(m->dtype);
    int64_t rank = static_cast<int64_t>(m->sizes.size());
    std::vector<int64_t> dims;
    for (int64_t i = rank - static_cast<int64_t>(shape.size()); i < rank; ++i) dims.push_back(i);
    IRLENS_ASSIGN_OR_RETURN(x, convertTensor(b, x0, computation));
    IRLENS_ASSIGN_OR_RETURN(var, reducePrim(b, "var", x, dims, true, {arg::floating("correction", 0)}));
    IRLENS_ASSIGN_OR_RETURN(sum, reducePrim(b, "sum", x, dims, true));
    IRLENS_ASSIGN_OR_RETURN(mean, binaryPrim(b, "div", tensorOperand(sum), num(static_cast<double>(countOf(b, x, dims)))));
    IRLENS_ASSIGN_OR_RETURN(ve, binaryPrim(b, "add", tensorOperand(var), num(eps)));
    IRLENS_ASSIGN_OR_RETURN(rstd, prim(b, "rsqrt", {arg::tensor("self", ve)}));
    IRLENS_ASSIGN_OR_RETURN(meanB, broadcastTo(b, mean, m->sizes));
    IRLENS_ASSIGN_OR_RETURN(centered, binaryPrim(b, "sub", tensorOperand(x), tensorOperand(meanB)));
    IRLENS_ASSIGN_OR_RETURN(rstdB, broadcastTo(b, rstd, m->sizes));
    IRLENS_ASSIGN_OR_RETURN(out0, binaryPrim(b, "mul", tensorOperand(centered), tensorOperand(rstdB)));
    std::string out = out0;
    for (const char* name : {"weight", "bias"}) {
        std::string v = b.args().tensorName(name);
        if (v.empty()) continue;
        IRLENS_ASSIGN_OR_RETURN(vc, convertTensor(b, v, computation));
        IRLENS_ASSIGN_OR_RETURN(vb, broadcastTo(b, vc, m->sizes));
        IRLENS_ASSIGN_OR_RETURN(r, binaryPrim(b, std::string(name) == "weight" ? "mul" : "add", tensorOperand(out), tensorOperand(vb)));
        out = r;
    }
    IRLENS_ASSIGN_OR_RETURN(normalizedOut, convertTensor(b, out, m->dtype));
    IRLENS_ASSIGN_OR_RETURN(meanOut, convertTensor(b, mean, m->dtype));
    IRLENS_ASSIGN_OR_RETURN(rstdOut, convertTensor(b, rstd, m->dtype));
    b.replaceOutput(0, normalizedOut);
    b.replaceOutput(1, meanOut);
    b.replaceOutput(2, rstdOut);
    return Status::ok();
}

// (x - running_mean) * rsqrt(running_var + eps) * weight + bias, per channel (dim 1).
Status batchNormEval(RewriteBuilder& b) {
    IRLENS_ASSIGN_OR_RETURN(x0, input(b, "input"));
    IRLENS_ASSIGN_OR_RETURN(rm, input(b, "running_mean"));
    IRLENS_ASSIGN_OR_RETURN(rv, input(b, "running_var"));
    IRLENS_ASSIGN_OR_RETURN(eps, b.args().number("eps"));
    const TensorMeta* m = b.meta(x0);
    if (m->sizes.size() < 2) return b.args().error("input", "expected (N, C, ...) input");
    ScalarType computation = opmathType(m->dtype);
    auto perChannel = [&](const std::string& v) -> Result<std::string> {
        IRLENS_ASSIGN_OR_RETURN(c, convertTensor(b, v, computation));
        return prim(b, "broadcast_in_dim", {arg::tensor("a", c), b.sizes("shape", m->sizes), arg::ints("broadcast_dimensions", {1})});
    };
    IRLENS_ASSIGN_OR_RETURN(x, convertTensor(b, x0, computation));
    IRLENS_ASSIGN_OR_RETURN(rvc, convertTensor(b, rv, computation));
    IRLENS_ASSIGN_OR_RETURN(ve, binaryPrim(b, "add", tensorOperand(rvc), num(eps)));
    IRLENS_ASSIGN_OR_RETURN(invstd, prim(b, "rsqrt", {arg::tensor("self", ve)}));
    IRLENS_ASSIGN_OR_RETURN(meanB, perChannel(rm));
    IRLENS_ASSIGN_OR_RETURN(centered, binaryPrim(b, "sub", tensorOperand(x), tensorOperand(meanB)));
    IRLENS_ASSIGN_OR_RETURN(invB, perChannel(invstd));
    IRLENS_ASSIGN_OR_RETURN(out0, binaryPrim(b, "mul", tensorOperand(centered), tensorOperand(invB)));
    std::string out = out0;
    for (const char* name : {"weight", "bias"}) {
        std::string v = b.args().tensorName(name);
        if (v.empty()) continue;
        IRLENS_ASSIGN_OR_RETURN(vb, perChannel(v));
        IRLENS_ASSIGN_OR_RETURN(r, binaryPrim(b, std::string(name) == "weight" ? "mul" : "add", tensorOperand(out), tensorOperand(vb)));
        out = r;
    }
    IRLENS_ASSIGN_OR_RETURN(o, convertTensor(b, out, m->dtype));
    b.replaceOutput(0, o);
    return Status::ok();
}

// sum / amax / amin / mean / var over dims with keepdim.
Status reduction(RewriteBuilder& b, const std::string& kind) {
    IRLENS_ASSIGN_OR_RETURN(x0, input(b, "self"));
    const TensorMeta* m = b.meta(x0);
    auto dims = wrapDims(b, x0, b.args().optInts("dim"));
    bool keepdim = b.args().optInteger("keepdim").value_or(0) != 0;
    auto requested = b.args().scalarType("dtype");
    IRLENS_ASSIGN_OR_RETURN(outMeta, inferSingleMeta(b.original(), b.graph()));
    ScalarType computation = opmathType(requested.value_or(m->dtype));
    if (kind == "sum" && categoryOf(outMeta.dtype) <= TypeCategory::Integer) computation = outMeta.dtype;
    if (kind == "amax" || kind == "amin") computation = m->dtype;
    IRLENS_ASSIGN_OR_RETURN(x, convertTensor(b, x0, computation));
    std::string out;
    if (kind == "mean") {
        IRLENS_ASSIGN_OR_RETURN(s, reducePrim(b, "sum", x, dims, keepdim));
        IRLENS_ASSIGN_OR_RETURN(d, binaryPrim(b, "div", tensorOperand(s), num(static_cast<double>(countOf(b, x, dims)))));
        out = d;
    } else if (kind == "var") {
        double correction = 1;
        if (!b.args().isNone("correction")) correction = valueOr(b.args().number("correction"), 1);
        if (b.original().target.overload() == "dim") correction = b.args().optInteger("unbiased").value_or(1) ? 1 : 0;
        IRLENS_ASSIGN_OR_RETURN(v, reducePrim(b, "var", x, dims, keepdim, {arg::floating("correction", correction)}));
        out = v;
    } else {
        IRLENS_ASSIGN_OR_RETURN(r, reducePrim(b, kind, x, dims, keepdim));
        out = r;
    }
    IRLENS_ASSIGN_OR_RETURN(res, convertTensor(b, out, outMeta.dtype));
    b.replaceOutput(0, res);
    return Status::ok();
}

// torch._refs._reshape_view_helper for static shapes: walk the target dims, collapsing input dims
// until one divides evenly (collapse_view), splitting off the target length (split_dim), squeezing
// trailing ones. nullopt when a collapse would not be a view or a size is symbolic (-> reshape).
struct ViewOp {
    enum Kind { Collapse, Split, Squeeze } kind;
    int64_t a = 0, b = 0;
};

std::optional<std::vector<ViewOp>> viewPlan(const TensorMeta& in, const std::vector<SymInt>& target) {
    for (const auto& s : in.sizes) if (!s.isStatic()) return std::nullopt;
    for (const auto& s : target) if (!s.isStatic()) return std::nullopt;
    if (in.sizes.empty() || target.empty()) return std::nullopt;
    TensorMeta cur = in;
    std::vector<ViewOp> ops;
    size_t idx = 0;
    auto sizeAt = [&](size_t i) { return cur.sizes[i].value; };
    for (const auto& len : target) {
        int64_t length = len.value;
        if (length <= 0) return std::nullopt;
        if (idx >= cur.sizes.size()) {
            if (length != 1) return std::nullopt;
            size_t last = cur.sizes.size() - 1;
            ops.push_back({ViewOp::Split, static_cast<int64_t>(last), sizeAt(last)});
            cur.sizes.push_back(SymInt::literal(1));
            cur.strides.push_back(SymInt::literal(1));
            ++idx;
            continue;
        }
        if (length == sizeAt(idx)) {
            ++idx;
            continue;
        }
        int64_t accum = sizeAt(idx);
        size_t end = idx;
        while (accum % length != 0) {
            if (++end >= cur.sizes.size()) return std::nullopt;
            accum *= sizeAt(end);
        }
        if (end != idx) {
            std::vector<SymInt> merged(cur.sizes.begin(), cur.sizes.begin() + static_cast<long>(idx));
            merged.push_back(SymInt::literal(accum));
            merged.insert(merged.end(), cur.sizes.begin() + static_cast<long>(end) + 1, cur.sizes.end());
            auto strides = meta::viewStrides(cur, merged);
            if (!strides) return std::nullopt;
            ops.push_back({ViewOp::Collapse, static_cast<int64_t>(idx), static_cast<int64_t>(end)});
            cur.sizes = merged;
            cur.strides = *strides;
        }
        if (accum != length) {
            ops.push_back({ViewOp::Split, static_cast<int64_t>(idx), length});
            SymInt stride = cur.strides[idx];
            cur.sizes[idx] = SymInt::literal(accum / length);
            cur.sizes.insert(cur.sizes.begin() + static_cast<long>(idx), SymInt::literal(length));
            cur.strides.insert(cur.strides.begin() + static_cast<long>(idx), meta::mulSym(stride, SymInt::literal(accum / length)));
        }
        ++idx;
    }
    while (idx < cur.sizes.size()) {
        if (sizeAt(idx) != 1) return std::nullopt;
        ops.push_back({ViewOp::Squeeze, static_cast<int64_t>(idx), 0});
        cur.sizes.erase(cur.sizes.begin() + static_cast<long>(idx));
        cur.strides.erase(cur.strides.begin() + static_cast<long>(idx));
    }
    return ops;
}

// Views and copies.
Status viewRule(RewriteBuilder& b) {
    IRLENS_ASSIGN_OR_RETURN(x, input(b, "self"));
    const TensorMeta* m = b.meta(x);
    // The target sizes only: the reshape prim copies, so the input's strides do not matter.
    IRLENS_ASSIGN_OR_RETURN(requested, b.args().symInts("size"));
    IRLENS_ASSIGN_OR_RETURN(sizes, meta::inferViewShape(b.args(), m->sizes, requested));
    TensorMeta outMeta;
    outMeta.sizes = sizes;
    bool same = m->sizes.size() == outMeta.sizes.size();
    for (size_t i = 0; same && i < m->sizes.size(); ++i) same = sameSize(m->sizes[i], outMeta.sizes[i]);
    if (same) {
        IRLENS_ASSIGN_OR_RETURN(out, prim(b, "view_of", {arg::tensor("a", x)}));
        b.replaceOutput(0, out);
        return Status::ok();
    }
    if (auto plan = viewPlan(*m, outMeta.sizes)) {
        std::string cur = x;
        for (const auto& stepOp : *plan) {
            Result<std::string> r = stepOp.kind == ViewOp::Collapse
                ? prim(b, "collapse_view", {arg::tensor("a", cur), arg::integer("start", stepOp.a), arg::integer("end", stepOp.b)})
                : stepOp.kind == ViewOp::Split
                ? prim(b, "split_dim", {arg::tensor("a", cur), arg::integer("dim", stepOp.a), arg::integer("outer_length", stepOp.b)})
                : prim(b, "squeeze", {arg::tensor("a", cur), arg::ints("dimensions", {stepOp.a})});
            if (!r) return r.status();
            cur = *r;
        }
        b.replaceOutput(0, cur);
        return Status::ok();
    }
    IRLENS_ASSIGN_OR_RETURN(out, prim(b, "reshape", {arg::tensor("a", x), b.sizes("shape", outMeta.sizes)}));
    b.replaceOutput(0, out);
    return Status::ok();
}

Status permuteRule(RewriteBuilder& b) {
    IRLENS_ASSIGN_OR_RETURN(x, input(b, "self"));
    IRLENS_ASSIGN_OR_RETURN(dims, b.args().ints("dims"));
    int64_t rank = rankOf(b, x);
    for (auto& d : dims) d = d < 0 ? d + rank : d;
    IRLENS_ASSIGN_OR_RETURN(out, prim(b, "transpose", {arg::tensor("a", x), arg::ints("permutation", dims)}));
    b.replaceOutput(0, out);
    return Status::ok();
}

Status expandLike(RewriteBuilder& b) {
    IRLENS_ASSIGN_OR_RETURN(x, input(b, "self"));
    IRLENS_ASSIGN_OR_RETURN(outMeta, inferSingleMeta(b.original(), b.graph()));
    const TensorMeta* m = b.meta(x);
    std::vector<int64_t> dims;
    if (b.original().target.op() == "unsqueeze") {
        IRLENS_ASSIGN_OR_RETURN(d0, b.args().integer("dim"));
        int64_t d = d0 < 0 ? d0 + static_cast<int64_t>(outMeta.sizes.size()) : d0;
        for (int64_t i = 0; i < static_cast<int64_t>(outMeta.sizes.size()); ++i)
            if (i != d) dims.push_back(i);
    } else {
        int64_t offset = static_cast<int64_t>(outMeta.sizes.size() - m->sizes.size());
        for (size_t i = 0; i < m->sizes.size(); ++i) dims.push_back(offset + static_cast<int64_t>(i));
    }
    IRLENS_ASSIGN_OR_RETURN(out, prim(b, "broadcast_in_dim", {arg::tensor("a", x), b.sizes("shape", outMeta.sizes), arg::ints("broadcast_dimensions", dims)}));
    b.replaceOutput(0, out);
    return Status::ok();
}

Status squeezeRule(RewriteBuilder& b) {
    IRLENS_ASSIGN_OR_RETURN(x, input(b, "self"));
    IRLENS_ASSIGN_OR_RETURN(dims0, b.args().ints("dim"));
    const TensorMeta* m = b.meta(x);
    std::vector<int64_t> dims;
    for (int64_t d : wrapDims(b, x, dims0))
        if (meta::isStaticOne(m->sizes[d])) dims.push_back(d);
    IRLENS_ASSIGN_OR_RETURN(out, dims.empty() ? prim(b, "view_of", {arg::tensor("a", x)})
                                           : prim(b, "squeeze", {arg::tensor("a", x), arg::ints("dimensions", dims)}));
    b.replaceOutput(0, out);
    return Status::ok();
}

Status cloneRule(RewriteBuilder& b) {
    IRLENS_ASSIGN_OR_RETURN(x, input(b, "self"));
    std::vector<NamedArgument> in{arg::tensor("self", x)};
    if (const Argument* f = b.args().get("memory_format"); f && f->kind == ArgKind::MemoryFormat) in.push_back(arg::kw(arg::copy("memory_format", *f)));
    IRLENS_ASSIGN_OR_RETURN(out, prim(b, "clone", std::move(in)));
    b.replaceOutput(0, out);
    return Status::ok();
}

Status toCopy(RewriteBuilder& b) {
    IRLENS_ASSIGN_OR_RETURN(x, input(b, "self"));
    auto dtype = b.args().scalarType("dtype");
    const TensorMeta* m = b.meta(x);
    IRLENS_ASSIGN_OR_RETURN(out, dtype && *dtype != m->dtype ? prim(b, "convert_element_type", {arg::tensor("a", x), arg::dtype("dtype", *dtype)})
                                                          : prim(b, "clone", {arg::tensor("self", x)}));
    b.replaceOutput(0, out);
    return Status::ok();
}

Status catRule(RewriteBuilder& b) {
    IRLENS_ASSIGN_OR_RETURN(outMeta, inferSingleMeta(b.original(), b.graph()));
    const Argument* list = b.args().get("tensors");
    if (!list || !list->isList()) return b.args().error("tensors", "expected a list");
    std::vector<std::string> converted;
    for (const auto& e : list->list) {
        const TensorMeta* m = b.meta(e.s);
        if (!m) return b.args().error("tensors", "no meta for '" + e.s + "'");
        if (m->sizes.size() == 1 && m->sizes[0].isStatic() && m->sizes[0].value == 0) continue;
        IRLENS_ASSIGN_OR_RETURN(c, convertTensor(b, e.s, outMeta.dtype));
        converted.push_back(c);
    }
    int64_t dim = b.args().optInteger("dim").value_or(0);
    if (dim < 0) dim += static_cast<int64_t>(outMeta.sizes.size());
    IRLENS_ASSIGN_OR_RETURN(out, prim(b, "cat", {NamedArgument{"tensors", Argument::tensors(converted), ArgumentKind::Positional}, arg::integer("dim", dim)}));
    b.replaceOutput(0, out);
    return Status::ok();
}

Status fullRule(RewriteBuilder& b) {
    IRLENS_ASSIGN_OR_RETURN(outMeta, inferSingleMeta(b.original(), b.graph()));
    const Argument* v = b.args().get("fill_value");
    if (!v) return b.args().error("fill_value", "missing");
    IRLENS_ASSIGN_OR_RETURN(out, prim(b, "full", {b.sizes("shape", outMeta.sizes), arg::copy("fill_value", *v), arg::kw(arg::dtype("dtype", outMeta.dtype)),
                                               arg::kw(NamedArgument{"device", [&] { Argument d; d.kind = ArgKind::Device; d.setDevice(outMeta.device); return d; }(), ArgumentKind::Positional}),
                                               arg::kw(arg::boolean("requires_grad", false))}));
    b.replaceOutput(0, out);
    return Status::ok();
}

// addmm(bias, m1, m2, beta, alpha) = beta * bias + alpha * mm(m1, m2); mm has no prim and stays.
Status addmm(RewriteBuilder& b) {
    IRLENS_ASSIGN_OR_RETURN(bias, input(b, "self"));
    IRLENS_ASSIGN_OR_RETURN(m1, input(b, "mat1"));
    IRLENS_ASSIGN_OR_RETURN(m2, input(b, "mat2"));
    double beta = valueOr(b.args().number("beta"), 1), alpha = valueOr(b.args().number("alpha"), 1);
    IRLENS_ASSIGN_OR_RETURN(mm, b.call(atenTarget("mm"), {arg::tensor("self", m1), arg::tensor("mat2", m2)}));
    std::string prod = mm;
    if (alpha != 1) {
        IRLENS_ASSIGN_OR_RETURN(s, binaryPrim(b, "mul", tensorOperand(mm), num(alpha)));
        prod = s;
    }
    if (beta == 0) {
        b.replaceOutput(0, prod);
        return Status::ok();
    }
    const TensorMeta* pm = b.meta(prod);
    IRLENS_ASSIGN_OR_RETURN(bb, broadcastTo(b, bias, pm->sizes, true));
    std::string biasTerm = bb;
    if (beta != 1) {
        IRLENS_ASSIGN_OR_RETURN(s, binaryPrim(b, "mul", tensorOperand(bb), num(beta)));
        biasTerm = s;
    }
    IRLENS_ASSIGN_OR_RETURN(out, binaryPrim(b, "add", tensorOperand(biasTerm), tensorOperand(prod)));
    b.replaceOutput(0, out);
    return Status::ok();
}

// Integer arange -> prims.iota(length, start, step).
Status arangeIota(RewriteBuilder& b) {
    IRLENS_ASSIGN_OR_RETURN(outMeta, inferSingleMeta(b.original(), b.graph()));
    if (categoryOf(outMeta.dtype) != TypeCategory::Integer) return b.args().error("dtype", "prims.iota only makes integer ranges; a floating arange stays ATen");
    auto start = b.args().optInteger("start"), step = b.args().optInteger("step");
    const Argument* startArg = b.args().get("start");
    const Argument* stepArg = b.args().get("step");
    if (!start || !step || (startArg && startArg->kind == ArgKind::Float) || (stepArg && stepArg->kind == ArgKind::Float))
        return b.args().error("start", "prims.iota needs integer start and step");
    Argument device;
    device.kind = ArgKind::Device;
    device.setDevice(outMeta.device);
    IRLENS_ASSIGN_OR_RETURN(out, prim(b, "iota", {outMeta.sizes[0].isStatic() ? arg::integer("length", outMeta.sizes[0].value) : b.sizes("length", {outMeta.sizes[0]}), arg::kw(arg::integer("start", *start)),
                                               arg::kw(arg::integer("step", *step)), arg::kw(arg::dtype("dtype", outMeta.dtype)),
                                               arg::kw(NamedArgument{"device", device, ArgumentKind::Keyword}), arg::kw(arg::boolean("requires_grad", false))}));
    b.replaceOutput(0, out);
    return Status::ok();
}

} // namespace

void registerPrimsStructural(std::vector<DecompRule>& out) {
    const auto S = DecompStage::ToPrims;
    out.push_back({"aten::_softmax.default", S, "_softmax -> amax, sub, exp, sum, div", "torch._refs.softmax",
                   "In the computation dtype: m = amax(x, dim, keepdim); e = exp(x - m); e / sum(e, dim, keepdim). Subtracting the max keeps exp from overflowing; the reductions re-insert the reduced dim with broadcast_in_dim.",
                   [](RewriteBuilder& b) { return softmax(b, false); }});
    out.push_back({"aten::_log_softmax.default", S, "_log_softmax -> x - m - log(sum(exp(x - m)))", "torch._refs.log_softmax",
                   "log_softmax(x) = (x - m) - log(sum(exp(x - m))), m = amax(x, dim): a logsumexp with the max shifted out.",
                   [](RewriteBuilder& b) { return softmax(b, true); }});
    out.push_back({"aten::native_layer_norm.default", S, "native_layer_norm -> var, sum/div (mean), rsqrt, sub, mul, add", "torch._refs.native_layer_norm",
                   "Over the trailing dims of normalized_shape: var (correction 0) and mean with keepdim, rstd = rsqrt(var + eps), out = (x - mean) * rstd * weight + bias, in the computation dtype, converted back.", layerNorm});
    out.push_back({"aten::_native_batch_norm_legit_no_training.default", S, "batch norm (eval) -> (x - mean) * rsqrt(var + eps) * w + b",
                   "torch._decomp.decompositions.native_batch_norm_helper (training=False)",
                   "Eval-mode batch norm uses the running statistics: each per-channel vector is broadcast along dim 1 with broadcast_in_dim.", batchNormEval});
    out.push_back({"aten::sum.dim_IntList", S, "sum -> prims.sum (+ broadcast_in_dim for keepdim)", "torch._refs.sum",
                   "Integer and bool inputs accumulate in int64; prims.sum drops the reduced dims, keepdim re-inserts them.", [](RewriteBuilder& b) { return reduction(b, "sum"); }});
    out.push_back({"aten::mean.dim", S, "mean -> prims.sum / count", "torch._refs.mean",
                   "mean is the sum in the computation dtype divided by the number of reduced elements.", [](RewriteBuilder& b) { return reduction(b, "mean"); }});
    out.push_back({"aten::amax.default", S, "amax -> prims.amax", "torch._refs.amax", "A reduction prim; keepdim via broadcast_in_dim.",
                   [](RewriteBuilder& b) { return reduction(b, "amax"); }});
    out.push_back({"aten::amin.default", S, "amin -> prims.amin", "torch._refs.amin", "A reduction prim; keepdim via broadcast_in_dim.",
                   [](RewriteBuilder& b) { return reduction(b, "amin"); }});
    out.push_back({"aten::var.correction", S, "var -> prims.var", "torch._refs.var", "prims.var takes the correction directly (0 = population variance).",
                   [](RewriteBuilder& b) { return reduction(b, "var"); }});
    out.push_back({"aten::view.default", S, "view -> collapse_view / split_dim / squeeze (or view_of)", "torch._refs.view (_reshape_view_helper)",
                   "A view to the same shape is view_of. Otherwise the reference walks the target dims: input dims are merged with collapse_view until their product divides the target length, split_dim splits that length off, and trailing size-1 dims are squeezed. (Symbolic shapes, or a merge that is not a view of the input's strides, use the copying reshape prim.)", viewRule});
    out.push_back({"aten::permute.default", S, "permute -> prims.transpose", "torch._refs.permute", "prims.transpose takes the full permutation.", permuteRule});
    out.push_back({"aten::expand.default", S, "expand -> prims.broadcast_in_dim", "torch._refs.expand",
                   "broadcast_in_dim with the input's dims aligned to the right of the new shape.", expandLike});
    out.push_back({"aten::unsqueeze.default", S, "unsqueeze -> prims.broadcast_in_dim", "torch._refs.unsqueeze (expand_dims)",
                   "expand_dims is broadcast_in_dim listing every old dim and leaving the new one out.", expandLike});
    out.push_back({"aten::squeeze.dims", S, "squeeze -> prims.squeeze", "torch._refs.squeeze",
                   "Only the listed dims of size 1 are removed; if none, the result is view_of.", squeezeRule});
    out.push_back({"aten::clone.default", S, "clone -> prims.clone", "torch._refs.clone", "A copy with the requested memory format.", cloneRule});
    out.push_back({"aten::_to_copy.default", S, "_to_copy -> convert_element_type (or clone)", "torch._refs._to_copy",
                   "A dtype change is convert_element_type; a same-dtype copy is a clone.", toCopy});
    out.push_back({"aten::alias.default", S, "alias -> prims.view_of", "torch._refs.alias", "An alias is a view of the whole tensor.",
                   [](RewriteBuilder& b) -> Status {
                       IRLENS_ASSIGN_OR_RETURN(x, input(b, "self"));
                       IRLENS_ASSIGN_OR_RETURN(out, prim(b, "view_of", {arg::tensor("a", x)}));
                       b.replaceOutput(0, out);
                       return Status::ok();
                   }});
    out.push_back({"aten::cat.default", S, "cat -> convert_element_type + prims.cat", "torch._refs.cat",
                   "Inputs are promoted to a common dtype (NO_OPMATH), 1-D empty tensors are dropped, then prims.cat.", catRule});
    out.push_back({"aten::full.default", S, "full -> prims.full", "torch._refs.full", "The dtype defaults to the fill value's Python type.", fullRule});
    out.push_back({"aten::arange.start_step", S, "arange (integer) -> prims.iota", "torch._refs.arange",
                   "An integer range is prims.iota(length, start, step); floating ranges need arithmetic on top and stay ATen here.", arangeIota});
    out.push_back({"aten::addmm.default", S, "addmm -> mm + broadcast_in_dim + prims.add", "torch._decomp.decompositions.addmm",
                   "addmm(bias, a, b) = beta * bias + alpha * mm(a, b). mm has no prim and stays ATen; the bias is broadcast to the product's shape and added with the add prim.", addmm});
}

} // namespace irlens::core::rules
