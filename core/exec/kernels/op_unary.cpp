// Unary pointwise ops: math functions (integer inputs promote to float32 as in torch), activations
// (relu, gelu, hardtanh, clamp ...), their in-place forms (output aliases the input), predicates.

#include "core/exec/kernel_registry.h"
#include "core/exec/kernels/kernels.h"
#include "core/exec/kernels/util/dispatch.h"
#include "core/exec/kernels/util/int_wrap.h"
#include "core/exec/kernels/util/dnnl_slices.h"
#include "core/exec/kernels/util/half.h"
#include "core/exec/kernels/util/loops.h"
#include "core/exec/kernels/util/simd.h"
#include "core/exec/kernels/util/tensor_ops.h"
#include "core/exec/kernels/util/reduced_float.h"


#include <cmath>
#include <limits>

namespace irlens::core::exec {

namespace {

enum class Un {
    // float-valued
    Exp, Exp2, Expm1, Log, Log2, Log10, Log1p, Sqrt, Rsqrt, Sin, Cos, Tan, Tanh, Sigmoid, Erf, Asin, Acos, Atan,
    Sinh, Cosh, Asinh, Acosh, Atanh, Erfc, Cbrt, Reciprocal, Gelu, GeluTanh, Silu, Mish, Softplus, LogSigmoid, Lgamma, Digamma_unused,
    // type-preserving
    Neg, Abs, Relu, Floor, Ceil, Round, Trunc, Sign, Square, Hardswish, Hardsigmoid, Frac,
};

constexpr bool isFloatValued(Un op) { return op < Un::Neg; }

template <class T>
[[gnu::always_inline]] inline T applyUn(Un op, T x) {
    if constexpr (std::is_floating_point_v<T>) {
        switch (op) {
        case Un::Exp: return std::exp(x);
        case Un::Exp2: return std::exp2(x);
        case Un::Expm1: return std::expm1(x);
        case Un::Log: return std::log(x);
        case Un::Log2: return std::log2(x);
        case Un::Log10: return std::log10(x);
        // PyTorch 1.13 runs Sleef's log1p on every element (at::vml maps it over partial vectors and
        // strided copies too), and Sleef answers inf above 1e38 (float) / 1e307 (double)
        case Un::Log1p: return x > (sizeof(T) == 4 ? T(1e38f) : T(1e307)) ? T(INFINITY) : std::log1p(x);
        case Un::Sqrt: return std::sqrt(x);
        case Un::Rsqrt: return T(1) / std::sqrt(x);
        case Un::Sin: return std::sin(x);
        case Un::Cos: return std::cos(x);
        case Un::Tan: return std::tan(x);
        case Un::Tanh: return std::tanh(x);
        case Un::Sigmoid: return T(1) / (T(1) + std::exp(-x));
        case Un::Erf: return std::erf(x);
        case Un::Asin: return std::asin(x);
        case Un::Acos: return std::acos(x);
        case Un::Atan: return std::atan(x);
        case Un::Sinh: return std::sinh(x);
        case Un::Cosh: return std::cosh(x);
        case Un::Asinh: return std::asinh(x);
        case Un::Acosh: return std::acosh(x);
        case Un::Atanh: return std::atanh(x);
        case Un::Erfc: return std::erfc(x);
        case Un::Cbrt: return std::cbrt(x);
        case Un::Reciprocal: return T(1) / x;
        case Un::Gelu: return T(0.5) * x * (T(1) + std::erf(x * T(0.70710678118654752440)));
        case Un::GeluTanh: {
            const T k = T(0.79788456080286535588); // sqrt(2/pi)
            return T(0.5) * x * (T(1) + std::tanh(k * (x + T(0.044715) * x * x * x)));
        }
        case Un::Silu: return x / (T(1) + std::exp(-x));
        case Un::Mish: return x * std::tanh(std::log1p(std::exp(x)));
        case Un::Softplus: return x > T(20) ? x : std::log1p(std::exp(x));
        case Un::LogSigmoid: return -(std::max(-x, T(0)) + std::log1p(std::exp(-std::abs(x))));
        case Un::Lgamma: return std::lgamma(x);
        case Un::Neg: return -x;
        case Un::Abs: return std::abs(x);
        case Un::Relu: return x < T(0) ? T(0) : x; // NaN and -0.0 pass through, as clamp_min(x, 0)
        case Un::Floor: return std::floor(x);
        case Un::Ceil: return std::ceil(x);
        case Un::Round: return std::nearbyint(x); // half to even, like torch.round
        case Un::Trunc: return std::trunc(x);
        case Un::Frac: return x - std::trunc(x);
        case Un::Sign: return x > T(0) ? T(1) : (x < T(0) ? T(-1) : T(0));
        case Un::Square: return x * x;
        case Un::Hardswish: return x * std::min(std::max(x + T(3), T(0)), T(6)) / T(6);
        case Un::Hardsigmoid: return std::min(std::max(x + T(3), T(0)), T(6)) / T(6);
        default: kernelFail("unsupported unary op");
        }
    } else if constexpr (std::is_same_v<T, bool>) {
        switch (op) {
        case Un::Abs: case Un::Relu: case Un::Floor: case Un::Ceil: case Un::Round: case Un::Trunc: case Un::Sign: case Un::Square: return x;
        default: kernelFail("this operation is not defined for bool tensors");
        }
    } else {
        switch (op) {
        case Un::Neg: return wrapNeg(x);
        case Un::Abs: return x < 0 ? wrapNeg(x) : x;
        case Un::Relu: return x > 0 ? x : T(0);
        case Un::Floor: case Un::Ceil: case Un::Round: case Un::Trunc: return x;
        case Un::Frac: return T(0);
        case Un::Sign: return static_cast<T>(x > 0 ? 1 : (x < 0 ? -1 : 0));
        case Un::Square: return wrapMul(x, x);
        default: kernelFail("this operation needs a floating-point tensor");
        }
    }
}

// Only the hot case, contiguous float32, has a loop per op (the op a template parameter, so the
// element function is a straight-line body GCC vectorises); every other dtype and layout runs one
// loop per dtype with the op chosen per element. A loop per op and dtype made this file take
// 150 s to compile (260 s under ASan).
// float16 / bfloat16: computed in float32 and rounded back once (PyTorch's opmath).
void unaryReduced(KernelContext& ctx, Un op, const Tensor& x, bool inplace) {
    if (inplace && x.readOnly()) kernelFail("in-place op on a read-only tensor (a weight of the archive)");
    Tensor in = toDtype(ctx, x, ScalarType::Float32);
    Tensor wide = ctx.alloc(ScalarType::Float32, x.sizes());
    mapElements<float, float>(ctx.threads(), wide, [op](float v) { return applyUn<float>(op, v); }, in);
    Tensor out = inplace ? x : allocLike(ctx, x.dtype(), x.sizes(), {&x});
    copyInto(out, wide, ctx.threads());
    ctx.setOutput(0, out);
}

/// Any dtype and layout; `in` already has the output's dtype.
void unaryAnyLayout(KernelContext& ctx, Un op, const Tensor& in, const Tensor& out) {
    dispatchAll(in.dtype(), [&]<class T>() {
        mapElements<T, T>(ctx.threads(), out, [op](T v) { return applyUn<T>(op, v); }, in);
    });
}

template <Un op>
void unaryContiguousFloat(int threads, const float* src, float* dst, int64_t n) {
    parallelRange(threads, n, 1, [&](int64_t b, int64_t e) {
        if constexpr (op == Un::Relu) {
            clampContiguous(dst + b, src + b, e - b, 0.f, std::numeric_limits<float>::infinity());
        } else {
            // no loop-carried dependence even in place (dst == src): each element reads only itself
#pragma GCC ivdep
            for (int64_t k = b; k < e; ++k) dst[k] = applyUn<float>(op, src[k]);
        }
    });
}

#ifdef IRLENS_HAVE_DNNL
// GELU (erf form) on contiguous float32 through oneDNN's JIT eltwise: std::erf on each element was
// a quarter of tiny_gpt's run.
bool dnnlGelu(KernelContext& ctx, const Tensor& in, const Tensor& out) {
    return runDnnlSlices(ctx, "gelu_erf", in.numel(), 1, in.data<float>(), out.data<float>(), [](int64_t n, const dnnl::engine& eng) {
        dnnl::memory::desc md({n}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::x);
        dnnl::eltwise_forward::desc d(dnnl::prop_kind::forward_inference, dnnl::algorithm::eltwise_gelu_erf, md, 0.f, 0.f);
        return std::pair<dnnl::memory::desc, dnnl::primitive>{md, dnnl::eltwise_forward(dnnl::eltwise_forward::primitive_desc(d, eng))};
    });
}
#endif

template <Un op>
void unary(KernelContext& ctx, bool inplace) {
    Tensor x = ctx.tensor("self", 0);
    if (isReducedFloat(x.dtype())) { unaryReduced(ctx, op, x, inplace); return; }
    ScalarType dt = x.dtype();
    if (isFloatValued(op) && !isFloatingType(dt)) dt = ScalarType::Float32;
    Tensor out;
    if (inplace) {
        if (x.readOnly()) kernelFail("in-place op on a read-only tensor (a weight of the archive)");
        if (dt != x.dtype()) kernelFail("in-place op would change dtype " + dtypeName(x.dtype()) + " to " + dtypeName(dt));
        out = x;
    } else {
        out = allocLike(ctx, dt, x.sizes(), {&x});
    }
    Tensor in = toDtype(ctx, x, dt);
    if (dt == ScalarType::Float32 && in.isContiguous() && out.isContiguous()) {
#ifdef IRLENS_HAVE_DNNL
        if constexpr (op == Un::Gelu) {
            if (dnnlGelu(ctx, in, out)) {
                ctx.setOutput(0, out);
                return;
            }
        }
#endif
        unaryContiguousFloat<op>(ctx.threads(), in.data<float>(), out.data<float>(), in.numel());
    } else {
        unaryAnyLayout(ctx, op, in, out);
    }
    ctx.setOutput(0, out);
}

template <Un Op> void unaryKernel(KernelContext& ctx) {
    if constexpr (Op == Un::Gelu) {
        if (ctx.stringArg("approximate", -1, "none") == "tanh") { unary<Un::GeluTanh>(ctx, false); return; }
    }
    unary<Op>(ctx, false);
}
template <Un Op> void unaryInplaceKernel(KernelContext& ctx) {
    if constexpr (Op == Un::Gelu) {
        if (ctx.stringArg("approximate", -1, "none") == "tanh") { unary<Un::GeluTanh>(ctx, true); return; }
    }
    unary<Op>(ctx, true);
}

// clamp / hardtanh / relu6: bounds given as scalars (optional for clamp).
// hardtanh keeps the input's dtype whatever its bounds (PyTorch casts them); clamp promotes.
void clampImpl(KernelContext& ctx, std::optional<double> lo, std::optional<double> hi, bool inplace, bool keepDtype = false) {
    Tensor x = ctx.tensor("self", 0);
    ScalarType dt = x.dtype();
    if (!isFloatingType(dt) && ((lo && std::floor(*lo) != *lo) || (hi && std::floor(*hi) != *hi)) && !inplace && !keepDtype)
        dt = ScalarType::Float32;
    Tensor out = inplace ? x : allocLike(ctx, dt, x.sizes(), {&x});
    if (inplace && x.readOnly()) kernelFail("in-place op on a read-only tensor (a weight of the archive)");
    Tensor in = toDtype(ctx, x, dt);
    dispatchNumeric(dt, [&]<class T>() {
        T l = lo ? convertValue<T>(*lo) : std::numeric_limits<T>::lowest();
        T h = hi ? convertValue<T>(*hi) : std::numeric_limits<T>::max();
        if constexpr (std::is_floating_point_v<T>) {
            if (in.isContiguous() && out.isContiguous()) {
                if (!lo) l = -std::numeric_limits<T>::infinity();
                if (!hi) h = std::numeric_limits<T>::infinity();
                const T* src = in.data<T>();
                T* dst = out.data<T>();
                parallelRange(ctx.threads(), in.numel(), 1, [&](int64_t b, int64_t e) { clampContiguous(dst + b, src + b, e - b, l, h); });
                return;
            }
        }
        mapElements<T, T>(ctx.threads(), out, [l, h](T v) {
            if constexpr (std::is_floating_point_v<T>) { if (v != v) return v; }
            return v < l ? l : (v > h ? h : v);
        }, in);
    });
    ctx.setOutput(0, out);
}

void clampKernel(KernelContext& ctx) { clampImpl(ctx, ctx.optFloat("min", 1), ctx.optFloat("max", 2), false); }
void hardtanhKernel(KernelContext& ctx) {
    clampImpl(ctx, ctx.floatArg("min_val", 1, -1.0), ctx.floatArg("max_val", 2, 1.0), false, true);
}
void hardtanhInplaceKernel(KernelContext& ctx) {
    clampImpl(ctx, ctx.floatArg("min_val", 1, -1.0), ctx.floatArg("max_val", 2, 1.0), true);
}
void relu6Kernel(KernelContext& ctx) { clampImpl(ctx, 0.0, 6.0, false); }

// clamp.Tensor(self, Tensor? min, Tensor? max)
void clampTensorKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("self", 0);
    auto lo = ctx.optTensor("min", 1), hi = ctx.optTensor("max", 2);
    Shape shape = x.sizes();
    ScalarType dt = x.dtype();
    if (lo) { shape = broadcastShapes(shape, lo->sizes()); dt = promoteTypes(dt, lo->dtype()); }
    if (hi) { shape = broadcastShapes(shape, hi->sizes()); dt = promoteTypes(dt, hi->dtype()); }
    Tensor out = allocLike(ctx, dt, shape, {&x, lo ? &*lo : nullptr, hi ? &*hi : nullptr});
    Tensor xin = expandTo(toDtype(ctx, x, dt), shape);
    Tensor l = lo ? expandTo(toDtype(ctx, *lo, dt), shape) : Tensor();
    Tensor h = hi ? expandTo(toDtype(ctx, *hi, dt), shape) : Tensor();
    dispatchAll(dt, [&]<class T>() { // bool: max is or, min is and
        // a NaN anywhere (input or bound) gives NaN, as in PyTorch's clamp with tensor bounds
        // and on a tie (-0.0 vs 0.0) the value wins, as in its scalar loop and its float16 / bfloat16 loops
        // (its float32 vector loop gives the bound: see maximum in op_binary.cpp)
        auto up = [](T v, T a) { if constexpr (std::is_floating_point_v<T>) { if (a != a || v != v) return a + v; } return v < a ? a : v; };
        auto down = [](T v, T b) { if constexpr (std::is_floating_point_v<T>) { if (b != b || v != v) return b + v; } return b < v ? b : v; };
        if (lo && hi) mapElements<T, T, T, T>(ctx.threads(), out, [=](T v, T a, T b) { return down(up(v, a), b); }, xin, l, h);
        else if (lo) mapElements<T, T, T>(ctx.threads(), out, up, xin, l);
        else if (hi) mapElements<T, T, T>(ctx.threads(), out, down, xin, h);
        else copyInto(out, xin, ctx.threads());
    });
    ctx.setOutput(0, out);
}

void leakyReluKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("self", 0);
    double slope = ctx.floatArg("negative_slope", 1, 0.01);
    Tensor out = ctx.alloc(x.dtype(), x.sizes());
    dispatchFloat(x.dtype(), [&]<class T>() {
        T s = static_cast<T>(slope);
        mapElements<T, T>(ctx.threads(), out, [s](T v) { return v > T(0) ? v : v * s; }, x);
    });
    ctx.setOutput(0, out);
}

void eluKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("self", 0);
    double alpha = ctx.floatArg("alpha", 1, 1.0), scale = ctx.floatArg("scale", 2, 1.0), inScale = ctx.floatArg("input_scale", 3, 1.0);
    Tensor out = allocLike(ctx, x.dtype(), x.sizes(), {&x}); // PyTorch keeps the input's layout
    dispatchFloat(x.dtype(), [&]<class T>() {
        mapElements<T, T>(ctx.threads(), out, [=](T v) {
            return static_cast<T>(v > T(0) ? scale * v : scale * alpha * (std::exp(v * inScale) - 1));
        }, x);
    });
    ctx.setOutput(0, out);
}

// round.decimals: torch scales by 10^|decimals| in the input's type, rounds half to even, scales back
// (dividing first for negative decimals, so round(1234.5, -2) is 1200).
void roundDecimalsKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("self", 0);
    int64_t decimals = ctx.intArg("decimals", 1, 0);
    if (!isFloatingType(x.dtype())) {
        if (decimals != 0) kernelFail("round.decimals needs a floating-point tensor, got " + dtypeName(x.dtype()));
        Tensor out = ctx.alloc(x.dtype(), x.sizes());
        copyInto(out, x, ctx.threads());
        ctx.setOutput(0, out);
        return;
    }
    const bool negative = decimals < 0;
    const double scale = std::pow(10.0, static_cast<double>(negative ? -decimals : decimals));
    Tensor out = ctx.alloc(x.dtype(), x.sizes());
    dispatchFloat(x.dtype(), [&]<class T>() {
        const T k = static_cast<T>(scale);
        if (negative) mapElements<T, T>(ctx.threads(), out, [k](T v) { return static_cast<T>(std::nearbyint(v / k) * k); }, x);
        else mapElements<T, T>(ctx.threads(), out, [k](T v) { return static_cast<T>(std::nearbyint(v * k) / k); }, x);
    });
    ctx.setOutput(0, out);
}

enum class Pred { LogicalNot, IsNan, IsInf, IsFinite, SignBit, IsPosInf, IsNegInf };

template <Pred P> void predicateKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("self", 0);
    Tensor out = allocLike(ctx, ScalarType::Bool, x.sizes(), {&x});
    dispatchAll(x.dtype(), [&]<class T>() {
        mapElements<bool, T>(ctx.threads(), out, [](T v) -> bool {
            if constexpr (P == Pred::LogicalNot) return v == T(0);
            else if constexpr (std::is_floating_point_v<T>) {
                if constexpr (P == Pred::IsNan) return std::isnan(v);
                if constexpr (P == Pred::IsInf) return std::isinf(v);
                if constexpr (P == Pred::IsFinite) return std::isfinite(v);
                if constexpr (P == Pred::SignBit) return std::signbit(v);
                if constexpr (P == Pred::IsPosInf) return std::isinf(v) && v > 0;
                if constexpr (P == Pred::IsNegInf) return std::isinf(v) && v < 0;
            } else {
                if constexpr (P == Pred::IsFinite) return true;
                if constexpr (P == Pred::SignBit) { if constexpr (std::is_signed_v<T>) return v < 0; }
                return false;
            }
            return false;
        }, x);
    });
    ctx.setOutput(0, out);
}

// prims.cbrt is copysign(pow(|a|, 1/3), a) in PyTorch (1.13 and later), and for float16 / bfloat16 its pow
// rounds the exponent to the tensor's dtype first (0.333984375 in bfloat16: 1e30 gives 1.047e10, not
// 1e10); float32 / float64 keep the correctly rounded cube root.
void primsCbrtKernel(KernelContext& ctx) {
    const Tensor x = ctx.tensor("self", 0);
    if (!isReducedFloat(x.dtype())) { unary<Un::Cbrt>(ctx, false); return; }
    const ScalarType dt = x.dtype();
    const float e = reducedToFloat(dt, floatToReduced(dt, 1.0f / 3.0f));
    Tensor out = allocLike(ctx, dt, x.sizes(), {&x});
    mapElements<uint16_t, uint16_t>(ctx.threads(), out, [dt, e](uint16_t v) {
        const float f = reducedToFloat(dt, v);
        return floatToReduced(dt, std::copysign(std::pow(std::fabs(f), e), f));
    }, x);
    ctx.setOutput(0, out);
}

void bitwiseNotKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("self", 0);
    Tensor out = allocLike(ctx, x.dtype(), x.sizes(), {&x});
    dispatchAll(x.dtype(), [&]<class T>() {
        if constexpr (std::is_same_v<T, bool>) mapElements<T, T>(ctx.threads(), out, [](T v) { return !v; }, x);
        else if constexpr (std::is_integral_v<T>) mapElements<T, T>(ctx.threads(), out, [](T v) { return static_cast<T>(~v); }, x);
        else kernelFail("bitwise_not needs an integer or bool tensor");
    });
    ctx.setOutput(0, out);
}

} // namespace

void registerUnaryKernels(KernelRegistry& r) {
#define IRLENS_UNARY(name, op) r.add({"aten::" name ".default", "prims::" name ".default"}, &unaryKernel<Un::op>)
    IRLENS_UNARY("exp", Exp); IRLENS_UNARY("exp2", Exp2); IRLENS_UNARY("expm1", Expm1); IRLENS_UNARY("log", Log);
    IRLENS_UNARY("log2", Log2); IRLENS_UNARY("log10", Log10); IRLENS_UNARY("log1p", Log1p); IRLENS_UNARY("sqrt", Sqrt);
    IRLENS_UNARY("rsqrt", Rsqrt); IRLENS_UNARY("sin", Sin); IRLENS_UNARY("cos", Cos); IRLENS_UNARY("tan", Tan);
    IRLENS_UNARY("tanh", Tanh); IRLENS_UNARY("sigmoid", Sigmoid); IRLENS_UNARY("erf", Erf); IRLENS_UNARY("asin", Asin);
    IRLENS_UNARY("acos", Acos); IRLENS_UNARY("atan", Atan); IRLENS_UNARY("sinh", Sinh); IRLENS_UNARY("cosh", Cosh);
    IRLENS_UNARY("asinh", Asinh); IRLENS_UNARY("acosh", Acosh); IRLENS_UNARY("atanh", Atanh); IRLENS_UNARY("erfc", Erfc);
    IRLENS_UNARY("reciprocal", Reciprocal); IRLENS_UNARY("gelu", Gelu); IRLENS_UNARY("silu", Silu); IRLENS_UNARY("mish", Mish);
    IRLENS_UNARY("neg", Neg); IRLENS_UNARY("abs", Abs); IRLENS_UNARY("relu", Relu); IRLENS_UNARY("floor", Floor);
    IRLENS_UNARY("ceil", Ceil); IRLENS_UNARY("round", Round); IRLENS_UNARY("trunc", Trunc); IRLENS_UNARY("sign", Sign);
    IRLENS_UNARY("square", Square); IRLENS_UNARY("hardswish", Hardswish); IRLENS_UNARY("hardsigmoid", Hardsigmoid);
    IRLENS_UNARY("frac", Frac); IRLENS_UNARY("lgamma", Lgamma); IRLENS_UNARY("softplus", Softplus);
    IRLENS_UNARY("log_sigmoid", LogSigmoid);
#undef IRLENS_UNARY
    r.add({"prims::nearbyint.default"}, &unaryKernel<Un::Round>);
    r.add({"prims::cbrt.default"}, &primsCbrtKernel);
    r.add({"aten::round.decimals"}, &roundDecimalsKernel);
    r.add({"aten::relu_.default"}, &unaryInplaceKernel<Un::Relu>);
    r.add({"aten::sigmoid_.default"}, &unaryInplaceKernel<Un::Sigmoid>);
    r.add({"aten::silu_.default"}, &unaryInplaceKernel<Un::Silu>);
    r.add({"aten::gelu_.default"}, &unaryInplaceKernel<Un::Gelu>);
    r.add({"aten::hardswish_.default"}, &unaryInplaceKernel<Un::Hardswish>);
    r.add({"aten::tanh_.default"}, &unaryInplaceKernel<Un::Tanh>);
    r.add({"aten::clamp.default", "aten::clip.default"}, &viaFloat32<&clampKernel>);
    r.add({"aten::clamp.Tensor"}, &viaFloat32<&clampTensorKernel>);
    r.add({"aten::hardtanh.default"}, &viaFloat32<&hardtanhKernel>);
    r.add({"aten::hardtanh_.default"}, &hardtanhInplaceKernel);
    r.add({"aten::relu6.default"}, &relu6Kernel);
    r.add({"aten::leaky_relu.default"}, &viaFloat32<&leakyReluKernel>);
    r.add({"aten::elu.default"}, &viaFloat32<&eluKernel>);
    r.add({"aten::logical_not.default"}, &viaFloat32<&predicateKernel<Pred::LogicalNot>>);
    r.add({"aten::isnan.default", "prims::isnan.default"}, &viaFloat32<&predicateKernel<Pred::IsNan>>);
    r.add({"aten::isinf.default", "prims::isinf.default"}, &viaFloat32<&predicateKernel<Pred::IsInf>>);
    r.add({"aten::isfinite.default", "prims::isfinite.default"}, &predicateKernel<Pred::IsFinite>);
    r.add({"aten::isposinf.default"}, &predicateKernel<Pred::IsPosInf>);
    r.add({"aten::isneginf.default"}, &predicateKernel<Pred::IsNegInf>);
    r.add({"aten::signbit.default", "prims::signbit.default"}, &predicateKernel<Pred::SignBit>);
    r.add({"aten::bitwise_not.default", "prims::bitwise_not.default"}, &bitwiseNotKernel);
}

} // namespace irlens::core::exec
