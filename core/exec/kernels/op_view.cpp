// Views and copies: view/reshape, transposes, permute, expand, (un)squeeze, flatten/unflatten,
// select/slice/narrow, split/chunk/unbind, alias/detach, clone/contiguous/_to_copy and the prims
// view ops. Views share storage with their input.

#include "core/exec/kernel_registry.h"
#include "core/exec/kernels/kernels.h"
#include "core/exec/kernels/util/dispatch.h"
#include "core/exec/kernels/util/tensor_ops.h"

namespace irlens::core::exec {

namespace {

Tensor self0(KernelContext& ctx) {
    if (auto v = ctx.find("self", 0); v && v->isTensor()) return v->tensor;
    if (auto v = ctx.find("a", 0); v && v->isTensor()) return v->tensor;
    if (auto v = ctx.find("input", 0); v && v->isTensor()) return v->tensor;
    return ctx.tensor("self", 0);
}

void viewKernel(KernelContext& ctx) {
    Tensor x = self0(ctx);
    auto size = ctx.optInts("size", 1);
    if (!size) size = ctx.optInts("shape", 1);
    if (!size) kernelFail("argument 'size' is missing");
    ctx.setOutput(0, reshape(ctx, x, *size));
}

// prims.reshape always copies.
void reshapeCopyKernel(KernelContext& ctx) {
    Tensor x = self0(ctx);
    Shape s = inferSize(ctx.ints("shape", 1), x.numel());
    Tensor c = ctx.alloc(x.dtype(), x.sizes());
    copyInto(c, x, ctx.threads());
    ctx.setOutput(0, c.asStrided(s, contiguousStrides(s), 0));
}

void tKernel(KernelContext& ctx) {
    Tensor x = self0(ctx);
    if (x.dim() > 2) kernelFail("t() expects a tensor with <= 2 dimensions, got " + x.shapeString());
    ctx.setOutput(0, x.dim() < 2 ? x : transpose(x, 0, 1));
}

void transposeKernel(KernelContext& ctx) {
    Tensor x = self0(ctx);
    ctx.setOutput(0, transpose(x, ctx.intArg("dim0", 1), ctx.intArg("dim1", 2)));
}

void permuteKernel(KernelContext& ctx) {
    Tensor x = self0(ctx);
    auto dims = ctx.optInts("dims", 1);
    if (!dims) dims = ctx.optInts("permutation", 1);
    if (!dims) kernelFail("argument 'dims' is missing");
    ctx.setOutput(0, permute(x, *dims));
}

void expandKernel(KernelContext& ctx) {
    Tensor x = self0(ctx);
    Shape size = ctx.ints("size", 1);
    if (size.size() < static_cast<size_t>(x.dim()))
        kernelFail("expand: the number of sizes (" + std::to_string(size.size()) + ") is smaller than the rank of " + x.shapeString());
    size_t lead = size.size() - static_cast<size_t>(x.dim());
    for (size_t k = 0; k < size.size(); ++k)
        if (size[k] == -1) {
            if (k < lead) kernelFail("expand: -1 is not allowed in a leading, new dimension");
            size[k] = x.size(static_cast<int64_t>(k - lead));
        }
    ctx.setOutput(0, expandTo(x, size));
}

// prims.broadcast_in_dim(a, shape, broadcast_dimensions)
void broadcastInDimKernel(KernelContext& ctx) {
    Tensor x = self0(ctx);
    Shape shape = ctx.ints("shape", 1);
    auto bdims = ctx.ints("broadcast_dimensions", 2);
    if (bdims.size() != static_cast<size_t>(x.dim())) kernelFail("broadcast_in_dim: broadcast_dimensions must have one entry per input dim");
    Shape st(shape.size(), 0);
    for (size_t k = 0; k < bdims.size(); ++k) {
        int64_t d = bdims[k];
        if (d < 0 || d >= static_cast<int64_t>(shape.size())) kernelFail("broadcast_in_dim: dimension out of range");
        int64_t s = x.size(static_cast<int64_t>(k));
        if (s != 1 && s != shape[static_cast<size_t>(d)]) kernelFail("broadcast_in_dim: " + x.shapeString() + " does not fit " + shapeToString(shape));
        st[static_cast<size_t>(d)] = s == 1 ? 0 : x.stride(static_cast<int64_t>(k));
    }
    ctx.setOutput(0, x.asStrided(shape, st, x.storageOffset()));
}

void unsqueezeKernel(KernelContext& ctx) {
    Tensor x = self0(ctx);
    int64_t d = wrapDim(ctx.intArg("dim", 1), x.dim() + 1);
    Shape sz = x.sizes(), st = x.strides();
    int64_t newStride = d < x.dim() ? x.stride(d) * x.size(d) : 1;
    sz.insert(sz.begin() + d, 1);
    st.insert(st.begin() + d, newStride);
    ctx.setOutput(0, x.asStrided(sz, st, x.storageOffset()));
}

Tensor squeezeDims(const Tensor& x, const std::vector<int64_t>& dims, bool all) {
    std::vector<bool> drop(static_cast<size_t>(x.dim()), false);
    if (all) {
        for (int64_t d = 0; d < x.dim(); ++d) drop[static_cast<size_t>(d)] = x.size(d) == 1;
    } else {
        for (auto d : dims) {
            int64_t w = wrapDim(d, x.dim());
            if (x.dim() > 0 && x.size(w) == 1) drop[static_cast<size_t>(w)] = true;
        }
    }
    Shape sz, st;
    for (int64_t d = 0; d < x.dim(); ++d)
        if (!drop[static_cast<size_t>(d)]) { sz.push_back(x.size(d)); st.push_back(x.stride(d)); }
    return x.asStrided(sz, st, x.storageOffset());
}

void squeezeKernel(KernelContext& ctx) {
    Tensor x = self0(ctx);
    auto dims = ctx.optInts("dim", 1);
    if (!dims) dims = ctx.optInts("dimensions", 1);
    ctx.setOutput(0, dims ? squeezeDims(x, *dims, false) : squeezeDims(x, {}, true));
}

void flattenKernel(KernelContext& ctx) {
    Tensor x = self0(ctx);
    if (x.dim() == 0) { ctx.setOutput(0, reshape(ctx, x, {1})); return; }
    int64_t s = wrapDim(ctx.intArg("start_dim", 1, 0), x.dim()), e = wrapDim(ctx.intArg("end_dim", 2, -1), x.dim());
    if (s > e) kernelFail("flatten: start_dim cannot come after end_dim");
    Shape sz;
    for (int64_t d = 0; d < s; ++d) sz.push_back(x.size(d));
    int64_t m = 1;
    for (int64_t d = s; d <= e; ++d) m *= x.size(d);
    sz.push_back(m);
    for (int64_t d = e + 1; d < x.dim(); ++d) sz.push_back(x.size(d));
    ctx.setOutput(0, reshape(ctx, x, sz));
}

// prims.collapse_view / collapse(a, start, end): dims start..end (inclusive) merged into one; the view, or (Copy) a new
// contiguous tensor, as later PyTorch's collapse fills a new_empty through view_as.
template <bool Copy> void collapseKernel(KernelContext& ctx) {
    Tensor x = self0(ctx);
    int64_t s = ctx.intArg("start", 1), e = ctx.intArg("end", 2);
    if (s < 0 || e < s || e >= std::max<int64_t>(1, x.dim())) kernelFail("collapse: invalid range");
    Shape sz;
    for (int64_t d = 0; d < s; ++d) sz.push_back(x.size(d));
    int64_t m = 1;
    for (int64_t d = s; d <= e && d < x.dim(); ++d) m *= x.size(d);
    sz.push_back(m);
    for (int64_t d = e + 1; d < x.dim(); ++d) sz.push_back(x.size(d));
    if constexpr (!Copy) {
        ctx.setOutput(0, reshape(ctx, x, sz));
    } else {
        Tensor out = ctx.alloc(x.dtype(), sz);
        copyInto(out, reshape(ctx, x, sz), ctx.threads());
        ctx.setOutput(0, out);
    }
}

void unflattenKernel(KernelContext& ctx) {
    Tensor x = self0(ctx);
    int64_t d = wrapDim(ctx.intArg("dim", 1), x.dim());
    Shape sizes = inferSize(ctx.ints("sizes", 2), x.size(d));
    Shape sz;
    for (int64_t k = 0; k < d; ++k) sz.push_back(x.size(k));
    sz.insert(sz.end(), sizes.begin(), sizes.end());
    for (int64_t k = d + 1; k < x.dim(); ++k) sz.push_back(x.size(k));
    ctx.setOutput(0, reshape(ctx, x, sz));
}

// prims.split_dim(a, dim, outer_length)
void splitDimKernel(KernelContext& ctx) {
    Tensor x = self0(ctx);
    int64_t d = wrapDim(ctx.intArg("dim", 1), x.dim());
    int64_t outer = ctx.intArg("outer_length", 2);
    if (outer <= 0 || x.size(d) % outer) kernelFail("split_dim: " + std::to_string(outer) + " does not divide dimension " + std::to_string(d));
    Shape sz;
    for (int64_t k = 0; k < d; ++k) sz.push_back(x.size(k));
    sz.push_back(outer);
    sz.push_back(x.size(d) / outer);
    for (int64_t k = d + 1; k < x.dim(); ++k) sz.push_back(x.size(k));
    ctx.setOutput(0, reshape(ctx, x, sz));
}

void selectKernel(KernelContext& ctx) {
    Tensor x = self0(ctx);
    if (x.dim() == 0) kernelFail("select() cannot be applied to a 0-dim tensor");
    int64_t d = wrapDim(ctx.intArg("dim", 1), x.dim());
    int64_t i = ctx.intArg("index", 2);
    int64_t n = x.size(d);
    if (i < -n || i >= n) kernelFail("select: index " + std::to_string(i) + " out of range for dimension " + std::to_string(d) + " of size " + std::to_string(n));
    if (i < 0) i += n;
    Shape sz = x.sizes(), st = x.strides();
    sz.erase(sz.begin() + d);
    st.erase(st.begin() + d);
    ctx.setOutput(0, x.asStrided(sz, st, x.storageOffset() + i * x.stride(d)));
}

Tensor sliceView(const Tensor& x, int64_t d, int64_t start, int64_t end, int64_t step) {
    if (step <= 0) kernelFail("slice step must be positive");
    int64_t n = x.size(d);
    if (start < 0) start += n;
    if (end < 0) end += n;
    start = std::clamp<int64_t>(start, 0, n);
    end = std::clamp<int64_t>(end, start, n);
    Shape sz = x.sizes(), st = x.strides();
    sz[static_cast<size_t>(d)] = (end - start + step - 1) / step;
    st[static_cast<size_t>(d)] *= step;
    return x.asStrided(sz, st, x.storageOffset() + start * x.stride(d));
}

void sliceKernel(KernelContext& ctx) {
    Tensor x = self0(ctx);
    int64_t d = wrapDim(ctx.intArg("dim", 1, 0), x.dim());
    int64_t start = ctx.intArg("start", 2, 0);
    int64_t end = ctx.intArg("end", 3, INT64_MAX);
    ctx.setOutput(0, sliceView(x, d, start, end, ctx.intArg("step", 4, 1)));
}

void narrowKernel(KernelContext& ctx) {
    Tensor x = self0(ctx);
    int64_t d = wrapDim(ctx.intArg("dim", 1), x.dim());
    int64_t start = ctx.intArg("start", 2), len = ctx.intArg("length", 3);
    if (start < 0) start += x.size(d);
    if (start < 0 || len < 0 || start + len > x.size(d)) kernelFail("narrow: range out of bounds");
    ctx.setOutput(0, sliceView(x, d, start, start + len, 1));
}

// prims.slice_in_dim(a, start_index, limit_index, stride=1, axis=0)
void sliceInDimKernel(KernelContext& ctx) {
    Tensor x = self0(ctx);
    int64_t d = wrapDim(ctx.intArg("axis", 4, 0), x.dim());
    ctx.setOutput(0, sliceView(x, d, ctx.intArg("start_index", 1), ctx.intArg("limit_index", 2), ctx.intArg("stride", 3, 1)));
}

// prims.slice(a, start_indices, limit_indices, strides=None)
void primsSliceKernel(KernelContext& ctx) {
    Tensor x = self0(ctx);
    auto start = ctx.ints("start_indices", 1), limit = ctx.ints("limit_indices", 2);
    auto strides = ctx.ints("strides", 3, std::vector<int64_t>(static_cast<size_t>(x.dim()), 1));
    if (start.size() != static_cast<size_t>(x.dim()) || limit.size() != start.size() || strides.size() != start.size())
        kernelFail("prims.slice: one start, limit and stride per dimension expected");
    Tensor v = x;
    for (int64_t d = 0; d < x.dim(); ++d)
        v = sliceView(v, d, start[static_cast<size_t>(d)], limit[static_cast<size_t>(d)], strides[static_cast<size_t>(d)]);
    ctx.setOutput(0, v);
}

void splitWithSizes(KernelContext& ctx, const Tensor& x, int64_t d, const std::vector<int64_t>& sizes) {
    std::vector<Tensor> parts;
    int64_t off = 0;
    for (auto s : sizes) {
        if (s < 0) kernelFail("split: negative size");
        parts.push_back(sliceView(x, d, off, off + s, 1));
        off += s;
    }
    if (off != x.size(d))
        kernelFail("split_with_sizes: sizes sum to " + std::to_string(off) + " but dimension " + std::to_string(d) + " has " + std::to_string(x.size(d)));
    ctx.setOutput(0, EValue::fromTensors(std::move(parts)));
}

void splitKernel(KernelContext& ctx) {
    Tensor x = self0(ctx);
    int64_t d = wrapDim(ctx.intArg("dim", 2, 0), x.dim());
    const EValue* sizeArg = ctx.find("split_size", 1);
    if (!sizeArg) sizeArg = ctx.find("split_sizes", 1);
    if (sizeArg && sizeArg->kind == EValue::Kind::IntList) { splitWithSizes(ctx, x, d, sizeArg->ints); return; }
    int64_t s = ctx.intArg("split_size", 1);
    if (s <= 0 && x.size(d) > 0) kernelFail("split: split_size must be positive");
    std::vector<int64_t> sizes;
    for (int64_t off = 0; off < x.size(d); off += s) sizes.push_back(std::min(s, x.size(d) - off));
    if (sizes.empty()) sizes.push_back(0);
    splitWithSizes(ctx, x, d, sizes);
}

void splitWithSizesKernel(KernelContext& ctx) {
    Tensor x = self0(ctx);
    splitWithSizes(ctx, x, wrapDim(ctx.intArg("dim", 2, 0), x.dim()), ctx.ints("split_sizes", 1));
}

void chunkKernel(KernelContext& ctx) {
    Tensor x = self0(ctx);
    int64_t chunks = ctx.intArg("chunks", 1);
    if (chunks <= 0) kernelFail("chunk: chunks must be positive");
    int64_t d = wrapDim(ctx.intArg("dim", 2, 0), x.dim());
    int64_t s = (x.size(d) + chunks - 1) / chunks;
    std::vector<int64_t> sizes;
    for (int64_t off = 0; off < x.size(d); off += s) sizes.push_back(std::min(s, x.size(d) - off));
    splitWithSizes(ctx, x, d, sizes);
}

void unbindKernel(KernelContext& ctx) {
    Tensor x = self0(ctx);
    int64_t d = wrapDim(ctx.intArg("dim", 1, 0), x.dim());
    std::vector<Tensor> parts;
    Shape sz = x.sizes(), st = x.strides();
    sz.erase(sz.begin() + d);
    st.erase(st.begin() + d);
    for (int64_t i = 0; i < x.size(d); ++i) parts.push_back(x.asStrided(sz, st, x.storageOffset() + i * x.stride(d)));
    ctx.setOutput(0, EValue::fromTensors(std::move(parts)));
}

void aliasKernel(KernelContext& ctx) { ctx.setOutput(0, self0(ctx)); }

// alias_copy / detach_copy: a contiguous copy (no memory_format argument).
void contiguousCopyKernel(KernelContext& ctx) {
    Tensor x = self0(ctx);
    Tensor out = ctx.alloc(x.dtype(), x.sizes());
    copyInto(out, x, ctx.threads());
    ctx.setOutput(0, out);
}

void contiguousKernel(KernelContext& ctx) { ctx.setOutput(0, contiguous(ctx, self0(ctx))); }

// A fresh channels-last tensor (NCHW as NHWC in memory, NCDHW as NDHWC): a contiguous buffer in the
// physical order, permuted back to the logical one.
Tensor allocChannelsLast(KernelContext& ctx, ScalarType dt, const Shape& sizes) {
    const size_t n = sizes.size();
    Shape phys{sizes[0]};
    for (size_t k = 2; k < n; ++k) phys.push_back(sizes[k]);
    phys.push_back(sizes[1]);
    std::vector<int64_t> back{0, static_cast<int64_t>(n) - 1};
    for (size_t k = 2; k < n; ++k) back.push_back(static_cast<int64_t>(k) - 1);
    return permute(ctx.alloc(dt, phys), back);
}

// _to_copy / to.dtype / convert_element_type: always a new tensor, laid out like the input unless
// memory_format asks for contiguous (PyTorch's preserve_format default) or channels-last (4-D
// channels_last, 5-D channels_last_3d).
// A copy of x in dtype dt laid out as the node's memory_format says (absent: preserve, x's own layout
// when dense, as empty_like gives it).
Tensor formattedCopy(KernelContext& ctx, const Tensor& x, ScalarType dt) {
    auto format = ctx.optInt("memory_format", -1);
    bool preserve = !format || *format == static_cast<int64_t>(MemoryFormat::Preserve);
    bool cl = format && ((*format == static_cast<int64_t>(MemoryFormat::ChannelsLast) && x.dim() == 4) ||
                         (*format == static_cast<int64_t>(MemoryFormat::ChannelsLast3d) && x.dim() == 5));
    Tensor out = preserve ? allocLike(ctx, dt, x.sizes(), {&x}) : cl ? allocChannelsLast(ctx, dt, x.sizes()) : ctx.alloc(dt, x.sizes());
    copyInto(out, x, ctx.threads());
    return out;
}

void toCopyKernel(KernelContext& ctx) {
    Tensor x = self0(ctx);
    ScalarType dt = x.dtype();
    if (auto d = ctx.dtypeArg("dtype", 1)) dt = *d;
    ctx.setOutput(0, formattedCopy(ctx, x, dt));
}

// clone / lift_fresh_copy / prims.clone: memory_format as _to_copy reads it.
void cloneKernel(KernelContext& ctx) {
    Tensor x = self0(ctx);
    ctx.setOutput(0, formattedCopy(ctx, x, x.dtype()));
}

// to.dtype may return self when nothing changes; type_as too.
void toDtypeKernel(KernelContext& ctx) {
    Tensor x = self0(ctx);
    ScalarType dt = x.dtype();
    if (auto d = ctx.dtypeArg("dtype", 1)) dt = *d;
    bool copy = ctx.boolArg("copy", 3, false);
    if (dt == x.dtype() && !copy) { ctx.setOutput(0, x); return; }
    Tensor out = ctx.alloc(dt, x.sizes());
    copyInto(out, x, ctx.threads());
    ctx.setOutput(0, out);
}

void asStridedKernel(KernelContext& ctx) {
    Tensor x = self0(ctx);
    Shape sz = ctx.ints("size", 1), st = ctx.ints("stride", 2);
    if (sz.size() != st.size()) kernelFail("as_strided: size and stride differ in length");
    int64_t off = ctx.intArg("storage_offset", 3, x.storageOffset());
    Tensor v = x.asStrided(sz, st, off);
    if (!v.fitsStorage()) kernelFail("as_strided: the view " + shapeToString(sz) + " with strides " + shapeToString(st) + " leaves the storage");
    ctx.setOutput(0, v);
}

void diagonalKernel(KernelContext& ctx) {
    Tensor x = self0(ctx);
    int64_t offset = ctx.intArg("offset", 1, 0);
    int64_t d1 = wrapDim(ctx.intArg("dim1", 2, 0), x.dim()), d2 = wrapDim(ctx.intArg("dim2", 3, 1), x.dim());
    if (d1 == d2) kernelFail("diagonal: dim1 and dim2 must differ");
    int64_t len, start = x.storageOffset();
    if (offset >= 0) { len = std::max<int64_t>(0, std::min(x.size(d1), x.size(d2) - offset)); start += offset * x.stride(d2); }
    else { len = std::max<int64_t>(0, std::min(x.size(d1) + offset, x.size(d2))); start -= offset * x.stride(d1); }
    Shape sz, st;
    for (int64_t d = 0; d < x.dim(); ++d)
        if (d != d1 && d != d2) { sz.push_back(x.size(d)); st.push_back(x.stride(d)); }
    sz.push_back(len);
    st.push_back(x.stride(d1) + x.stride(d2));
    ctx.setOutput(0, x.asStrided(sz, st, len ? start : x.storageOffset()));
}

} // namespace

void registerViewKernels(KernelRegistry& r) {
    r.add({"aten::view.default", "aten::_unsafe_view.default", "aten::reshape.default", "aten::view_copy.default"}, &viewKernel);
    r.add({"prims::reshape.default"}, &reshapeCopyKernel);
    r.add({"aten::t.default", "aten::numpy_T.default"}, &tKernel);
    r.add({"aten::transpose.int", "aten::swapaxes.default"}, &transposeKernel);
    r.add({"aten::permute.default", "aten::permute_copy.default", "prims::transpose.default"}, &permuteKernel);
    r.add({"aten::expand.default", "aten::expand_copy.default"}, &expandKernel);
    r.add({"prims::broadcast_in_dim.default"}, &broadcastInDimKernel);
    r.add({"aten::unsqueeze.default", "aten::unsqueeze_copy.default"}, &unsqueezeKernel);
    r.add({"aten::squeeze.default", "aten::squeeze.dim", "aten::squeeze.dims", "prims::squeeze.default"}, &squeezeKernel);
    r.add({"aten::flatten.using_ints"}, &flattenKernel);
    r.add({"prims::collapse_view.default"}, &collapseKernel<false>);
    r.add({"prims::collapse.default"}, &collapseKernel<true>);
    r.add({"aten::unflatten.int"}, &unflattenKernel);
    r.add({"prims::split_dim.default"}, &splitDimKernel);
    r.add({"aten::select.int", "aten::select_copy.int"}, &selectKernel);
    r.add({"aten::slice.Tensor", "aten::slice_copy.Tensor"}, &sliceKernel);
    r.add({"aten::narrow.default"}, &narrowKernel);
    r.add({"prims::slice_in_dim.default"}, &sliceInDimKernel);
    r.add({"prims::slice.default"}, &primsSliceKernel);
    r.add({"aten::split.Tensor", "aten::split.sizes", "aten::split_copy.Tensor"}, &splitKernel);
    r.add({"aten::split_with_sizes.default", "aten::split_with_sizes_copy.default"}, &splitWithSizesKernel);
    r.add({"aten::chunk.default"}, &chunkKernel);
    r.add({"aten::unbind.int"}, &unbindKernel);
    r.add({"aten::alias.default", "aten::detach.default", "aten::detach_.default", "prims::view_of.default",
           "aten::dropout.default", "aten::feature_dropout.default", "aten::alpha_dropout.default", "aten::lift.default",
           "aten::_assert_tensor_metadata.default", "prims::device_put.default"}, &aliasKernel);
    r.add({"aten::clone.default", "aten::lift_fresh_copy.default", "prims::clone.default"}, &cloneKernel);
    r.add({"aten::alias_copy.default", "aten::detach_copy.default"}, &contiguousCopyKernel);
    r.add({"aten::contiguous.default"}, &contiguousKernel);
    r.add({"aten::_to_copy.default", "prims::convert_element_type.default"}, &toCopyKernel);
    r.add({"aten::to.dtype", "aten::to.dtype_layout", "aten::to.device"}, &toDtypeKernel);
    r.add({"aten::as_strided.default", "aten::as_strided_copy.default", "prims::as_strided.default"}, &asStridedKernel);
    r.add({"aten::diagonal.default", "aten::diagonal_copy.default"}, &diagonalKernel);
}

} // namespace irlens::core::exec
