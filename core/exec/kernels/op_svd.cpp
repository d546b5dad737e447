// prims.svd(A, *, full_matrices) -> (U, S, Vh) over a batch of m x n matrices, float32 / float64.
// One-sided Jacobi (Hestenes) in double: rotate the columns of the tall matrix until they are mutually
// orthogonal; their norms are the singular values, the normalised columns U, the accumulated rotations
// V. Singular vectors are unique only up to sign (and within repeated singular values), so they need
// not match LAPACK's bit for bit; the conformance test checks what is unique. U and Vh are laid out
// column-major, as PyTorch returns LAPACK's outputs.

#include "core/exec/kernel_registry.h"
#include "core/exec/kernels/kernels.h"
#include "core/exec/kernels/util/tensor_ops.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace irlens::core::exec {

namespace {

// Row-major r x c matrix of doubles.
struct Mat {
    int64_t r = 0, c = 0;
    std::vector<double> v;
    Mat(int64_t rows, int64_t cols) : r(rows), c(cols), v(static_cast<size_t>(rows * cols), 0.0) {}
    double& at(int64_t i, int64_t j) { return v[static_cast<size_t>(i * c + j)]; }
    double at(int64_t i, int64_t j) const { return v[static_cast<size_t>(i * c + j)]; }
};

// Columns `from`.. of q (r x r, the first `from` orthonormal) filled with unit vectors orthogonal to
// those before them: the standard basis vectors, each orthogonalised twice, kept when enough remains.
void completeBasis(Mat& q, int64_t from) {
    int64_t col = from;
    for (int64_t e = 0; e < q.r && col < q.c; ++e) {
        std::vector<double> x(static_cast<size_t>(q.r), 0.0);
        x[static_cast<size_t>(e)] = 1.0;
        for (int pass = 0; pass < 2; ++pass)
            for (int64_t j = 0; j < col; ++j) {
                double d = 0;
                for (int64_t i = 0; i < q.r; ++i) d += q.at(i, j) * x[static_cast<size_t>(i)];
                for (int64_t i = 0; i < q.r; ++i) x[static_cast<size_t>(i)] -= d * q.at(i, j);
            }
        double n = 0;
        for (double t : x) n += t * t;
        n = std::sqrt(n);
        if (n < 0.5) continue;
        for (int64_t i = 0; i < q.r; ++i) q.at(i, col) = x[static_cast<size_t>(i)] / n;
        ++col;
    }
}

struct Svd {
    Mat u, v; // u: r x (full ? r : c), v: c x c (columns are right singular vectors)
    std::vector<double> s;
};

// SVD of a tall matrix (r >= c).
Svd jacobiSvd(Mat w, bool full) {
    const int64_t r = w.r, c = w.c;
    Mat v(c, c);
    for (int64_t i = 0; i < c; ++i) v.at(i, i) = 1.0;
    for (int sweep = 0; sweep < 80; ++sweep) {
        bool rotated = false;
        for (int64_t p = 0; p < c; ++p)
            for (int64_t q = p + 1; q < c; ++q) {
                double a = 0, b = 0, g = 0;
                for (int64_t i = 0; i < r; ++i) {
                    a += w.at(i, p) * w.at(i, p);
                    b += w.at(i, q) * w.at(i, q);
                    g += w.at(i, p) * w.at(i, q);
                }
                if (g == 0 || std::abs(g) <= 1e-15 * std::sqrt(a * b)) continue;
                rotated = true;
                const double zeta = (b - a) / (2 * g);
                const double t = std::copysign(1.0, zeta) / (std::abs(zeta) + std::sqrt(1 + zeta * zeta));
                const double cs = 1 / std::sqrt(1 + t * t), sn = cs * t;
                for (int64_t i = 0; i < r; ++i) {
                    const double x = w.at(i, p), y = w.at(i, q);
                    w.at(i, p) = cs * x - sn * y;
                    w.at(i, q) = sn * x + cs * y;
                }
                for (int64_t i = 0; i < c; ++i) {
                    const double x = v.at(i, p), y = v.at(i, q);
                    v.at(i, p) = cs * x - sn * y;
                    v.at(i, q) = sn * x + cs * y;
                }
            }
        if (!rotated) break;
    }
    std::vector<double> norm(static_cast<size_t>(c));
    for (int64_t j = 0; j < c; ++j) {
        double n = 0;
        for (int64_t i = 0; i < r; ++i) n += w.at(i, j) * w.at(i, j);
        norm[static_cast<size_t>(j)] = std::sqrt(n);
    }
    std::vector<int64_t> order(static_cast<size_t>(c));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) { return norm[static_cast<size_t>(x)] > norm[static_cast<size_t>(y)]; });
    Svd out{Mat(r, full ? r : c), Mat(c, c), {}};
    const double largest = c ? norm[static_cast<size_t>(order[0])] : 0.0;
    int64_t kept = 0; // leading columns of u that are normalised columns of w
    for (int64_t k = 0; k < c; ++k) {
        const int64_t j = order[static_cast<size_t>(k)];
        const double s = norm[static_cast<size_t>(j)];
        out.s.push_back(s);
        for (int64_t i = 0; i < c; ++i) out.v.at(i, k) = v.at(i, j);
        if (s > largest * 1e-13 && s > 0 && kept == k) {
            for (int64_t i = 0; i < r; ++i) out.u.at(i, k) = w.at(i, j) / s;
            ++kept;
        }
    }
    completeBasis(out.u, kept); // null directions (zero singular values) and, when full, the rest
    return out;
}

void svdKernel(KernelContext& ctx) {
    const Tensor a = ctx.tensor("A", 0);
    const bool full = ctx.boolArg("full_matrices", 1, true);
    const ScalarType dt = a.dtype();
    if (dt != ScalarType::Float32 && dt != ScalarType::Float64)
        kernelFail("dtype " + dtypeName(dt) + " is not supported by this kernel (svd: float32 and float64)");
    if (a.dim() < 2) kernelFail("svd: the input must have at least 2 dimensions, got " + a.shapeString());
    const int64_t m = a.size(a.dim() - 2), n = a.size(a.dim() - 1), k = std::min(m, n);
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
    const double* src = x.data<double>();
    for (int64_t b = 0; b < nb; ++b) {
        const double* ab = src + b * m * n;
        const bool tall = m >= n;
        Mat w(tall ? m : n, tall ? n : m);
        for (int64_t i = 0; i < m; ++i)
            for (int64_t j = 0; j < n; ++j) (tall ? w.at(i, j) : w.at(j, i)) = ab[i * n + j];
        Svd r = jacobiSvd(std::move(w), full);
        // tall: A = U S V^T; wide: A^T = U' S V'^T, so U = V' and Vh = U'^T
        const Mat& left = tall ? r.u : r.v;  // m x uc
        const Mat& right = tall ? r.v : r.u; // n x vr, columns are A's right singular vectors
        double* ub = u.data<double>() + b * m * uc;
        double* vb = vh.data<double>() + b * vr * n;
        for (int64_t j = 0; j < uc; ++j)
            for (int64_t i = 0; i < m; ++i) ub[j * m + i] = left.at(i, j);
        for (int64_t i = 0; i < vr; ++i)
            for (int64_t j = 0; j < n; ++j) vb[j * vr + i] = right.at(j, i);
        for (int64_t j = 0; j < k; ++j) s.data<double>()[b * k + j] = r.s[static_cast<size_t>(j)];
    }
    ctx.setOutput(0, toDtype(ctx, u, dt).asStrided(uSize, uStride, 0));
    ctx.setOutput(1, toDtype(ctx, s, dt));
    ctx.setOutput(2, toDtype(ctx, vh, dt).asStrided(vSize, vStride, 0));
}

} // namespace

void registerSvdKernels(KernelRegistry& r) { r.add({"prims::svd.default"}, &svdKernel); }

} // namespace irlens::core::exec
