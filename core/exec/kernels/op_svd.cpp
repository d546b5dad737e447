// prims.svd(A, *, full_matrices) -> (U, S, Vh) over a batch of m x n matrices, float32 / float64, on
// LAPACK's divide-and-conquer SVD (dgesdd, the driver PyTorch's CPU svd uses), in double. LAPACK is
// column-major: A goes in as its m x n column-major copy, and U (m x uc) and Vh (vr x n) come out
// column-major, the layout PyTorch returns them in. Singular vectors are unique only up to sign, so
// the conformance test checks what is unique.

#include "core/exec/kernel_registry.h"
#include "core/exec/kernels/kernels.h"
#include "core/exec/kernels/util/tensor_ops.h"

#include <algorithm>
#include <vector>

extern "C" void dgesdd_(const char* jobz, const int* m, const int* n, double* a, const int* lda, double* s, double* u,
                        const int* ldu, double* vt, const int* ldvt, double* work, const int* lwork, int* iwork, int* info);

namespace irlens::core::exec {

namespace {

// One m x n matrix (row-major `a`) into column-major u (m x uc), s (k) and vt (vr x n).
void gesdd(const double* a, int m, int n, bool full, double* u, double* s, double* vt) {
    const int k = std::min(m, n), uc = full ? m : k, vr = full ? n : k;
    if (k == 0) { // LAPACK returns at once: the full bases of an empty matrix are identities, as PyTorch's
        for (int i = 0; i < std::min(m, uc); ++i) u[i * m + i] = 1.0;
        for (int i = 0; i < std::min(n, vr); ++i) vt[i * vr + i] = 1.0;
        return;
    }
    std::vector<double> col(static_cast<size_t>(m) * n);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) col[static_cast<size_t>(j) * m + i] = a[static_cast<size_t>(i) * n + j];
    const char jobz = full ? 'A' : 'S';
    const int ldu = m, ldvt = std::max(1, vr);
    std::vector<int> iwork(static_cast<size_t>(8) * k);
    int info = 0, lwork = -1;
    double query = 0;
    dgesdd_(&jobz, &m, &n, col.data(), &m, s, u, &ldu, vt, &ldvt, &query, &lwork, iwork.data(), &info);
    if (info != 0) kernelFail("svd: LAPACK dgesdd's workspace query failed (info " + std::to_string(info) + ")");
    lwork = static_cast<int>(query);
    std::vector<double> work(static_cast<size_t>(std::max(1, lwork)));
    dgesdd_(&jobz, &m, &n, col.data(), &m, s, u, &ldu, vt, &ldvt, work.data(), &lwork, iwork.data(), &info);
    if (info > 0) kernelFail("svd: LAPACK dgesdd did not converge (info " + std::to_string(info) + ")");
    if (info < 0) kernelFail("svd: LAPACK dgesdd refused argument " + std::to_string(-info));
}

void svdKernel(KernelContext& ctx) {
    const Tensor a = ctx.tensor("A", 0);
    const bool full = ctx.boolArg("full_matrices", 1, true);
    const ScalarType dt = a.dtype();
    if (dt != ScalarType::Float32 && dt != ScalarType::Float64)
        kernelFail("dtype " + dtypeName(dt) + " is not supported by this kernel (svd: float32 and float64)");
    if (a.dim() < 2) kernelFail("svd: the input must have at least 2 dimensions, got " + a.shapeString());
    const int64_t m = a.size(a.dim() - 2), n = a.size(a.dim() - 1), k = std::min(m, n);
    if (m > (1 << 30) || n > (1 << 30)) kernelFail("svd: a matrix of " + a.shapeString() + " is beyond LAPACK's 32-bit sizes");
    const int64_t uc = full ? m : k, vr = full ? n : k;
    Shape batch(a.sizes().begin(), a.sizes().end() - 2);
    const int64_t nb = shapeNumel(batch);
    Tensor x = contiguous(ctx, toDtype(ctx, a, ScalarType::Float64));
    // column-major U (m x uc) and Vh (vr x n) per matrix, batches contiguous
    auto colMajor = [&](int64_t rows, int64_t cols) {
        Shape sz = batch, st;
        sz.push_back(rows);
        sz.push_back(cols);
        int64_t step = rows * cols;
        for (size_t d = 0; d < batch.size(); ++d) {
            int64_t rest = step;
            for (size_t e = d + 1; e < batch.size(); ++e) rest *= batch[e];
            st.push_back(rest);
        }
        st.push_back(1);
        st.push_back(rows);
        return std::pair{sz, st};
    };
    auto [uSize, uStride] = colMajor(m, uc);
    auto [vSize, vStride] = colMajor(vr, n);
    Shape sSize = batch;
    sSize.push_back(k);
    Tensor u = ctx.allocZeros(ScalarType::Float64, {nb * m * uc}), vh = ctx.allocZeros(ScalarType::Float64, {nb * vr * n});
    Tensor s = ctx.allocZeros(ScalarType::Float64, sSize);
    for (int64_t b = 0; b < nb; ++b)
        gesdd(x.data<double>() + b * m * n, static_cast<int>(m), static_cast<int>(n), full, u.data<double>() + b * m * uc,
              s.data<double>() + b * k, vh.data<double>() + b * vr * n);
    ctx.setOutput(0, toDtype(ctx, u, dt).asStrided(uSize, uStride, 0));
    ctx.setOutput(1, toDtype(ctx, s, dt));
    ctx.setOutput(2, toDtype(ctx, vh, dt).asStrided(vSize, vStride, 0));
}

} // namespace

void registerSvdKernels(KernelRegistry& r) { r.add({"prims::svd.default"}, &svdKernel); }

} // namespace irlens::core::exec
