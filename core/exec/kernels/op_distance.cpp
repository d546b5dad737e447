// p-norm distances: _cdist_forward (every row of x1 against every row of x2, batched) and
// _pdist_forward (every pair i < j of rows of one matrix). p = 0 counts differing coordinates,
// p = inf takes the largest difference, as torch.cdist / torch.pdist define them.

#include "core/exec/kernel_registry.h"
#include "core/exec/kernels/kernels.h"
#include "core/exec/kernels/util/dispatch.h"
#include "core/exec/kernels/util/loops.h"
#include "core/exec/kernels/util/tensor_ops.h"

#include <cmath>
#include <limits>

namespace irlens::core::exec {

namespace {

template <class T>
T pDistance(const T* a, const T* b, int64_t m, double p) {
    double acc = 0;
    if (p == 0) {
        for (int64_t k = 0; k < m; ++k) acc += a[k] != b[k] ? 1.0 : 0.0;
        return static_cast<T>(acc);
    }
    if (std::isinf(p)) {
        for (int64_t k = 0; k < m; ++k) acc = std::max(acc, static_cast<double>(std::abs(a[k] - b[k])));
        return static_cast<T>(acc);
    }
    for (int64_t k = 0; k < m; ++k) {
        const double d = std::abs(static_cast<double>(a[k]) - static_cast<double>(b[k]));
        acc += p == 1 ? d : (p == 2 ? d * d : std::pow(d, p));
    }
    return static_cast<T>(p == 1 ? acc : (p == 2 ? std::sqrt(acc) : std::pow(acc, 1.0 / p)));
}

double normOrder(KernelContext& ctx, const char* op) {
    const double p = ctx.floatArg("p", 2, 2.0);
    if (p < 0 || std::isnan(p)) kernelFail(std::string(op) + ": p must be a non-negative number, got " + std::to_string(p));
    return p;
}

// _cdist_forward(x1 [B.., P, M], x2 [B.., R, M], p, compute_mode) -> [B.., P, R]
void cdistKernel(KernelContext& ctx) {
    Tensor x1 = ctx.tensor("x1", 0), x2 = ctx.tensor("x2", 1);
    const double p = normOrder(ctx, "cdist");
    if (x1.dim() < 2 || x2.dim() < 2) kernelFail("cdist: x1 and x2 must have at least 2 dimensions, got " + x1.shapeString() + " and " + x2.shapeString());
    if (x1.size(x1.dim() - 1) != x2.size(x2.dim() - 1))
        kernelFail("cdist: x1 and x2 must have the same number of columns, got " + x1.shapeString() + " and " + x2.shapeString());
    if (x1.dtype() != x2.dtype()) kernelFail("cdist: x1 and x2 must have the same dtype");
    Shape b1(x1.sizes().begin(), x1.sizes().end() - 2), b2(x2.sizes().begin(), x2.sizes().end() - 2);
    Shape batch = broadcastShapes(b1, b2);
    const int64_t P = x1.size(x1.dim() - 2), R = x2.size(x2.dim() - 2), M = x1.size(x1.dim() - 1);
    auto expand = [&](const Tensor& t, int64_t rows) {
        Shape s = batch;
        s.push_back(rows);
        s.push_back(M);
        return contiguous(ctx, expandTo(t, s));
    };
    Tensor a = expand(x1, P), c = expand(x2, R);
    Shape os = batch;
    os.push_back(P);
    os.push_back(R);
    Tensor out = ctx.alloc(x1.dtype(), os);
    const int64_t nb = shapeNumel(batch);
    dispatchFloat(x1.dtype(), [&]<class T>() {
        parallelRange(ctx.threads(), nb * P, R * M, [&](int64_t lo, int64_t hi) {
            for (int64_t bp = lo; bp < hi; ++bp) {
                const int64_t bi = bp / P;
                const T* row = a.data<T>() + bp * M;
                for (int64_t r = 0; r < R; ++r) out.data<T>()[bp * R + r] = pDistance(row, c.data<T>() + (bi * R + r) * M, M, p);
            }
        });
    });
    ctx.setOutput(0, out);
}

// _pdist_forward(self [N, M], p) -> [N * (N - 1) / 2], pairs (0,1), (0,2), ..., (1,2), ...
void pdistKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("self", 0);
    const double p = ctx.floatArg("p", 1, 2.0);
    if (p < 0 || std::isnan(p)) kernelFail("pdist: p must be a non-negative number, got " + std::to_string(p));
    if (x.dim() != 2) kernelFail("pdist: the input must be 2-D, got " + x.shapeString());
    Tensor c = contiguous(ctx, x);
    const int64_t N = x.size(0), M = x.size(1);
    Tensor out = ctx.alloc(x.dtype(), {N > 1 ? N * (N - 1) / 2 : 0});
    dispatchFloat(x.dtype(), [&]<class T>() {
        int64_t k = 0;
        for (int64_t i = 0; i < N; ++i)
            for (int64_t j = i + 1; j < N; ++j) out.data<T>()[k++] = pDistance(c.data<T>() + i * M, c.data<T>() + j * M, M, p);
    });
    ctx.setOutput(0, out);
}

} // namespace

void registerDistanceKernels(KernelRegistry& r) {
    r.add({"aten::_cdist_forward.default"}, &cdistKernel);
    r.add({"aten::_pdist_forward.default"}, &pdistKernel);
}

} // namespace irlens::core::exec
