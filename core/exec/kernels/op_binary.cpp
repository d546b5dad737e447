// Binary pointwise ops with broadcasting and torch type promotion: arithmetic, comparisons, logical
// and bitwise ops, and their prims counterparts.

#include <type_traits>
#include "core/exec/kernel_registry.h"
#include "core/exec/kernels/kernels.h"
#include "core/exec/kernels/util/dispatch.h"
#include "core/exec/kernels/util/int_wrap.h"
#include "core/exec/kernels/util/half.h"
#include "core/exec/kernels/util/loops.h"
#include "core/exec/kernels/util/tensor_ops.h"

#include <cmath>
#include <cstring>
#include <emmintrin.h>

namespace irlens::core::exec {

namespace {

enum class Bin {
    Add, Sub, Rsub, Mul, Div, PrimsDiv, DivTrunc, DivFloor, Pow, Maximum, Minimum, Fmax, Fmin, Hypot, Fmod, Remainder, Atan2,
    Eq, Ne, Lt, Le, Gt, Ge, LogicalAnd, LogicalOr, LogicalXor, BitAnd, BitOr, BitXor, Shl, Shr
};

bool isComparison(Bin op) { return op >= Bin::Eq && op <= Bin::LogicalXor; }

// Integer division truncating toward zero; the one overflowing case (min / -1) wraps like two's
// complement instead of trapping.
template <class T> T divTruncInt(T a, T b) {
    if (b == 0) kernelFail("integer division by zero");
    if constexpr (std::is_signed_v<T>) {
        if (b == T(-1)) return static_cast<T>(T(0) - static_cast<std::make_unsigned_t<T>>(a));
    }
    return static_cast<T>(a / b);
}

// fmod: the remainder of truncated division, with the sign of the dividend.
template <class T> T fmodOf(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) return std::fmod(a, b);
    else {
        if (b == 0) kernelFail("integer division by zero");
        if constexpr (std::is_signed_v<T>) { if (b == T(-1)) return T(0); }
        return static_cast<T>(a % b);
    }
}

// PyTorch's floor division (c10 div_floor_floating / div_floor_integer). For floats the quotient is
// rebuilt from fmod, so 1.0 // 0.1 is 9 (as in Python) where floor(1.0 / 0.1) would give 10 because
// 1.0 / 0.1 rounds up to exactly 10.
template <class T> T divFloor(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
        if (b == 0) return a / b;
        T mod = std::fmod(a, b);
        T div = (a - mod) / b;
        if (mod != 0 && ((b < 0) != (mod < 0))) div -= T(1);
        if (div == 0) return std::copysign(T(0), a / b);
        T floordiv = std::floor(div);
        if (div - floordiv > T(0.5)) floordiv += T(1);
        return floordiv;
    } else {
        T q = divTruncInt(a, b);
        if constexpr (std::is_signed_v<T>) {
            if (b != T(-1) && a % b != 0 && ((a < 0) != (b < 0))) q = static_cast<T>(q - 1);
        }
        return q;
    }
}

// prims.shift_left / shift_right_arithmetic as PyTorch 1.13 computes them (C++ `<<` / `>>` on the
// promoted type, whose count x86 masks to its width) without C++'s undefined shift past the width:
// the count is masked explicitly and the left shift done unsigned.
template <class T> using ShiftType = std::conditional_t<(sizeof(T) < sizeof(int)), int, T>;
template <class T> T shiftLeft(T a, T b) {
    using P = ShiftType<T>;
    const auto count = static_cast<unsigned>(static_cast<int64_t>(b) & static_cast<int64_t>(sizeof(P) * 8 - 1));
    return static_cast<T>(static_cast<std::make_unsigned_t<P>>(static_cast<P>(a)) << count);
}
template <class T> T shiftRight(T a, T b) {
    using P = ShiftType<T>;
    const auto count = static_cast<unsigned>(static_cast<int64_t>(b) & static_cast<int64_t>(sizeof(P) * 8 - 1));
    return static_cast<T>(static_cast<P>(a) >> count);
}

template <class T>
T applyBin(Bin op, T a, T b, T alpha) {
    if constexpr (std::is_same_v<T, bool>) {
        switch (op) {
        case Bin::Add: return a || (alpha && b);
        case Bin::Mul: return a && b;
        case Bin::Maximum: case Bin::Fmax: return a || b;
        case Bin::Minimum: case Bin::Fmin: return a && b;
        case Bin::BitAnd: return a && b;
        case Bin::BitOr: return a || b;
        case Bin::BitXor: return a != b;
        default: kernelFail("this operation is not defined for bool tensors");
        }
    } else {
        switch (op) {
        case Bin::Add: return wrapAdd(a, wrapMul(alpha, b));
        case Bin::Sub: return wrapSub(a, wrapMul(alpha, b));
        case Bin::Rsub: return wrapSub(b, wrapMul(alpha, a));
        case Bin::Mul: return wrapMul(a, b);
        case Bin::Div:
            if constexpr (std::is_floating_point_v<T>) return a / b;
            else return divTruncInt(a, b);
        case Bin::DivTrunc:
            if constexpr (std::is_floating_point_v<T>) return std::trunc(a / b);
            else return divTruncInt(a, b);
        case Bin::DivFloor: return divFloor(a, b);
        case Bin::Pow:
            if constexpr (std::is_floating_point_v<T>) return std::pow(a, b);
            else {
                if (b < 0) return static_cast<T>(a == 1 ? 1 : (a == -1 ? (b % 2 ? -1 : 1) : 0));
                T r = 1, base = a;
                for (auto e = static_cast<int64_t>(b); e; e >>= 1, base = wrapMul(base, base))
                    if (e & 1) r = wrapMul(r, base);
                return r;
            }
        // on a tie (-0.0 vs 0.0) the first operand, as PyTorch's scalar loop (std::max / std::min) and its
        // float16 / bfloat16 loops give; its float32 / float64 vector loop gives the second
        case Bin::Maximum:
            if constexpr (std::is_floating_point_v<T>) { if (std::isnan(a) || std::isnan(b)) return a + b; }
            return a < b ? b : a;
        case Bin::Minimum:
            if constexpr (std::is_floating_point_v<T>) { if (std::isnan(a) || std::isnan(b)) return a + b; }
            return b < a ? b : a;
        // fmax/fmin ignore a NaN operand; on a tie (-0.0 vs 0.0) the first operand wins, as PyTorch's std::max/min
        case Bin::Fmax:
            if constexpr (std::is_floating_point_v<T>) { if (a != a) return b; if (b != b) return a; }
            return a < b ? b : a;
        case Bin::Fmin:
            if constexpr (std::is_floating_point_v<T>) { if (a != a) return b; if (b != b) return a; }
            return b < a ? b : a;
        case Bin::Hypot: return static_cast<T>(std::hypot(static_cast<double>(a), static_cast<double>(b)));
        case Bin::Fmod: return fmodOf(a, b);
        case Bin::Remainder: {
            // the sign of the divisor (Python's %), from the truncated remainder
            T m = fmodOf(a, b);
            return (m != 0 && ((m < 0) != (b < 0))) ? static_cast<T>(m + b) : m;
        }
        case Bin::Atan2: return static_cast<T>(std::atan2(static_cast<double>(a), static_cast<double>(b)));
        case Bin::BitAnd: if constexpr (std::is_integral_v<T>) return a & b; else kernelFail("bitwise ops need integer tensors");
        case Bin::BitOr: if constexpr (std::is_integral_v<T>) return a | b; else kernelFail("bitwise ops need integer tensors");
        case Bin::BitXor: if constexpr (std::is_integral_v<T>) return a ^ b; else kernelFail("bitwise ops need integer tensors");
        case Bin::Shl: if constexpr (std::is_integral_v<T>) return shiftLeft(a, b); else kernelFail("shifts need integer tensors");
        case Bin::Shr: if constexpr (std::is_integral_v<T>) return shiftRight(a, b); else kernelFail("shifts need integer tensors");
        default: kernelFail("unsupported binary op");
        }
    }
}

template <class T>
bool applyCmp(Bin op, T a, T b) {
    switch (op) {
    case Bin::Eq: return a == b;
    case Bin::Ne: return a != b;
    case Bin::Lt: return a < b;
    case Bin::Le: return a <= b;
    case Bin::Gt: return a > b;
    case Bin::Ge: return a >= b;
    case Bin::LogicalAnd: return a != T(0) && b != T(0);
    case Bin::LogicalOr: return a != T(0) || b != T(0);
    case Bin::LogicalXor: return (a != T(0)) != (b != T(0));
    default: return false;
    }
}

// Operand `name` as a tensor of the compute dtype (scalars become 0-dim tensors).
Tensor operandAs(KernelContext& ctx, const EValue* v, const std::string& name, ScalarType dt) {
    if (!v) kernelFail("argument '" + name + "' is missing");
    if (v->isTensor()) return toDtype(ctx, v->tensor, dt);
    if (v->isScalar()) return Tensor::scalar(dt, v->toDouble());
    kernelFail("argument '" + name + "' should be a tensor or a number, got " + v->describe());
}

// `v` if it is a tensor or an integer; a float number rounded through `reduced` (kept in `slot`) otherwise.
const EValue* roundedScalar(const EValue* v, ScalarType reduced, EValue& slot) {
    if (!v || v->kind != EValue::Kind::Double) return v;
    slot = *v;
    slot.d = static_cast<double>(reducedToFloat(reduced, floatToReduced(reduced, static_cast<float>(v->toDouble()))));
    return &slot;
}

std::optional<Scalar> asScalar(const EValue* v) {
    if (!v || !v->isScalar()) return std::nullopt;
    Scalar s;
    s.value = v->toDouble();
    s.kind = v->kind == EValue::Kind::Double ? Scalar::Kind::Float : v->kind == EValue::Kind::Bool ? Scalar::Kind::Bool : Scalar::Kind::Int;
    return s;
}

void binary(KernelContext& ctx, Bin op) {
    const EValue* a = ctx.find("self", 0);
    if (!a) a = ctx.find("a", 0);
    if (!a) a = ctx.find("input", 0);
    const EValue* b = ctx.find("other", 1);
    if (!b) b = ctx.find("b", 1);
    if (!b) b = ctx.find("exponent", 1);
    if (!a || !b) kernelFail("binary op needs two operands");
    TypeOperand ta, tb;
    if (a->isTensor()) ta.tensor = &a->tensor; else ta.scalar = asScalar(a);
    if (b->isTensor()) tb.tensor = &b->tensor; else tb.scalar = asScalar(b);
    // PyTorch 1.13's bitwise_*.Scalar wraps even a bool number as an integer: bool & True is int64
    const bool bitwise = op == Bin::BitAnd || op == Bin::BitOr || op == Bin::BitXor;
    if (bitwise && tb.scalar && tb.scalar->kind == Scalar::Kind::Bool) tb.scalar->kind = Scalar::Kind::Int;
    ScalarType common = resultType({ta, tb});
    if (common == ScalarType::Unknown) kernelFail("cannot determine the result dtype");
    std::string mode = ctx.stringArg("rounding_mode", -1, "");
    if (op == Bin::Div && mode == "trunc") op = Bin::DivTrunc;
    if (op == Bin::Div && mode == "floor") op = Bin::DivFloor;
    // prims.div truncates integer operands (torch._prims.div); aten.div always divides truly
    if (op == Bin::PrimsDiv) op = isIntegralType(common, true) ? Bin::DivTrunc : Bin::Div;
    if ((op == Bin::Div || op == Bin::Atan2 || op == Bin::Hypot) && !isFloatingType(common)) common = ScalarType::Float32;
    if (op == Bin::Sub && common == ScalarType::Bool) kernelFail("subtraction of bool tensors is not supported (use logical_xor)");
    // float16 / bfloat16 compute in float32 and round once at the end (PyTorch's opmath)
    const ScalarType resultDtype = common;
    if (isReducedFloat(common)) common = ScalarType::Float32;

    // a number operand of a float16 / bfloat16 op is rounded to that dtype first, as PyTorch casts the
    // wrapped number to the common dtype before its float32 opmath
    EValue ra, rb;
    if (isReducedFloat(resultDtype)) {
        a = roundedScalar(a, resultDtype, ra);
        b = roundedScalar(b, resultDtype, rb);
    }
    Tensor x = operandAs(ctx, a, "self", common);
    Tensor y = operandAs(ctx, b, "other", common);
    Shape shape = broadcastShapes(x.sizes(), y.sizes());
    Tensor xe = expandTo(x, shape), ye = expandTo(y, shape);
    Scalar alphaS = ctx.scalar("alpha", -1, Scalar{1, Scalar::Kind::Int});
    // the output's layout follows the operands as given (before any dtype conversion)
    // (pow(Scalar, Tensor) is the exception: PyTorch writes it into a fresh empty tensor, contiguous)
    const Tensor* la = a->isTensor() ? &a->tensor : nullptr;
    const Tensor* lb = b->isTensor() && !(op == Bin::Pow && !la) ? &b->tensor : nullptr;
    if (isComparison(op)) {
        Tensor out = allocLike(ctx, ScalarType::Bool, shape, {la, lb});
        dispatchAll(common, [&]<class T>() { mapElements<bool, T, T>(ctx.threads(), out, [op](T p, T q) { return applyCmp<T>(op, p, q); }, xe, ye); });
        ctx.setOutput(0, out);
        return;
    }
    Tensor out = allocLike(ctx, common, shape, {la, lb});
    dispatchAll(common, [&]<class T>() {
        T alpha = scalarAs<T>(alphaS.value);
        if (op == Bin::Add && alpha == T(1) && !std::is_same_v<T, bool>) {
            mapElements<T, T, T>(ctx.threads(), out, [](T p, T q) { return wrapAdd(p, q); }, xe, ye);
        } else if (op == Bin::Mul && !std::is_same_v<T, bool>) {
            mapElements<T, T, T>(ctx.threads(), out, [](T p, T q) { return wrapMul(p, q); }, xe, ye);
        } else if (op == Bin::Sub && alpha == T(1) && !std::is_same_v<T, bool>) {
            mapElements<T, T, T>(ctx.threads(), out, [](T p, T q) { return wrapSub(p, q); }, xe, ye);
        } else if (op == Bin::Div && std::is_floating_point_v<T>) {
            mapElements<T, T, T>(ctx.threads(), out, [](T p, T q) { return static_cast<T>(p / q); }, xe, ye);
        } else {
            mapElements<T, T, T>(ctx.threads(), out, [op, alpha](T p, T q) { return applyBin<T>(op, p, q, alpha); }, xe, ye);
        }
    });
    ctx.setOutput(0, toDtypeKeepLayout(ctx, out, resultDtype));
}

template <Bin Op> void binaryKernel(KernelContext& ctx) { binary(ctx, Op); }

// An out= variant (atan2.out): the result is written into `out` (which must already have the
// result's shape, as torch resizes only empty outs) and `out` is returned, aliasing it.
template <Bin Op> void binaryOutKernel(KernelContext& ctx) {
    Tensor out = ctx.tensor("out", -1);
    if (out.readOnly()) kernelFail("out= tensor is read-only (a weight of the archive)");
    binary(ctx, Op);
    const Tensor& result = ctx.outputs()[0].tensor;
    if (out.sizes() != result.sizes())
        kernelFail("out= tensor " + out.shapeString() + " does not have the result's shape " + shapeToString(result.sizes()));
    if (!isFloatingType(out.dtype()) && isFloatingType(result.dtype()))
        kernelFail("result type " + dtypeName(result.dtype()) + " can't be cast to the desired output type " + dtypeName(out.dtype()));
    copyInto(out, result, ctx.threads());
    ctx.setOutput(0, out);
}

// where(condition, self, other): self/other may be scalars (where.ScalarOther etc.).
void whereKernel(KernelContext& ctx) {
    Tensor cond = ctx.tensor("condition", 0);
    // prims.where names its arguments (pred, a, b) where ATen says (condition, self, other)
    const EValue* a = ctx.find("self", 1);
    if (!a) a = ctx.find("a", 1);
    const EValue* b = ctx.find("other", 2);
    if (!b) b = ctx.find("b", 2);
    if (!a || !b) kernelFail("where needs self and other");
    TypeOperand ta, tb;
    if (a->isTensor()) ta.tensor = &a->tensor; else ta.scalar = asScalar(a);
    if (b->isTensor()) tb.tensor = &b->tensor; else tb.scalar = asScalar(b);
    const ScalarType resultDtype = resultType({ta, tb});
    const ScalarType common = isReducedFloat(resultDtype) ? ScalarType::Float32 : resultDtype;
    Tensor x = operandAs(ctx, a, "self", common), y = operandAs(ctx, b, "other", common);
    Tensor c = toDtype(ctx, cond, ScalarType::Bool);
    Shape shape = broadcastShapes(broadcastShapes(c.sizes(), x.sizes()), y.sizes());
    Tensor out = allocLike(ctx, common, shape, {&cond, a->isTensor() ? &a->tensor : nullptr, b->isTensor() ? &b->tensor : nullptr});
    dispatchAll(common, [&]<class T>() {
        mapElements<T, bool, T, T>(ctx.threads(), out, [](bool k, T p, T q) { return k ? p : q; }, expandTo(c, shape),
                                   expandTo(x, shape), expandTo(y, shape));
    });
    ctx.setOutput(0, toDtypeKeepLayout(ctx, out, resultDtype));
}

// Float32 masked_fill as a bit select, four lanes at a time: `m ? v : p` compiled to a scalar branch
// per element (tiny_gpt's causal masks, 16 us per 4 x 64 x 64 scores).
void maskedFillFloat(int threads, const Tensor& out, const Tensor& self, const Tensor& mask, float value) {
    auto plan = makeLoopPlan<3>(out.sizes(), {&out, &self, &mask});
    const __m128 v4 = _mm_set1_ps(value);
    runLoop(plan, threads, [&](const std::array<std::byte*, 3>& ptrs, const std::array<int64_t, 3>& st, int64_t n) {
        auto* o = reinterpret_cast<float*>(ptrs[0]);
        const auto* p = reinterpret_cast<const float*>(ptrs[1]);
        const auto* m = reinterpret_cast<const uint8_t*>(ptrs[2]);
        int64_t e = 0;
        if (st[0] == 4 && st[1] == 4 && st[2] == 1) {
            const __m128i zero = _mm_setzero_si128();
            for (; e + 4 <= n; e += 4) {
                uint32_t bytes;
                std::memcpy(&bytes, m + e, 4);
                const __m128i wide = _mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128(static_cast<int>(bytes)), zero), zero);
                const __m128 fill = _mm_castsi128_ps(_mm_cmpgt_epi32(wide, zero)); // all ones where the mask is set
                _mm_storeu_ps(o + e, _mm_or_ps(_mm_and_ps(fill, v4), _mm_andnot_ps(fill, _mm_loadu_ps(p + e))));
            }
        }
        for (; e < n; ++e) {
            const float x = *reinterpret_cast<const float*>(ptrs[1] + e * st[1]);
            *reinterpret_cast<float*>(ptrs[0] + e * st[0]) = *reinterpret_cast<const uint8_t*>(ptrs[2] + e * st[2]) ? value : x;
        }
    });
}

// masked_fill(self, mask, value): value is a Scalar or a 0-dim tensor; dtype stays self's.
void maskedFillKernel(KernelContext& ctx) {
    Tensor self = ctx.tensor("self", 0);
    Tensor mask = toDtype(ctx, ctx.tensor("mask", 1), ScalarType::Bool);
    double value = ctx.scalar("value", 2).value;
    Shape shape = broadcastShapes(self.sizes(), mask.sizes());
    if (shape != self.sizes()) kernelFail("masked_fill: mask " + mask.shapeString() + " does not broadcast to " + self.shapeString());
    Tensor out = allocLike(ctx, self.dtype(), shape, {&self, &mask});
    if (isReducedFloat(self.dtype())) { // a selection: the fill value rounded once, the rest copied bit for bit
        const uint16_t v = floatToReduced(self.dtype(), static_cast<float>(value));
        mapElements<uint16_t, uint16_t, bool>(ctx.threads(), out, [v](uint16_t p, bool m) { return m ? v : p; }, self, expandTo(mask, shape));
        ctx.setOutput(0, out);
        return;
    }
    if (self.dtype() == ScalarType::Float32) {
        maskedFillFloat(ctx.threads(), out, self, expandTo(mask, shape), static_cast<float>(value));
        ctx.setOutput(0, out);
        return;
    }
    dispatchAll(self.dtype(), [&]<class T>() {
        T v = scalarAs<T>(value);
        mapElements<T, T, bool>(ctx.threads(), out, [v](T p, bool m) { return m ? v : p; }, self, expandTo(mask, shape));
    });
    ctx.setOutput(0, out);
}

} // namespace

void registerBinaryKernels(KernelRegistry& r) {
    r.add({"aten::add.Tensor", "aten::add.Scalar", "prims::add.default"}, &binaryKernel<Bin::Add>);
    r.add({"aten::sub.Tensor", "aten::sub.Scalar", "prims::sub.default"}, &binaryKernel<Bin::Sub>);
    r.add({"aten::rsub.Tensor", "aten::rsub.Scalar"}, &binaryKernel<Bin::Rsub>);
    r.add({"aten::mul.Tensor", "aten::mul.Scalar", "prims::mul.default"}, &binaryKernel<Bin::Mul>);
    r.add({"aten::div.Tensor", "aten::div.Scalar", "aten::div.Tensor_mode", "aten::div.Scalar_mode"}, &binaryKernel<Bin::Div>);
    r.add({"prims::div.default"}, &binaryKernel<Bin::PrimsDiv>);
    r.add({"aten::floor_divide.default", "aten::floor_divide.Scalar"}, &binaryKernel<Bin::DivFloor>);
    r.add({"aten::pow.Tensor_Tensor", "aten::pow.Tensor_Scalar", "aten::pow.Scalar", "prims::pow.default"}, &binaryKernel<Bin::Pow>);
    r.add({"aten::maximum.default", "prims::maximum.default"}, &binaryKernel<Bin::Maximum>);
    r.add({"aten::minimum.default", "prims::minimum.default"}, &binaryKernel<Bin::Minimum>);
    r.add({"aten::fmax.default", "prims::fmax.default"}, &binaryKernel<Bin::Fmax>);
    r.add({"aten::fmin.default", "prims::fmin.default"}, &binaryKernel<Bin::Fmin>);
    r.add({"aten::hypot.default", "prims::hypot.default"}, &binaryKernel<Bin::Hypot>);
    r.add({"aten::fmod.Tensor", "aten::fmod.Scalar", "prims::fmod.default"}, &binaryKernel<Bin::Fmod>);
    r.add({"aten::remainder.Tensor", "aten::remainder.Scalar", "prims::remainder.default"}, &binaryKernel<Bin::Remainder>);
    r.add({"aten::atan2.default", "prims::atan2.default"}, &binaryKernel<Bin::Atan2>);
    r.add({"aten::atan2.out"}, &binaryOutKernel<Bin::Atan2>);
    r.add({"aten::eq.Tensor", "aten::eq.Scalar", "prims::eq.default"}, &binaryKernel<Bin::Eq>);
    r.add({"aten::ne.Tensor", "aten::ne.Scalar", "prims::ne.default"}, &binaryKernel<Bin::Ne>);
    r.add({"aten::lt.Tensor", "aten::lt.Scalar", "prims::lt.default"}, &binaryKernel<Bin::Lt>);
    r.add({"aten::le.Tensor", "aten::le.Scalar", "prims::le.default"}, &binaryKernel<Bin::Le>);
    r.add({"aten::gt.Tensor", "aten::gt.Scalar", "prims::gt.default"}, &binaryKernel<Bin::Gt>);
    r.add({"aten::ge.Tensor", "aten::ge.Scalar", "prims::ge.default"}, &binaryKernel<Bin::Ge>);
    r.add({"aten::logical_and.default"}, &binaryKernel<Bin::LogicalAnd>);
    r.add({"aten::logical_or.default"}, &binaryKernel<Bin::LogicalOr>);
    r.add({"aten::logical_xor.default"}, &binaryKernel<Bin::LogicalXor>);
    r.add({"aten::bitwise_and.Tensor", "aten::bitwise_and.Scalar", "prims::bitwise_and.default"}, &binaryKernel<Bin::BitAnd>);
    r.add({"aten::bitwise_or.Tensor", "aten::bitwise_or.Scalar", "prims::bitwise_or.default"}, &binaryKernel<Bin::BitOr>);
    r.add({"aten::bitwise_xor.Tensor", "aten::bitwise_xor.Scalar", "prims::bitwise_xor.default"}, &binaryKernel<Bin::BitXor>);
    r.add({"prims::shift_left.default"}, &binaryKernel<Bin::Shl>);
    r.add({"prims::shift_right_arithmetic.default"}, &binaryKernel<Bin::Shr>);
    r.add({"aten::where.self", "aten::where.ScalarSelf", "aten::where.ScalarOther", "aten::where.Scalar", "prims::where.default"},
          &whereKernel);
    r.add({"aten::masked_fill.Scalar", "aten::masked_fill.Tensor"}, &maskedFillKernel);
}

} // namespace irlens::core::exec
