// matmul and scaled_dot_product_attention, following ATen's CompositeImplicitAutograd kernels
// (LinearAlgebra.cpp matmul, attention.cpp _scaled_dot_product_attention_math) and the CPU flash
// attention decomposition in torch/_decomp/decompositions.py.

#include "core/decomp/rules_common.h"

#include <cmath>

namespace irlens::core::rules {

namespace {

std::vector<SymInt> sizesOf(const RewriteBuilder& b, const std::string& v) {
    const TensorMeta* m = b.meta(v);
    return m ? m->sizes : std::vector<SymInt>{};
}

} // namespace

Status matmulRule(RewriteBuilder& b) {
    IRLENS_ASSIGN_OR_RETURN(x, input(b, "self"));
    IRLENS_ASSIGN_OR_RETURN(y, input(b, "other"));
    auto xs = sizesOf(b, x), ys = sizesOf(b, y);
    size_t d1 = xs.size(), d2 = ys.size();
    if (d1 == 2 && d2 == 2) {
        IRLENS_ASSIGN_OR_RETURN(out, b.call(atenTarget("mm"), {arg::tensor("self", x), arg::tensor("mat2", y)}));
        b.replaceOutput(0, out);
        return Status::ok();
    }
    if (d1 == 1 && d2 == 2) {
        IRLENS_ASSIGN_OR_RETURN(u, b.call(atenTarget("unsqueeze"), {arg::tensor("self", x), arg::integer("dim", 0)}));
        IRLENS_ASSIGN_OR_RETURN(mm, b.call(atenTarget("mm"), {arg::tensor("self", u), arg::tensor("mat2", y)}));
        IRLENS_ASSIGN_OR_RETURN(out, b.call(atenTarget("squeeze", "dims"), {arg::tensor("self", mm), arg::ints("dim", {0})}));
        b.replaceOutput(0, out);
        return Status::ok();
    }
    if (d1 >= 3 && d2 == 2) {
        // Fold the batch into the rows: reshape to 2-D, mm, _unsafe_view to the result shape.
        SymInt rows = SymInt::literal(1);
        for (size_t i = 0; i + 1 < d1; ++i) rows = meta::mulSym(rows, xs[i]);
        IRLENS_ASSIGN_OR_RETURN(flat, reshapeTo(b, x, {rows, xs.back()}));
        IRLENS_ASSIGN_OR_RETURN(mm, b.call(atenTarget("mm"), {arg::tensor("self", flat), arg::tensor("mat2", y)}));
        std::vector<SymInt> shape(xs.begin(), xs.end() - 1);
        shape.push_back(ys.back());
        IRLENS_ASSIGN_OR_RETURN(out, b.call(atenTarget("_unsafe_view"), {arg::tensor("self", mm), b.sizes("size", shape)}));
        b.replaceOutput(0, out);
        return Status::ok();
    }
    if (d1 >= 2 && d2 >= 2) {
        std::vector<SymInt> bx(xs.begin(), xs.end() - 2), by(ys.begin(), ys.end() - 2);
        auto batch = broadcastShapes({bx, by});
        if (!batch) return b.args().error("", batch.error());
        SymInt product = meta::numel(*batch);
        const SymInt &n = xs[d1 - 2], &m1 = xs[d1 - 1], &m2 = ys[d2 - 2], &p = ys[d2 - 1];
        auto expanded = [&](const std::string& v, const SymInt& r, const SymInt& c) -> Result<std::string> {
            std::vector<SymInt> size = *batch;
            size.push_back(r);
            size.push_back(c);
            IRLENS_ASSIGN_OR_RETURN(e, b.call(atenTarget("expand"), {arg::tensor("self", v), b.sizes("size", size)}));
            return reshapeTo(b, e, {product, r, c});
        };
        IRLENS_ASSIGN_OR_RETURN(x3, expanded(x, n, m1));
        IRLENS_ASSIGN_OR_RETURN(y3, expanded(y, m2, p));
        IRLENS_ASSIGN_OR_RETURN(bmm, b.call(atenTarget("bmm"), {arg::tensor("self", x3), arg::tensor("mat2", y3)}));
        std::vector<SymInt> shape = *batch;
        shape.push_back(n);
        shape.push_back(p);
        IRLENS_ASSIGN_OR_RETURN(out, b.call(atenTarget("_unsafe_view"), {arg::tensor("self", bmm), b.sizes("size", shape)}));
        b.replaceOutput(0, out);
        return Status::ok();
    }
    return b.args().error("", "matmul of ranks " + std::to_string(d1) + " and " + std::to_string(d2) +
                                  " (dot/mv forms) is not decomposed by irlens yet");
}

Status sdpaRule(RewriteBuilder& b) {
    const NodeArgs& a = b.args();
    IRLENS_ASSIGN_OR_RETURN(q, input(b, "query"));
    IRLENS_ASSIGN_OR_RETURN(k, input(b, "key"));
    IRLENS_ASSIGN_OR_RETURN(v, input(b, "value"));
    if (a.optInteger("is_causal").value_or(0) != 0) return a.error("is_causal", "causal attention is not decomposed by irlens yet");
    if (a.optInteger("enable_gqa").value_or(0) != 0) return a.error("enable_gqa", "grouped-query attention is not decomposed by irlens yet");
    std::string mask = a.tensorName("attn_mask");
    if (!mask.empty() && b.meta(mask)->dtype == ScalarType::Bool)
        return a.error("attn_mask", "boolean attention masks are not decomposed by irlens yet");
    double dropoutP = a.isNone("dropout_p") ? 0.0 : valueOr(a.number("dropout_p"), 0.0);
    if (dropoutP != 0) return a.error("dropout_p", "attention dropout is not decomposed by irlens yet");
    auto qs = sizesOf(b, q);
    if (qs.size() < 2 || !qs.back().isStatic()) return a.error("query", "expected a query with a static last dim");
    double scale = 1.0 / std::sqrt(static_cast<double>(qs.back().value));
    if (!a.isNone("scale")) {
        IRLENS_ASSIGN_OR_RETURN(s, a.number("scale"));
        scale = s;
    }
    double factor = std::sqrt(scale);
    IRLENS_ASSIGN_OR_RETURN(qScaled, b.call(atenTarget("mul", "Tensor"), {arg::tensor("self", q), arg::floating("other", factor)}));
    IRLENS_ASSIGN_OR_RETURN(kT, b.call(atenTarget("transpose", "int"), {arg::tensor("self", k), arg::integer("dim0", -2), arg::integer("dim1", -1)}));
    IRLENS_ASSIGN_OR_RETURN(kScaled, b.call(atenTarget("mul", "Tensor"), {arg::tensor("self", kT), arg::floating("other", factor)}));
    IRLENS_ASSIGN_OR_RETURN(attn, b.call(atenTarget("matmul"), {arg::tensor("self", qScaled), arg::tensor("other", kScaled)}));
    if (!mask.empty()) {
        IRLENS_ASSIGN_OR_RETURN(masked, b.call(atenTarget("add", "Tensor"), {arg::tensor("self", attn), arg::tensor("other", mask)}));
        attn = masked;
    }
    IRLENS_ASSIGN_OR_RETURN(probs, b.call(atenTarget("softmax", "int"), {arg::tensor("self", attn), arg::integer("dim", -1)}));
    IRLENS_ASSIGN_OR_RETURN(out, b.call(atenTarget("matmul"), {arg::tensor("self", probs), arg::tensor("other", v)}));
    if (rankOf(b, out) == 4) {
        // Keep the fused kernel's (N, L, H, E) layout: transpose, contiguous, transpose back.
        IRLENS_ASSIGN_OR_RETURN(t1, b.call(atenTarget("transpose", "int"), {arg::tensor("self", out), arg::integer("dim0", 1), arg::integer("dim1", 2)}));
        IRLENS_ASSIGN_OR_RETURN(c, b.call(atenTarget("clone"), {arg::tensor("self", t1), arg::kw(arg::memoryFormat("memory_format", MemoryFormat::Contiguous))}));
        IRLENS_ASSIGN_OR_RETURN(t2, b.call(atenTarget("transpose", "int"), {arg::tensor("self", c), arg::integer("dim0", 1), arg::integer("dim1", 2)}));
        out = t2;
    }
    b.replaceOutput(0, out);
    return Status::ok();
}

} // namespace irlens::core::rules
