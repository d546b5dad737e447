// Spatial resampling and padding modes: upsample nearest / bilinear (2-D), reflection and replication
// padding (1-D, 2-D, 3-D), 1-D average pools (run as 2-D with H = 1).

#include "core/exec/kernel_registry.h"
#include "core/exec/kernels/kernels.h"
#include "core/exec/kernels/util/dispatch.h"
#include "core/exec/kernels/util/half.h"
#include "core/exec/kernels/util/pool.h"
#include "core/exec/kernels/util/tensor_ops.h"
#include "core/exec/kernels/util/reduced_float.h"

#include <cmath>
#include <cstring>
#include <sstream>

namespace irlens::core::exec {

namespace {

// floor(in * scale), the output size a scale factor gives, refused when the scale is not positive and
// finite or the size is beyond int64 (a plain cast would be undefined).
int64_t scaledSize(int64_t in, double scale, const char* op) {
    const double size = std::floor(static_cast<double>(in) * scale);
    if (!(scale > 0) || !(size >= 0 && size < 9223372036854775808.0)) {
        std::ostringstream what;
        what << op << ": scale factor " << scale << " gives no output size for a dimension of " << in;
        kernelFail(what.str());
    }
    return static_cast<int64_t>(size);
}

// Output size from output_size or scale_factors (upsample_*.vec).
std::pair<int64_t, int64_t> upsampleSize(KernelContext& ctx, const Tensor& x, std::vector<double>& scales) {
    int64_t H = x.size(x.dim() - 2), W = x.size(x.dim() - 1);
    if (auto os = ctx.optInts("output_size", 1); os && os->size() == 2) {
        if ((*os)[0] < 0 || (*os)[1] < 0) kernelFail("upsample: output size " + shapeToString(*os) + " is negative");
        scales = {static_cast<double>(H) / static_cast<double>((*os)[0]), static_cast<double>(W) / static_cast<double>((*os)[1])};
        return {(*os)[0], (*os)[1]};
    }
    const EValue* sf = ctx.find("scale_factors", 2);
    if (!sf || sf->kind != EValue::Kind::DoubleList || sf->doubles.size() != 2) kernelFail("upsample: give output_size or two scale_factors");
    scales = {1.0 / sf->doubles[0], 1.0 / sf->doubles[1]};
    return {scaledSize(H, sf->doubles[0], "upsample"), scaledSize(W, sf->doubles[1], "upsample")};
}

void upsampleNearestKernel(KernelContext& ctx) {
    Tensor x = contiguous(ctx, ctx.tensor("input", 0));
    if (x.dim() != 4) kernelFail("upsample_nearest2d expects a 4-D input, got " + x.shapeString());
    std::vector<double> sc;
    const std::pair<int64_t, int64_t> size = upsampleSize(ctx, x, sc); // not a structured binding: the lambda captures it
    const int64_t OH = size.first, OW = size.second;
    int64_t P = x.size(0) * x.size(1), H = x.size(2), W = x.size(3);
    Tensor out = ctx.alloc(x.dtype(), {x.size(0), x.size(1), OH, OW});
    dispatchAll(x.dtype(), [&]<class T>() {
        for (int64_t p = 0; p < P; ++p)
            for (int64_t oh = 0; oh < OH; ++oh) {
                int64_t ih = std::min(static_cast<int64_t>(std::floor(static_cast<double>(oh) * sc[0])), H - 1);
                for (int64_t ow = 0; ow < OW; ++ow) {
                    int64_t iw = std::min(static_cast<int64_t>(std::floor(static_cast<double>(ow) * sc[1])), W - 1);
                    out.data<T>()[(p * OH + oh) * OW + ow] = x.data<T>()[(p * H + ih) * W + iw];
                }
            }
    });
    ctx.setOutput(0, out);
}

void upsampleBilinearKernel(KernelContext& ctx) {
    Tensor x = contiguous(ctx, ctx.tensor("input", 0));
    if (x.dim() != 4) kernelFail("upsample_bilinear2d expects a 4-D input, got " + x.shapeString());
    bool align = ctx.boolArg("align_corners", 2, false);
    std::vector<double> sc;
    // align_corners sits between output_size and scale_factors in the .vec schema
    const EValue* sf = ctx.find("scale_factors", 3);
    int64_t H = x.size(2), W = x.size(3), OH, OW;
    if (auto os = ctx.optInts("output_size", 1); os && os->size() == 2) { OH = (*os)[0]; OW = (*os)[1]; sc = {0, 0}; }
    else if (sf && sf->kind == EValue::Kind::DoubleList && sf->doubles.size() == 2) {
        OH = scaledSize(H, sf->doubles[0], "upsample_bilinear2d");
        OW = scaledSize(W, sf->doubles[1], "upsample_bilinear2d");
        sc = {1.0 / sf->doubles[0], 1.0 / sf->doubles[1]};
    } else kernelFail("upsample_bilinear2d: give output_size or two scale_factors");
    if (OH < 0 || OW < 0) kernelFail("upsample_bilinear2d: output size [" + std::to_string(OH) + ", " + std::to_string(OW) + "] is negative");
    auto scaleOf = [&](int64_t in, int64_t out, double given) {
        if (align) return out > 1 ? static_cast<double>(in - 1) / static_cast<double>(out - 1) : 0.0;
        return given > 0 ? given : static_cast<double>(in) / static_cast<double>(out);
    };
    double rh = scaleOf(H, OH, sc[0]), rw = scaleOf(W, OW, sc[1]);
    int64_t P = x.size(0) * x.size(1);
    Tensor out = ctx.alloc(x.dtype(), {x.size(0), x.size(1), OH, OW});
    dispatchFloat(x.dtype(), [&]<class T>() {
        for (int64_t p = 0; p < P; ++p)
            for (int64_t oh = 0; oh < OH; ++oh) {
                double fh = align ? oh * rh : std::max(0.0, (oh + 0.5) * rh - 0.5);
                int64_t h0 = std::min(static_cast<int64_t>(fh), H - 1), h1 = std::min(h0 + 1, H - 1);
                double lh = fh - static_cast<double>(h0);
                for (int64_t ow = 0; ow < OW; ++ow) {
                    double fw = align ? ow * rw : std::max(0.0, (ow + 0.5) * rw - 0.5);
                    int64_t w0 = std::min(static_cast<int64_t>(fw), W - 1), w1 = std::min(w0 + 1, W - 1);
                    double lw = fw - static_cast<double>(w0);
                    const T* s = x.data<T>() + p * H * W;
                    double v = (1 - lh) * ((1 - lw) * s[h0 * W + w0] + lw * s[h0 * W + w1]) + lh * ((1 - lw) * s[h1 * W + w0] + lw * s[h1 * W + w1]);
                    out.data<T>()[(p * OH + oh) * OW + ow] = static_cast<T>(v);
                }
            }
    });
    ctx.setOutput(0, out);
}

// Reflection / replication padding over the last `nd` dims; pad = [left, right, top, bottom, front, back].
template <bool Reflect> void padModeKernel(KernelContext& ctx) {
    Tensor x = contiguous(ctx, ctx.tensor("self", 0));
    auto pad = ctx.ints("padding", 1);
    const int64_t nd = static_cast<int64_t>(pad.size() / 2);
    if (pad.size() % 2 || nd == 0 || nd > x.dim()) kernelFail("padding: expected 2, 4 or 6 values fitting the input rank");
    Shape os = x.sizes();
    for (int64_t k = 0; k < nd; ++k) {
        int64_t d = x.dim() - 1 - k;
        int64_t lo = pad[static_cast<size_t>(2 * k)], hi = pad[static_cast<size_t>(2 * k + 1)];
        if (Reflect && (lo >= x.size(d) || hi >= x.size(d))) kernelFail("reflection padding must be smaller than the input dimension");
        if (!Reflect && x.size(d) == 0) kernelFail("replication padding of an empty dimension");
        os[static_cast<size_t>(d)] += lo + hi;
    }
    Tensor out = ctx.alloc(x.dtype(), os);
    const int64_t n = out.numel(), es = x.itemSize();
    Shape idx(os.size(), 0);
    Shape xst = x.strides();
    for (int64_t e = 0; e < n; ++e) {
        int64_t off = 0;
        for (int64_t d = 0; d < x.dim(); ++d) {
            int64_t i = idx[static_cast<size_t>(d)];
            int64_t k = x.dim() - 1 - d;
            if (k < nd) {
                int64_t lo = pad[static_cast<size_t>(2 * k)], size = x.size(d);
                i -= lo;
                if (Reflect) {
                    if (i < 0) i = -i;
                    if (i >= size) i = 2 * (size - 1) - i;
                } else {
                    i = std::clamp<int64_t>(i, 0, size - 1);
                }
            }
            off += i * xst[static_cast<size_t>(d)];
        }
        std::memcpy(out.raw() + e * es, x.raw() + off * es, static_cast<size_t>(es));
        for (size_t d = os.size(); d-- > 0;) {
            if (++idx[d] < os[d]) break;
            idx[d] = 0;
        }
    }
    ctx.setOutput(0, out);
}

// avg_pool1d(self, kernel_size, stride, padding, ceil_mode, count_include_pad) on [N, C, L] / [C, L]
// float16 / bfloat16 pool in float32 and round once, as PyTorch's CPU pooling accumulates them.
Tensor pool1dInput(KernelContext& ctx) {
    const Tensor self = ctx.tensor("self", 0);
    return contiguous(ctx, toDtype(ctx, self, isReducedFloat(self.dtype()) ? ScalarType::Float32 : self.dtype()));
}

void avgPool1dKernel(KernelContext& ctx) {
    Tensor x = pool1dInput(ctx);
    int64_t k = ctx.ints("kernel_size", 1).at(0);
    auto st = ctx.ints("stride", 2, {});
    int64_t s = st.empty() ? k : st[0], p = ctx.ints("padding", 3, {0}).at(0);
    bool ceil = ctx.boolArg("ceil_mode", 4, false), countPad = ctx.boolArg("count_include_pad", 5, true);
    if (k <= 0 || s <= 0) kernelFail("avg_pool1d: kernel and stride must be positive");
    int64_t L = x.size(x.dim() - 1), OL = poolOut(L, k, p, s, 1, ceil);
    if (OL <= 0) kernelFail("avg_pool1d: output would be empty");
    Shape os = x.sizes();
    os.back() = OL;
    Tensor out = ctx.alloc(x.dtype(), os);
    int64_t P = x.numel() / std::max<int64_t>(1, L);
    dispatchFloat(x.dtype(), [&]<class T>() {
        for (int64_t pl = 0; pl < P; ++pl)
            for (int64_t o = 0; o < OL; ++o) {
                int64_t a = o * s - p, b = std::min(a + k, L + p), size = b - a;
                a = std::max<int64_t>(a, 0);
                b = std::min(b, L);
                double acc = 0;
                for (int64_t i = a; i < b; ++i) acc += x.data<T>()[pl * L + i];
                out.data<T>()[pl * OL + o] = static_cast<T>(acc / static_cast<double>(countPad ? size : b - a));
            }
    });
    ctx.setOutput(0, toDtype(ctx, out, ctx.tensor("self", 0).dtype()));
}

void adaptiveAvgPool1dKernel(KernelContext& ctx) {
    Tensor x = pool1dInput(ctx);
    int64_t OL = ctx.ints("output_size", 1).at(0);
    if (OL <= 0) kernelFail("adaptive_avg_pool1d: output_size must be positive");
    int64_t L = x.size(x.dim() - 1), P = x.numel() / std::max<int64_t>(1, L);
    Shape os = x.sizes();
    os.back() = OL;
    Tensor out = ctx.alloc(x.dtype(), os);
    dispatchFloat(x.dtype(), [&]<class T>() {
        for (int64_t pl = 0; pl < P; ++pl)
            for (int64_t o = 0; o < OL; ++o) {
                int64_t a = o * L / OL, b = ((o + 1) * L + OL - 1) / OL;
                double acc = 0;
                for (int64_t i = a; i < b; ++i) acc += x.data<T>()[pl * L + i];
                out.data<T>()[pl * OL + o] = static_cast<T>(acc / static_cast<double>(b - a));
            }
    });
    ctx.setOutput(0, toDtype(ctx, out, ctx.tensor("self", 0).dtype()));
}

// copy(self, src, non_blocking): functional copy_ -> src's values in self's dtype and shape.
// prims::copy_to(a, b) writes b into a and returns a. Values are immutable here, so the result is a
// copy of a's whole storage viewed as a (same sizes, strides and offset) with b written through it.
Tensor copyToStorageOf(KernelContext& ctx, const Tensor& a, const Tensor& b) {
    const int64_t bytes = a.buffer() ? static_cast<int64_t>(a.buffer()->size()) : 0;
    Tensor store = ctx.alloc(a.dtype(), {bytes / a.itemSize()});
    if (bytes > 0) std::memcpy(store.raw(), a.buffer()->data(), static_cast<size_t>(bytes));
    Tensor out = store.asStrided(a.sizes(), a.strides(), a.storageOffset());
    copyInto(out, b, ctx.threads());
    return out;
}

void copyKernel(KernelContext& ctx) {
    // aten::copy(self, src); prims::copy_to(a, b)
    Tensor self = ctx.tensor("self", 0);
    if (!ctx.find("src", 1)) {
        ctx.setOutput(0, copyToStorageOf(ctx, self, ctx.tensor("b", 1)));
        return;
    }
    Tensor out = ctx.alloc(self.dtype(), self.sizes());
    copyInto(out, ctx.tensor("src", 1), ctx.threads());
    ctx.setOutput(0, out);
}

} // namespace

void registerResampleKernels(KernelRegistry& r) {
    r.add({"aten::upsample_nearest2d.vec", "aten::upsample_nearest2d.default"}, &viaFloat32<&upsampleNearestKernel>);
    r.add({"aten::upsample_bilinear2d.vec", "aten::upsample_bilinear2d.default"}, &viaFloat32<&upsampleBilinearKernel>);
    r.add({"aten::reflection_pad1d.default", "aten::reflection_pad2d.default", "aten::reflection_pad3d.default"}, &padModeKernel<true>);
    r.add({"aten::replication_pad1d.default", "aten::replication_pad2d.default", "aten::replication_pad3d.default"}, &padModeKernel<false>);
    r.add({"aten::avg_pool1d.default"}, &avgPool1dKernel);
    r.add({"aten::adaptive_avg_pool1d.default"}, &adaptiveAvgPool1dKernel);
    r.add({"aten::copy.default", "prims::copy_to.default"}, &copyKernel);
}

} // namespace irlens::core::exec
