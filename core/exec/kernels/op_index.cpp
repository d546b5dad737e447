// Gathering and assembling: embedding, index_select, gather, index.Tensor, cat/stack, padding, flip,
// repeat, scatter (src/value/add), slice_scatter/select_scatter, nonzero, sort/topk.

#include "core/exec/kernel_registry.h"
#include "core/exec/kernels/kernels.h"
#include "core/exec/kernels/util/dispatch.h"
#include "core/exec/kernels/util/loops.h"
#include "core/exec/kernels/util/tensor_ops.h"
#include "core/exec/kernels/util/reduced_float.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

namespace irlens::core::exec {

namespace {

int64_t checkedIndex(int64_t i, int64_t n, const char* what) {
    if (i < -n || i >= n) kernelFail(std::string(what) + ": index " + std::to_string(i) + " is out of bounds for size " + std::to_string(n));
    return i < 0 ? i + n : i;
}

std::vector<int64_t> indexValues(KernelContext& ctx, const Tensor& idx) {
    if (!isIntegralType(idx.dtype(), false)) kernelFail("indices must be an integer tensor, got " + dtypeName(idx.dtype()));
    Tensor c = contiguous(ctx, toDtype(ctx, idx, ScalarType::Int64));
    return std::vector<int64_t>(c.data<int64_t>(), c.data<int64_t>() + c.numel());
}

// Rows of a [R, D] contiguous table picked by index: out[i, :] = table[idx[i], :].
void embeddingKernel(KernelContext& ctx) {
    Tensor w = contiguous(ctx, ctx.tensor("weight", 0));
    Tensor idx = ctx.tensor("indices", 1);
    if (w.dim() != 2) kernelFail("embedding: weight must be 2-D, got " + w.shapeString());
    auto ids = indexValues(ctx, idx);
    int64_t R = w.size(0), D = w.size(1), es = w.itemSize();
    Shape os = idx.sizes();
    os.push_back(D);
    Tensor out = ctx.alloc(w.dtype(), os);
    for (size_t i = 0; i < ids.size(); ++i) {
        if (ids[i] < 0 || ids[i] >= R) kernelFail("embedding: index " + std::to_string(ids[i]) + " is out of range for " + std::to_string(R) + " rows");
        std::memcpy(out.raw() + static_cast<int64_t>(i) * D * es, w.raw() + ids[i] * D * es, static_cast<size_t>(D * es));
    }
    ctx.setOutput(0, out);
}

void indexSelectKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("self", 0);
    int64_t d = wrapDim(ctx.intArg("dim", 1), x.dim());
    auto ids = indexValues(ctx, ctx.tensor("index", 2));
    Shape os = x.sizes();
    if (x.dim()) os[static_cast<size_t>(d)] = static_cast<int64_t>(ids.size());
    Tensor out = ctx.alloc(x.dtype(), os);
    for (size_t i = 0; i < ids.size(); ++i) {
        int64_t j = checkedIndex(ids[i], x.dim() ? x.size(d) : 1, "index_select");
        Shape sz = x.sizes(), st = x.strides();
        if (!x.dim()) { copyInto(out, x, 1); break; }
        sz[static_cast<size_t>(d)] = 1;
        Tensor src = x.asStrided(sz, st, x.storageOffset() + j * x.stride(d));
        Shape ost = out.strides();
        Tensor dst = out.asStrided(sz, ost, static_cast<int64_t>(i) * out.stride(d));
        copyInto(dst, src, 1);
    }
    ctx.setOutput(0, out);
}

// out[i][j][k] = self[index[i][j][k]][j][k] (dim 0), etc.
void gatherKernel(KernelContext& ctx) {
    // PyTorch treats a 0-dim input or index as 1-dim of size 1 (ensure_nonempty_dim).
    Tensor x = ctx.tensor("self", 0);
    if (!x.dim()) x = x.asStrided({1}, {1}, x.storageOffset());
    int64_t d = wrapDim(ctx.intArg("dim", 1), x.dim());
    Tensor idx0 = contiguous(ctx, toDtype(ctx, ctx.tensor("index", 2), ScalarType::Int64));
    Tensor idx = idx0.dim() ? idx0 : idx0.asStrided({1}, {1}, idx0.storageOffset());
    if (idx.dim() != x.dim()) kernelFail("gather: index and input must have the same rank");
    Tensor out = ctx.alloc(x.dtype(), idx0.sizes());
    const int64_t n = idx.numel(), es = x.itemSize();
    Shape pos(static_cast<size_t>(idx.dim()), 0);
    for (int64_t e = 0; e < n; ++e) {
        int64_t off = x.storageOffset();
        for (int64_t k = 0; k < idx.dim(); ++k) {
            int64_t p = k == d ? checkedIndex(idx.data<int64_t>()[e], x.size(k), "gather") : pos[static_cast<size_t>(k)];
            if (k != d && p >= x.size(k)) kernelFail("gather: index tensor is larger than the input outside dim");
            off += p * x.stride(k);
        }
        std::memcpy(out.raw() + e * es, x.buffer()->data() + off * es, static_cast<size_t>(es));
        for (int64_t k = idx.dim(); k-- > 0;) {
            if (++pos[static_cast<size_t>(k)] < idx.size(k)) break;
            pos[static_cast<size_t>(k)] = 0;
        }
    }
    ctx.setOutput(0, out);
}

// scatter.src / scatter.value / scatter_add: a copy of self with values written at index along dim.
template <bool Add> void scatterKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("self", 0);
    int64_t d = wrapDim(ctx.intArg("dim", 1), x.dim());
    Tensor idx = contiguous(ctx, toDtype(ctx, ctx.tensor("index", 2), ScalarType::Int64));
    auto src = ctx.optTensor("src", 3);
    double value = src ? 0.0 : ctx.scalar("value", 3).value;
    Tensor out = ctx.alloc(x.dtype(), x.sizes());
    copyInto(out, x, ctx.threads());
    Tensor s = src ? toDtype(ctx, *src, x.dtype()) : Tensor();
    const int64_t n = idx.numel();
    Shape pos(static_cast<size_t>(idx.dim()), 0);
    dispatchAll(x.dtype(), [&]<class T>() {
        for (int64_t e = 0; e < n; ++e) {
            int64_t off = 0, soff = s.defined() ? s.storageOffset() : 0;
            for (int64_t k = 0; k < idx.dim(); ++k) {
                int64_t p = k == d ? checkedIndex(idx.data<int64_t>()[e], x.size(k), "scatter") : pos[static_cast<size_t>(k)];
                off += p * out.stride(k);
                if (s.defined()) soff += pos[static_cast<size_t>(k)] * s.stride(k);
            }
            T v = s.defined() ? reinterpret_cast<T*>(s.buffer()->data())[soff] : scalarAs<T>(value);
            T& dst = out.data<T>()[off];
            if constexpr (Add && std::is_same_v<T, bool>) dst = dst || v;  // PyTorch adds bools as logical or
            else if constexpr (Add) dst = static_cast<T>(dst + v);
            else dst = v;
            for (int64_t k = idx.dim(); k-- > 0;) {
                if (++pos[static_cast<size_t>(k)] < idx.size(k)) break;
                pos[static_cast<size_t>(k)] = 0;
            }
        }
    });
    ctx.setOutput(0, out);
}

// Index tensors with one entry per indexed dim: a boolean (or uint8) mask over m dims becomes the m
// integer index tensors of its true positions (mask.nonzero() split by column), as torch does.
std::vector<Tensor> expandMaskIndices(KernelContext& ctx, const Tensor& x, const std::vector<Tensor>& list, const char* op) {
    std::vector<Tensor> out;
    for (const auto& t : list) {
        if (!t.defined() || (t.dtype() != ScalarType::Bool && t.dtype() != ScalarType::UInt8)) {
            out.push_back(t);
            continue;
        }
        const int64_t first = static_cast<int64_t>(out.size());
        if (first + t.dim() > x.dim()) kernelFail(std::string(op) + ": a mask of rank " + std::to_string(t.dim()) + " at dim " + std::to_string(first) + " does not fit " + x.shapeString());
        for (int64_t k = 0; k < t.dim(); ++k)
            if (t.size(k) != x.size(first + k))
                kernelFail(std::string(op) + ": the shape of the mask " + shapeToString(t.sizes()) + " at index " + std::to_string(k) +
                           " does not match the shape of the indexed tensor " + shapeToString(x.sizes()));
        Tensor m = contiguous(ctx, toDtype(ctx, t, ScalarType::Bool));
        std::vector<int64_t> hits;
        for (int64_t i = 0; i < m.numel(); ++i)
            if (m.data<bool>()[i]) hits.push_back(i);
        const int64_t nh = static_cast<int64_t>(hits.size());
        for (int64_t k = 0; k < t.dim(); ++k) {
            Tensor col = ctx.alloc(ScalarType::Int64, {nh});
            int64_t inner = 1;
            for (int64_t q = k + 1; q < t.dim(); ++q) inner *= t.size(q);
            for (int64_t h = 0; h < nh; ++h) col.data<int64_t>()[h] = (hits[static_cast<size_t>(h)] / inner) % t.size(k);
            out.push_back(col);
        }
        if (t.dim() == 0) { // a 0-dim mask adds a dim of size 1 (true) or 0 (false): not supported here
            kernelFail(std::string(op) + ": a 0-dim boolean index is not supported");
        }
    }
    if (static_cast<int64_t>(out.size()) > x.dim()) kernelFail(std::string(op) + ": too many indices for a tensor of rank " + std::to_string(x.dim()));
    return out;
}

// index.Tensor(self, indices: Tensor?[]): advanced indexing; index tensors broadcast together; when
// they are adjacent the result dims replace them in place, else they go first (numpy rules).
// Where each element of x[indices] lives in x (element offsets from x's storage start), in the
// result's C order. Index tensors broadcast together; when the indexed dims are adjacent the
// result dims replace them in place, else they go first (numpy rules). `plain` when no index is given.
struct IndexPlan {
    Shape outShape;
    std::vector<int64_t> offsets;
    bool plain = false;
};

IndexPlan planIndex(KernelContext& ctx, const Tensor& x, const std::vector<Tensor>& given, const char* op) {
    auto list = expandMaskIndices(ctx, x, given, op);
    IndexPlan plan;
    std::vector<int64_t> used, rest;
    Shape bshape;
    std::vector<Tensor> expanded;
    for (size_t k = 0; k < list.size(); ++k) {
        if (!list[k].defined()) continue;
        if (!isIntegralType(list[k].dtype(), false)) kernelFail(std::string(op) + ": indices must be integer or boolean tensors, got " + dtypeName(list[k].dtype()));
        bshape = used.empty() ? list[k].sizes() : broadcastShapes(bshape, list[k].sizes());
        used.push_back(static_cast<int64_t>(k));
    }
    if (used.empty()) { plan.plain = true; return plan; }
    for (int64_t k : used) expanded.push_back(contiguous(ctx, expandTo(toDtype(ctx, list[static_cast<size_t>(k)], ScalarType::Int64), bshape)));
    for (int64_t k = 0; k < x.dim(); ++k)
        if (std::find(used.begin(), used.end(), k) == used.end()) rest.push_back(k);
    const bool adjacent = used.back() - used.front() + 1 == static_cast<int64_t>(used.size());
    // rest dims before the indexed block (adjacent case only) and after it
    const size_t nLead = adjacent ? static_cast<size_t>(used.front()) : 0;
    Shape lead, trail;
    for (size_t q = 0; q < rest.size(); ++q) (q < nLead ? lead : trail).push_back(x.size(rest[q]));
    plan.outShape = lead;
    plan.outShape.insert(plan.outShape.end(), bshape.begin(), bshape.end());
    plan.outShape.insert(plan.outShape.end(), trail.begin(), trail.end());
    const int64_t nb = shapeNumel(bshape), nLeadEl = shapeNumel(lead), nTrail = shapeNumel(trail);
    plan.offsets.resize(static_cast<size_t>(nLeadEl * nb * nTrail));
    std::vector<int64_t> restOff(static_cast<size_t>(nLeadEl * nTrail));
    for (int64_t r = 0; r < nLeadEl * nTrail; ++r) {
        int64_t off = 0, rem = r;
        for (size_t q = rest.size(); q-- > 0;) {
            off += (rem % x.size(rest[q])) * x.stride(rest[q]);
            rem /= x.size(rest[q]);
        }
        restOff[static_cast<size_t>(r)] = off;
    }
    for (int64_t b = 0; b < nb; ++b) {
        int64_t base = x.storageOffset();
        for (size_t u = 0; u < used.size(); ++u)
            base += checkedIndex(expanded[u].data<int64_t>()[b], x.size(used[u]), op) * x.stride(used[u]);
        for (int64_t l = 0; l < nLeadEl; ++l)
            for (int64_t t = 0; t < nTrail; ++t)
                plan.offsets[static_cast<size_t>((l * nb + b) * nTrail + t)] = base + restOff[static_cast<size_t>(l * nTrail + t)];
    }
    return plan;
}

void indexKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("self", 0);
    IndexPlan plan = planIndex(ctx, x, ctx.tensors("indices", 1), "index");
    if (plan.plain) { ctx.setOutput(0, x); return; }
    Tensor out = ctx.alloc(x.dtype(), plan.outShape);
    const int64_t es = x.itemSize();
    const std::byte* src = x.buffer()->data();
    for (size_t e = 0; e < plan.offsets.size(); ++e)
        std::memcpy(out.raw() + static_cast<int64_t>(e) * es, src + plan.offsets[e] * es, static_cast<size_t>(es));
    ctx.setOutput(0, out);
}

// index_put(self, indices, values, accumulate=False): a copy of self with values (broadcast to the
// shape of self[indices]) written, or added, at the indexed places; repeated indices accumulate.
void indexPutKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("self", 0);
    Tensor values = ctx.tensor("values", 2);
    const bool accumulate = ctx.boolArg("accumulate", 3, false);
    Tensor out = ctx.alloc(x.dtype(), x.sizes());
    copyInto(out, x, ctx.threads());
    IndexPlan plan = planIndex(ctx, out, ctx.tensors("indices", 1), "index_put");
    if (plan.plain) { // no index: every element, in order (out is a fresh contiguous tensor)
        plan.outShape = out.sizes();
        plan.offsets.resize(static_cast<size_t>(out.numel()));
        std::iota(plan.offsets.begin(), plan.offsets.end(), int64_t(0));
    }
    if (broadcastShapes(values.sizes(), plan.outShape) != plan.outShape)
        kernelFail("index_put: values " + values.shapeString() + " do not broadcast to the indexed shape " + shapeToString(plan.outShape));
    Tensor v = contiguous(ctx, expandTo(toDtype(ctx, values, x.dtype()), plan.outShape));
    dispatchAll(x.dtype(), [&]<class T>() {
        T* o = reinterpret_cast<T*>(out.buffer()->data());
        const T* vs = v.data<T>();
        for (size_t e = 0; e < plan.offsets.size(); ++e) {
            if constexpr (!std::is_same_v<T, bool>) {
                if (accumulate) { o[plan.offsets[e]] = static_cast<T>(o[plan.offsets[e]] + vs[e]); continue; }
            } else {
                if (accumulate) { o[plan.offsets[e]] = o[plan.offsets[e]] || vs[e]; continue; }
            }
            o[plan.offsets[e]] = vs[e];
        }
    });
    ctx.setOutput(0, out);
}

void catImpl(KernelContext& ctx, const std::vector<Tensor>& inputs, int64_t dimArg) {
    std::vector<Tensor> parts;
    for (const auto& t : inputs)
        if (t.defined() && !(t.dim() == 1 && t.size(0) == 0)) parts.push_back(t); // legacy: 1-D empty tensors are skipped
    if (parts.empty()) {
        ScalarType dt = inputs.empty() || !inputs[0].defined() ? ScalarType::Float32 : inputs[0].dtype();
        ctx.setOutput(0, ctx.alloc(dt, {0}));
        return;
    }
    int64_t d = wrapDim(dimArg, parts[0].dim());
    ScalarType dt = parts[0].dtype();
    for (const auto& t : parts) dt = promoteTypes(dt, t.dtype());
    Shape os = parts[0].sizes();
    int64_t total = 0;
    for (const auto& t : parts) {
        if (t.dim() != parts[0].dim()) kernelFail("cat: tensors must have the same rank, got " + parts[0].shapeString() + " and " + t.shapeString());
        for (int64_t k = 0; k < t.dim(); ++k)
            if (k != d && t.size(k) != os[static_cast<size_t>(k)])
                kernelFail("cat: sizes of " + parts[0].shapeString() + " and " + t.shapeString() + " differ outside dimension " + std::to_string(d));
        total += t.size(d);
    }
    os[static_cast<size_t>(d)] = total;
    Tensor out = ctx.alloc(dt, os);
    int64_t off = 0;
    for (const auto& t : parts) {
        Shape sz = os;
        sz[static_cast<size_t>(d)] = t.size(d);
        copyInto(out.asStrided(sz, out.strides(), off * out.stride(d)), t, ctx.threads());
        off += t.size(d);
    }
    ctx.setOutput(0, out);
}

void catKernel(KernelContext& ctx) { catImpl(ctx, ctx.tensors("tensors", 0), ctx.intArg("dim", 1, 0)); }

void stackKernel(KernelContext& ctx) {
    auto ts = ctx.tensors("tensors", 0);
    if (ts.empty()) kernelFail("stack expects a non-empty list of tensors");
    int64_t d = wrapDim(ctx.intArg("dim", 1, 0), ts[0].dim() + 1);
    std::vector<Tensor> us;
    for (const auto& t : ts) {
        if (t.sizes() != ts[0].sizes()) kernelFail("stack expects tensors of equal size, got " + ts[0].shapeString() + " and " + t.shapeString());
        Shape sz = t.sizes(), st = t.strides();
        sz.insert(sz.begin() + d, 1);
        st.insert(st.begin() + d, 1);
        us.push_back(t.asStrided(sz, st, t.storageOffset()));
    }
    catImpl(ctx, us, d);
}

// constant_pad_nd(self, pad, value=0): pad pairs from the last dim backwards; negative pads crop.
void constantPadKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("self", 0);
    auto pad = ctx.ints("pad", 1);
    double value = ctx.scalar("value", 2, Scalar{0, Scalar::Kind::Int}).value;
    if (pad.size() % 2 || static_cast<int64_t>(pad.size() / 2) > x.dim()) kernelFail("constant_pad_nd: pad length must be even and at most twice the rank");
    Shape os = x.sizes();
    Tensor src = x;
    Shape dstOff(static_cast<size_t>(x.dim()), 0);
    for (size_t p = 0; p < pad.size() / 2; ++p) {
        int64_t d = x.dim() - 1 - static_cast<int64_t>(p);
        int64_t lo = pad[2 * p], hi = pad[2 * p + 1];
        os[static_cast<size_t>(d)] += lo + hi;
        if (os[static_cast<size_t>(d)] < 0) kernelFail("constant_pad_nd: the padded size would be negative");
        int64_t cropLo = lo < 0 ? -lo : 0, cropHi = hi < 0 ? -hi : 0;
        Shape sz = src.sizes();
        sz[static_cast<size_t>(d)] -= cropLo + cropHi;
        src = src.asStrided(sz, src.strides(), src.storageOffset() + cropLo * src.stride(d));
        dstOff[static_cast<size_t>(d)] = lo > 0 ? lo : 0;
    }
    Tensor out = ctx.alloc(x.dtype(), os);
    dispatchAll(x.dtype(), [&]<class T>() {
        T v = scalarAs<T>(value);
        for (int64_t i = 0, n = out.numel(); i < n; ++i) out.data<T>()[i] = v;
    });
    int64_t off = 0;
    for (int64_t d = 0; d < x.dim(); ++d) off += dstOff[static_cast<size_t>(d)] * out.stride(d);
    copyInto(out.asStrided(src.sizes(), out.strides(), off), src, ctx.threads());
    ctx.setOutput(0, out);
}

void flipKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("self", 0);
    auto dims = ctx.optInts("dims", 1);
    Shape st = x.strides();
    int64_t off = x.storageOffset();
    for (auto d0 : dims.value_or(std::vector<int64_t>{})) {
        int64_t d = wrapDim(d0, x.dim());
        if (x.size(d) > 0) off += (x.size(d) - 1) * st[static_cast<size_t>(d)];
        st[static_cast<size_t>(d)] = -st[static_cast<size_t>(d)];
    }
    Tensor out = ctx.alloc(x.dtype(), x.sizes());
    copyInto(out, x.asStrided(x.sizes(), st, off), 1);
    ctx.setOutput(0, out);
}

// roll(self, shifts, dims=[]): each element moves shifts[k] places along dims[k], wrapping around;
// without dims the flattened tensor rolls and takes its shape back.
void rollKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("self", 0);
    auto shifts = ctx.ints("shifts", 1);
    auto dims = ctx.ints("dims", 2, {});
    Tensor src = x;
    if (dims.empty()) {
        if (shifts.size() != 1) kernelFail("roll: without dims, shifts must hold one value, got " + std::to_string(shifts.size()));
        src = reshape(ctx, x, {x.numel()});
        dims = {0};
    } else if (shifts.size() != dims.size()) {
        kernelFail("roll: shifts (" + std::to_string(shifts.size()) + " values) and dims (" + std::to_string(dims.size()) + " values) must match");
    }
    Tensor out;
    for (size_t k = 0; k < dims.size(); ++k) {
        int64_t d = wrapDim(dims[k], src.dim());
        int64_t n = src.size(d);
        out = ctx.alloc(src.dtype(), src.sizes());
        int64_t s = n ? ((shifts[k] % n) + n) % n : 0;
        // out[s:] = src[:n-s], out[:s] = src[n-s:]
        Shape head = src.sizes(), tail = src.sizes();
        head[static_cast<size_t>(d)] = n - s;
        tail[static_cast<size_t>(d)] = s;
        copyInto(out.asStrided(head, out.strides(), s * out.stride(d)), src.asStrided(head, src.strides(), src.storageOffset()), ctx.threads());
        copyInto(out.asStrided(tail, out.strides(), 0), src.asStrided(tail, src.strides(), src.storageOffset() + (n - s) * src.stride(d)),
                 ctx.threads());
        src = out;
    }
    if (out.sizes() != x.sizes()) out = reshape(ctx, out, x.sizes());
    ctx.setOutput(0, out);
}

void repeatKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("self", 0);
    auto reps = ctx.ints("repeats", 1);
    if (reps.size() < static_cast<size_t>(x.dim())) kernelFail("repeat: fewer repeats than dimensions");
    size_t lead = reps.size() - static_cast<size_t>(x.dim());
    Shape xs(lead, 1);
    xs.insert(xs.end(), x.sizes().begin(), x.sizes().end());
    Shape os(reps.size());
    for (size_t k = 0; k < reps.size(); ++k) os[k] = xs[k] * reps[k];
    Tensor out = ctx.alloc(x.dtype(), os);
    // view out as [r0, s0, r1, s1, ...] and copy x expanded over the repeat dims
    Shape vsz, vst, esz, est;
    Shape ost = out.strides();
    Tensor xv = reshape(ctx, x, xs);
    for (size_t k = 0; k < reps.size(); ++k) {
        vsz.push_back(reps[k]); vst.push_back(ost[k] * xs[k]);
        vsz.push_back(xs[k]); vst.push_back(ost[k]);
        esz.push_back(reps[k]); est.push_back(0);
        esz.push_back(xs[k]); est.push_back(xv.stride(static_cast<int64_t>(k)));
    }
    copyInto(out.asStrided(vsz, vst, 0), xv.asStrided(esz, est, xv.storageOffset()), ctx.threads());
    ctx.setOutput(0, out);
}

// repeat_interleave.Tensor(repeats, *, output_size=None): index k repeated repeats[k] times, the
// indices that repeat_interleave(x, repeats, dim) gathers along dim.
void repeatInterleaveKernel(KernelContext& ctx) {
    Tensor reps = ctx.tensor("repeats", 0);
    if (reps.dim() > 1) kernelFail("repeat_interleave: repeats must be 0-D or 1-D, got " + reps.shapeString());
    auto counts = indexValues(ctx, reps);
    int64_t total = 0;
    for (int64_t c : counts) {
        if (c < 0) kernelFail("repeat_interleave: repeats can not be negative (got " + std::to_string(c) + ")");
        total += c;
    }
    if (auto size = ctx.optInt("output_size", 1); size && *size != total)
        kernelFail("repeat_interleave: output_size " + std::to_string(*size) + " does not match the sum of repeats " + std::to_string(total));
    Tensor out = ctx.alloc(ScalarType::Int64, {total});
    int64_t* o = out.data<int64_t>();
    for (size_t k = 0; k < counts.size(); ++k)
        for (int64_t r = 0; r < counts[k]; ++r) *o++ = static_cast<int64_t>(k);
    ctx.setOutput(0, out);
}

void sliceScatterKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("self", 0), src = ctx.tensor("src", 1);
    int64_t d = wrapDim(ctx.intArg("dim", 2, 0), x.dim());
    int64_t n = x.size(d), start = ctx.intArg("start", 3, 0), end = ctx.intArg("end", 4, INT64_MAX), step = ctx.intArg("step", 5, 1);
    if (step <= 0) kernelFail("slice_scatter: step must be positive");
    if (start < 0) start += n;
    if (end < 0) end += n;
    start = std::clamp<int64_t>(start, 0, n);
    end = std::clamp<int64_t>(end, start, n);
    Tensor out = allocLike(ctx, x.dtype(), x.sizes(), {&x}); // PyTorch clones self, keeping its layout
    copyInto(out, x, ctx.threads());
    Shape sz = out.sizes(), st = out.strides();
    sz[static_cast<size_t>(d)] = (end - start + step - 1) / step;
    st[static_cast<size_t>(d)] *= step;
    Tensor view = out.asStrided(sz, st, out.storageOffset() + start * out.stride(d));
    if (src.sizes() != sz) kernelFail("slice_scatter: src " + src.shapeString() + " does not match the slice " + shapeToString(sz));
    copyInto(view, src, ctx.threads());
    ctx.setOutput(0, out);
}

void selectScatterKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("self", 0), src = ctx.tensor("src", 1);
    int64_t d = wrapDim(ctx.intArg("dim", 2), x.dim());
    int64_t i = checkedIndex(ctx.intArg("index", 3), x.size(d), "select_scatter");
    Tensor out = ctx.alloc(x.dtype(), x.sizes());
    copyInto(out, x, ctx.threads());
    Shape sz = out.sizes(), st = out.strides();
    sz.erase(sz.begin() + d);
    st.erase(st.begin() + d);
    if (src.sizes() != sz) kernelFail("select_scatter: src " + src.shapeString() + " does not match " + shapeToString(sz));
    copyInto(out.asStrided(sz, st, i * out.stride(d)), src, ctx.threads());
    ctx.setOutput(0, out);
}

void nonzeroKernel(KernelContext& ctx) {
    Tensor x = contiguous(ctx, ctx.tensor("self", 0));
    std::vector<int64_t> hits;
    dispatchAll(x.dtype(), [&]<class T>() {
        for (int64_t i = 0; i < x.numel(); ++i)
            if (x.data<T>()[i] != T(0)) hits.push_back(i);
    });
    // PyTorch fills an [ndim, n] buffer and returns its transpose: sizes [n, ndim], strides [1, n].
    const int64_t nh = static_cast<int64_t>(hits.size());
    Tensor buf = ctx.alloc(ScalarType::Int64, {x.dim(), nh});
    for (int64_t h = 0; h < nh; ++h) {
        int64_t rem = hits[static_cast<size_t>(h)];
        for (int64_t k = x.dim(); k-- > 0;) {
            buf.data<int64_t>()[k * nh + h] = rem % x.size(k);
            rem /= x.size(k);
        }
    }
    ctx.setOutput(0, buf.asStrided({nh, x.dim()}, {1, nh}, buf.storageOffset()));
}

// The order of one row's first k picks as PyTorch's CPU topk makes it (ties included): (value, index)
// pairs in index order, partial_sort when k * 64 <= n, else nth_element at k - 1 and, when sorted, a
// sort of the k - 1 in front of it; NaN counts as the largest value.
template <class T> void topkOrder(const T* row, int64_t n, int64_t k, bool largest, bool sorted, std::vector<int64_t>& order) {
    std::vector<std::pair<T, int64_t>> q(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) q[static_cast<size_t>(i)] = {row[i], i};
    auto nan = [](const T& v) { return std::isnan(static_cast<double>(v)); };
    auto cmp = [&](const std::pair<T, int64_t>& a, const std::pair<T, int64_t>& b) {
        return largest ? (nan(a.first) && !nan(b.first)) || a.first > b.first : (!nan(a.first) && nan(b.first)) || a.first < b.first;
    };
    if (k > 0 && k * 64 <= n) {
        std::partial_sort(q.begin(), q.begin() + k, q.end(), cmp);
    } else if (k > 0) {
        std::nth_element(q.begin(), q.begin() + (k - 1), q.end(), cmp);
        if (sorted) std::sort(q.begin(), q.begin() + (k - 1), cmp);
    }
    for (int64_t i = 0; i < k; ++i) order[static_cast<size_t>(i)] = q[static_cast<size_t>(i)].second;
}

// sort(self, dim=-1, descending=False) / topk(self, k, dim=-1, largest=True, sorted=True): (values, indices)
void sortImpl(KernelContext& ctx, int64_t k, int64_t dimArg, bool descending, int topkSorted = -1) {
    Tensor x = ctx.tensor("self", 0);
    int64_t d = wrapDim(dimArg, x.dim());
    Tensor moved = contiguous(ctx, x.dim() ? transpose(x, d, x.dim() - 1) : x);
    int64_t n = x.dim() ? x.size(d) : 1, rows = moved.numel() / std::max<int64_t>(1, n);
    if (k < 0 || k > n) kernelFail("topk: k (" + std::to_string(k) + ") is out of range for dimension of size " + std::to_string(n));
    Shape ms = moved.sizes();
    if (!ms.empty()) ms.back() = k;
    Tensor vals = ctx.alloc(x.dtype(), ms), idx = ctx.alloc(ScalarType::Int64, ms);
    dispatchAll(x.dtype(), [&]<class T>() {
        std::vector<int64_t> order(static_cast<size_t>(n));
        for (int64_t r = 0; r < rows; ++r) {
            const T* row = moved.data<T>() + r * n;
            if (topkSorted >= 0) {
                topkOrder(row, n, k, descending, topkSorted != 0, order);
            } else {
                std::iota(order.begin(), order.end(), 0);
                std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return descending ? row[a] > row[b] : row[a] < row[b]; });
            }
            for (int64_t i = 0; i < k; ++i) {
                vals.data<T>()[r * k + i] = row[order[static_cast<size_t>(i)]];
                idx.data<int64_t>()[r * k + i] = order[static_cast<size_t>(i)];
            }
        }
    });
    if (x.dim()) {
        vals = contiguous(ctx, transpose(vals, d, x.dim() - 1));
        idx = contiguous(ctx, transpose(idx, d, x.dim() - 1));
    }
    ctx.setOutput(0, vals);
    ctx.setOutput(1, idx);
}

void sortKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("self", 0);
    int64_t d = ctx.intArg("dim", 1, -1);
    sortImpl(ctx, x.dim() ? x.size(wrapDim(d, x.dim())) : 1, d, ctx.boolArg("descending", 2, false));
}
void topkKernel(KernelContext& ctx) {
    sortImpl(ctx, ctx.intArg("k", 1), ctx.intArg("dim", 2, -1), ctx.boolArg("largest", 3, true), ctx.boolArg("sorted", 4, true) ? 1 : 0);
}

void localScalarKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("self", 0);
    if (x.numel() != 1) kernelFail("_local_scalar_dense: a tensor with " + std::to_string(x.numel()) + " elements cannot become a scalar");
    double v = x.at(0);
    ctx.setOutput(0, isFloatingType(x.dtype()) ? EValue::fromDouble(v) : x.dtype() == ScalarType::Bool ? EValue::fromBool(v != 0) : EValue::fromInt(static_cast<int64_t>(v)));
}

} // namespace

void registerIndexKernels(KernelRegistry& r) {
    r.add({"aten::embedding.default"}, &embeddingKernel);
    r.add({"aten::index_select.default"}, &indexSelectKernel);
    r.add({"aten::gather.default"}, &gatherKernel);
    r.add({"aten::scatter.src", "aten::scatter.value"}, &viaFloat32<&scatterKernel<false>>);
    r.add({"aten::scatter_add.default"}, &viaFloat32<&scatterKernel<true>>);
    r.add({"aten::index.Tensor"}, &indexKernel);
    r.add({"aten::index_put.default", "aten::_unsafe_index_put.default"}, &viaFloat32<&indexPutKernel>);
    r.add({"aten::cat.default", "aten::concat.default", "aten::concatenate.default", "prims::cat.default"}, &catKernel);
    r.add({"aten::stack.default"}, &stackKernel);
    r.add({"aten::constant_pad_nd.default"}, &viaFloat32<&constantPadKernel>);
    r.add({"aten::flip.default", "prims::rev.default"}, &flipKernel);
    r.add({"aten::repeat.default"}, &repeatKernel);
    r.add({"aten::roll.default"}, &rollKernel);
    r.add({"aten::repeat_interleave.Tensor"}, &repeatInterleaveKernel);
    r.add({"aten::slice_scatter.default"}, &sliceScatterKernel);
    r.add({"aten::select_scatter.default"}, &selectScatterKernel);
    r.add({"aten::nonzero.default"}, &viaFloat32<&nonzeroKernel>);
    r.add({"aten::sort.default", "aten::sort.stable"}, &viaFloat32<&sortKernel>);
    r.add({"aten::topk.default"}, &viaFloat32<&topkKernel>);
    r.add({"aten::_local_scalar_dense.default", "aten::item.default"}, &localScalarKernel);
}

} // namespace irlens::core::exec
