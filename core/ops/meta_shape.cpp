// Metas of views and shape ops: sizes as ATen computes them, strides as the view shares storage.

#include "core/ops/meta_common.h"

#include <algorithm>
#include <limits>

namespace irlens::core::meta {

namespace {

Result<MetaOutputs> viewAs(const NodeArgs& a, const TensorMeta& in, std::vector<SymInt> shape, bool allowCopy) {
    auto resolved = inferViewShape(a, in.sizes, std::move(shape));
    if (!resolved) return resolved.status();
    TensorMeta out = in;
    out.sizes = *resolved;
    if (auto s = viewStrides(in, out.sizes)) {
        out.strides = *s;
    } else if (allowCopy) {
        out.strides = contiguousStrides(out.sizes);
        out.storageOffset = SymInt::literal(0);
    } else {
        return a.error("size", "view size " + shapeString(out.sizes) + " is not compatible with the input's strides " +
                                   shapeString(in.strides) + " (use reshape)");
    }
    return singleTensor(std::move(out));
}

Result<MetaOutputs> view(const NodeArgs& a, const std::string& sizeArg, bool allowCopy) {
    auto in = a.tensor("self");
    if (!in) return in.status();
    auto shape = a.symInts(sizeArg);
    if (!shape) return shape.status();
    return viewAs(a, **in, *shape, allowCopy);
}

Result<MetaOutputs> permuteDims(const NodeArgs& a, const TensorMeta& in, const std::vector<int64_t>& dims) {
    int64_t rank = static_cast<int64_t>(in.sizes.size());
    if (static_cast<int64_t>(dims.size()) != rank)
        return a.error("dims", "permutation of length " + std::to_string(dims.size()) + " for a tensor of rank " + std::to_string(rank));
    TensorMeta out = in;
    std::vector<bool> seen(rank, false);
    for (int64_t i = 0; i < rank; ++i) {
        auto d = wrapDim(a, "dims", dims[i], rank);
        if (!d) return d.status();
        if (seen[*d]) return a.error("dims", "dimension " + std::to_string(*d) + " repeats in the permutation");
        seen[*d] = true;
        out.sizes[i] = in.sizes[*d];
        if (in.strides.size() == in.sizes.size()) out.strides[i] = in.strides[*d];
    }
    return singleTensor(std::move(out));
}

Result<MetaOutputs> transpose(const NodeArgs& a, int64_t d0, int64_t d1) {
    auto in = a.tensor("self");
    if (!in) return in.status();
    int64_t rank = static_cast<int64_t>((*in)->sizes.size());
    if (rank == 0) return singleTensor(**in);
    auto w0 = wrapDim(a, "dim0", d0, rank), w1 = wrapDim(a, "dim1", d1, rank);
    if (!w0) return w0.status();
    if (!w1) return w1.status();
    std::vector<int64_t> perm(rank);
    for (int64_t i = 0; i < rank; ++i) perm[i] = i;
    std::swap(perm[*w0], perm[*w1]);
    return permuteDims(a, **in, perm);
}

Result<MetaOutputs> squeezeDims(const NodeArgs& a, const TensorMeta& in, std::vector<int64_t> dims) {
    int64_t rank = static_cast<int64_t>(in.sizes.size());
    std::vector<bool> drop(rank, false);
    for (int64_t d : dims) {
        auto w = wrapDim(a, "dim", d, rank);
        if (!w) return w.status();
        if (rank > 0 && isStaticOne(in.sizes[*w])) drop[*w] = true;
    }
    TensorMeta out = in;
    out.sizes.clear();
    out.strides.clear();
    for (int64_t i = 0; i < rank; ++i) {
        if (drop[i]) continue;
        out.sizes.push_back(in.sizes[i]);
        if (i < static_cast<int64_t>(in.strides.size())) out.strides.push_back(in.strides[i]);
    }
    return singleTensor(std::move(out));
}

Result<MetaOutputs> unsqueeze(const NodeArgs& a) {
    auto in = a.tensor("self");
    auto dim = a.integer("dim");
    if (!in) return in.status();
    if (!dim) return dim.status();
    int64_t rank = static_cast<int64_t>((*in)->sizes.size());
    auto d = wrapDim(a, "dim", *dim, rank + 1);
    if (!d) return d.status();
    TensorMeta out = **in;
    SymInt stride = *d >= rank ? SymInt::literal(1) : mulSym(out.sizes[*d], out.strides[*d]);
    out.sizes.insert(out.sizes.begin() + *d, SymInt::literal(1));
    out.strides.insert(out.strides.begin() + *d, stride);
    return singleTensor(std::move(out));
}

Result<MetaOutputs> expand(const NodeArgs& a) {
    auto in = a.tensor("self");
    auto size = a.symInts("size");
    if (!in) return in.status();
    if (!size) return size.status();
    const TensorMeta& m = **in;
    if (size->size() < m.sizes.size())
        return a.error("size", "the number of sizes (" + std::to_string(size->size()) + ") must be at least the rank (" +
                                   std::to_string(m.sizes.size()) + ")");
    TensorMeta out = m;
    size_t offset = size->size() - m.sizes.size();
    out.sizes = *size;
    out.strides.assign(size->size(), SymInt::literal(0));
    for (size_t i = 0; i < size->size(); ++i) {
        if (i < offset) continue;
        const SymInt& src = m.sizes[i - offset];
        SymInt& dst = out.sizes[i];
        if (dst.isStatic() && dst.value == -1) dst = src;
        if (sameSize(src, dst)) out.strides[i] = m.strides[i - offset];
        else if (!isStaticOne(src))
            return a.error("size", "cannot expand size " + src.toString() + " at dimension " + std::to_string(i - offset) +
                                       " to " + dst.toString());
    }
    return singleTensor(std::move(out));
}

// A slice of `dim` from start (length `len`, step `step`): shares storage.
TensorMeta sliceOf(const TensorMeta& in, int64_t dim, const SymInt& len, int64_t start, int64_t step) {
    TensorMeta out = in;
    out.sizes[dim] = len;
    if (dim < static_cast<int64_t>(in.strides.size())) {
        if (in.strides[dim].isStatic()) {
            out.strides[dim] = SymInt::literal(in.strides[dim].value * step);
            if (in.storageOffset.isStatic()) out.storageOffset = SymInt::literal(in.storageOffset.value + start * in.strides[dim].value);
        }
    }
    return out;
}

Result<MetaOutputs> slice(const NodeArgs& a) {
    auto in = a.tensor("self");
    if (!in) return in.status();
    int64_t rank = static_cast<int64_t>((*in)->sizes.size());
    auto d = wrapDim(a, "dim", a.optInteger("dim").value_or(0), rank);
    if (!d) return d.status();
    int64_t step = a.optInteger("step").value_or(1);
    if (step <= 0) return a.error("step", "slice step must be positive");
    const SymInt& size = (*in)->sizes[*d];
    int64_t start = a.optInteger("start").value_or(0);
    int64_t end = a.optInteger("end").value_or(std::numeric_limits<int64_t>::max());
    if (!size.isStatic()) {
        if (start == 0 && step == 1 && end >= std::numeric_limits<int32_t>::max()) return singleTensor(**in);
        return a.error("", "slicing a symbolic dimension is not supported by irlens' meta inference");
    }
    int64_t n = size.value;
    if (start < 0) start += n;
    if (end < 0) end += n;
    start = std::clamp<int64_t>(start, 0, n);
    end = std::clamp<int64_t>(end, start, n);
    int64_t len = (end - start + step - 1) / step;
    return singleTensor(sliceOf(**in, *d, SymInt::literal(len), start, step));
}

Result<MetaOutputs> select(const NodeArgs& a) {
    auto in = a.tensor("self");
    auto dim = a.integer("dim");
    auto index = a.integer("index");
    if (!in) return in.status();
    if (!dim) return dim.status();
    if (!index) return index.status();
    int64_t rank = static_cast<int64_t>((*in)->sizes.size());
    auto d = wrapDim(a, "dim", *dim, rank);
    if (!d) return d.status();
    int64_t i = *index;
    const SymInt& size = (*in)->sizes[*d];
    if (size.isStatic()) {
        if (i < -size.value || i >= size.value)
            return a.error("index", "index " + std::to_string(i) + " out of range for dimension of size " + size.toString());
        if (i < 0) i += size.value;
    }
    TensorMeta out = sliceOf(**in, *d, SymInt::literal(1), i, 1);
    out.sizes.erase(out.sizes.begin() + *d);
    out.strides.erase(out.strides.begin() + *d);
    return singleTensor(std::move(out));
}

Result<MetaOutputs> splitSizes(const NodeArgs& a, const TensorMeta& in, int64_t dim, const std::vector<int64_t>& sizes) {
    MetaOutputs outs;
    int64_t start = 0;
    for (int64_t s : sizes) {
        outs.push_back(InferredValue::tensor(sliceOf(in, dim, SymInt::literal(s), start, 1)));
        start += s;
    }
    return outs;
}

Result<MetaOutputs> split(const NodeArgs& a) {
    auto in = a.tensor("self");
    auto splitSize = a.integer("split_size");
    if (!in) return in.status();
    if (!splitSize) return splitSize.status();
    int64_t rank = static_cast<int64_t>((*in)->sizes.size());
    auto d = wrapDim(a, "dim", a.optInteger("dim").value_or(0), rank);
    if (!d) return d.status();
    const SymInt& size = (*in)->sizes[*d];
    if (!size.isStatic()) return a.error("self", "splitting a symbolic dimension is not supported");
    if (*splitSize <= 0 && size.value > 0) return a.error("split_size", "split size must be positive");
    std::vector<int64_t> sizes;
    for (int64_t left = size.value; left > 0; left -= *splitSize) sizes.push_back(std::min(left, *splitSize));
    if (sizes.empty()) sizes.push_back(0);
    return splitSizes(a, **in, *d, sizes);
}

Result<MetaOutputs> splitWithSizes(const NodeArgs& a) {
    auto in = a.tensor("self");
    auto sizes = a.ints("split_sizes");
    if (!in) return in.status();
    if (!sizes) return sizes.status();
    int64_t rank = static_cast<int64_t>((*in)->sizes.size());
    auto d = wrapDim(a, "dim", a.optInteger("dim").value_or(0), rank);
    if (!d) return d.status();
    int64_t total = 0;
    for (auto s : *sizes) total += s;
    const SymInt& size = (*in)->sizes[*d];
    if (size.isStatic() && total != size.value)
        return a.error("split_sizes", "split sizes add up to " + std::to_string(total) + " but the dimension has size " + size.toString());
    return splitSizes(a, **in, *d, *sizes);
}

Result<MetaOutputs> flatten(const NodeArgs& a) {
    auto in = a.tensor("self");
    if (!in) return in.status();
    int64_t rank = static_cast<int64_t>((*in)->sizes.size());
    if (rank == 0) return viewAs(a, **in, {SymInt::literal(1)}, true);
    auto s = wrapDim(a, "start_dim", a.optInteger("start_dim").value_or(0), rank);
    auto e = wrapDim(a, "end_dim", a.optInteger("end_dim").value_or(-1), rank);
    if (!s) return s.status();
    if (!e) return e.status();
    if (*s > *e) return a.error("start_dim", "flatten() has start_dim after end_dim");
    if (*s == *e) return singleTensor(**in);
    std::vector<SymInt> shape;
    for (int64_t i = 0; i < *s; ++i) shape.push_back((*in)->sizes[i]);
    SymInt merged = SymInt::literal(1);
    for (int64_t i = *s; i <= *e; ++i) merged = mulSym(merged, (*in)->sizes[i]);
    shape.push_back(merged);
    for (int64_t i = *e + 1; i < rank; ++i) shape.push_back((*in)->sizes[i]);
    return viewAs(a, **in, shape, true);
}

Result<MetaOutputs> unflatten(const NodeArgs& a) {
    auto in = a.tensor("self");
    auto dim = a.integer("dim");
    auto sizes = a.symInts("sizes");
    if (!in) return in.status();
    if (!dim) return dim.status();
    if (!sizes) return sizes.status();
    int64_t rank = static_cast<int64_t>((*in)->sizes.size());
    auto d = wrapDim(a, "dim", *dim, rank);
    if (!d) return d.status();
    auto part = inferViewShape(a, {(*in)->sizes[*d]}, *sizes);
    if (!part) return part.status();
    std::vector<SymInt> shape((*in)->sizes.begin(), (*in)->sizes.begin() + *d);
    shape.insert(shape.end(), part->begin(), part->end());
    shape.insert(shape.end(), (*in)->sizes.begin() + *d + 1, (*in)->sizes.end());
    return viewAs(a, **in, shape, false);
}

Result<MetaOutputs> cat(const NodeArgs& a) {
    auto list = a.tensorList("tensors");
    if (!list) return list.status();
    std::vector<const TensorMeta*> ts;
    std::vector<PromotionOperand> ops;
    for (const auto* m : *list) {
        if (!m) continue;
        ops.push_back(PromotionOperand::tensor(m->dtype, static_cast<int>(m->sizes.size())));
        // Legacy behaviour: 1-D empty tensors are skipped.
        if (m->sizes.size() == 1 && m->sizes[0].isStatic() && m->sizes[0].value == 0) continue;
        ts.push_back(m);
    }
    if (ops.empty()) return a.error("tensors", "expected a non-empty list of tensors");
    auto types = elementwiseDtypes(ops, PromotionKind::NoOpmath);
    if (!types) return a.error("tensors", types.error());
    if (ts.empty()) return singleTensor(contiguousMeta(types->result, {SymInt::literal(0)}));
    int64_t rank = static_cast<int64_t>(ts[0]->sizes.size());
    auto d = wrapDim(a, "dim", a.optInteger("dim").value_or(0), rank);
    if (!d) return d.status();
    std::vector<SymInt> shape = ts[0]->sizes;
    for (size_t i = 1; i < ts.size(); ++i) {
        if (static_cast<int64_t>(ts[i]->sizes.size()) != rank)
            return a.error("tensors", "tensor " + std::to_string(i) + " has rank " + std::to_string(ts[i]->sizes.size()) +
                                          ", expected " + std::to_string(rank));
        shape[*d] = mulSym(SymInt::literal(1), shape[*d]);
        if (shape[*d].isStatic() && ts[i]->sizes[*d].isStatic()) shape[*d] = SymInt::literal(shape[*d].value + ts[i]->sizes[*d].value);
        else shape[*d] = SymInt::expression(shape[*d].toString() + " + " + ts[i]->sizes[*d].toString());
    }
    return singleTensor(contiguousMeta(types->result, shape, ts[0]->device));
}

Result<MetaOutputs> indexSelect(const NodeArgs& a) {
    auto in = a.tensor("self");
    auto index = a.tensor("index");
    auto dim = a.integer("dim");
    if (!in) return in.status();
    if (!index) return index.status();
    if (!dim) return dim.status();
    int64_t rank = static_cast<int64_t>((*in)->sizes.size());
    auto d = wrapDim(a, "dim", *dim, rank);
    if (!d) return d.status();
    auto shape = (*in)->sizes;
    if (rank > 0) shape[*d] = numel((*index)->sizes);
    return singleTensor(contiguousMeta((*in)->dtype, shape, (*in)->device));
}

Result<MetaOutputs> embedding(const NodeArgs& a) {
    auto w = a.tensor("weight");
    auto idx = a.tensor("indices");
    if (!w) return w.status();
    if (!idx) return idx.status();
    if ((*w)->sizes.size() != 2) return a.error("weight", "expected a 2-D weight");
    if (categoryOf((*idx)->dtype) != TypeCategory::Integer) return a.error("indices", "expected integer indices");
    auto shape = (*idx)->sizes;
    shape.push_back((*w)->sizes[1]);
    return singleTensor(contiguousMeta((*w)->dtype, shape, (*w)->device));
}

} // namespace

void registerShape(std::vector<std::pair<std::string, MetaFn>>& t) {
    t.emplace_back("aten::view.default", [](const NodeArgs& a) { return view(a, "size", false); });
    t.emplace_back("aten::_unsafe_view.default", [](const NodeArgs& a) { return view(a, "size", true); });
    t.emplace_back("aten::reshape.default", [](const NodeArgs& a) { return view(a, "shape", true); });
    t.emplace_back("aten::permute.default", [](const NodeArgs& a) -> Result<MetaOutputs> {
        auto in = a.tensor("self");
        auto dims = a.ints("dims");
        if (!in) return in.status();
        if (!dims) return dims.status();
        return permuteDims(a, **in, *dims);
    });
    t.emplace_back("aten::t.default", [](const NodeArgs& a) { return transpose(a, 0, 1); });
    t.emplace_back("aten::transpose.int", [](const NodeArgs& a) -> Result<MetaOutputs> {
        auto d0 = a.integer("dim0"), d1 = a.integer("dim1");
        if (!d0) return d0.status();
        if (!d1) return d1.status();
        return transpose(a, *d0, *d1);
    });
    t.emplace_back("aten::expand.default", expand);
    t.emplace_back("aten::unsqueeze.default", unsqueeze);
    t.emplace_back("aten::squeeze.default", [](const NodeArgs& a) -> Result<MetaOutputs> {
        auto in = a.tensor("self");
        if (!in) return in.status();
        std::vector<int64_t> all;
        for (size_t i = 0; i < (*in)->sizes.size(); ++i) all.push_back(static_cast<int64_t>(i));
        return squeezeDims(a, **in, all);
    });
    t.emplace_back("aten::squeeze.dim", [](const NodeArgs& a) -> Result<MetaOutputs> {
        auto in = a.tensor("self");
        auto dim = a.integer("dim");
        if (!in) return in.status();
        if (!dim) return dim.status();
        return squeezeDims(a, **in, {*dim});
    });
    t.emplace_back("aten::squeeze.dims", [](const NodeArgs& a) -> Result<MetaOutputs> {
        auto in = a.tensor("self");
        auto dims = a.ints("dim");
        if (!in) return in.status();
        if (!dims) return dims.status();
        return squeezeDims(a, **in, *dims);
    });
    t.emplace_back("aten::slice.Tensor", slice);
    t.emplace_back("aten::select.int", select);
    t.emplace_back("aten::split.Tensor", split);
    t.emplace_back("aten::split_with_sizes.default", splitWithSizes);
    t.emplace_back("aten::flatten.using_ints", flatten);
    t.emplace_back("aten::unflatten.int", unflatten);
    t.emplace_back("aten::cat.default", cat);
    t.emplace_back("prims::cat.default", cat); // inputs already share a dtype (the rule converts them first)
    t.emplace_back("aten::index_select.default", indexSelect);
    t.emplace_back("aten::embedding.default", embedding);
    t.emplace_back("aten::sym_size.int", [](const NodeArgs& a) -> Result<MetaOutputs> {
        auto in = a.tensor("self");
        auto dim = a.integer("dim");
        if (!in) return in.status();
        if (!dim) return dim.status();
        auto d = wrapDim(a, "dim", *dim, static_cast<int64_t>((*in)->sizes.size()));
        if (!d) return d.status();
        return MetaOutputs{InferredValue::symInt((*in)->sizes[*d])};
    });
    t.emplace_back("aten::sym_numel.default", [](const NodeArgs& a) -> Result<MetaOutputs> {
        auto in = a.tensor("self");
        if (!in) return in.status();
        return MetaOutputs{InferredValue::symInt(numel((*in)->sizes))};
    });
}

} // namespace irlens::core::meta
