// 3-D pooling over N-C-D-H-W (and C-D-H-W): max pool with indices, average pool, adaptive average
// pool. Direct loops per output element; planes (N x C) split across workers.

#include "core/exec/kernel_registry.h"
#include "core/exec/kernels/kernels.h"
#include "core/exec/kernels/util/dispatch.h"
#include "core/exec/kernels/util/loops.h"
#include "core/exec/kernels/util/pool.h"
#include "core/exec/kernels/util/tensor_ops.h"
#include "core/exec/kernels/util/reduced_float.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace irlens::core::exec {

namespace {

using Dims3 = std::array<int64_t, 3>;

Dims3 triple(const std::vector<int64_t>& v, const Dims3& fallback, const char* what) {
    if (v.empty()) return fallback;
    if (v.size() == 1) return {v[0], v[0], v[0]};
    if (v.size() != 3) kernelFail(std::string(what) + " must have one or three values, got " + std::to_string(v.size()));
    return {v[0], v[1], v[2]};
}

// The input as contiguous [planes, D, H, W]; `lead` = the dims before D.
struct Volume {
    Tensor x;
    int64_t planes = 1;
    Dims3 size{};
    Shape lead;
};

Volume toVolume(KernelContext& ctx, const Tensor& input, const char* op) {
    if (input.dim() != 4 && input.dim() != 5) kernelFail(std::string(op) + " expects a 4-D or 5-D input, got " + input.shapeString());
    Volume v;
    v.x = contiguous(ctx, input);
    const int64_t r = input.dim();
    v.size = {input.size(r - 3), input.size(r - 2), input.size(r - 1)};
    v.lead.assign(input.sizes().begin(), input.sizes().end() - 3);
    v.planes = shapeNumel(v.lead);
    return v;
}

Shape outShape(const Volume& v, const Dims3& o) {
    Shape s = v.lead;
    s.insert(s.end(), o.begin(), o.end());
    return s;
}

struct Window {
    Dims3 k, s, p, d;
};

// max_pool3d_with_indices(self, kernel_size, stride=[], padding=0, dilation=1, ceil_mode=False)
void maxPool3dKernel(KernelContext& ctx) {
    Tensor input = ctx.tensor("self", 0);
    Window w;
    w.k = triple(ctx.ints("kernel_size", 1), {1, 1, 1}, "max_pool3d: kernel_size");
    w.s = triple(ctx.ints("stride", 2, {}), w.k, "max_pool3d: stride");
    w.p = triple(ctx.ints("padding", 3, {0}), {0, 0, 0}, "max_pool3d: padding");
    w.d = triple(ctx.ints("dilation", 4, {1}), {1, 1, 1}, "max_pool3d: dilation");
    const bool ceil = ctx.boolArg("ceil_mode", 5, false);
    Volume v = toVolume(ctx, input, "max_pool3d");
    Dims3 o;
    for (size_t a = 0; a < 3; ++a) {
        if (w.k[a] <= 0 || w.s[a] <= 0 || w.d[a] <= 0) kernelFail("max_pool3d: kernel, stride and dilation must be positive");
        if (w.p[a] < 0 || w.p[a] > w.k[a] / 2) kernelFail("max_pool3d: padding should be at most half of the kernel size");
        o[a] = poolOut(v.size[a], w.k[a], w.p[a], w.s[a], w.d[a], ceil);
        if (o[a] <= 0) kernelFail("max_pool3d: output size is too small for input " + input.shapeString());
    }
    Tensor out = ctx.alloc(input.dtype(), outShape(v, o));
    Tensor idx = ctx.alloc(ScalarType::Int64, out.sizes());
    const int64_t inPlane = v.size[0] * v.size[1] * v.size[2], outPlane = o[0] * o[1] * o[2];
    dispatchNumeric(input.dtype(), [&]<class T>() {
        parallelRange(ctx.threads(), v.planes, outPlane * w.k[0] * w.k[1] * w.k[2], [&](int64_t lo, int64_t hi) {
            for (int64_t pl = lo; pl < hi; ++pl) {
                const T* x = v.x.data<T>() + pl * inPlane;
                for (int64_t e = 0; e < outPlane; ++e) {
                    const Dims3 op{e / (o[1] * o[2]), (e / o[2]) % o[1], e % o[2]};
                    T best = std::numeric_limits<T>::lowest();
                    if constexpr (std::is_floating_point_v<T>) best = -std::numeric_limits<T>::infinity();
                    int64_t where = -1;
                    for (int64_t kd = 0; kd < w.k[0]; ++kd)
                        for (int64_t kh = 0; kh < w.k[1]; ++kh)
                            for (int64_t kw = 0; kw < w.k[2]; ++kw) {
                                const int64_t id = op[0] * w.s[0] - w.p[0] + kd * w.d[0], ih = op[1] * w.s[1] - w.p[1] + kh * w.d[1],
                                              iw = op[2] * w.s[2] - w.p[2] + kw * w.d[2];
                                if (id < 0 || ih < 0 || iw < 0 || id >= v.size[0] || ih >= v.size[1] || iw >= v.size[2]) continue;
                                const int64_t flat = (id * v.size[1] + ih) * v.size[2] + iw;
                                const T val = x[flat];
                                bool isNan = false;
                                if constexpr (std::is_floating_point_v<T>) isNan = std::isnan(val);
                                bool bestNan = false;
                                if constexpr (std::is_floating_point_v<T>) bestNan = std::isnan(best);
                                if (!bestNan && (where < 0 || val > best || isNan)) { best = val; where = flat; }
                            }
                    out.data<T>()[pl * outPlane + e] = best;
                    idx.data<int64_t>()[pl * outPlane + e] = where;
                }
            }
        });
    });
    ctx.setOutput(0, out);
    ctx.setOutput(1, idx);
}

// avg_pool3d(self, kernel_size, stride=[], padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None)
void avgPool3dKernel(KernelContext& ctx) {
    Tensor input = ctx.tensor("self", 0);
    Window w;
    w.k = triple(ctx.ints("kernel_size", 1), {1, 1, 1}, "avg_pool3d: kernel_size");
    w.s = triple(ctx.ints("stride", 2, {}), w.k, "avg_pool3d: stride");
    w.p = triple(ctx.ints("padding", 3, {0}), {0, 0, 0}, "avg_pool3d: padding");
    const bool ceil = ctx.boolArg("ceil_mode", 4, false), countPad = ctx.boolArg("count_include_pad", 5, true);
    const auto divisor = ctx.optInt("divisor_override", 6);
    if (divisor && *divisor == 0) kernelFail("avg_pool3d: divisor must be not zero");
    Volume v = toVolume(ctx, input, "avg_pool3d");
    Dims3 o;
    for (size_t a = 0; a < 3; ++a) {
        if (w.k[a] <= 0 || w.s[a] <= 0) kernelFail("avg_pool3d: kernel and stride must be positive");
        if (w.p[a] < 0 || w.p[a] > w.k[a] / 2) kernelFail("avg_pool3d: padding should be at most half of the kernel size");
        o[a] = poolOut(v.size[a], w.k[a], w.p[a], w.s[a], 1, ceil);
        if (o[a] <= 0) kernelFail("avg_pool3d: output size is too small for input " + input.shapeString());
    }
    Tensor out = ctx.alloc(input.dtype(), outShape(v, o));
    const int64_t inPlane = v.size[0] * v.size[1] * v.size[2], outPlane = o[0] * o[1] * o[2];
    dispatchFloatOrInt64(input.dtype(), [&]<class T>() {
        parallelRange(ctx.threads(), v.planes, outPlane * w.k[0] * w.k[1] * w.k[2], [&](int64_t lo, int64_t hi) {
            for (int64_t pl = lo; pl < hi; ++pl) {
                const T* x = v.x.data<T>() + pl * inPlane;
                for (int64_t e = 0; e < outPlane; ++e) {
                    const Dims3 op{e / (o[1] * o[2]), (e / o[2]) % o[1], e % o[2]};
                    Dims3 lo3, hi3;
                    int64_t padded = 1, inside = 1;
                    for (size_t a = 0; a < 3; ++a) {
                        int64_t start = op[a] * w.s[a] - w.p[a];
                        int64_t end = std::min(start + w.k[a], v.size[a] + w.p[a]);
                        padded *= end - start;
                        lo3[a] = std::max<int64_t>(start, 0);
                        hi3[a] = std::min(end, v.size[a]);
                        inside *= std::max<int64_t>(0, hi3[a] - lo3[a]);
                    }
                    IntOrDouble<T> acc = 0;
                    for (int64_t id = lo3[0]; id < hi3[0]; ++id)
                        for (int64_t ih = lo3[1]; ih < hi3[1]; ++ih)
                            for (int64_t iw = lo3[2]; iw < hi3[2]; ++iw) acc = addWrapped<T>(acc, x[(id * v.size[1] + ih) * v.size[2] + iw]);
                    const int64_t div = divisor ? *divisor : (countPad ? padded : inside);
                    out.data<T>()[pl * outPlane + e] = avgOf<T>(acc, div);
                }
            }
        });
    });
    ctx.setOutput(0, out);
}

// _adaptive_avg_pool3d(self, output_size): bin i of n over size s spans [floor(i*s/n), ceil((i+1)*s/n)).
void adaptiveAvgPool3dKernel(KernelContext& ctx) {
    Tensor input = ctx.tensor("self", 0);
    Dims3 o = triple(ctx.ints("output_size", 1), {1, 1, 1}, "adaptive_avg_pool3d: output_size");
    for (int64_t n : o)
        if (n <= 0) kernelFail("adaptive_avg_pool3d: output_size must be positive");
    Volume v = toVolume(ctx, input, "adaptive_avg_pool3d");
    Tensor out = ctx.alloc(input.dtype(), outShape(v, o));
    const int64_t inPlane = v.size[0] * v.size[1] * v.size[2], outPlane = o[0] * o[1] * o[2];
    dispatchFloat(input.dtype(), [&]<class T>() {
        parallelRange(ctx.threads(), v.planes, inPlane, [&](int64_t lo, int64_t hi) {
            for (int64_t pl = lo; pl < hi; ++pl) {
                const T* x = v.x.data<T>() + pl * inPlane;
                for (int64_t e = 0; e < outPlane; ++e) {
                    const Dims3 op{e / (o[1] * o[2]), (e / o[2]) % o[1], e % o[2]};
                    Dims3 a0, a1;
                    for (size_t a = 0; a < 3; ++a) {
                        a0[a] = op[a] * v.size[a] / o[a];
                        a1[a] = ((op[a] + 1) * v.size[a] + o[a] - 1) / o[a];
                    }
                    double acc = 0;
                    for (int64_t id = a0[0]; id < a1[0]; ++id)
                        for (int64_t ih = a0[1]; ih < a1[1]; ++ih)
                            for (int64_t iw = a0[2]; iw < a1[2]; ++iw) acc = addWrapped<T>(acc, x[(id * v.size[1] + ih) * v.size[2] + iw]);
                    const int64_t count = (a1[0] - a0[0]) * (a1[1] - a0[1]) * (a1[2] - a0[2]);
                    out.data<T>()[pl * outPlane + e] = static_cast<T>(acc / static_cast<double>(count));
                }
            }
        });
    });
    ctx.setOutput(0, out);
}

} // namespace

void registerPool3dKernels(KernelRegistry& r) {
    r.add({"aten::max_pool3d_with_indices.default"}, &maxPool3dKernel);
    r.add({"aten::avg_pool3d.default"}, &avgPool3dKernel);
    r.add({"aten::_adaptive_avg_pool3d.default", "aten::adaptive_avg_pool3d.default"}, &viaFloat32<&adaptiveAvgPool3dKernel>);
}

} // namespace irlens::core::exec
