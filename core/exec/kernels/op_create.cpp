// Factories: arange/iota, full/zeros/ones/empty (and *_like, new_*), scalar_tensor, fill, tril/triu,
// rand/randn (seeded, deterministic per node; not PyTorch's generator).

#include "core/exec/kernel_registry.h"
#include "core/exec/kernels/kernels.h"
#include "core/exec/kernels/util/dispatch.h"
#include "core/exec/kernels/util/loops.h"
#include "core/exec/kernels/util/tensor_ops.h"
#include "core/exec/kernels/util/reduced_float.h"

#include <cmath>
#include <functional>
#include <random>

namespace irlens::core::exec {

namespace {

ScalarType scalarDtype(const Scalar& s) {
    return s.kind == Scalar::Kind::Float ? ScalarType::Float32 : s.kind == Scalar::Kind::Bool ? ScalarType::Bool : ScalarType::Int64;
}

void fillWith(const Tensor& t, double v) {
    dispatchAll(t.dtype(), [&]<class T>() {
        T x = scalarAs<T>(v);
        T* p = t.data<T>();
        for (int64_t i = 0, n = t.numel(); i < n; ++i) p[i] = x;
    });
}

void arangeKernel(KernelContext& ctx) {
    // arange(end) / arange.start(start, end) / arange.start_step(start, end, step)
    bool hasStart = ctx.find("start") != nullptr;
    Scalar start = hasStart ? ctx.scalar("start", 0) : Scalar{0, Scalar::Kind::Int};
    Scalar end = ctx.scalar("end", hasStart ? 1 : 0);
    Scalar step = ctx.scalar("step", 2, Scalar{1, Scalar::Kind::Int});
    if (step.value == 0) kernelFail("arange: step must be nonzero");
    bool anyFloat = start.isFloating() || end.isFloating() || step.isFloating();
    ScalarType dt = ctx.dtypeArg("dtype").value_or(anyFloat ? ScalarType::Float32 : ScalarType::Int64);
    double n = std::ceil((end.value - start.value) / step.value);
    if (n < 0 || !std::isfinite(n)) kernelFail("arange: the range is empty in the direction of step or not finite");
    Tensor out = ctx.alloc(dt, {static_cast<int64_t>(n)});
    dispatchNumeric(dt, [&]<class T>() {
        T* p = out.data<T>();
        for (int64_t i = 0; i < out.numel(); ++i) p[i] = convertValue<T>(start.value + static_cast<double>(i) * step.value);
    });
    ctx.setOutput(0, out);
}

// prims.iota(length, *, start, step, dtype, ...)
void iotaKernel(KernelContext& ctx) {
    int64_t n = ctx.intArg("length", 0), start = ctx.intArg("start", -1, 0), step = ctx.intArg("step", -1, 1);
    ScalarType dt = ctx.dtypeArg("dtype").value_or(ScalarType::Int64);
    if (n < 0) kernelFail("iota: negative length");
    Tensor out = ctx.alloc(dt, {n});
    dispatchNumeric(dt, [&]<class T>() {
        for (int64_t i = 0; i < n; ++i) out.data<T>()[i] = static_cast<T>(start + i * step);
    });
    ctx.setOutput(0, out);
}

void fullKernel(KernelContext& ctx) {
    Shape size = ctx.ints("size", 0, {});
    if (auto s = ctx.optInts("shape", 0)) size = *s;
    Scalar v = ctx.scalar("fill_value", 1);
    ScalarType dt = ctx.dtypeArg("dtype").value_or(scalarDtype(v));
    Tensor out = ctx.alloc(dt, size);
    fillWith(out, v.value);
    ctx.setOutput(0, out);
}

template <int Value> void constantKernel(KernelContext& ctx) { // zeros / ones (size, dtype)
    Shape size = ctx.ints("size", 0);
    ScalarType dt = ctx.dtypeArg("dtype").value_or(ScalarType::Float32);
    Tensor out = ctx.alloc(dt, size);
    fillWith(out, Value);
    ctx.setOutput(0, out);
}

void emptyKernel(KernelContext& ctx) {
    Shape size = ctx.ints("size", 0);
    ScalarType dt = ctx.dtypeArg("dtype").value_or(ScalarType::Float32);
    ctx.setOutput(0, ctx.allocZeros(dt, size)); // zero-filled so runs are reproducible
}

// empty_strided(size, stride) / prims.empty_strided(shape, strides) / prims.empty(shape): zeros (PyTorch
// leaves them uninitialised) over a storage of the strides' span, so the strides are PyTorch's.
void emptyStridedKernel(KernelContext& ctx) {
    Shape size = ctx.ints("size", 0, {});
    if (auto s = ctx.optInts("shape", 0)) size = *s;
    ScalarType dt = ctx.dtypeArg("dtype").value_or(ScalarType::Float32);
    auto stride = ctx.optInts("stride");
    if (!stride) stride = ctx.optInts("strides");
    if (!stride || *stride == contiguousStrides(size)) { ctx.setOutput(0, ctx.allocZeros(dt, size)); return; }
    if (stride->size() != size.size()) kernelFail("empty_strided: " + std::to_string(stride->size()) + " strides for " + shapeToString(size));
    int64_t span = 1;
    for (size_t k = 0; k < size.size(); ++k) {
        if (size[k] == 0) span = 0;
        if ((*stride)[k] < 0) kernelFail("empty_strided: negative stride in " + shapeToString(*stride));
        if (span) span += (size[k] - 1) * (*stride)[k];
    }
    ctx.setOutput(0, ctx.allocZeros(dt, {span}).asStrided(size, *stride, 0));
}

// *_like(self, [fill_value], dtype=None)
template <int Kind> void likeKernel(KernelContext& ctx) { // 0 zeros, 1 ones, 2 empty, 3 full
    Tensor x = ctx.tensor("self", 0);
    ScalarType dt = ctx.dtypeArg("dtype").value_or(x.dtype());
    Tensor out = allocLike(ctx, dt, x.sizes(), {&x}); // memory_format=preserve: the input's layout, dense
    fillWith(out, Kind == 1 ? 1.0 : Kind == 3 ? ctx.scalar("fill_value", 1).value : 0.0);
    ctx.setOutput(0, out);
}

// new_*(self, size, [fill_value], dtype=None): dtype defaults to self's.
template <int Kind> void newKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("self", 0);
    Shape size = ctx.ints("size", 1);
    ScalarType dt = ctx.dtypeArg("dtype").value_or(x.dtype());
    Tensor out = ctx.allocZeros(dt, size);
    if (Kind == 1) fillWith(out, 1);
    if (Kind == 3) fillWith(out, ctx.scalar("fill_value", 2).value);
    ctx.setOutput(0, out);
}

void scalarTensorKernel(KernelContext& ctx) {
    Scalar s = ctx.scalar("s", 0);
    ScalarType dt = ctx.dtypeArg("dtype").value_or(s.kind == Scalar::Kind::Bool ? ScalarType::Bool : ScalarType::Float32);
    Tensor out = ctx.alloc(dt, {});
    fillWith(out, s.value);
    ctx.setOutput(0, out);
}

void fillKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("self", 0);
    Tensor out = allocLike(ctx, x.dtype(), x.sizes(), {&x}); // PyTorch: empty_like(self).fill_, keeping the layout
    fillWith(out, ctx.scalar("value", 1).value);
    ctx.setOutput(0, out);
}

template <bool Lower> void triKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("self", 0);
    if (x.dim() < 2) kernelFail("tril/triu need at least 2 dimensions, got " + x.shapeString());
    int64_t diag = ctx.intArg("diagonal", 1, 0);
    Tensor in = contiguous(ctx, x);
    Tensor out = ctx.alloc(x.dtype(), x.sizes());
    int64_t R = x.size(x.dim() - 2), C = x.size(x.dim() - 1), B = x.numel() / std::max<int64_t>(1, R * C);
    dispatchAll(x.dtype(), [&]<class T>() {
        for (int64_t b = 0; b < B; ++b)
            for (int64_t i = 0; i < R; ++i)
                for (int64_t j = 0; j < C; ++j) {
                    bool keep = Lower ? (j - i <= diag) : (j - i >= diag);
                    int64_t off = (b * R + i) * C + j;
                    out.data<T>()[off] = keep ? in.data<T>()[off] : T(0);
                }
    });
    ctx.setOutput(0, out);
}

// randperm(n, *, dtype=int64): a permutation of 0..n-1 (Fisher-Yates, seeded per node like rand; it
// cannot follow PyTorch's generator stream, only its distribution).
void randpermKernel(KernelContext& ctx) {
    const int64_t n = ctx.intArg("n", 0);
    if (n < 0) kernelFail("randperm: n must be non-negative, got " + std::to_string(n));
    ScalarType dt = ctx.dtypeArg("dtype").value_or(ScalarType::Int64);
    std::vector<int64_t> perm(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) perm[static_cast<size_t>(i)] = i;
    std::mt19937_64 gen(std::hash<std::string>{}(ctx.node().name));
    for (int64_t i = n - 1; i > 0; --i) std::swap(perm[static_cast<size_t>(i)], perm[std::uniform_int_distribution<size_t>(0, static_cast<size_t>(i))(gen)]);
    Tensor wide = ctx.alloc(ScalarType::Int64, {n});
    std::copy(perm.begin(), perm.end(), wide.data<int64_t>());
    int64_t largest = INT64_MAX;
    switch (dt) {
    case ScalarType::UInt8: largest = 255; break;
    case ScalarType::Int8: largest = 127; break;
    case ScalarType::Int16: largest = 32767; break;
    case ScalarType::Int32: largest = INT32_MAX; break;
    default: break;
    }
    if (n - 1 > largest) kernelFail("randperm: n = " + std::to_string(n) + " is too large for dtype " + dtypeName(dt));
    ctx.setOutput(0, toDtype(ctx, wide, dt));
}

} // namespace

void registerCreateKernels(KernelRegistry& r) {
    r.add({"aten::arange.default", "aten::arange.start", "aten::arange.start_step"}, &viaFloat32<&arangeKernel>);
    r.add({"prims::iota.default"}, &iotaKernel);
    r.add({"aten::full.default", "prims::full.default"}, &viaFloat32<&fullKernel>);
    r.add({"aten::zeros.default"}, &constantKernel<0>);
    r.add({"aten::ones.default"}, &constantKernel<1>);
    r.add({"aten::empty.memory_format", "aten::empty.default"}, &emptyKernel);
    r.add({"aten::empty_strided.default", "prims::empty_strided.default", "prims::empty.default"}, &emptyStridedKernel);
    r.add({"aten::zeros_like.default"}, &likeKernel<0>);
    r.add({"aten::ones_like.default"}, &likeKernel<1>);
    r.add({"aten::empty_like.default"}, &likeKernel<2>);
    r.add({"aten::full_like.default", "prims::full_like.default"}, &viaFloat32<&likeKernel<3>>);
    r.add({"aten::new_zeros.default"}, &newKernel<0>);
    r.add({"aten::new_ones.default"}, &newKernel<1>);
    r.add({"aten::new_empty.default", "aten::new_empty_strided.default"}, &newKernel<2>);
    r.add({"aten::new_full.default"}, &newKernel<3>);
    r.add({"aten::scalar_tensor.default", "prims::scalar_tensor.default"}, &viaFloat32<&scalarTensorKernel>);
    r.add({"aten::fill.Scalar", "prims::fill.default"}, &viaFloat32<&fillKernel>);
    r.add({"aten::tril.default"}, &triKernel<true>);
    r.add({"aten::triu.default"}, &triKernel<false>);
    r.add({"aten::randperm.default"}, &randpermKernel);
}

} // namespace irlens::core::exec
