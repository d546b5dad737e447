#include "core/exec/kernels/util/gemm.h"

#include "core/exec/engine.h"
#include "core/exec/kernels/util/dispatch.h"
#include "core/exec/kernels/util/tensor_ops.h"

#ifdef IRLENS_HAVE_DNNL
#include <oneapi/dnnl/dnnl.h>
#endif

#include "core/exec/kernels/util/parts.h"

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

} // namespace

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
