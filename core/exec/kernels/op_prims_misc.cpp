// Prims without an ATen twin in the other families: gcd, nextafter, frexp, maximum_value / minimum_value,
// item, resize, copy_strided, as_strided_scatter, empty_permuted, xor_sum, view_of_dtype, the effect tokens, and the random prims normal / uniform (seeded per node like rand: PyTorch's generator stream
// cannot be followed, only its distribution).

#include "core/exec/kernel_registry.h"
#include "core/exec/kernels/kernels.h"
#include "core/exec/kernels/util/dispatch.h"
#include "core/exec/kernels/util/int_wrap.h"
#include "core/exec/kernels/util/half.h"
#include "core/exec/kernels/util/loops.h"
#include "core/exec/kernels/util/tensor_ops.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

namespace irlens::core::exec {

namespace {

// Elementwise binary prim: the operands share a dtype (a 0-dim one broadcasts); the output follows their layout.
struct PrimOperands {
    Tensor a, b, out;
};
PrimOperands primOperands(KernelContext& ctx) {
    Tensor a = ctx.tensor("self", 0), b = ctx.tensor("other", 1);
    if (a.dtype() != b.dtype()) kernelFail("prims need operands of one dtype, got " + dtypeName(a.dtype()) + " and " + dtypeName(b.dtype()));
    Shape shape = broadcastShapes(a.sizes(), b.sizes());
    Tensor out = allocLike(ctx, a.dtype(), shape, {&a, &b});
    return {expandTo(a, shape), expandTo(b, shape), out};
}

// PyTorch's calc_gcd: Euclid on the absolute values taken in the dtype (so |INT_MIN| stays INT_MIN).
void gcdKernel(KernelContext& ctx) {
    PrimOperands ops = primOperands(ctx); // named references, not a structured binding: the lambdas capture them
    Tensor &a = ops.a, &b = ops.b, &out = ops.out;
    dispatchNumeric(a.dtype(), [&]<class T>() {
        if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, bool>) kernelFail("dtype " + dtypeName(a.dtype()) + " is not supported by this kernel (integers only)");
        else mapElements<T, T, T>(ctx.threads(), out, [](T x, T y) {
            T u = x < 0 ? wrapNeg(x) : x, v = y < 0 ? wrapNeg(y) : y;
            while (u != 0) {
                T r = static_cast<T>(v % u);
                v = u;
                u = r;
            }
            return v;
        }, a, b);
    });
    ctx.setOutput(0, out);
}

// nextafter on the 16 bits of a bfloat16: the neighbour of x towards y in bfloat16's own grid.
uint16_t nextafterBfloat16(uint16_t x, uint16_t y) {
    float fx = bfloat16ToFloat(x), fy = bfloat16ToFloat(y);
    if (fx != fx || fy != fy) return 0x7fc0;
    if (fx == fy) return y;
    if (fx == 0) return static_cast<uint16_t>((y & 0x8000) | 1);
    bool awayFromZero = (fx < fy) == (fx > 0);
    return static_cast<uint16_t>(awayFromZero ? x + 1 : x - 1);
}

void nextafterKernel(KernelContext& ctx) {
    PrimOperands ops = primOperands(ctx);
    Tensor &a = ops.a, &b = ops.b, &out = ops.out;
    if (a.dtype() == ScalarType::BFloat16) {
        mapElements<uint16_t, uint16_t, uint16_t>(ctx.threads(), out, &nextafterBfloat16, a, b);
    } else {
        dispatchFloat(a.dtype(), [&]<class T>() {
            mapElements<T, T, T>(ctx.threads(), out, [](T x, T y) { return std::nextafter(x, y); }, a, b);
        });
    }
    ctx.setOutput(0, out);
}

// frexp: mantissa in the input's dtype (|m| in [0.5, 1)), exponent int32; NaN and inf keep their value
// with exponent 0 (PyTorch uses std::frexp, float16 / bfloat16 through float).
void frexpKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("self", 0);
    if (!isFloatingType(x.dtype())) kernelFail("dtype " + dtypeName(x.dtype()) + " is not supported by this kernel (frexp takes floats)");
    Tensor wide = isReducedFloat(x.dtype()) ? toDtype(ctx, x, ScalarType::Float32) : x;
    Tensor mant = allocLike(ctx, wide.dtype(), x.sizes(), {&x});
    Tensor expo = allocLike(ctx, ScalarType::Int32, x.sizes(), {&x});
    dispatchFloat(wide.dtype(), [&]<class T>() {
        mapElements<T, T>(ctx.threads(), mant, [](T v) { int e = 0; return std::frexp(v, &e); }, wide);
        mapElements<int32_t, T>(ctx.threads(), expo, [](T v) { int e = 0; std::frexp(v, &e); return std::isfinite(v) ? e : 0; }, wide);
    });
    if (isReducedFloat(x.dtype())) {
        Tensor m = allocLike(ctx, x.dtype(), x.sizes(), {&x});
        copyInto(m, mant, ctx.threads());
        mant = m;
    }
    ctx.setOutput(0, mant);
    ctx.setOutput(1, expo);
}

// maximum_value / minimum_value(dtype): the largest / lowest finite value (True / False for bool).
template <bool Max> void extremeValueKernel(KernelContext& ctx) {
    auto dt = ctx.dtypeArg("dtype", 0);
    if (!dt) kernelFail("maximum_value / minimum_value need a dtype");
    if (*dt == ScalarType::Bool) { ctx.setOutput(0, EValue::fromBool(Max)); return; }
    if (*dt == ScalarType::Float16) { ctx.setOutput(0, EValue::fromDouble(Max ? 65504.0 : -65504.0)); return; }
    if (*dt == ScalarType::BFloat16) { ctx.setOutput(0, EValue::fromDouble(bfloat16ToFloat(Max ? 0x7f7f : 0xff7f))); return; }
    dispatchAll(*dt, [&]<class T>() {
        T v = Max ? std::numeric_limits<T>::max() : std::numeric_limits<T>::lowest();
        if constexpr (std::is_floating_point_v<T>) ctx.setOutput(0, EValue::fromDouble(v));
        else ctx.setOutput(0, EValue::fromInt(v));
    });
}

// prims.item(a): the one element as a number; PyTorch 1.13 returns a bool tensor's as an int (its Scalar
// return turns Python's bool into 0 / 1), where aten._local_scalar_dense keeps a bool.
void primsItemKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("a", 0);
    if (x.numel() != 1) kernelFail("item: a tensor with " + std::to_string(x.numel()) + " elements cannot become a number");
    if (isFloatingType(x.dtype())) { ctx.setOutput(0, EValue::fromDouble(x.at(0))); return; }
    if (x.dtype() == ScalarType::Int64) { ctx.setOutput(0, EValue::fromInt(*x.data<int64_t>())); return; }
    ctx.setOutput(0, EValue::fromInt(static_cast<int64_t>(x.at(0))));
}

// resize(a, shape): `a` as a contiguous tensor of `shape` from its storage offset (resizedOver).
void primsResizeKernel(KernelContext& ctx) {
    ctx.setOutput(0, resizedOver(ctx, ctx.tensor("a", 0), ctx.ints("shape", 1), "resize"));
}

// A fresh tensor of `sizes` laid out with `strides` over a storage of their span (zeroed).
Tensor allocStrided(KernelContext& ctx, ScalarType dt, const Shape& sizes, const Shape& strides, const char* op) {
    if (strides.size() != sizes.size()) kernelFail(std::string(op) + ": " + std::to_string(strides.size()) + " strides for " + shapeToString(sizes));
    int64_t span = 1;
    for (size_t k = 0; k < sizes.size(); ++k) {
        if (strides[k] < 0) kernelFail(std::string(op) + ": negative stride in " + shapeToString(strides));
        if (sizes[k] == 0) span = 0;
        if (span) span += (sizes[k] - 1) * strides[k];
    }
    return ctx.allocZeros(dt, {span}).asStrided(sizes, strides, 0);
}

// copy_strided(a, stride): a's values in a fresh tensor with the given strides (empty_strided + copy_).
void copyStridedKernel(KernelContext& ctx) {
    Tensor a = ctx.tensor("a", 0);
    Tensor out = allocStrided(ctx, a.dtype(), a.sizes(), ctx.ints("stride", 1), "copy_strided");
    copyInto(out, a, ctx.threads());
    ctx.setOutput(0, out);
}

// as_strided_scatter(self, src, size, stride, storage_offset): a copy of self (its layout kept) whose
// as_strided(size, stride, storage_offset) view, offset from the copy's storage start, takes src.
void asStridedScatterKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("self", 0), src = ctx.tensor("src", 1);
    Shape size = ctx.ints("size", 2), stride = ctx.ints("stride", 3);
    int64_t offset = ctx.optInt("storage_offset", 4).value_or(0);
    Tensor out = allocLike(ctx, x.dtype(), x.sizes(), {&x});
    copyInto(out, x, ctx.threads());
    if (size.size() != stride.size()) kernelFail("as_strided_scatter: size and stride differ in length");
    Tensor view = out.asStrided(size, stride, out.storageOffset() + offset);
    if (!view.fitsStorage()) kernelFail("as_strided_scatter: the view " + shapeToString(size) + " with strides " + shapeToString(stride) + " leaves the storage");
    if (src.sizes() != size) kernelFail("as_strided_scatter: src " + src.shapeString() + " does not match the view " + shapeToString(size));
    if (src.dtype() != x.dtype()) kernelFail("as_strided_scatter: src is " + dtypeName(src.dtype()) + ", self " + dtypeName(x.dtype()));
    copyInto(view, src, ctx.threads());
    ctx.setOutput(0, out);
}

// empty_permuted(shape, physical_layout, *, dtype, ...): zeros laid out densely in the order
// physical_layout names, outermost first (PyTorch leaves the values uninitialised).
void emptyPermutedKernel(KernelContext& ctx) {
    Shape shape = ctx.ints("shape", 0);
    std::vector<int64_t> layout = ctx.ints("physical_layout", 1);
    ScalarType dt = ctx.dtypeArg("dtype").value_or(ScalarType::Float32);
    std::vector<bool> seen(shape.size(), false);
    if (layout.size() != shape.size()) kernelFail("empty_permuted: physical_layout " + shapeToString(layout) + " for " + shapeToString(shape));
    Shape strides(shape.size());
    int64_t step = 1;
    for (size_t k = layout.size(); k-- > 0;) {
        int64_t d = layout[k];
        if (d < 0 || d >= static_cast<int64_t>(shape.size()) || seen[static_cast<size_t>(d)])
            kernelFail("empty_permuted: physical_layout " + shapeToString(layout) + " is not a permutation");
        seen[static_cast<size_t>(d)] = true;
        strides[static_cast<size_t>(d)] = step;
        step *= std::max<int64_t>(shape[static_cast<size_t>(d)], 1);
    }
    ctx.setOutput(0, allocStrided(ctx, dt, shape, strides, "empty_permuted"));
}

// xor_sum(inp, dims, *, output_dtype): the bitwise xor of the elements over `dims` (all when None),
// integers and bool; the result in output_dtype (default the input's).
void xorSumKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("inp", 0);
    if (isFloatingType(x.dtype())) kernelFail("dtype " + dtypeName(x.dtype()) + " is not supported by this kernel (xor_sum takes integers and bool)");
    const int64_t rank = x.dim();
    std::vector<bool> reduced(static_cast<size_t>(rank), true);
    if (auto dims = ctx.optInts("dims", 1)) {
        reduced.assign(static_cast<size_t>(rank), false);
        for (int64_t d : *dims) reduced[static_cast<size_t>(wrapDim(d, rank))] = true;
    }
    Shape outShape;
    for (int64_t d = 0; d < rank; ++d) if (!reduced[static_cast<size_t>(d)]) outShape.push_back(x.size(d));
    Tensor in = toDtype(ctx, contiguous(ctx, x), ScalarType::Int64);
    std::vector<int64_t> acc(static_cast<size_t>(shapeNumel(outShape)), 0), index(static_cast<size_t>(rank), 0);
    const int64_t* v = in.data<int64_t>();
    for (int64_t i = 0, n = in.numel(); i < n; ++i) {
        int64_t o = 0;
        for (int64_t d = 0; d < rank; ++d) if (!reduced[static_cast<size_t>(d)]) o = o * x.size(d) + index[static_cast<size_t>(d)];
        acc[static_cast<size_t>(o)] ^= v[i];
        for (int64_t d = rank; d-- > 0 && ++index[static_cast<size_t>(d)] == x.size(d);) index[static_cast<size_t>(d)] = 0;
    }
    Tensor wide = ctx.alloc(ScalarType::Int64, outShape);
    std::copy(acc.begin(), acc.end(), wide.data<int64_t>());
    ScalarType dt = ctx.dtypeArg("output_dtype").value_or(x.dtype());
    ctx.setOutput(0, toDtype(ctx, wide, dt));
}

// normal(shape, *, mean, std, dtype, ...) / uniform(shape, *, low, high, dtype, ...)
template <bool Normal> void randomPrimKernel(KernelContext& ctx) {
    Shape shape = ctx.ints("shape", 0);
    ScalarType dt = ctx.dtypeArg("dtype").value_or(ScalarType::Float32);
    double p0 = ctx.scalar(Normal ? "mean" : "low", -1, Scalar{0.0, Scalar::Kind::Float}).value;
    double p1 = ctx.scalar(Normal ? "std" : "high", -1, Scalar{1.0, Scalar::Kind::Float}).value;
    if (Normal && p1 < 0) kernelFail("normal: std must be non-negative, got " + std::to_string(p1));
    if (!Normal && !(p0 <= p1)) kernelFail("uniform: low must not exceed high");
    Tensor wide = ctx.alloc(isReducedFloat(dt) ? ScalarType::Float32 : dt, shape);
    std::mt19937_64 gen(std::hash<std::string>{}(ctx.node().name));
    dispatchFloat(wide.dtype(), [&]<class T>() {
        std::normal_distribution<double> nd(p0, p1);
        std::uniform_real_distribution<double> ud(p0, p1);
        T* o = wide.data<T>();
        for (int64_t i = 0; i < wide.numel(); ++i) {
            T v = static_cast<T>(Normal ? nd(gen) : ud(gen));
            o[i] = !Normal && v >= static_cast<T>(p1) && p1 > p0 ? std::nextafter(static_cast<T>(p1), static_cast<T>(p0)) : v;
        }
    });
    if (!isReducedFloat(dt)) { ctx.setOutput(0, wide); return; }
    Tensor out = ctx.alloc(dt, shape);
    copyInto(out, wide, ctx.threads());
    ctx.setOutput(0, out);
}

// prims.view_of_dtype is later PyTorch's a.view(dtype): the same storage read as another dtype. An element
// size that differs scales the last dimension, which must have stride 1 (and, growing, divide evenly);
// the other strides and the offset scale with it.
void viewOfDtypeKernel(KernelContext& ctx) {
    Tensor a = ctx.tensor("a", 0);
    auto dt = ctx.dtypeArg("dtype", 1);
    if (!dt) kernelFail("view_of_dtype: a dtype is required");
    const int64_t from = a.itemSize(), to = elementSize(*dt);
    Shape sizes = a.sizes(), strides = a.strides();
    int64_t offset = a.storageOffset();
    if (from != to) {
        const std::string what = "view_of_dtype: " + dtypeName(a.dtype()) + " as " + dtypeName(*dt) + ": ";
        if (a.dim() == 0) kernelFail(what + "a 0-dim tensor cannot change its element size");
        if (a.stride(a.dim() - 1) != 1) kernelFail(what + "the last dimension must have stride 1");
        if (from > to) {
            const int64_t k = from / to;
            for (int64_t& st : strides) st *= k;
            strides.back() = 1;
            sizes.back() *= k;
            offset *= k;
        } else {
            const int64_t k = to / from;
            if (sizes.back() % k || offset % k) kernelFail(what + "the last dimension's size and the offset must divide by " + std::to_string(k));
            for (size_t d = 0; d + 1 < strides.size(); ++d) {
                if (strides[d] % k) kernelFail(what + "every stride but the last must divide by " + std::to_string(k));
                strides[d] /= k;
            }
            sizes.back() /= k;
            offset /= k;
        }
    }
    ctx.setOutput(0, a.reinterpret(*dt, sizes, strides, offset));
}

// Effect tokens (later PyTorch threads them through calls with side effects to keep their order): a
// token is what its new_token_tensor makes, torch.tensor([]) (float32, empty); sinking them does nothing
// but take them, so they must be tensors.
void makeTokenKernel(KernelContext& ctx) { ctx.setOutput(0, ctx.alloc(ScalarType::Float32, {0})); }

void sinkTokensKernel(KernelContext& ctx) { (void)ctx.tensors("tokens", 0); }

} // namespace

void registerPrimsMiscKernels(KernelRegistry& r) {
    r.add({"prims::gcd.default"}, &gcdKernel);
    r.add({"prims::nextafter.default"}, &nextafterKernel);
    r.add({"prims::frexp.default"}, &frexpKernel);
    r.add({"prims::maximum_value.default"}, &extremeValueKernel<true>);
    r.add({"prims::minimum_value.default", "prims::minium_value.default"}, &extremeValueKernel<false>);
    r.add({"prims::resize.default"}, &primsResizeKernel);
    r.add({"prims::item.default"}, &primsItemKernel);
    r.add({"prims::copy_strided.default"}, &copyStridedKernel);
    r.add({"prims::as_strided_scatter.default"}, &asStridedScatterKernel);
    r.add({"prims::empty_permuted.default"}, &emptyPermutedKernel);
    r.add({"prims::xor_sum.default"}, &xorSumKernel);
    r.add({"prims::view_of_dtype.default"}, &viewOfDtypeKernel);
    r.add({"prims::_make_token.default"}, &makeTokenKernel);
    r.add({"prims::_sink_tokens.default"}, &sinkTokensKernel);
    // rand / randn are uniform on [0, 1) / normal(0, 1): their `size` is the shape, no law arguments
    r.add({"prims::normal.default", "aten::randn.default"}, &randomPrimKernel<true>);
    r.add({"prims::uniform.default", "aten::rand.default"}, &randomPrimKernel<false>);
}

} // namespace irlens::core::exec
