// Matrix products: mm, addmm, bmm, baddbmm, matmul (every rank combination), linear, dot/mv.

#include "core/exec/kernel_registry.h"
#include "core/exec/kernels/kernels.h"
#include "core/exec/kernels/util/dispatch.h"
#include "core/exec/kernels/util/gemm.h"
#include "core/exec/kernels/util/parts.h"
#include "core/exec/kernels/util/loops.h"
#include "core/exec/kernels/util/tensor_ops.h"
#include "core/exec/kernels/util/reduced_float.h"
#include "core/exec/kernels/util/simd.h"
#include "core/exec/plan_fusion.h"

#include <limits>
#include <optional>
#include <type_traits>


namespace irlens::core::exec {

namespace {

void checkSameDtype(const Tensor& a, const Tensor& b) {
    if (a.dtype() != b.dtype())
        kernelFail("expected both operands to have the same dtype, got " + dtypeName(a.dtype()) + " and " + dtypeName(b.dtype()));
}

// The operands of mm/addmm (rank 2) and bmm/baddbmm (rank 3): one dtype, the rank, and for batches
// the same batch count and matching inner sizes (gemm checks a matrix pair's inner sizes itself,
// with PyTorch's message).
void checkMatmulOperands(const char* op, const Tensor& a, const Tensor& b, int64_t rank) {
    checkSameDtype(a, b);
    if (a.dim() != rank || b.dim() != rank)
        kernelFail(std::string(op) + " expects " + std::to_string(rank) + "-D tensors, got " + a.shapeString() + " and " + b.shapeString());
    if (rank == 3 && (a.size(0) != b.size(0) || a.size(2) != b.size(1)))
        kernelFail(std::string(op) + ": shapes " + a.shapeString() + " and " + b.shapeString() + " cannot be multiplied");
}

// Whether plan fusion folded the relu that reads this product's result into it (plan_fusion.h).
bool fusedRelu(const KernelContext& ctx) { return ctx.intArg(kFusedActivationArg, -1, 0) == static_cast<int64_t>(FusedActivation::Relu); }

// The product's result c with the fused relu (when gemmWithWeights did not apply it already).
void applyFusedRelu(const Tensor& c) {
    if (c.dtype() == ScalarType::Float32) {
        clampContiguous(c.data<float>(), c.data<float>(), c.numel(), 0.f, std::numeric_limits<float>::infinity());
        return;
    }
    dispatchNumeric(c.dtype(), [&]<class T>() {
        if constexpr (std::is_arithmetic_v<T>) {
            T* p = c.data<T>();
            for (int64_t i = 0; i < c.numel(); ++i) p[i] = p[i] < T(0) ? T(0) : p[i]; // NaN compares false: kept
        } else {
            kernelFail("relu: dtype " + dtypeName(c.dtype()) + " is not supported");
        }
    });
}

// c = a @ w (+ bias row) (then the fused relu): the prepared weight product when it applies, else
// bias copied into c and gemm accumulating into it.
void productWithEpilogue(KernelContext& ctx, const Tensor& a, const Tensor& w, const std::optional<Tensor>& bias, const Tensor& c) {
    const bool relu = fusedRelu(ctx);
    if (gemmWithWeights(ctx, a, w, bias ? &*bias : nullptr, relu, c)) return;
    if (bias) copyInto(c, toDtype(ctx, *bias, a.dtype()), 1);
    gemm(ctx, a, w, c, 1.0, bias ? 1.0 : 0.0);
    if (relu) applyFusedRelu(c);
}

void mmKernel(KernelContext& ctx) {
    Tensor a = ctx.tensor("self", 0), b = ctx.tensor("mat2", 1);
    checkMatmulOperands("mm", a, b, 2);
    Tensor c = ctx.alloc(a.dtype(), {a.size(0), b.size(1)});
    productWithEpilogue(ctx, a, b, std::nullopt, c);
    ctx.setOutput(0, c);
}

// Batched product of [B, M, K] and [B, K, N] (strided views); c is contiguous [B, M, N].
void batchedGemm(KernelContext& ctx, const Tensor& a, const Tensor& b, const Tensor& c, double alpha, double beta) {
    const int64_t B = a.size(0), M = a.size(1), N = b.size(2);
    // Several products (attention heads): whole products per worker, each single-threaded, once
    // the batch is worth a second worker (below about 2^20 multiply-adds, about 10 us on one core,
    // waking it costs more than it saves: tiny_gpt's 4 heads of 64x64x32 run slower on two threads).
    if (ctx.threads() > 1 && B > 1 && B * M * N * a.size(2) >= (int64_t(1) << 20)) {
        forEachPart(B, [&](int64_t i) {
            Tensor ai = a.asStrided({a.size(1), a.size(2)}, {a.stride(1), a.stride(2)}, a.storageOffset() + i * a.stride(0));
            Tensor bi = b.asStrided({b.size(1), b.size(2)}, {b.stride(1), b.stride(2)}, b.storageOffset() + i * b.stride(0));
            Tensor ci = c.asStrided({M, N}, {N, 1}, c.storageOffset() + i * M * N);
            KernelContext singleThreaded(ctx.node(), {}, ctx.outputs(), 1, ctx.tracker(), nullptr);
            gemm(singleThreaded, ai, bi, ci, alpha, beta);
        });
        return;
    }
    for (int64_t i = 0; i < B; ++i) {
        Tensor ai = a.asStrided({a.size(1), a.size(2)}, {a.stride(1), a.stride(2)}, a.storageOffset() + i * a.stride(0));
        Tensor bi = b.asStrided({b.size(1), b.size(2)}, {b.stride(1), b.stride(2)}, b.storageOffset() + i * b.stride(0));
        Tensor ci = c.asStrided({M, N}, {N, 1}, c.storageOffset() + i * M * N);
        gemm(ctx, ai, bi, ci, alpha, beta);
    }
}

void bmmKernel(KernelContext& ctx) {
    Tensor a = ctx.tensor("self", 0), b = ctx.tensor("mat2", 1);
    checkMatmulOperands("bmm", a, b, 3);
    Tensor c = ctx.alloc(a.dtype(), {a.size(0), a.size(1), b.size(2)});
    batchedGemm(ctx, a, b, c, 1.0, 0.0);
    ctx.setOutput(0, c);
}

// addmm (rank 2) and baddbmm (rank 3): beta * self + alpha * (m1 @ m2). The bias, in the operands'
// dtype and broadcast to the product's shape, is copied into the output, which the product then
// accumulates into with beta (beta 0 ignores the bias, NaN included, as PyTorch does).
void biasThenProduct(KernelContext& ctx, const char* op, const char* m1Name, const char* m2Name, int64_t rank) {
    Tensor bias = ctx.tensor("self", 0), m1 = ctx.tensor(m1Name, 1), m2 = ctx.tensor(m2Name, 2);
    const double beta = ctx.scalar("beta", -1, Scalar{1, Scalar::Kind::Int}).value;
    const double alpha = ctx.scalar("alpha", -1, Scalar{1, Scalar::Kind::Int}).value;
    checkMatmulOperands(op, m1, m2, rank);
    Shape shape = m1.sizes();
    shape.back() = m2.size(rank - 1);
    Tensor c = ctx.alloc(m1.dtype(), shape);
    if (rank == 2 && alpha == 1 && (beta == 0 || beta == 1)) {
        productWithEpilogue(ctx, m1, m2, beta != 0 ? std::optional<Tensor>(bias) : std::nullopt, c);
        ctx.setOutput(0, c);
        return;
    }
    if (beta != 0) copyInto(c, toDtype(ctx, bias, m1.dtype()), 1);
    if (rank == 2) gemm(ctx, m1, m2, c, alpha, beta);
    else batchedGemm(ctx, m1, m2, c, alpha, beta);
    if (fusedRelu(ctx)) applyFusedRelu(c);
    ctx.setOutput(0, c);
}

void addmmKernel(KernelContext& ctx) { biasThenProduct(ctx, "addmm", "mat1", "mat2", 2); }
void baddbmmKernel(KernelContext& ctx) { biasThenProduct(ctx, "baddbmm", "batch1", "batch2", 3); }

Tensor matmulImpl(KernelContext& ctx, const Tensor& a, const Tensor& b) {
    checkSameDtype(a, b);
    const int64_t da = a.dim(), db = b.dim();
    if (da == 0 || db == 0) kernelFail("matmul: both arguments need at least one dimension");
    if (da == 1 && db == 1) {
        if (a.size(0) != b.size(0)) kernelFail("matmul: vectors of different lengths");
        Tensor c = ctx.alloc(a.dtype(), {1, 1});
        gemm(ctx, a.asStrided({1, a.size(0)}, {1, a.stride(0)}, a.storageOffset()), b.asStrided({b.size(0), 1}, {b.stride(0), 1}, b.storageOffset()), c, 1, 0);
        return c.asStrided({}, {}, 0);
    }
    if (db == 1) { // [..., M, K] @ [K]
        Tensor bm = b.asStrided({b.size(0), 1}, {b.stride(0), 1}, b.storageOffset());
        Tensor r = matmulImpl(ctx, a, bm);
        Shape s(r.sizes().begin(), r.sizes().end() - 1);
        return r.asStrided(s, contiguousStrides(s), r.storageOffset());
    }
    if (da == 1) { // [K] @ [..., K, N]
        Tensor am = a.asStrided({1, a.size(0)}, {a.stride(0), a.stride(0)}, a.storageOffset());
        Tensor r = matmulImpl(ctx, am, b);
        Shape s = r.sizes();
        s.erase(s.end() - 2);
        return r.asStrided(s, contiguousStrides(s), r.storageOffset());
    }
    const int64_t M = a.size(da - 2), K = a.size(da - 1), N = b.size(db - 1);
    if (b.size(db - 2) != K) kernelFail("matmul: shapes " + a.shapeString() + " and " + b.shapeString() + " cannot be multiplied");
    if (db == 2) { // fold a's batch dims into rows
        Shape rows{a.numel() / std::max<int64_t>(1, K), K};
        Tensor a2 = reshape(ctx, a, rows);
        Tensor c = ctx.alloc(a.dtype(), {rows[0], N});
        if (!gemmWithWeights(ctx, a2, b, nullptr, false, c)) gemm(ctx, a2, b, c, 1, 0);
        Shape s(a.sizes().begin(), a.sizes().end() - 1);
        s.push_back(N);
        return c.asStrided(s, contiguousStrides(s), 0);
    }
    Shape ba(a.sizes().begin(), a.sizes().end() - 2), bb(b.sizes().begin(), b.sizes().end() - 2);
    Shape batch = broadcastShapes(ba, bb);
    int64_t B = shapeNumel(batch);
    Shape ea = batch, eb = batch;
    ea.push_back(M); ea.push_back(K);
    eb.push_back(K); eb.push_back(N);
    Tensor a3 = reshape(ctx, expandTo(a, ea), {B, M, K});
    Tensor b3 = reshape(ctx, expandTo(b, eb), {B, K, N});
    Tensor c = ctx.alloc(a.dtype(), {B, M, N});
    batchedGemm(ctx, a3, b3, c, 1, 0);
    Shape s = batch;
    s.push_back(M); s.push_back(N);
    return c.asStrided(s, contiguousStrides(s), 0);
}

void matmulKernel(KernelContext& ctx) { ctx.setOutput(0, matmulImpl(ctx, ctx.tensor("self", 0), ctx.tensor("other", 1))); }
void dotKernel(KernelContext& ctx) { ctx.setOutput(0, matmulImpl(ctx, ctx.tensor("self", 0), ctx.tensor("tensor", 1))); }
void mvKernel(KernelContext& ctx) { ctx.setOutput(0, matmulImpl(ctx, ctx.tensor("self", 0), ctx.tensor("vec", 1))); }

// linear(input [..., K], weight [N, K], bias? [N]) = input @ weight^T + bias
void linearKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("input", 0), w = ctx.tensor("weight", 1);
    auto bias = ctx.optTensor("bias", 2);
    checkSameDtype(x, w);
    if (w.dim() != 2 || x.dim() < 1) kernelFail("linear: weight must be 2-D, got " + w.shapeString());
    const int64_t K = x.size(x.dim() - 1), N = w.size(0);
    if (w.size(1) != K) kernelFail("linear: input " + x.shapeString() + " and weight " + w.shapeString() + " cannot be multiplied");
    Shape rows{x.numel() / std::max<int64_t>(1, K), K};
    Tensor x2 = reshape(ctx, x, rows);
    Tensor c = ctx.alloc(x.dtype(), {rows[0], N});
    productWithEpilogue(ctx, x2, transpose(w, 0, 1), bias, c);
    Shape s(x.sizes().begin(), x.sizes().end() - 1);
    s.push_back(N);
    ctx.setOutput(0, c.asStrided(s, contiguousStrides(s), 0));
}

} // namespace

void registerMatmulKernels(KernelRegistry& r) {
    r.add({"aten::mm.default"}, &viaFloat32<&mmKernel>);
    r.add({"aten::addmm.default"}, &viaFloat32<&addmmKernel>);
    r.add({"aten::bmm.default"}, &viaFloat32<&bmmKernel>);
    r.add({"aten::baddbmm.default"}, &viaFloat32<&baddbmmKernel>);
    r.add({"aten::matmul.default"}, &matmulKernel);
    r.add({"aten::dot.default"}, &dotKernel);
    r.add({"aten::mv.default"}, &mvKernel);
    r.add({"aten::linear.default"}, &linearKernel);
}

} // namespace irlens::core::exec
