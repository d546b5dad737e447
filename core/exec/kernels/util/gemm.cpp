#include "core/exec/kernels/util/gemm.h"

#include "core/exec/engine.h"
#include "core/exec/kernels/util/dispatch.h"
#include "core/exec/kernels/util/tensor_ops.h"

#ifdef IRLENS_HAVE_DNNL
#include <oneapi/dnnl/dnnl.h>
#include <oneapi/dnnl/dnnl.hpp>
#endif

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/exec/kernels/util/parts.h"
#include "core/exec/kernels/util/simd.h"

#include <limits>

namespace irlens::core::exec {

namespace {

// Layout of a 2-D view for a row-major BLAS call: 'N' with ld = row stride, 'T' with ld = column stride.
bool blasLayout(const Tensor& t, char& trans, int64_t& ld) {
    int64_t rows = t.size(0), cols = t.size(1);
    int64_t s0 = t.stride(0), s1 = t.stride(1);
    if ((s1 == 1 || cols == 1) && s0 >= std::max<int64_t>(1, cols)) { trans = 'N'; ld = std::max<int64_t>(s0, std::max<int64_t>(1, cols)); return true; }
    if ((s0 == 1 || rows == 1) && s1 >= std::max<int64_t>(1, rows)) { trans = 'T'; ld = std::max<int64_t>(s1, std::max<int64_t>(1, rows)); return true; }
    return false;
}

template <class T>
void naiveGemm(const Tensor& a, const Tensor& b, const Tensor& c, T alpha, T beta) {
    const int64_t M = a.size(0), K = a.size(1), N = b.size(1);
    const T* A = a.data<T>();
    const T* B = b.data<T>();
    T* C = c.data<T>();
    const int64_t as0 = a.stride(0), as1 = a.stride(1), bs0 = b.stride(0), bs1 = b.stride(1);
    for (int64_t i = 0; i < M; ++i) {
        T* crow = C + i * N;
        if (beta == T(0)) for (int64_t j = 0; j < N; ++j) crow[j] = T(0);
        else if (beta != T(1)) for (int64_t j = 0; j < N; ++j) crow[j] = static_cast<T>(crow[j] * beta);
        for (int64_t k = 0; k < K; ++k) {
            T av = static_cast<T>(alpha * A[i * as0 + k * as1]);
            if (av == T(0)) continue;
            const T* brow = B + k * bs0;
            for (int64_t j = 0; j < N; ++j) crow[j] = static_cast<T>(crow[j] + av * brow[j * bs1]);
        }
    }
}

#ifdef IRLENS_HAVE_DNNL
// A product with a program weight, prepared on the node's first run (gemmWithWeights).
struct WeightProductPart {
    dnnl::matmul prim;
    dnnl::memory weights;              // the part's slice of w in the primitive's layout
    dnnl::memory::desc src, dst, bias;
    int64_t srcOffset = 0, dstOffset = 0, biasOffset = 0; // in elements
};

struct WeightProduct {
    std::string key;
    std::weak_ptr<Buffer> source;      // the weight storage the parts were reordered from
    dnnl::engine eng{dnnl::engine::kind::cpu, 0};
    std::vector<WeightProductPart> parts;
};

std::shared_ptr<WeightProduct> makeWeightProduct(const Tensor& a, const Tensor& w, bool hasBias, int64_t parts, bool byCols) {
    using dt = dnnl::memory::data_type;
    auto made = std::make_shared<WeightProduct>();
    made->source = w.buffer();
    const int64_t M = a.size(0), K = a.size(1), N = w.size(1);
    const int64_t extent = byCols ? N : M;
    const int64_t step = std::max<int64_t>(16, (extent / parts + 15) / 16 * 16);
    dnnl::stream s(made->eng);
    for (int64_t lo = 0; lo < extent; lo += step) {
        const int64_t hi = std::min(extent, lo + step);
        const int64_t rows = byCols ? M : hi - lo, cols = byCols ? hi - lo : N;
        WeightProductPart pt;
        pt.src = dnnl::memory::desc({rows, K}, dt::f32, dnnl::memory::dims{a.stride(0), a.stride(1)});
        pt.dst = dnnl::memory::desc({rows, cols}, dt::f32, dnnl::memory::dims{N, 1});
        if (hasBias) pt.bias = dnnl::memory::desc({1, cols}, dt::f32, dnnl::memory::dims{cols, 1});
        pt.srcOffset = byCols ? 0 : lo * a.stride(0);
        pt.dstOffset = byCols ? lo : lo * N;
        pt.biasOffset = byCols ? lo : 0;
        const dnnl::memory::desc plainW({K, cols}, dt::f32, dnnl::memory::dims{w.stride(0), w.stride(1)});
        dnnl::matmul::desc d(pt.src, dnnl::memory::desc({K, cols}, dt::f32, dnnl::memory::format_tag::any), pt.bias, pt.dst);
        dnnl::matmul::primitive_desc pd(d, made->eng);
        pt.prim = dnnl::matmul(pd);
        // a row split reads every column: the parts share the first part's weights when the layout agrees
        if (!byCols && !made->parts.empty() && made->parts.front().weights.get_desc() == pd.weights_desc()) {
            pt.weights = made->parts.front().weights;
        } else {
            dnnl::memory from(plainW, made->eng, const_cast<float*>(w.data<float>()) + (byCols ? lo * w.stride(1) : 0));
            pt.weights = dnnl::memory(pd.weights_desc(), made->eng);
            dnnl::reorder(from, pt.weights).execute(s, from, pt.weights);
        }
        made->parts.push_back(std::move(pt));
    }
    s.wait();
    return made;
}
#endif

} // namespace

bool gemmWithWeights(KernelContext& ctx, const Tensor& a, const Tensor& w, const Tensor* bias, bool relu, const Tensor& c) {
#ifdef IRLENS_HAVE_DNNL
    if (!ctx.cache() || a.dtype() != ScalarType::Float32 || w.dtype() != ScalarType::Float32 || c.dtype() != ScalarType::Float32) return false;
    if (a.dim() != 2 || w.dim() != 2 || c.dim() != 2 || !w.readOnly() || !c.isContiguous()) return false;
    const int64_t M = a.size(0), K = a.size(1), N = w.size(1);
    if (w.size(0) != K || c.size(0) != M || c.size(1) != N) return false;
    // below about 2^18 multiply-adds (a microsecond) the primitive's call costs more than its layout saves
    if (M * N * K < (int64_t(1) << 18)) return false;
    char layout;
    int64_t ld;
    if (!blasLayout(a, layout, ld) || !blasLayout(w, layout, ld)) return false;
    if (bias) {
        const bool row = bias->dtype() == ScalarType::Float32 && bias->numel() == N && (bias->dim() == 1 || (bias->dim() == 2 && bias->size(0) == 1));
        if (!row || (N > 1 && bias->stride(bias->dim() - 1) != 1)) return false;
    }
    const int64_t parts = ctx.threads() > 1 && M * N * K >= (int64_t(1) << 20) ? ctx.threads() : 1;
    const bool byCols = N >= M;
    const std::string key = "weights|" + std::to_string(M) + "," + std::to_string(K) + "," + std::to_string(N) + "|" +
                            std::to_string(a.stride(0)) + "," + std::to_string(a.stride(1)) + "|" + std::to_string(reinterpret_cast<uintptr_t>(w.raw())) +
                            "," + std::to_string(w.stride(0)) + "," + std::to_string(w.stride(1)) + "|" + std::to_string(bias != nullptr) + "|" +
                            std::to_string(parts);
    std::shared_ptr<WeightProduct> state;
    {
        // the same address may be a new storage once the old one is freed: the parts keep which one they read
        std::unique_lock lock(ctx.cache()->mutex);
        auto cached = std::static_pointer_cast<WeightProduct>(ctx.cache()->data);
        if (cached && cached->key == key && cached->source.lock() == w.buffer()) state = cached;
    }
    if (!state) {
        setLibraryThreads(1);
        try {
            state = makeWeightProduct(a, w, bias != nullptr, parts, byCols);
        } catch (const dnnl::error&) {
            return false; // a layout this oneDNN has no matmul for: the plain product does it
        }
        state->key = key;
        std::unique_lock lock(ctx.cache()->mutex);
        ctx.cache()->data = state;
    }
    const float* A = a.data<float>();
    float* C = c.data<float>();
    auto runPart = [&](const WeightProductPart& pt) {
        setLibraryThreads(1);
        dnnl::stream s(state->eng);
        std::unordered_map<int, dnnl::memory> args{{DNNL_ARG_SRC, dnnl::memory(pt.src, state->eng, const_cast<float*>(A) + pt.srcOffset)},
                                                   {DNNL_ARG_WEIGHTS, pt.weights},
                                                   {DNNL_ARG_DST, dnnl::memory(pt.dst, state->eng, C + pt.dstOffset)}};
        if (bias) args[DNNL_ARG_BIAS] = dnnl::memory(pt.bias, state->eng, const_cast<float*>(bias->data<float>()) + pt.biasOffset);
        pt.prim.execute(s, args);
        s.wait();
        // relu here, on the part's block while it is in cache: oneDNN's relu post-op turns NaN into 0
        if (relu) {
            const dnnl::memory::dims dims = pt.dst.dims();
            for (int64_t i = 0; i < dims[0]; ++i) {
                float* row = C + pt.dstOffset + i * N;
                clampContiguous(row, row, dims[1], 0.f, std::numeric_limits<float>::infinity());
            }
        }
    };
    forEachPart(static_cast<int64_t>(state->parts.size()), [&](int64_t k) { runPart(state->parts[static_cast<size_t>(k)]); });
    return true;
#else
    (void)ctx, (void)a, (void)w, (void)bias, (void)relu, (void)c;
    return false;
#endif
}

void gemm(KernelContext& ctx, const Tensor& a, const Tensor& b, const Tensor& c, double alpha, double beta) {
    if (a.dim() != 2 || b.dim() != 2 || c.dim() != 2) kernelFail("matrix product needs 2-D operands");
    if (a.size(1) != b.size(0))
        kernelFail("mat1 and mat2 shapes cannot be multiplied (" + std::to_string(a.size(0)) + "x" + std::to_string(a.size(1)) + " and " +
                   std::to_string(b.size(0)) + "x" + std::to_string(b.size(1)) + ")");
    if (a.dtype() != b.dtype() || a.dtype() != c.dtype())
        kernelFail("matrix product expects operands of one dtype, got " + dtypeName(a.dtype()) + " and " + dtypeName(b.dtype()));
    const int64_t M = a.size(0), K = a.size(1), N = b.size(1);
    if (M == 0 || N == 0) return;
#ifdef IRLENS_HAVE_DNNL
    if (a.dtype() == ScalarType::Float32) {
        char ta, tb;
        int64_t lda, ldb;
        Tensor aa = a, bb = b;
        if (!blasLayout(aa, ta, lda)) { aa = contiguous(ctx, a); blasLayout(aa, ta, lda); }
        if (!blasLayout(bb, tb, ldb)) { bb = contiguous(ctx, b); blasLayout(bb, tb, ldb); }
        if (K == 0) {
            float* C = c.data<float>();
            for (int64_t i = 0; i < M * N; ++i) C[i] = beta == 0 ? 0.f : static_cast<float>(C[i] * beta);
            return;
        }
        // oneDNN runs single-threaded here (its OpenMP pool would compete with TBB's workers); large
        // products are split into column (or row) blocks that TBB runs in parallel.
        const float* A = aa.data<float>();
        const float* B = bb.data<float>();
        float* C = c.data<float>();
        const int64_t aRow = aa.stride(0), bCol = bb.stride(1);
        auto block = [&](int64_t m0, int64_t m1, int64_t n0, int64_t n1) {
            setLibraryThreads(1);
            dnnl_status_t st = dnnl_sgemm(ta, tb, m1 - m0, n1 - n0, K, static_cast<float>(alpha), A + m0 * aRow, lda, B + n0 * bCol, ldb,
                                          static_cast<float>(beta), C + m0 * N + n0, N);
            if (st != dnnl_success) kernelFail("oneDNN sgemm failed (status " + std::to_string(static_cast<int>(st)) + ")");
        };
        // split only from about 2^20 multiply-adds (10 us on one core): below that the second
        // worker's wake-up and the split's smaller, less efficient blocks cost more than they save
        const int parts = ctx.threads();
        if (parts > 1 && M * N * K >= (int64_t(1) << 20)) {
            const bool byCols = N >= M;
            const int64_t extent = byCols ? N : M;
            const int64_t step = std::max<int64_t>(16, (extent / parts + 15) / 16 * 16);
            const int64_t chunks = (extent + step - 1) / step;
            forEachPart(chunks, [&](int64_t k) {
                int64_t lo = k * step, hi = std::min(extent, lo + step);
                if (byCols) block(0, M, lo, hi);
                else block(lo, hi, 0, N);
            });
        } else {
            block(0, M, 0, N);
        }
        return;
    }
#endif
    dispatchNumeric(a.dtype(), [&]<class T>() { naiveGemm<T>(a, b, c, static_cast<T>(alpha), static_cast<T>(beta)); });
}

} // namespace irlens::core::exec
