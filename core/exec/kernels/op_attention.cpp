// scaled_dot_product_attention (math form): softmax(q·kᵀ·scale + mask) · v per batch-head, with
// boolean or additive masks, is_causal, and grouped-query heads.

#include "core/exec/kernel_registry.h"
#include "core/exec/kernels/kernels.h"
#include "core/exec/kernels/util/dispatch.h"
#include "core/exec/kernels/util/gemm.h"
#include "core/exec/kernels/util/tensor_ops.h"

#include <cmath>
#include <limits>

namespace irlens::core::exec {

namespace {

void sdpaKernel(KernelContext& ctx) {
    Tensor q = ctx.tensor("query", 0), k = ctx.tensor("key", 1), v = ctx.tensor("value", 2);
    auto mask = ctx.optTensor("attn_mask", 3);
    double dropout = ctx.floatArg("dropout_p", 4, 0.0);
    bool causal = ctx.boolArg("is_causal", 5, false);
    auto scaleArg = ctx.optFloat("scale");
    if (dropout != 0.0) kernelFail("scaled_dot_product_attention with dropout_p > 0 is not supported in inference");
    if (q.dim() < 2 || k.dim() != q.dim() || v.dim() != q.dim())
        kernelFail("scaled_dot_product_attention: query, key and value must have the same rank >= 2");
    if (q.dtype() != k.dtype() || q.dtype() != v.dtype()) kernelFail("scaled_dot_product_attention: query, key and value dtypes differ");
    const int64_t r = q.dim(), L = q.size(r - 2), E = q.size(r - 1), S = k.size(r - 2), Ev = v.size(r - 1);
    if (k.size(r - 1) != E || v.size(r - 2) != S)
        kernelFail("scaled_dot_product_attention: key " + k.shapeString() + " / value " + v.shapeString() + " do not fit query " + q.shapeString());
    Shape qb(q.sizes().begin(), q.sizes().end() - 2), kb(k.sizes().begin(), k.sizes().end() - 2);
    // grouped-query attention: key/value heads repeat over query heads (dim -3)
    int64_t groups = 1;
    if (qb != kb) {
        if (qb.size() >= 1 && kb.size() == qb.size() && kb.back() > 0 && qb.back() % kb.back() == 0) groups = qb.back() / kb.back();
        else kernelFail("scaled_dot_product_attention: batch dims of query " + q.shapeString() + " and key " + k.shapeString() + " differ");
    }
    const int64_t B = shapeNumel(qb);
    const double scale = scaleArg ? *scaleArg : 1.0 / std::sqrt(static_cast<double>(E));
    Tensor q3 = reshape(ctx, q, {B, L, E});
    Tensor k3 = reshape(ctx, k, {B / groups, S, E});
    Tensor v3 = reshape(ctx, v, {B / groups, S, Ev});
    Tensor m3;
    if (mask) {
        Shape ms = qb;
        ms.push_back(L);
        ms.push_back(S);
        m3 = reshape(ctx, contiguous(ctx, expandTo(*mask, ms)), {B, L, S});
    }
    Tensor out = ctx.alloc(q.dtype(), {B, L, Ev});
    Tensor scores = ctx.alloc(q.dtype(), {L, S});
    dispatchFloat(q.dtype(), [&]<class T>() {
        for (int64_t b = 0; b < B; ++b) {
            int64_t kvb = b / groups;
            Tensor qi = q3.asStrided({L, E}, {q3.stride(1), q3.stride(2)}, q3.storageOffset() + b * q3.stride(0));
            Tensor ki = k3.asStrided({E, S}, {k3.stride(2), k3.stride(1)}, k3.storageOffset() + kvb * k3.stride(0));
            Tensor vi = v3.asStrided({S, Ev}, {v3.stride(1), v3.stride(2)}, v3.storageOffset() + kvb * v3.stride(0));
            gemm(ctx, qi, ki, scores, scale, 0.0);
            T* sc = scores.data<T>();
            for (int64_t i = 0; i < L; ++i) {
                T* row = sc + i * S;
                for (int64_t j = 0; j < S; ++j) {
                    if (causal && j > i) row[j] = -std::numeric_limits<T>::infinity();
                    if (mask) {
                        double mv = m3.at((b * L + i) * S + j);
                        if (m3.dtype() == ScalarType::Bool) { if (mv == 0) row[j] = -std::numeric_limits<T>::infinity(); }
                        else row[j] = static_cast<T>(row[j] + mv);
                    }
                }
                T mx = -std::numeric_limits<T>::infinity();
                for (int64_t j = 0; j < S; ++j) mx = std::max(mx, row[j]);
                T sum = 0;
                for (int64_t j = 0; j < S; ++j) { row[j] = std::exp(row[j] - mx); sum += row[j]; }
                for (int64_t j = 0; j < S; ++j) row[j] /= sum;
            }
            Tensor oi = out.asStrided({L, Ev}, {Ev, 1}, b * L * Ev);
            gemm(ctx, scores, vi, oi, 1.0, 0.0);
        }
    });
    Shape os = qb;
    os.push_back(L);
    os.push_back(Ev);
    ctx.setOutput(0, out.asStrided(os, contiguousStrides(os), 0));
}

} // namespace

void registerAttentionKernels(KernelRegistry& r) {
    r.add({"aten::scaled_dot_product_attention.default"}, &sdpaKernel);
}

} // namespace irlens::core::exec
