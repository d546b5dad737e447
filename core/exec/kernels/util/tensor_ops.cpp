#include "core/exec/kernels/util/tensor_ops.h"

#include "core/exec/kernels/util/dispatch.h"
#include "core/exec/kernels/util/float_to_int.h"
#include "core/exec/kernels/util/half.h"
#include "core/exec/kernels/util/loops.h"

#include <algorithm>
#include <cstring>

namespace irlens::core::exec {

int64_t wrapDim(int64_t dim, int64_t rank) {
    int64_t r = rank == 0 ? 1 : rank;
    if (dim < -r || dim >= r)
        kernelFail("dimension " + std::to_string(dim) + " out of range for a tensor of rank " + std::to_string(rank));
    return dim < 0 ? dim + r : dim;
}

Shape broadcastShapes(const Shape& a, const Shape& b) {
    size_t n = std::max(a.size(), b.size());
    Shape out(n);
    for (size_t k = 0; k < n; ++k) {
        int64_t x = k < n - a.size() ? 1 : a[k - (n - a.size())];
        int64_t y = k < n - b.size() ? 1 : b[k - (n - b.size())];
        if (x != y && x != 1 && y != 1)
            kernelFail("shapes " + shapeToString(a) + " and " + shapeToString(b) + " cannot be broadcast together");
        out[k] = x == 1 ? y : x;
    }
    return out;
}

Tensor expandTo(const Tensor& t, const Shape& shape) {
    if (t.sizes() == shape) return t;
    size_t n = shape.size(), r = t.sizes().size();
    if (r > n) kernelFail("cannot expand " + t.shapeString() + " to " + shapeToString(shape));
    Shape st(n, 0);
    for (size_t k = 0; k < r; ++k) {
        size_t d = k + n - r;
        if (t.sizes()[k] == shape[d]) st[d] = t.strides()[k];
        else if (t.sizes()[k] == 1) st[d] = 0;
        else kernelFail("cannot expand " + t.shapeString() + " to " + shapeToString(shape));
    }
    return t.asStrided(shape, st, t.storageOffset());
}

namespace {
int typeRank(ScalarType t) {
    switch (t) {
    case ScalarType::Bool: return 0;
    case ScalarType::UInt8: return 1;
    case ScalarType::Int8: return 1;
    case ScalarType::Int16: return 2;
    case ScalarType::Int32: return 3;
    case ScalarType::Int64: return 4;
    case ScalarType::Float16: return 5;
    case ScalarType::BFloat16: return 5;
    case ScalarType::Float32: return 6;
    case ScalarType::Float64: return 7;
    default: return -1;
    }
}
} // namespace

ScalarType promoteTypes(ScalarType a, ScalarType b) {
    if (a == b) return a;
    if (a == ScalarType::Unknown) return b;
    if (b == ScalarType::Unknown) return a;
    if ((a == ScalarType::UInt8 && b == ScalarType::Int8) || (a == ScalarType::Int8 && b == ScalarType::UInt8))
        return ScalarType::Int16;
    if ((a == ScalarType::Float16 && b == ScalarType::BFloat16) || (a == ScalarType::BFloat16 && b == ScalarType::Float16))
        return ScalarType::Float32;
    return typeRank(a) >= typeRank(b) ? a : b;
}

namespace {
ScalarType combineCategories(ScalarType higher, ScalarType lower) {
    if (isFloatingType(higher)) return higher;
    if (higher == ScalarType::Bool || isFloatingType(lower)) return promoteTypes(higher, lower);
    if (higher != ScalarType::Unknown) return higher;
    return lower;
}
} // namespace

ScalarType resultType(std::initializer_list<TypeOperand> operands) {
    ScalarType dimResult = ScalarType::Unknown, zeroResult = ScalarType::Unknown, wrapped = ScalarType::Unknown;
    for (const auto& op : operands) {
        if (op.tensor) {
            if (op.tensor->dim() > 0) dimResult = promoteTypes(dimResult, op.tensor->dtype());
            else zeroResult = promoteTypes(zeroResult, op.tensor->dtype());
        } else if (op.scalar) {
            ScalarType t = op.scalar->kind == Scalar::Kind::Float ? ScalarType::Float32
                           : op.scalar->kind == Scalar::Kind::Bool ? ScalarType::Bool : ScalarType::Int64;
            wrapped = promoteTypes(wrapped, t);
        }
    }
    return combineCategories(dimResult, combineCategories(zeroResult, wrapped));
}

namespace {
// Copies where either side is float16 or bfloat16: values pass through float, as c10::Half's and
// c10::BFloat16's conversions do.
void copyReducedFloat(const Tensor& dst, const Tensor& s, int threads) {
    const ScalarType dt = dst.dtype(), st = s.dtype();
    if (dt == st) {
        mapElements<uint16_t, uint16_t>(threads, dst, [](uint16_t v) { return v; }, s);
    } else if (isReducedFloat(dt) && isReducedFloat(st)) {
        mapElements<uint16_t, uint16_t>(threads, dst, [dt, st](uint16_t v) { return floatToReduced(dt, reducedToFloat(st, v)); }, s);
    } else if (isReducedFloat(dt)) {
        dispatchAll(st, [&]<class S>() {
            mapElements<uint16_t, S>(threads, dst, [dt](S v) { return floatToReduced(dt, static_cast<float>(v)); }, s);
        });
    } else {
        dispatchAll(dt, [&]<class D>() {
            mapElements<D, uint16_t>(threads, dst, [st](uint16_t v) {
                return convertValue<D>(reducedToFloat(st, v));
            }, s);
        });
    }
}

// Elements of the contiguous block that `t` repeats: its innermost dimensions laid out densely, the
// ones outside them broadcast (stride 0) or of size 1. The whole tensor when it is contiguous, a row
// for a bias expanded over a matrix; -1 when the layout is neither.
int64_t repeatedBlock(const Tensor& t) {
    int64_t block = 1;
    int64_t d = t.dim() - 1;
    for (; d >= 0 && (t.size(d) == 1 || t.stride(d) == block); --d) block *= t.size(d);
    for (; d >= 0; --d)
        if (t.size(d) != 1 && t.stride(d) != 0) return -1;
    return block;
}
} // namespace

void copyInto(const Tensor& dst, const Tensor& src, int threads) {
    Tensor s = expandTo(src, dst.sizes());
    if (dst.dtype() == s.dtype() && dst.isContiguous()) {
        // a contiguous source, or one block of it repeated over broadcast dimensions: block copies
        const int64_t block = dst.numel() ? repeatedBlock(s) : -1;
        if (block > 0) {
            const size_t bytes = static_cast<size_t>(block * s.itemSize());
            for (int64_t k = 0, n = dst.numel() / block; k < n; ++k) std::memmove(dst.raw() + static_cast<size_t>(k) * bytes, s.raw(), bytes);
            return;
        }
        if (!dst.numel()) return;
    }
    if (isReducedFloat(dst.dtype()) || isReducedFloat(s.dtype())) {
        copyReducedFloat(dst, s, threads);
        return;
    }
    dispatchAll(dst.dtype(), [&]<class D>() {
        dispatchAll(s.dtype(), [&]<class S>() {
            mapElements<D, S>(threads, dst, [](S v) { return convertValue<D>(v); }, s);
        });
    });
}

namespace {

// TensorIterator's reorder_dimensions: an insertion sort of the dimensions, fastest first.
std::vector<size_t> iterationOrder(const Shape& shape, const std::vector<Shape>& strides) {
    auto shouldSwap = [&](size_t d0, size_t d1) {
        for (const auto& s : strides) {
            if (s[d0] == 0 || s[d1] == 0) continue; // broadcast in this input: ask the next one
            if (s[d0] != s[d1]) return s[d0] < s[d1] ? -1 : 1;
            if (shape[d0] > shape[d1]) return 1;    // equal strides: the smaller dimension goes first
        }
        return 0;
    };
    size_t n = shape.size();
    std::vector<size_t> perm(n);
    for (size_t i = 0; i < n; ++i) perm[i] = n - 1 - i;
    for (size_t i = 1; i < n; ++i) {
        size_t d1 = i;
        for (size_t d0 = i; d0-- > 0;) {
            int c = shouldSwap(perm[d0], perm[d1]);
            if (c > 0) { std::swap(perm[d0], perm[d1]); d1 = d0; }
            else if (c < 0) break;
        }
    }
    return perm;
}

} // namespace

Tensor allocLike(KernelContext& ctx, ScalarType dtype, const Shape& shape, std::initializer_list<const Tensor*> inputs) {
    size_t n = shape.size();
    std::vector<Shape> strides;
    for (const Tensor* t : inputs) {
        if (!t || !t->defined() || t->dim() == 0 || t->sizes().size() > n) continue;
        Shape e(n, 0);
        size_t r = t->sizes().size();
        for (size_t k = 0; k < r; ++k)
            if (t->sizes()[k] == shape[k + n - r]) e[k + n - r] = t->strides()[k];
        strides.push_back(std::move(e));
    }
    if (n < 2 || strides.empty()) return ctx.alloc(dtype, shape);
    auto perm = iterationOrder(shape, strides);
    Shape out(n);
    int64_t step = 1;
    for (size_t d : perm) {
        out[d] = step;
        step *= std::max<int64_t>(shape[d], 1);
    }
    if (out == contiguousStrides(shape)) return ctx.alloc(dtype, shape);
    return ctx.alloc(dtype, {shapeNumel(shape)}).asStrided(shape, out, 0);
}

Tensor contiguous(KernelContext& ctx, const Tensor& t) {
    if (t.isContiguous()) return t;
    Tensor out = ctx.alloc(t.dtype(), t.sizes());
    copyInto(out, t, ctx.threads());
    return out;
}

Tensor toDtype(KernelContext& ctx, const Tensor& t, ScalarType dtype) {
    if (t.dtype() == dtype) return t;
    Tensor out = ctx.alloc(dtype, t.sizes());
    copyInto(out, t, ctx.threads());
    return out;
}

Tensor resizedOver(KernelContext& ctx, const Tensor& t, const Shape& size, const char* op) {
    for (int64_t s : size)
        if (s < 0) kernelFail(std::string(op) + ": negative size in " + shapeToString(size));
    const int64_t numel = shapeNumel(size), item = t.itemSize();
    const int64_t have = t.buffer() ? static_cast<int64_t>(t.buffer()->size()) : 0;
    if ((t.storageOffset() + numel) * item <= have) return t.asStrided(size, contiguousStrides(size), t.storageOffset());
    if (t.readOnly()) kernelFail(std::string(op) + ": cannot grow a read-only tensor (a weight of the archive)");
    Tensor grown = ctx.allocZeros(t.dtype(), {t.storageOffset() + numel});
    if (have > 0) std::memcpy(grown.raw(), t.buffer()->data(), static_cast<size_t>(have));
    return grown.asStrided(size, contiguousStrides(size), t.storageOffset());
}

Tensor toDtypeKeepLayout(KernelContext& ctx, const Tensor& t, ScalarType dtype) {
    if (t.dtype() == dtype) return t;
    Tensor out = allocLike(ctx, dtype, t.sizes(), {&t});
    copyInto(out, t, ctx.threads());
    return out;
}

std::optional<Shape> viewStrides(const Tensor& t, const Shape& newSizes) {
    const Shape& oldSizes = t.sizes();
    const Shape& oldStrides = t.strides();
    Shape newStrides(newSizes.size());
    if (oldSizes.empty()) {
        std::fill(newStrides.begin(), newStrides.end(), 1);
        return newStrides;
    }
    int64_t numel = t.numel();
    if (numel == 0) {
        if (oldSizes == newSizes) return oldStrides;
        return contiguousStrides(newSizes);
    }
    // Walk old dims in chunks that are contiguous among themselves and match them to new dims.
    int64_t viewD = static_cast<int64_t>(newSizes.size()) - 1;
    int64_t chunkBaseStride = oldStrides.back();
    int64_t tensorNumel = 1, viewNumel = 1;
    for (int64_t tensorD = static_cast<int64_t>(oldSizes.size()) - 1; tensorD >= 0; --tensorD) {
        tensorNumel *= oldSizes[static_cast<size_t>(tensorD)];
        if (tensorD == 0 ||
            (oldSizes[static_cast<size_t>(tensorD - 1)] != 1 &&
             oldStrides[static_cast<size_t>(tensorD - 1)] != tensorNumel * chunkBaseStride)) {
            while (viewD >= 0 && (viewNumel < tensorNumel || newSizes[static_cast<size_t>(viewD)] == 1)) {
                newStrides[static_cast<size_t>(viewD)] = viewNumel * chunkBaseStride;
                viewNumel *= newSizes[static_cast<size_t>(viewD)];
                --viewD;
            }
            if (viewNumel != tensorNumel) return std::nullopt;
            if (tensorD > 0) {
                chunkBaseStride = oldStrides[static_cast<size_t>(tensorD - 1)];
                tensorNumel = 1;
                viewNumel = 1;
            }
        }
    }
    if (viewD != -1) return std::nullopt;
    return newStrides;
}

Shape inferSize(const Shape& sizes, int64_t numel) {
    Shape out = sizes;
    int64_t known = 1;
    int inferred = -1;
    for (size_t k = 0; k < out.size(); ++k) {
        if (out[k] == -1) {
            if (inferred >= 0) kernelFail("only one dimension can be -1 in " + shapeToString(sizes));
            inferred = static_cast<int>(k);
        } else if (out[k] < 0) {
            kernelFail("invalid size " + std::to_string(out[k]) + " in " + shapeToString(sizes));
        } else {
            known *= out[k];
        }
    }
    if (inferred >= 0) {
        if (known == 0 || numel % known != 0)
            kernelFail("shape " + shapeToString(sizes) + " is invalid for input of size " + std::to_string(numel));
        out[static_cast<size_t>(inferred)] = numel / known;
    } else if (known != numel) {
        kernelFail("shape " + shapeToString(sizes) + " is invalid for input of size " + std::to_string(numel));
    }
    return out;
}

Tensor reshape(KernelContext& ctx, const Tensor& t, const Shape& sizes) {
    Shape s = inferSize(sizes, t.numel());
    if (auto st = viewStrides(t, s)) return t.asStrided(s, *st, t.storageOffset());
    Tensor c = contiguous(ctx, t);
    return c.asStrided(s, contiguousStrides(s), c.storageOffset());
}

Tensor permute(const Tensor& t, const std::vector<int64_t>& dims) {
    int64_t r = t.dim();
    if (static_cast<int64_t>(dims.size()) != r)
        kernelFail("permute: " + std::to_string(dims.size()) + " dims given for a tensor of rank " + std::to_string(r));
    Shape sz(dims.size()), st(dims.size());
    std::vector<bool> seen(dims.size(), false);
    for (size_t k = 0; k < dims.size(); ++k) {
        int64_t d = wrapDim(dims[k], r);
        if (seen[static_cast<size_t>(d)]) kernelFail("permute: dimension " + std::to_string(d) + " repeated");
        seen[static_cast<size_t>(d)] = true;
        sz[k] = t.size(d);
        st[k] = t.stride(d);
    }
    return t.asStrided(sz, st, t.storageOffset());
}

Tensor transpose(const Tensor& t, int64_t d0, int64_t d1) {
    if (t.dim() == 0) return t;
    d0 = wrapDim(d0, t.dim());
    d1 = wrapDim(d1, t.dim());
    Shape sz = t.sizes(), st = t.strides();
    std::swap(sz[static_cast<size_t>(d0)], sz[static_cast<size_t>(d1)]);
    std::swap(st[static_cast<size_t>(d0)], st[static_cast<size_t>(d1)]);
    return t.asStrided(sz, st, t.storageOffset());
}

} // namespace irlens::core::exec
