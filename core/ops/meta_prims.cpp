// Metas of the non-elementwise prims (torch/_prims/__init__.py meta functions).

#include "core/ops/meta_common.h"

namespace irlens::core::meta {

namespace {

Result<MetaOutputs> broadcastInDim(const NodeArgs& a) {
    IRLENS_ASSIGN_OR_RETURN(in, a.tensor("a"));
    IRLENS_ASSIGN_OR_RETURN(shape, a.symInts("shape"));
    IRLENS_ASSIGN_OR_RETURN(dims, a.ints("broadcast_dimensions"));
    if (dims.size() != in->sizes.size())
        return a.error("broadcast_dimensions", "expected " + std::to_string(in->sizes.size()) + " dimensions, got " + std::to_string(dims.size()));
    TensorMeta out = *in;
    out.sizes = shape;
    out.strides.assign(shape.size(), SymInt::literal(0));
    int64_t prev = -1;
    for (size_t i = 0; i < dims.size(); ++i) {
        int64_t d = dims[i];
        if (d <= prev || d >= static_cast<int64_t>(shape.size()))
            return a.error("broadcast_dimensions", "must be strictly increasing and below " + std::to_string(shape.size()));
        prev = d;
        if (sameSize(in->sizes[i], shape[d])) {
            if (i < in->strides.size()) out.strides[d] = in->strides[i];
        } else if (!isStaticOne(in->sizes[i])) {
            return a.error("shape", "input dimension " + std::to_string(i) + " of size " + in->sizes[i].toString() +
                                        " cannot broadcast to " + shape[d].toString());
        }
    }
    return singleTensor(std::move(out));
}

Result<MetaOutputs> collapseView(const NodeArgs& a, bool view) {
    IRLENS_ASSIGN_OR_RETURN(in, a.tensor("a"));
    IRLENS_ASSIGN_OR_RETURN(start, a.integer("start"));
    IRLENS_ASSIGN_OR_RETURN(end, a.integer("end"));
    int64_t rank = static_cast<int64_t>(in->sizes.size());
    if (start < 0 || end >= rank || start > end) return a.error("start", "invalid collapse range [" + std::to_string(start) + ", " + std::to_string(end) + "]");
    std::vector<SymInt> shape(in->sizes.begin(), in->sizes.begin() + start);
    SymInt merged = SymInt::literal(1);
    for (int64_t i = start; i <= end; ++i) merged = mulSym(merged, in->sizes[i]);
    shape.push_back(merged);
    shape.insert(shape.end(), in->sizes.begin() + end + 1, in->sizes.end());
    TensorMeta out = *in;
    out.sizes = shape;
    if (!view) {
        out.strides = contiguousStrides(shape);
        return singleTensor(std::move(out));
    }
    auto strides = viewStrides(*in, shape);
    if (!strides) return a.error("a", "collapse_view: dims " + std::to_string(start) + ".." + std::to_string(end) + " are not viewable as one");
    out.strides = *strides;
    return singleTensor(std::move(out));
}

Result<MetaOutputs> splitDim(const NodeArgs& a) {
    IRLENS_ASSIGN_OR_RETURN(in, a.tensor("a"));
    IRLENS_ASSIGN_OR_RETURN(dim, a.integer("dim"));
    IRLENS_ASSIGN_OR_RETURN(outer, a.symInt("outer_length"));
    int64_t rank = static_cast<int64_t>(in->sizes.size());
    auto d = wrapDim(a, "dim", dim, rank);
    if (!d) return d.status();
    const SymInt& size = in->sizes[*d];
    if (!size.isStatic() || !outer.isStatic()) return a.error("dim", "symbolic split_dim is not supported");
    if (outer.value <= 0 || size.value % outer.value != 0)
        return a.error("outer_length", std::to_string(outer.value) + " does not divide the dimension of size " + size.toString());
    int64_t inner = size.value / outer.value;
    TensorMeta out = *in;
    out.sizes[*d] = SymInt::literal(inner);
    out.sizes.insert(out.sizes.begin() + *d, SymInt::literal(outer.value));
    SymInt stride = *d < static_cast<int64_t>(in->strides.size()) ? in->strides[*d] : SymInt::literal(1);
    out.strides[*d] = stride;
    out.strides.insert(out.strides.begin() + *d, mulSym(stride, SymInt::literal(inner)));
    return singleTensor(std::move(out));
}

Result<MetaOutputs> reducePrim(const NodeArgs& a, bool realOut) {
    IRLENS_ASSIGN_OR_RETURN(in, a.tensor("inp"));
    auto dims = a.optInts("dims");
    int64_t rank = static_cast<int64_t>(in->sizes.size());
    std::vector<bool> reduce(rank, !dims.has_value());
    if (dims)
        for (int64_t d : *dims) {
            if (d < 0 || d >= rank) return a.error("dims", "dimension " + std::to_string(d) + " out of range (prims take non-negative dims)");
            reduce[d] = true;
        }
    std::vector<SymInt> shape;
    for (int64_t i = 0; i < rank; ++i)
        if (!reduce[i]) shape.push_back(in->sizes[i]);
    ScalarType dtype = a.scalarType("output_dtype").value_or(realOut ? realCounterpart(in->dtype) : in->dtype);
    return singleTensor(contiguousMeta(dtype, shape, in->device));
}

Result<MetaOutputs> convertElementType(const NodeArgs& a) {
    IRLENS_ASSIGN_OR_RETURN(in, a.tensor("a"));
    auto dtype = a.scalarType("dtype");
    if (!dtype) return a.error("dtype", "expected a dtype");
    TensorMeta out = *in;
    out.dtype = *dtype;
    out.strides = preservedStrides(*in, in->sizes);
    out.storageOffset = SymInt::literal(0);
    out.requiresGrad = false;
    return singleTensor(std::move(out));
}

Result<MetaOutputs> factoryPrim(const NodeArgs& a, const std::string& shapeArg) {
    IRLENS_ASSIGN_OR_RETURN(shape, a.symInts(shapeArg));
    auto dtype = a.scalarType("dtype");
    if (!dtype) return a.error("dtype", "expected a dtype");
    const Argument* dev = a.get("device");
    return singleTensor(contiguousMeta(*dtype, shape, dev && dev->kind == ArgKind::Device ? dev->device() : Device{}));
}

} // namespace

void registerPrims(std::vector<std::pair<std::string, MetaFn>>& t) {
    t.emplace_back("prims::broadcast_in_dim.default", broadcastInDim);
    t.emplace_back("prims::convert_element_type.default", convertElementType);
    t.emplace_back("prims::collapse_view.default", [](const NodeArgs& a) { return collapseView(a, true); });
    t.emplace_back("prims::collapse.default", [](const NodeArgs& a) { return collapseView(a, false); });
    t.emplace_back("prims::split_dim.default", splitDim);
    t.emplace_back("prims::view_of.default", [](const NodeArgs& a) -> Result<MetaOutputs> {
        IRLENS_ASSIGN_OR_RETURN(in, a.tensor("a"));
        return singleTensor(*in);
    });
    t.emplace_back("prims::reshape.default", [](const NodeArgs& a) -> Result<MetaOutputs> {
        IRLENS_ASSIGN_OR_RETURN(in, a.tensor("a"));
        IRLENS_ASSIGN_OR_RETURN(shape, a.symInts("shape"));
        auto resolved = inferViewShape(a, in->sizes, shape);
        if (!resolved) return resolved.status();
        return singleTensor(contiguousMeta(in->dtype, *resolved, in->device));
    });
    t.emplace_back("prims::transpose.default", [](const NodeArgs& a) -> Result<MetaOutputs> {
        IRLENS_ASSIGN_OR_RETURN(in, a.tensor("a"));
        IRLENS_ASSIGN_OR_RETURN(perm, a.ints("permutation"));
        if (perm.size() != in->sizes.size()) return a.error("permutation", "expected a full permutation");
        TensorMeta out = *in;
        for (size_t i = 0; i < perm.size(); ++i) {
            if (perm[i] < 0 || perm[i] >= static_cast<int64_t>(perm.size())) return a.error("permutation", "index out of range");
            out.sizes[i] = in->sizes[perm[i]];
            if (in->strides.size() == in->sizes.size()) out.strides[i] = in->strides[perm[i]];
        }
        return singleTensor(std::move(out));
    });
    t.emplace_back("prims::squeeze.default", [](const NodeArgs& a) -> Result<MetaOutputs> {
        IRLENS_ASSIGN_OR_RETURN(in, a.tensor("a"));
        IRLENS_ASSIGN_OR_RETURN(dims, a.ints("dimensions"));
        TensorMeta out = *in;
        out.sizes.clear();
        out.strides.clear();
        for (size_t i = 0; i < in->sizes.size(); ++i) {
            bool drop = std::find(dims.begin(), dims.end(), static_cast<int64_t>(i)) != dims.end();
            if (drop && !isStaticOne(in->sizes[i])) return a.error("dimensions", "dimension " + std::to_string(i) + " does not have size 1");
            if (drop) continue;
            out.sizes.push_back(in->sizes[i]);
            if (i < in->strides.size()) out.strides.push_back(in->strides[i]);
        }
        return singleTensor(std::move(out));
    });
    t.emplace_back("prims::clone.default", [](const NodeArgs& a) -> Result<MetaOutputs> {
        IRLENS_ASSIGN_OR_RETURN(in, a.tensor("self"));
        TensorMeta out = *in;
        const Argument* f = a.get("memory_format");
        bool contiguous = f && f->kind == ArgKind::MemoryFormat && f->i == static_cast<int>(MemoryFormat::Contiguous);
        out.strides = contiguous ? contiguousStrides(in->sizes) : preservedStrides(*in, in->sizes);
        out.storageOffset = SymInt::literal(0);
        return singleTensor(std::move(out));
    });
    t.emplace_back("prims::rev.default", [](const NodeArgs& a) -> Result<MetaOutputs> {
        IRLENS_ASSIGN_OR_RETURN(in, a.tensor("a"));
        return singleTensor(contiguousMeta(in->dtype, in->sizes, in->device));
    });
    for (const char* p : {"sum", "prod", "amax", "amin", "xor_sum"})
        t.emplace_back(std::string("prims::") + p + ".default", [](const NodeArgs& a) { return reducePrim(a, false); });
    t.emplace_back("prims::var.default", [](const NodeArgs& a) { return reducePrim(a, true); });
    t.emplace_back("prims::full.default", [](const NodeArgs& a) { return factoryPrim(a, "shape"); });
    t.emplace_back("prims::empty.default", [](const NodeArgs& a) { return factoryPrim(a, "shape"); });
    t.emplace_back("prims::empty_strided.default", [](const NodeArgs& a) { return factoryPrim(a, "shape"); });
    t.emplace_back("prims::iota.default", [](const NodeArgs& a) -> Result<MetaOutputs> {
        IRLENS_ASSIGN_OR_RETURN(length, a.symInt("length"));
        auto dtype = a.scalarType("dtype");
        if (!dtype) return a.error("dtype", "expected a dtype");
        return singleTensor(contiguousMeta(*dtype, {length}));
    });
    t.emplace_back("prims::scalar_tensor.default", [](const NodeArgs& a) -> Result<MetaOutputs> {
        return singleTensor(contiguousMeta(a.scalarType("dtype").value_or(ScalarType::Float32), {}));
    });
}

} // namespace irlens::core::meta
