// grid_sampler_2d (bilinear, nearest and bicubic; padding zeros, border and reflection; both
// align_corners) and resize_ (a new shape over the same storage).
//
// The sampler computes in the input's dtype in the order PyTorch's CPU kernel does (unnormalise,
// pad the coordinate, corner weights from the distances to the sides), so float32 results round
// as PyTorch's do.

#include "core/exec/kernel_registry.h"
#include "core/exec/kernels/kernels.h"
#include "core/exec/kernels/util/dispatch.h"
#include "core/exec/kernels/util/loops.h"
#include "core/exec/kernels/util/tensor_ops.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace irlens::core::exec {

namespace {

enum class Interp { Bilinear = 0, Nearest = 1, Bicubic = 2 };
enum class Padding { Zeros = 0, Border = 1, Reflection = 2 };

// One spatial axis of the input: grid value in [-1, 1] -> input coordinate, then the padding mode.
template <class T>
struct Axis {
    int64_t size;
    bool align;
    Padding pad;

    T maxVal() const { return static_cast<T>(size - 1); }
    T scale() const { return align ? static_cast<T>(size - 1) / 2 : static_cast<T>(size) / 2; }
    T unnormalize(T v) const { return align ? (v + 1) * scale() : (v + 1) * scale() - static_cast<T>(0.5); }
    // NaN goes to 0, as PyTorch's clamp order gives
    T clip(T v) const { return std::min(maxVal(), v > 0 ? v : T(0)); }
    // reflected into [0, size - 1] (align_corners) or [-0.5, size - 0.5]
    T reflect(T v) const {
        if (align && size <= 1) return 0;
        const T low = align ? T(0) : static_cast<T>(-0.5);
        const T twiceSpan = align ? static_cast<T>(size - 1) * 2 : static_cast<T>(size) * 2;
        const T a = std::abs(v - low);
        const T extra = a - std::trunc(a / twiceSpan) * twiceSpan;
        return std::min(extra, twiceSpan - extra) + low;
    }
    T pad_(T v) const {
        if (pad == Padding::Border) return clip(v);
        if (pad == Padding::Reflection) return clip(reflect(v));
        return v;
    }
    T apply(T v) const { return pad_(unnormalize(v)); }
};

// An input coordinate as an index: non-finite and far-off values are outside (PyTorch's int32
// conversion turns them into INT_MIN).
template <class T>
int64_t toIndex(T v) {
    return std::isfinite(v) && std::abs(v) < T(1 << 30) ? static_cast<int64_t>(v) : std::numeric_limits<int64_t>::min();
}

// One channel of one image; a tap outside reads 0 (zeros padding; with border / reflection the
// coordinates are inside already, only the east / south neighbours of the last cell fall off, with weight 0).
template <class T>
struct Plane {
    const T* data;
    int64_t H, W, sH, sW;
    T at(int64_t y, int64_t x) const { return x < 0 || x >= W || y < 0 || y >= H ? T(0) : data[y * sH + x * sW]; }
};

template <class T>
T bilinear(const Plane<T>& p, T x, T y) {
    const T xw = std::floor(x), yn = std::floor(y);
    const T w = x - xw, e = 1 - w, n = y - yn, s = 1 - n;
    const int64_t ix = toIndex(xw), iy = toIndex(yn);
    if (ix == std::numeric_limits<int64_t>::min() || iy == std::numeric_limits<int64_t>::min()) return 0 * (s * e); // NaN stays NaN
    return p.at(iy, ix) * (s * e) + p.at(iy, ix + 1) * (s * w) + p.at(iy + 1, ix) * (n * e) + p.at(iy + 1, ix + 1) * (n * w);
}

template <class T>
void cubicCoefficients(T c[4], T t) {
    const T A = static_cast<T>(-0.75);
    T x = t + 1;
    c[0] = ((A * x - 5 * A) * x + 8 * A) * x - 4 * A;
    x = t;
    c[1] = ((A + 2) * x - (A + 3)) * x * x + 1;
    x = 1 - t;
    c[2] = ((A + 2) * x - (A + 3)) * x * x + 1;
    x = 2 - t;
    c[3] = ((A * x - 5 * A) * x + 8 * A) * x - 4 * A;
}

// Bicubic: taps around the unpadded coordinate, each tap's coordinate padded on its own.
template <class T>
T bicubic(const Plane<T>& p, const Axis<T>& ax, const Axis<T>& ay, T x, T y) {
    const T ix = std::floor(x), iy = std::floor(y);
    T cx[4], cy[4];
    cubicCoefficients(cx, x - ix);
    cubicCoefficients(cy, y - iy);
    auto tap = [&](T tx, T ty) {
        return p.at(toIndex(std::nearbyint(ay.pad_(ty))), toIndex(std::nearbyint(ax.pad_(tx))));
    };
    T rows[4];
    for (int i = 0; i < 4; ++i) {
        const T ty = iy + static_cast<T>(i - 1);
        rows[i] = cx[0] * tap(ix - 1, ty) + cx[1] * tap(ix, ty) + cx[2] * tap(ix + 1, ty) + cx[3] * tap(ix + 2, ty);
    }
    return cy[0] * rows[0] + cy[1] * rows[1] + cy[2] * rows[2] + cy[3] * rows[3];
}

// grid_sampler_2d(input [N, C, H, W], grid [N, OH, OW, 2] (x, y), interpolation_mode, padding_mode, align_corners)
void gridSampler2dKernel(KernelContext& ctx) {
    const Tensor input = ctx.tensor("input", 0), gridT = ctx.tensor("grid", 1);
    const int64_t mode = ctx.intArg("interpolation_mode", 2), padMode = ctx.intArg("padding_mode", 3);
    const bool align = ctx.boolArg("align_corners", 4, false);
    if (mode < 0 || mode > 2) kernelFail("grid_sampler_2d: interpolation_mode " + std::to_string(mode) + " is not bilinear (0), nearest (1) or bicubic (2)");
    if (padMode < 0 || padMode > 2) kernelFail("grid_sampler_2d: padding_mode " + std::to_string(padMode) + " is not zeros (0), border (1) or reflection (2)");
    if (input.dim() != 4 || gridT.dim() != 4 || gridT.size(3) != 2 || gridT.size(0) != input.size(0))
        kernelFail("grid_sampler_2d expects input [N, C, H, W] and grid [N, OH, OW, 2], got " + input.shapeString() + " and " + gridT.shapeString());
    if (gridT.dtype() != input.dtype()) kernelFail("grid_sampler_2d: input and grid must have one dtype");
    const int64_t N = input.size(0), C = input.size(1), H = input.size(2), W = input.size(3), OH = gridT.size(1), OW = gridT.size(2);
    if (H <= 0 || W <= 0) kernelFail("grid_sampler_2d: the input's spatial size must be non-empty, got " + input.shapeString());
    const Interp interp = static_cast<Interp>(mode);
    const Padding pad = static_cast<Padding>(padMode);
    Tensor out = ctx.alloc(input.dtype(), {N, C, OH, OW});
    dispatchFloat(input.dtype(), [&]<class T>() {
        const Axis<T> ax{W, align, pad}, ay{H, align, pad};
        const T* xs = input.data<T>();
        const T* gs = gridT.data<T>();
        T* o = out.data<T>();
        parallelRange(ctx.threads(), N * OH, OW * C * 16, [&](int64_t lo, int64_t hi) {
            for (int64_t r = lo; r < hi; ++r) {
                const int64_t n = r / OH, oh = r % OH;
                for (int64_t ow = 0; ow < OW; ++ow) {
                    const T* g = gs + n * gridT.stride(0) + oh * gridT.stride(1) + ow * gridT.stride(2);
                    const T gx = g[0], gy = g[gridT.stride(3)];
                    const T x = interp == Interp::Bicubic ? ax.unnormalize(gx) : ax.apply(gx);
                    const T y = interp == Interp::Bicubic ? ay.unnormalize(gy) : ay.apply(gy);
                    for (int64_t c = 0; c < C; ++c) {
                        const Plane<T> p{xs + n * input.stride(0) + c * input.stride(1), H, W, input.stride(2), input.stride(3)};
                        T v;
                        if (interp == Interp::Bilinear) v = bilinear(p, x, y);
                        else if (interp == Interp::Nearest) v = p.at(toIndex(std::nearbyint(y)), toIndex(std::nearbyint(x)));
                        else v = bicubic(p, ax, ay, x, y);
                        o[((n * C + c) * OH + oh) * OW + ow] = v;
                    }
                }
            }
        });
    });
    ctx.setOutput(0, out);
}

// resize_(self, size, memory_format=None): the same sizes keep self as it is; other sizes give
// contiguous strides over self's storage from its offset (PyTorch keeps the data of a contiguous
// tensor; storage it has to add is uninitialised there, zero here).
void resizeInPlaceKernel(KernelContext& ctx) {
    const Tensor self = ctx.tensor("self", 0);
    const Shape size = ctx.ints("size", 1);
    const auto format = ctx.optInt("memory_format", 2);
    if (format && *format != static_cast<int64_t>(MemoryFormat::Contiguous)) {
        const char* name = *format == static_cast<int64_t>(MemoryFormat::ChannelsLast)     ? "channels_last"
                           : *format == static_cast<int64_t>(MemoryFormat::ChannelsLast3d) ? "channels_last_3d"
                                                                                           : "preserve_format";
        kernelFail(std::string("resize_: memory_format ") + name + " is not supported (contiguous_format only)");
    }
    if (size == self.sizes()) {
        ctx.setOutput(0, self);
        return;
    }
    ctx.setOutput(0, resizedOver(ctx, self, size, "resize_"));
}

} // namespace

void registerGridSampleKernels(KernelRegistry& r) {
    r.add({"aten::grid_sampler_2d.default"}, &gridSampler2dKernel);
    r.add({"aten::resize_.default"}, &resizeInPlaceKernel);
}

} // namespace irlens::core::exec
