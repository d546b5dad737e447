// Scattering with a reduction: scatter_reduce.two (sum, prod, mean, amax, amin; include_self or
// not) and masked_scatter.

#include "core/exec/kernel_registry.h"
#include "core/exec/kernels/kernels.h"
#include "core/exec/kernels/util/dispatch.h"
#include "core/exec/kernels/util/tensor_ops.h"
#include "core/exec/kernels/util/reduced_float.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace irlens::core::exec {

namespace {

enum class Reduce { Sum, Prod, Mean, Amax, Amin };

Reduce reduceMode(const std::string& name) {
    if (name == "sum") return Reduce::Sum;
    if (name == "prod") return Reduce::Prod;
    if (name == "mean") return Reduce::Mean;
    if (name == "amax") return Reduce::Amax;
    if (name == "amin") return Reduce::Amin;
    kernelFail("scatter_reduce: reduce must be one of sum, prod, mean, amax, amin; got '" + name + "'");
}

// The value a scattered-to place starts from when include_self is false.
template <class T> T identity(Reduce r) {
    switch (r) {
    case Reduce::Prod: return T(1);
    case Reduce::Amax:
        if constexpr (std::is_floating_point_v<T>) return -std::numeric_limits<T>::infinity();
        else return std::numeric_limits<T>::lowest();
    case Reduce::Amin:
        if constexpr (std::is_floating_point_v<T>) return std::numeric_limits<T>::infinity();
        else return std::numeric_limits<T>::max();
    default: return T(0);
    }
}

template <class T> T combine(Reduce r, T acc, T v) {
    if constexpr (std::is_same_v<T, bool>) {
        return r == Reduce::Prod || r == Reduce::Amin ? (acc && v) : (acc || v);
    } else {
        switch (r) {
        case Reduce::Prod: return static_cast<T>(acc * v);
        case Reduce::Amax:
            if constexpr (std::is_floating_point_v<T>) { if (std::isnan(v) || std::isnan(acc)) return std::isnan(v) ? v : acc; }
            return v > acc ? v : acc;
        case Reduce::Amin:
            if constexpr (std::is_floating_point_v<T>) { if (std::isnan(v) || std::isnan(acc)) return std::isnan(v) ? v : acc; }
            return v < acc ? v : acc;
        default: return static_cast<T>(acc + v);
        }
    }
}

// For every element of `index` (C order): the offset in a contiguous `out` it scatters to, and the
// offset of the matching element in `src` (strided).
template <class F>
void forEachScatter(const Tensor& out, const Tensor& index, const Tensor& src, int64_t dim, F f) {
    const int64_t rank = index.dim(), n = index.numel();
    if (rank != out.dim() || rank != src.dim()) kernelFail("scatter_reduce: self, index and src must have the same rank");
    for (int64_t k = 0; k < rank; ++k) {
        if (index.size(k) > src.size(k)) kernelFail("scatter_reduce: index " + index.shapeString() + " is larger than src " + src.shapeString() + " in dim " + std::to_string(k));
        if (k != dim && index.size(k) > out.size(k)) kernelFail("scatter_reduce: index " + index.shapeString() + " is larger than self " + out.shapeString() + " in dim " + std::to_string(k));
    }
    const int64_t* ids = index.data<int64_t>();
    Shape pos(static_cast<size_t>(rank), 0);
    for (int64_t e = 0; e < n; ++e) {
        int64_t off = 0, soff = src.storageOffset();
        for (int64_t k = 0; k < rank; ++k) {
            int64_t p = pos[static_cast<size_t>(k)];
            if (k == dim) {
                p = ids[e];
                if (p < -out.size(k) || p >= out.size(k)) kernelFail("scatter_reduce: index " + std::to_string(p) + " is out of bounds for dim " + std::to_string(k) + " of size " + std::to_string(out.size(k)));
                if (p < 0) p += out.size(k);
            }
            off += p * out.stride(k);
            soff += pos[static_cast<size_t>(k)] * src.stride(k);
        }
        f(off, soff);
        for (int64_t k = rank; k-- > 0;) {
            if (++pos[static_cast<size_t>(k)] < index.size(k)) break;
            pos[static_cast<size_t>(k)] = 0;
        }
    }
}

// scatter_reduce.two(self, dim, index, src, reduce, *, include_self=True)
void scatterReduceKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("self", 0);
    int64_t dim = wrapDim(ctx.intArg("dim", 1), x.dim());
    Tensor index = contiguous(ctx, toDtype(ctx, ctx.tensor("index", 2), ScalarType::Int64));
    Tensor src = toDtype(ctx, ctx.tensor("src", 3), x.dtype());
    Reduce mode = reduceMode(ctx.stringArg("reduce", 4, ""));
    const bool includeSelf = ctx.boolArg("include_self", 5, true);
    Tensor out = ctx.alloc(x.dtype(), x.sizes());
    copyInto(out, x, ctx.threads());
    if (x.dim() == 0) kernelFail("scatter_reduce: self must have at least one dimension");
    std::vector<int64_t> count(static_cast<size_t>(out.numel()), includeSelf ? 1 : 0);
    dispatchAll(x.dtype(), [&]<class T>() {
        T* o = out.data<T>();
        const T* s = reinterpret_cast<const T*>(src.buffer()->data());
        forEachScatter(out, index, src, dim, [&](int64_t off, int64_t soff) {
            if (!includeSelf && count[static_cast<size_t>(off)] == 0) o[off] = identity<T>(mode);
            o[off] = combine<T>(mode, o[off], s[soff]);
            ++count[static_cast<size_t>(off)];
        });
        if (mode != Reduce::Mean) return;
        if constexpr (std::is_same_v<T, bool>) kernelFail("scatter_reduce: mean is not defined for bool tensors");
        else {
            for (int64_t e = 0; e < out.numel(); ++e) {
                int64_t c = std::max<int64_t>(1, count[static_cast<size_t>(e)]);
                if constexpr (std::is_floating_point_v<T>) o[e] = static_cast<T>(o[e] / static_cast<T>(c));
                else { // integer mean rounds down (torch divides with rounding_mode="floor")
                    int64_t v = static_cast<int64_t>(o[e]);
                    int64_t q = v / c;
                    if (v % c != 0 && v < 0) --q;
                    o[e] = static_cast<T>(q);
                }
            }
        }
    });
    ctx.setOutput(0, out);
}

// masked_scatter(self, mask, source): self and mask broadcast to one shape (PyTorch expands both, so
// the result may be larger than self); the i-th true place of mask in C order takes the i-th element
// of source.
void maskedScatterKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("self", 0);
    Tensor mask = toDtype(ctx, ctx.tensor("mask", 1), ScalarType::Bool);
    Tensor source = contiguous(ctx, toDtype(ctx, ctx.tensor("source", 2), x.dtype()));
    const Shape shape = broadcastShapes(x.sizes(), mask.sizes());
    Tensor m = contiguous(ctx, expandTo(mask, shape));
    Tensor out = ctx.alloc(x.dtype(), shape);
    copyInto(out, expandTo(x, shape), ctx.threads());
    const int64_t es = x.itemSize(), available = source.numel();
    int64_t next = 0;
    for (int64_t e = 0; e < out.numel(); ++e) {
        if (!m.data<bool>()[e]) continue;
        if (next >= available)
            kernelFail("masked_scatter: source has " + std::to_string(available) + " elements, fewer than the mask's true places");
        std::memcpy(out.raw() + e * es, source.raw() + next * es, static_cast<size_t>(es));
        ++next;
    }
    ctx.setOutput(0, out);
}

} // namespace

void registerScatterKernels(KernelRegistry& r) {
    r.add({"aten::scatter_reduce.two"}, &viaFloat32<&scatterReduceKernel>);
    r.add({"aten::masked_scatter.default"}, &maskedScatterKernel);
}

} // namespace irlens::core::exec
