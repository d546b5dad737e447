// Pooling over N-C-H-W (and C-H-W): max pool with indices, average pool, adaptive average pool.

#include "core/exec/kernel_registry.h"
#include "core/exec/kernels/kernels.h"
#include "core/exec/kernels/util/dispatch.h"
#include "core/exec/kernels/util/loops.h"
#include "core/exec/kernels/util/pool.h"
#include "core/exec/kernels/util/simd.h"
#include "core/exec/kernels/util/tensor_ops.h"
#include "core/exec/kernels/util/reduced_float.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

namespace irlens::core::exec {

namespace {

int64_t at2(const std::vector<int64_t>& v, size_t k, int64_t fallback) {
    if (v.empty()) return fallback;
    return v.size() == 1 ? v[0] : v[std::min(k, v.size() - 1)];
}

// x viewed as [planes, H, W] contiguous.
struct Planes {
    Tensor x;
    int64_t planes, H, W;
    Shape lead; // N, C or C
};

Planes toPlanes(KernelContext& ctx, const Tensor& input) {
    if (input.dim() != 3 && input.dim() != 4) kernelFail("pooling expects a 3-D or 4-D input, got " + input.shapeString());
    Planes p;
    p.x = contiguous(ctx, input);
    p.H = input.size(input.dim() - 2);
    p.W = input.size(input.dim() - 1);
    p.lead.assign(input.sizes().begin(), input.sizes().end() - 2);
    p.planes = shapeNumel(p.lead);
    return p;
}

/// The output of a pooling kernel: the input's leading dims, then OH x OW.
Tensor allocPlanes(KernelContext& ctx, const Planes& p, ScalarType dtype, int64_t OH, int64_t OW) {
    Shape shape = p.lead;
    shape.push_back(OH);
    shape.push_back(OW);
    return ctx.alloc(dtype, shape);
}

// max(a, v) that lets a NaN of either side win: SSE's max returns its second operand when either is
// NaN (keeps a NaN a), and OR-ing the bits of a NaN v into any float gives a NaN.
inline __m128 maxNan4(__m128 a, __m128 v) { return _mm_or_ps(_mm_max_ps(v, a), _mm_and_ps(_mm_cmpunord_ps(v, v), v)); }
inline float maxNan1(float a, float v) { return _mm_cvtss_f32(maxNan4(_mm_set_ss(a), _mm_set_ss(v))); }

// Values-only float max pool without dilation, one plane: per output row, the window's rows are
// maxed element-wise into a padded row (four lanes at a time), then each output takes the max of
// its kW neighbours there. resnet18's 3x3/2 pool over 64x112x112 went from about 2.3 ms of CPU
// to a fraction of that (the general loop below keeps per-column NaN flags and running maxima).
void maxPoolPlaneValues(const float* plane, float* out, int64_t H, int64_t W, int64_t OH, int64_t OW, int64_t kH, int64_t kW, int64_t sH,
                        int64_t sW, int64_t pH, int64_t pW, std::vector<float>& vrow) {
    const float lowest = -std::numeric_limits<float>::infinity();
    vrow.assign(static_cast<size_t>(std::max(W + 2 * pW, (OW - 1) * sW + kW)), lowest);
    float* v = vrow.data() + pW;
    for (int64_t oh = 0; oh < OH; ++oh) {
        const int64_t r0 = std::max<int64_t>(0, oh * sH - pH), r1 = std::min<int64_t>(H, oh * sH - pH + kH);
        if (r0 >= r1) std::fill(v, v + W, lowest);
        else std::copy(plane + r0 * W, plane + (r0 + 1) * W, v);
        for (int64_t r = r0 + 1; r < r1; ++r) {
            const float* row = plane + r * W;
            int64_t i = 0;
            for (; i + 4 <= W; i += 4) _mm_storeu_ps(v + i, maxNan4(_mm_loadu_ps(v + i), _mm_loadu_ps(row + i)));
            for (; i < W; ++i) v[i] = maxNan1(v[i], row[i]);
        }
        float* o = out + oh * OW;
        for (int64_t ow = 0; ow < OW; ++ow) {
            const float* win = vrow.data() + ow * sW;
            float best = win[0];
            for (int64_t k = 1; k < kW; ++k) best = maxNan1(best, win[k]);
            o[ow] = best;
        }
    }
}

void maxPoolImpl(KernelContext& ctx, bool withIndices) {
    Tensor input = ctx.tensor("self", 0);
    auto ks = ctx.ints("kernel_size", 1);
    auto st = ctx.ints("stride", 2, {});
    auto pad = ctx.ints("padding", 3, {0});
    auto dil = ctx.ints("dilation", 4, {1});
    bool ceil = ctx.boolArg("ceil_mode", 5, false);
    int64_t kH = at2(ks, 0, 1), kW = at2(ks, 1, 1);
    int64_t sH = at2(st, 0, kH), sW = at2(st, 1, kW);
    int64_t pH = at2(pad, 0, 0), pW = at2(pad, 1, 0), dH = at2(dil, 0, 1), dW = at2(dil, 1, 1);
    if (kH <= 0 || kW <= 0 || sH <= 0 || sW <= 0 || dH <= 0 || dW <= 0) kernelFail("max_pool2d: kernel, stride and dilation must be positive");
    if (pH > kH / 2 || pW > kW / 2) kernelFail("max_pool2d: padding should be at most half of the kernel size");
    Planes P = toPlanes(ctx, input);
    int64_t OH = poolOut(P.H, kH, pH, sH, dH, ceil), OW = poolOut(P.W, kW, pW, sW, dW, ceil);
    if (OH <= 0 || OW <= 0) kernelFail("max_pool2d: output size is too small for input " + input.shapeString());
    Tensor out = allocPlanes(ctx, P, input.dtype(), OH, OW);
    // indices nobody reads (the usual case after export) are not computed; the output stays zero
    const bool wantIndices = withIndices && ctx.outputNeeded(1);
    Tensor idx = withIndices ? (wantIndices ? ctx.alloc(ScalarType::Int64, out.sizes()) : ctx.allocZeros(ScalarType::Int64, out.sizes())) : Tensor();
    if (!wantIndices && dH == 1 && dW == 1 && input.dtype() == ScalarType::Float32) {
        const float* xs = P.x.data<float>();
        float* o = out.data<float>();
        parallelRange(ctx.threads(), P.planes, OH * OW * kH * kW, [&](int64_t lo, int64_t hi) {
            std::vector<float> vrow;
            for (int64_t pl = lo; pl < hi; ++pl)
                maxPoolPlaneValues(xs + pl * P.H * P.W, o + pl * OH * OW, P.H, P.W, OH, OW, kH, kW, sH, sW, pH, pW, vrow);
        });
        ctx.setOutput(0, out);
        if (withIndices) ctx.setOutput(1, idx);
        return;
    }
    dispatchNumeric(input.dtype(), [&]<class T>() {
        const T* xs = P.x.data<T>();
        T* o = out.data<T>();
        int64_t* ix = wantIndices ? idx.data<int64_t>() : nullptr;
        parallelRange(ctx.threads(), P.planes, OH * OW * kH * kW, [&](int64_t lo, int64_t hi) {
            for (int64_t pl = lo; pl < hi; ++pl) {
                const T* plane = xs + pl * P.H * P.W;
                // Per output row: sweep the window offsets outermost and the output columns innermost,
                // keeping running maxima in row buffers: no bounds tests and no data-dependent
                // branches in the inner loop, and independent columns instead of one long chain.
                std::unique_ptr<T[]> best(new T[static_cast<size_t>(OW)]); // not vector<T>: T may be bool
                std::vector<int64_t> bidx(static_cast<size_t>(OW));
                std::vector<int64_t> hasNan(static_cast<size_t>(OW));
                for (int64_t oh = 0; oh < OH; ++oh) {
                    const int64_t h0 = oh * sH - pH;
                    const int64_t khLo = h0 >= 0 ? 0 : (-h0 + dH - 1) / dH;
                    const int64_t khHi = std::min<int64_t>(kH, h0 < P.H ? (P.H - h0 + dH - 1) / dH : 0);
                    T init = std::numeric_limits<T>::lowest();
                    if constexpr (std::is_floating_point_v<T>) init = -std::numeric_limits<T>::infinity();
                    std::fill(best.get(), best.get() + OW, init);
                    std::fill(bidx.begin(), bidx.end(), int64_t(-1));
                    std::fill(hasNan.begin(), hasNan.end(), int64_t(0));
                    for (int64_t kh = khLo; kh < khHi; ++kh) {
                        const int64_t rowOff = (h0 + kh * dH) * P.W;
                        const T* row = plane + rowOff;
                        for (int64_t kw = 0; kw < kW; ++kw) {
                            const int64_t shift = kw * dW - pW; // iw = ow * sW + shift
                            const int64_t owLo = shift >= 0 ? 0 : (-shift + sW - 1) / sW;
                            const int64_t owHi = std::min<int64_t>(OW, shift < P.W ? (P.W - shift + sW - 1) / sW : 0);
                            if constexpr (std::is_floating_point_v<T>) {
                                if (!ix) { // values only: independent per column, no index chains
                                    for (int64_t ow = owLo; ow < owHi; ++ow) {
                                        const T v = row[ow * sW + shift];
                                        hasNan[static_cast<size_t>(ow)] |= static_cast<int64_t>(v != v);
                                        best[static_cast<size_t>(ow)] = maxKeepNan(best[static_cast<size_t>(ow)], v);
                                    }
                                    continue;
                                }
                            }
                            for (int64_t ow = owLo; ow < owHi; ++ow) {
                                const int64_t iw = ow * sW + shift;
                                const T v = row[iw];
                                T& bv = best[static_cast<size_t>(ow)];
                                const int64_t isNan = static_cast<int64_t>(v != v);
                                int64_t& seen = hasNan[static_cast<size_t>(ow)];
                                // the first NaN wins and sticks: nothing after it may take over
                                const int64_t take = (static_cast<int64_t>(v > bv) | isNan | static_cast<int64_t>(bidx[static_cast<size_t>(ow)] < 0)) & (seen ^ 1);
                                seen |= isNan;
                                const int64_t cur = bidx[static_cast<size_t>(ow)];
                                bidx[static_cast<size_t>(ow)] = cur ^ ((cur ^ (rowOff + iw)) & -take); // select by mask
                                if constexpr (std::is_floating_point_v<T>) bv = maxKeepNan(bv, v);
                                else bv = take ? v : bv;
                            }
                        }
                    }
                    for (int64_t ow = 0; ow < OW; ++ow) {
                        if constexpr (std::is_floating_point_v<T>)
                            if (hasNan[static_cast<size_t>(ow)]) best[static_cast<size_t>(ow)] = std::numeric_limits<T>::quiet_NaN();
                        o[(pl * OH + oh) * OW + ow] = best[static_cast<size_t>(ow)];
                        if (ix) ix[(pl * OH + oh) * OW + ow] = bidx[static_cast<size_t>(ow)];
                    }
                }
            }
        });
    });
    ctx.setOutput(0, out);
    if (withIndices) ctx.setOutput(1, idx);
}

void maxPoolWithIndicesKernel(KernelContext& ctx) { maxPoolImpl(ctx, true); }
void maxPoolKernel(KernelContext& ctx) { maxPoolImpl(ctx, false); }

// avg_pool2d(self, kernel_size, stride=[], padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None)
void avgPoolKernel(KernelContext& ctx) {
    Tensor input = ctx.tensor("self", 0);
    auto ks = ctx.ints("kernel_size", 1);
    auto st = ctx.ints("stride", 2, {});
    auto pad = ctx.ints("padding", 3, {0});
    bool ceil = ctx.boolArg("ceil_mode", 4, false);
    bool countPad = ctx.boolArg("count_include_pad", 5, true);
    auto divisor = ctx.optInt("divisor_override", 6);
    int64_t kH = at2(ks, 0, 1), kW = at2(ks, 1, 1), sH = at2(st, 0, kH), sW = at2(st, 1, kW), pH = at2(pad, 0, 0), pW = at2(pad, 1, 0);
    if (kH <= 0 || kW <= 0 || sH <= 0 || sW <= 0) kernelFail("avg_pool2d: kernel and stride must be positive");
    Planes P = toPlanes(ctx, input);
    int64_t OH = poolOut(P.H, kH, pH, sH, 1, ceil), OW = poolOut(P.W, kW, pW, sW, 1, ceil);
    if (OH <= 0 || OW <= 0) kernelFail("avg_pool2d: output size is too small for input " + input.shapeString());
    Tensor out = allocPlanes(ctx, P, input.dtype(), OH, OW);
    dispatchFloatOrInt64(input.dtype(), [&]<class T>() {
        const T* xs = P.x.data<T>();
        T* o = out.data<T>();
        for (int64_t pl = 0; pl < P.planes; ++pl)
            for (int64_t oh = 0; oh < OH; ++oh)
                for (int64_t ow = 0; ow < OW; ++ow) {
                    int64_t h0 = oh * sH - pH, w0 = ow * sW - pW;
                    int64_t h1 = std::min(h0 + kH, P.H + pH), w1 = std::min(w0 + kW, P.W + pW);
                    int64_t poolSize = (h1 - h0) * (w1 - w0);
                    h0 = std::max<int64_t>(h0, 0); w0 = std::max<int64_t>(w0, 0);
                    h1 = std::min(h1, P.H); w1 = std::min(w1, P.W);
                    IntOrDouble<T> acc = 0;
                    for (int64_t ih = h0; ih < h1; ++ih)
                        for (int64_t iw = w0; iw < w1; ++iw) acc = addWrapped<T>(acc, xs[(pl * P.H + ih) * P.W + iw]);
                    int64_t div = divisor ? *divisor : (countPad ? poolSize : (h1 - h0) * (w1 - w0));
                    o[(pl * OH + oh) * OW + ow] = avgOf<T>(acc, div);
                }
    });
    ctx.setOutput(0, out);
}

void adaptiveAvgPoolKernel(KernelContext& ctx) {
    Tensor input = ctx.tensor("self", 0);
    auto os2 = ctx.ints("output_size", 1);
    if (os2.empty()) kernelFail("adaptive_avg_pool2d: output_size is empty");
    int64_t OH = os2[0], OW = os2.size() > 1 ? os2[1] : os2[0];
    if (OH <= 0 || OW <= 0) kernelFail("adaptive_avg_pool2d: output_size must be positive");
    Planes P = toPlanes(ctx, input);
    Tensor out = allocPlanes(ctx, P, input.dtype(), OH, OW);
    dispatchFloat(input.dtype(), [&]<class T>() {
        const T* xs = P.x.data<T>();
        T* o = out.data<T>();
        for (int64_t pl = 0; pl < P.planes; ++pl)
            for (int64_t oh = 0; oh < OH; ++oh) {
                int64_t h0 = oh * P.H / OH, h1 = ((oh + 1) * P.H + OH - 1) / OH;
                for (int64_t ow = 0; ow < OW; ++ow) {
                    int64_t w0 = ow * P.W / OW, w1 = ((ow + 1) * P.W + OW - 1) / OW;
                    double acc = 0;
                    for (int64_t ih = h0; ih < h1; ++ih)
                        for (int64_t iw = w0; iw < w1; ++iw) acc = addWrapped<T>(acc, xs[(pl * P.H + ih) * P.W + iw]);
                    o[(pl * OH + oh) * OW + ow] = static_cast<T>(acc / static_cast<double>((h1 - h0) * (w1 - w0)));
                }
            }
    });
    ctx.setOutput(0, out);
}

} // namespace

void registerPoolKernels(KernelRegistry& r) {
    r.add({"aten::max_pool2d_with_indices.default"}, &viaFloat32<&maxPoolWithIndicesKernel>);
    r.add({"aten::max_pool2d.default"}, &maxPoolKernel);
    r.add({"aten::avg_pool2d.default"}, &viaFloat32<&avgPoolKernel>);
    r.add({"aten::adaptive_avg_pool2d.default", "aten::_adaptive_avg_pool2d.default"}, &viaFloat32<&adaptiveAvgPoolKernel>);
}

} // namespace irlens::core::exec
