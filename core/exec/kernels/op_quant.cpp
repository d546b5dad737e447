// PT2E quantization (torch.ao.quantization.pt2e): the quantized_decomposed ops that quantize and
// dequantize between float32 and integer tensors, per tensor and per channel, and choose_qparams.
// Semantics are those of torch/ao/quantization/fx/_decomposed.py, checked against
// torch.quantize_per_tensor / quantize_per_channel and dequantize:
//   quantize:   q = clamp(round_half_even(x * (1 / scale)) + zero_point, quant_min, quant_max)
//   dequantize: x = (float(q) - zero_point) * scale
// in float32 (the scale is a Python float, applied as a float32 scalar), except per channel, where
// the scales are a tensor (float64 in PT2E exports) and the arithmetic promotes to it: quantize in the
// scales' dtype, dequantize in double rounded once to float32, as torch's dequantize does.

#include "core/exec/kernel_registry.h"
#include "core/exec/kernels/kernels.h"
#include "core/exec/kernels/util/dispatch.h"
#include "core/exec/kernels/util/loops.h"
#include "core/exec/kernels/util/tensor_ops.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace irlens::core::exec {

namespace {

// The integer dtypes a quantized value may have, with their full ranges.
template <class F>
void dispatchQuant(ScalarType t, F&& f) {
    switch (t) {
    case ScalarType::Int8: f.template operator()<int8_t>(); return;
    case ScalarType::UInt8: f.template operator()<uint8_t>(); return;
    case ScalarType::Int16: f.template operator()<int16_t>(); return;
    case ScalarType::Int32: f.template operator()<int32_t>(); return;
    default: kernelFail("quantized dtype " + dtypeName(t) + " is not supported (int8, uint8, int16, int32)");
    }
}

struct QuantParams {
    int64_t qmin = 0, qmax = 0;
    ScalarType dtype = ScalarType::Int8;
};

// quant_min, quant_max and dtype, checked against each other.
QuantParams quantParams(const KernelContext& ctx, int qminPos) {
    QuantParams p;
    p.qmin = ctx.intArg("quant_min", qminPos);
    p.qmax = ctx.intArg("quant_max", qminPos + 1);
    auto dt = ctx.dtypeArg("dtype", qminPos + 2);
    kernelCheck(dt.has_value(), "dtype: missing");
    p.dtype = *dt;
    kernelCheck(p.qmin <= p.qmax, "quant_min " + std::to_string(p.qmin) + " is above quant_max " + std::to_string(p.qmax));
    dispatchQuant(p.dtype, [&]<class Q>() {
        kernelCheck(p.qmin >= int64_t(std::numeric_limits<Q>::min()) && p.qmax <= int64_t(std::numeric_limits<Q>::max()),
                    "[quant_min, quant_max] = [" + std::to_string(p.qmin) + ", " + std::to_string(p.qmax) +
                        "] does not fit " + dtypeName(p.dtype));
    });
    return p;
}

// The value of a one-element tensor argument (the .tensor overloads' scale and zero_point).
double oneValue(const KernelContext& ctx, std::string_view name, int position) {
    Tensor t = ctx.tensor(name, position);
    kernelCheck(t.numel() == 1, std::string(name) + " should hold one value, got " + t.shapeString());
    return t.at(0);
}

// The float32 input of a quantize op (half and bfloat16 are widened first, as the reference does).
Tensor floatInput(KernelContext& ctx) {
    Tensor x = ctx.tensor("input", 0);
    if (x.dtype() == ScalarType::Float16 || x.dtype() == ScalarType::BFloat16) x = toDtype(ctx, x, ScalarType::Float32);
    kernelCheck(x.dtype() == ScalarType::Float32, "input should be float32, got " + x.shapeString());
    return x;
}

// Round half to even, add the zero point, clamp, convert: one quantized value. NaN quantizes to the
// zero point clamped (the reference's float-to-int conversion is undefined there).
template <class Q, class C>
Q quantizeOne(C scaled, C zeroPoint, C qmin, C qmax) {
    C q = std::nearbyint(scaled) + zeroPoint;
    if (std::isnan(q)) q = zeroPoint;
    return static_cast<Q>(std::clamp(q, qmin, qmax));
}

void quantizePerTensor(KernelContext& ctx, bool tensorArgs) {
    Tensor x = floatInput(ctx);
    const double scale = tensorArgs ? oneValue(ctx, "scale", 1) : ctx.floatArg("scale", 1, 1.0);
    const double zp = tensorArgs ? oneValue(ctx, "zero_point", 2) : double(ctx.intArg("zero_point", 2));
    const QuantParams p = quantParams(ctx, 3);
    const float inv = static_cast<float>(1.0 / scale), zpf = float(zp), lo = float(p.qmin), hi = float(p.qmax);
    Tensor out = ctx.alloc(p.dtype, x.sizes());
    dispatchQuant(p.dtype, [&]<class Q>() {
        mapElements<Q, float>(ctx.threads(), out, [=](float v) { return quantizeOne<Q, float>(v * inv, zpf, lo, hi); }, x);
    });
    ctx.setOutput(0, out);
}

// The output dtype of a dequantize op: out_dtype when given, else float32.
ScalarType outDtype(const KernelContext& ctx, int position) {
    auto dt = ctx.dtypeArg("out_dtype", position);
    return dt.value_or(ScalarType::Float32);
}

void dequantizePerTensor(KernelContext& ctx, bool tensorArgs) {
    Tensor q = ctx.tensor("input", 0);
    const double scale = tensorArgs ? oneValue(ctx, "scale", 1) : ctx.floatArg("scale", 1, 1.0);
    const double zp = tensorArgs ? oneValue(ctx, "zero_point", 2) : double(ctx.intArg("zero_point", 2));
    const QuantParams p = quantParams(ctx, 3);
    kernelCheck(q.dtype() == p.dtype, "input is " + q.shapeString() + " but dtype says " + dtypeName(p.dtype));
    const float s = float(scale), zpf = float(zp);
    Tensor out = ctx.alloc(ScalarType::Float32, q.sizes());
    dispatchQuant(q.dtype(), [&]<class Q>() {
        mapElements<float, Q>(ctx.threads(), out, [=](Q v) { return (float(v) - zpf) * s; }, q);
    });
    const ScalarType want = outDtype(ctx, 7);
    ctx.setOutput(0, want == ScalarType::Float32 ? out : toDtype(ctx, out, want));
}

// Per-channel: the input viewed as [outer, channels, inner] (contiguous), one scale per channel.
struct Channels {
    Tensor x;
    int64_t outer = 1, channels = 1, inner = 1;
};

Channels channelsOf(KernelContext& ctx, const Tensor& input, int64_t axisArg, const Tensor& scales) {
    Channels c;
    const int64_t axis = wrapDim(axisArg, input.dim());
    c.x = contiguous(ctx, input);
    c.channels = input.dim() == 0 ? 1 : input.size(axis);
    for (int64_t d = 0; d < axis; ++d) c.outer *= input.size(d);
    for (int64_t d = axis + 1; d < input.dim(); ++d) c.inner *= input.size(d);
    kernelCheck(scales.numel() == c.channels, "scales hold " + std::to_string(scales.numel()) + " values but axis " +
                                                  std::to_string(axisArg) + " of " + input.shapeString() + " has " +
                                                  std::to_string(c.channels) + " channels");
    return c;
}

std::vector<double> valuesOf(const Tensor& t) {
    std::vector<double> v(size_t(t.numel()));
    for (int64_t k = 0; k < t.numel(); ++k) v[size_t(k)] = t.at(k);
    return v;
}

template <class Q, class C>
void quantizeChannels(const Channels& c, const std::vector<double>& scales, const std::vector<double>& zps,
                      const QuantParams& p, Q* out) {
    const float* xs = c.x.data<float>();
    for (int64_t ch = 0; ch < c.channels; ++ch) {
        // 1.0 / scales is computed in the scales' dtype (C), then multiplies the input in C.
        const C inv = C(1) / C(scales[size_t(ch)]), zp = C(zps[size_t(ch)]), lo = C(p.qmin), hi = C(p.qmax);
        for (int64_t o = 0; o < c.outer; ++o) {
            const int64_t base = (o * c.channels + ch) * c.inner;
            for (int64_t i = 0; i < c.inner; ++i) out[base + i] = quantizeOne<Q, C>(C(xs[base + i]) * inv, zp, lo, hi);
        }
    }
}

void quantizePerChannel(KernelContext& ctx) {
    Tensor x = floatInput(ctx);
    Tensor scales = ctx.tensor("scales", 1);
    Tensor zeroPoints = ctx.tensor("zero_points", 2);
    const QuantParams p = quantParams(ctx, 4);
    const Channels c = channelsOf(ctx, x, ctx.intArg("axis", 3), scales);
    kernelCheck(zeroPoints.numel() == c.channels, "zero_points hold " + std::to_string(zeroPoints.numel()) +
                                                      " values, scales " + std::to_string(c.channels));
    const auto s = valuesOf(scales), z = valuesOf(zeroPoints);
    Tensor out = ctx.alloc(p.dtype, x.sizes());
    dispatchQuant(p.dtype, [&]<class Q>() {
        if (scales.dtype() == ScalarType::Float64) quantizeChannels<Q, double>(c, s, z, p, out.data<Q>());
        else quantizeChannels<Q, float>(c, s, z, p, out.data<Q>());
    });
    ctx.setOutput(0, out);
}

void dequantizePerChannel(KernelContext& ctx) {
    Tensor q = ctx.tensor("input", 0);
    Tensor scales = ctx.tensor("scales", 1);
    auto zeroPoints = ctx.optTensor("zero_points", 2);
    const QuantParams p = quantParams(ctx, 4);
    kernelCheck(q.dtype() == p.dtype, "input is " + q.shapeString() + " but dtype says " + dtypeName(p.dtype));
    const Channels c = channelsOf(ctx, q, ctx.intArg("axis", 3), scales);
    const auto s = valuesOf(scales);
    const auto z = zeroPoints ? valuesOf(*zeroPoints) : std::vector<double>(size_t(c.channels), 0.0);
    kernelCheck(int64_t(z.size()) == c.channels, "zero_points hold " + std::to_string(z.size()) + " values, scales " +
                                                      std::to_string(c.channels));
    Tensor out = ctx.alloc(ScalarType::Float32, q.sizes());
    float* o = out.data<float>();
    dispatchQuant(q.dtype(), [&]<class Q>() {
        const Q* xs = c.x.data<Q>();
        for (int64_t ch = 0; ch < c.channels; ++ch) {
            // In double, rounded once: torch's dequantize of a per-channel tensor, and the reference's
            // (input - zero_points) * scales with float64 scales.
            const double sc = s[size_t(ch)], zp = z[size_t(ch)];
            for (int64_t b = 0; b < c.outer; ++b) {
                const int64_t base = (b * c.channels + ch) * c.inner;
                for (int64_t i = 0; i < c.inner; ++i) o[base + i] = float((double(xs[base + i]) - zp) * sc);
            }
        }
    });
    const ScalarType want = outDtype(ctx, 7);
    ctx.setOutput(0, want == ScalarType::Float32 ? out : toDtype(ctx, out, want));
}

// choose_qparams.tensor(input, quant_min, quant_max, eps, dtype) -> (scale f64[1], zero_point i64[1]):
// the affine per-tensor parameters covering [min(x, 0), max(x, 0)] (torch.ao determine_qparams),
// computed in float32 like the reference.
void chooseQParams(KernelContext& ctx) {
    Tensor x = floatInput(ctx);
    const int64_t qmin = ctx.intArg("quant_min", 1), qmax = ctx.intArg("quant_max", 2);
    const float eps = float(ctx.floatArg("eps", 3, std::numeric_limits<float>::epsilon()));
    kernelCheck(qmin < qmax, "quant_min " + std::to_string(qmin) + " should be below quant_max " + std::to_string(qmax));
    kernelCheck(x.numel() > 0, "choose_qparams of an empty tensor");
    Tensor xc = contiguous(ctx, x);
    const float* xs = xc.data<float>();
    float lo = xs[0], hi = xs[0];
    for (int64_t k = 1; k < xc.numel(); ++k) {
        lo = std::min(lo, xs[k]);
        hi = std::max(hi, xs[k]);
    }
    const float minNeg = std::min(lo, 0.0f), maxPos = std::max(hi, 0.0f);
    const float scale = std::max((maxPos - minNeg) / float(qmax - qmin), eps);
    const int64_t zp = std::clamp(qmin - int64_t(std::nearbyint(minNeg / scale)), qmin, qmax);
    Tensor s = ctx.alloc(ScalarType::Float64, {1});
    Tensor z = ctx.alloc(ScalarType::Int64, {1});
    s.data<double>()[0] = double(scale);
    z.data<int64_t>()[0] = zp;
    ctx.setOutput(0, s);
    ctx.setOutput(1, z);
}

} // namespace

void registerQuantKernels(KernelRegistry& r) {
    r.add({"quantized_decomposed::quantize_per_tensor.default"}, [](KernelContext& c) { quantizePerTensor(c, false); });
    r.add({"quantized_decomposed::quantize_per_tensor.tensor"}, [](KernelContext& c) { quantizePerTensor(c, true); });
    r.add({"quantized_decomposed::dequantize_per_tensor.default"}, [](KernelContext& c) { dequantizePerTensor(c, false); });
    r.add({"quantized_decomposed::dequantize_per_tensor.tensor"}, [](KernelContext& c) { dequantizePerTensor(c, true); });
    r.add({"quantized_decomposed::quantize_per_channel.default"}, &quantizePerChannel);
    r.add({"quantized_decomposed::dequantize_per_channel.default"}, &dequantizePerChannel);
    r.add({"quantized_decomposed::choose_qparams.tensor"}, &chooseQParams);
}

} // namespace irlens::core::exec
