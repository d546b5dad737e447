// Metas of layers, matrix products, normalizations, pooling, softmax and reductions.

#include "core/ops/meta_common.h"

#include <algorithm>

namespace irlens::core::meta {

namespace {

Result<MetaOutputs> linear(const NodeArgs& a) {
    IRLENS_ASSIGN_OR_RETURN(in, a.tensor("input"));
    IRLENS_ASSIGN_OR_RETURN(w, a.tensor("weight"));
    if (w->sizes.size() != 2 && w->sizes.size() != 1) return a.error("weight", "expected a 1-D or 2-D weight");
    if (in->sizes.empty()) return a.error("input", "expected at least one dimension");
    auto shape = in->sizes;
    shape.pop_back();
    if (w->sizes.size() == 2) shape.push_back(w->sizes[0]);
    return singleTensor(contiguousMeta(in->dtype, shape, in->device));
}

Result<MetaOutputs> mm(const NodeArgs& a, const std::string& lhs, const std::string& rhs) {
    IRLENS_ASSIGN_OR_RETURN(x, a.tensor(lhs));
    IRLENS_ASSIGN_OR_RETURN(y, a.tensor(rhs));
    if (x->sizes.size() != 2 || y->sizes.size() != 2) return a.error("", "expected 2-D matrices, got " + shapeString(x->sizes) + " and " + shapeString(y->sizes));
    if (!sameSize(x->sizes[1], y->sizes[0]) && x->sizes[1].isStatic() && y->sizes[0].isStatic())
        return a.error("", "cannot multiply " + shapeString(x->sizes) + " by " + shapeString(y->sizes));
    if (x->dtype != y->dtype) return a.error("", "expected both matrices to have the same dtype, got " + dtypeName(x->dtype) + " and " + dtypeName(y->dtype));
    return singleTensor(contiguousMeta(x->dtype, {x->sizes[0], y->sizes[1]}, x->device));
}

Result<MetaOutputs> bmm(const NodeArgs& a) {
    IRLENS_ASSIGN_OR_RETURN(x, a.tensor("self"));
    IRLENS_ASSIGN_OR_RETURN(y, a.tensor("mat2"));
    if (x->sizes.size() != 3 || y->sizes.size() != 3) return a.error("", "expected 3-D batches, got " + shapeString(x->sizes) + " and " + shapeString(y->sizes));
    if (x->sizes[2].isStatic() && y->sizes[1].isStatic() && !sameSize(x->sizes[2], y->sizes[1]))
        return a.error("", "cannot multiply " + shapeString(x->sizes) + " by " + shapeString(y->sizes));
    return singleTensor(contiguousMeta(x->dtype, {x->sizes[0], x->sizes[1], y->sizes[2]}, x->device));
}

Result<MetaOutputs> matmul(const NodeArgs& a) {
    IRLENS_ASSIGN_OR_RETURN(x, a.tensor("self"));
    IRLENS_ASSIGN_OR_RETURN(y, a.tensor("other"));
    auto xs = x->sizes, ys = y->sizes;
    if (xs.empty() || ys.empty()) return a.error("", "both arguments to matmul need at least 1 dimension");
    bool xVec = xs.size() == 1, yVec = ys.size() == 1;
    if (xVec) xs.insert(xs.begin(), SymInt::literal(1));
    if (yVec) ys.push_back(SymInt::literal(1));
    if (xs.back().isStatic() && ys[ys.size() - 2].isStatic() && !sameSize(xs.back(), ys[ys.size() - 2]))
        return a.error("", "cannot multiply " + shapeString(x->sizes) + " by " + shapeString(y->sizes));
    std::vector<SymInt> bx(xs.begin(), xs.end() - 2), by(ys.begin(), ys.end() - 2);
    auto batch = broadcastShapes({bx, by});
    if (!batch) return a.error("", batch.error());
    auto shape = *batch;
    if (!xVec) shape.push_back(xs[xs.size() - 2]);
    if (!yVec) shape.push_back(ys.back());
    return singleTensor(contiguousMeta(x->dtype, shape, x->device));
}

Result<MetaOutputs> convolutionShape(const NodeArgs& a, bool transposed) {
    IRLENS_ASSIGN_OR_RETURN(in, a.tensor("input"));
    IRLENS_ASSIGN_OR_RETURN(w, a.tensor("weight"));
    size_t spatial = w->sizes.size() >= 2 ? w->sizes.size() - 2 : 0;
    if (spatial == 0) return a.error("weight", "expected a weight of rank >= 3");
    bool batched = in->sizes.size() == spatial + 2;
    if (!batched && in->sizes.size() != spatial + 1)
        return a.error("input", "expected a " + std::to_string(spatial + 2) + "-D input, got " + shapeString(in->sizes));
    auto expand = [&](const char* name, int64_t fallback) -> std::vector<int64_t> {
        auto v = a.optInts(name).value_or(std::vector<int64_t>{fallback});
        if (v.size() == 1 && spatial > 1) v.assign(spatial, v[0]);
        if (v.empty()) v.assign(spatial, fallback);
        return v;
    };
    auto stride = expand("stride", 1), padding = expand("padding", 0), dilation = expand("dilation", 1);
    auto outputPadding = expand("output_padding", 0);
    int64_t groups = a.optInteger("groups").value_or(1);
    size_t off = batched ? 2 : 1;
    std::vector<SymInt> shape;
    if (batched) shape.push_back(in->sizes[0]);
    shape.push_back(transposed ? mulSym(w->sizes[1], SymInt::literal(groups)) : w->sizes[0]);
    for (size_t i = 0; i < spatial; ++i) {
        const SymInt& s = in->sizes[off + i];
        const SymInt& k = w->sizes[2 + i];
        if (!s.isStatic() || !k.isStatic()) return a.error("input", "symbolic spatial sizes are not supported");
        int64_t o = transposed ? (s.value - 1) * stride[i] - 2 * padding[i] + dilation[i] * (k.value - 1) + outputPadding[i] + 1
                               : (s.value + 2 * padding[i] - dilation[i] * (k.value - 1) - 1) / stride[i] + 1;
        if (o <= 0) return a.error("input", "the output size would be " + std::to_string(o) + " (input too small for the kernel)");
        shape.push_back(SymInt::literal(o));
    }
    return singleTensor(contiguousMeta(in->dtype, shape, in->device));
}

Result<MetaOutputs> convolution(const NodeArgs& a) {
    auto t = a.boolean("transposed");
    return convolutionShape(a, t && *t);
}

Result<int64_t> poolOut(const NodeArgs& a, int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil) {
    int64_t num = in + 2 * p - d * (k - 1) - 1 + (ceil ? s - 1 : 0);
    int64_t out = num / s + 1;
    if (ceil && (out - 1) * s >= in + p) --out;
    if (out <= 0) return a.error("self", "the pooled size would be " + std::to_string(out));
    return out;
}

Result<MetaOutputs> pool2d(const NodeArgs& a, bool withIndices, bool hasDilation) {
    IRLENS_ASSIGN_OR_RETURN(in, a.tensor("self"));
    IRLENS_ASSIGN_OR_RETURN(kernel, a.ints("kernel_size"));
    auto stride = a.optInts("stride").value_or(std::vector<int64_t>{});
    if (stride.empty()) stride = kernel;
    auto padding = a.optInts("padding").value_or(std::vector<int64_t>{0});
    auto dilation = hasDilation ? a.optInts("dilation").value_or(std::vector<int64_t>{1}) : std::vector<int64_t>{1};
    auto at = [](const std::vector<int64_t>& v, size_t i) { return v.size() == 1 ? v[0] : v[i]; };
    bool ceil = a.optInteger("ceil_mode").value_or(0) != 0;
    if (in->sizes.size() < 3) return a.error("self", "expected a 3-D or 4-D input");
    auto shape = in->sizes;
    for (size_t i = 0; i < 2 && i < kernel.size() + 1; ++i) {
        size_t dim = shape.size() - 2 + i;
        if (!shape[dim].isStatic()) return a.error("self", "symbolic spatial sizes are not supported");
        auto o = poolOut(a, shape[dim].value, at(kernel, i), at(stride, i), at(padding, i), at(dilation, i), ceil);
        if (!o) return o.status();
        shape[dim] = SymInt::literal(*o);
    }
    TensorMeta out = contiguousMeta(in->dtype, shape, in->device);
    if (!withIndices) return singleTensor(out);
    TensorMeta idx = out;
    idx.dtype = ScalarType::Int64;
    return MetaOutputs{InferredValue::tensor(out), InferredValue::tensor(idx)};
}

Result<MetaOutputs> adaptivePool(const NodeArgs& a) {
    IRLENS_ASSIGN_OR_RETURN(in, a.tensor("self"));
    IRLENS_ASSIGN_OR_RETURN(size, a.symInts("output_size"));
    if (in->sizes.size() < size.size()) return a.error("self", "input rank below the output size rank");
    auto shape = in->sizes;
    std::copy(size.begin(), size.end(), shape.end() - static_cast<long>(size.size()));
    return singleTensor(contiguousMeta(in->dtype, shape, in->device));
}

// Reduced shape over `dims` (empty or absent = all dims).
Result<std::vector<SymInt>> reducedShape(const NodeArgs& a, const TensorMeta& in, const std::string& dimArg, bool keepdim) {
    int64_t rank = static_cast<int64_t>(in.sizes.size());
    std::vector<bool> reduce(rank, false);
    auto dims = a.optInts(dimArg);
    if (!dims || dims->empty()) {
        std::fill(reduce.begin(), reduce.end(), true);
    } else {
        for (int64_t d : *dims) {
            auto w = wrapDim(a, dimArg, d, rank);
            if (!w) return w.status();
            if (rank > 0) reduce[*w] = true;
        }
    }
    std::vector<SymInt> shape;
    for (int64_t i = 0; i < rank; ++i) {
        if (!reduce[i]) shape.push_back(in.sizes[i]);
        else if (keepdim) shape.push_back(SymInt::literal(1));
    }
    return shape;
}

Result<MetaOutputs> reduction(const NodeArgs& a, const std::string& dimArg, int kind) {
    // kind: 0 sum (int -> int64), 1 mean (floating required), 2 same dtype (amax/amin), 3 var (real), 4 bool, 5 int64 (argmax)
    IRLENS_ASSIGN_OR_RETURN(in, a.tensor("self"));
    bool keepdim = a.optInteger("keepdim").value_or(0) != 0;
    auto shape = reducedShape(a, *in, dimArg, keepdim);
    if (!shape) return shape.status();
    auto requested = a.scalarType("dtype");
    ScalarType dtype = in->dtype;
    switch (kind) {
    case 0: dtype = sumResultType(in->dtype, requested); break;
    case 1:
        dtype = requested.value_or(in->dtype);
        if (categoryOf(dtype) < TypeCategory::Floating)
            return a.error("self", "mean needs a floating point or complex input, got " + dtypeName(dtype));
        break;
    case 3: dtype = realCounterpart(in->dtype); break;
    case 4: dtype = ScalarType::Bool; break;
    case 5: dtype = ScalarType::Int64; break;
    default: break;
    }
    return singleTensor(contiguousMeta(dtype, *shape, in->device));
}

Result<MetaOutputs> softmax(const NodeArgs& a, bool explicitHalfToFloat) {
    IRLENS_ASSIGN_OR_RETURN(in, a.tensor("self"));
    IRLENS_ASSIGN_OR_RETURN(dim, a.integer("dim"));
    auto d = wrapDim(a, "dim", dim, static_cast<int64_t>(in->sizes.size()));
    if (!d) return d.status();
    ScalarType dtype = in->dtype;
    if (explicitHalfToFloat) {
        auto h = a.boolean("half_to_float");
        if (h && *h) dtype = ScalarType::Float32;
    } else if (auto t = a.scalarType("dtype")) {
        dtype = *t;
    }
    return singleTensor(contiguousMeta(dtype, in->sizes, in->device));
}

Result<MetaOutputs> batchNormLike(const NodeArgs& a, int extraOutputs) {
    IRLENS_ASSIGN_OR_RETURN(in, a.tensor("input"));
    TensorMeta out = contiguousMeta(in->dtype, in->sizes, in->device);
    MetaOutputs outs{InferredValue::tensor(out)};
    if (extraOutputs == 0) return outs;
    // Eval mode on CPU: save_mean / save_invstd are empty; training: per-channel statistics.
    bool training = a.optInteger("training").value_or(0) != 0;
    SymInt channels = in->sizes.size() > 1 ? in->sizes[1] : SymInt::literal(1);
    for (int i = 0; i < 2; ++i)
        outs.push_back(InferredValue::tensor(contiguousMeta(in->dtype, {training ? channels : SymInt::literal(0)}, in->device)));
    for (int i = 2; i < extraOutputs; ++i) outs.push_back(InferredValue::tensor(contiguousMeta(in->dtype, {channels}, in->device)));
    return outs;
}

Result<MetaOutputs> nativeLayerNorm(const NodeArgs& a, bool onlyOutput) {
    IRLENS_ASSIGN_OR_RETURN(in, a.tensor("input"));
    IRLENS_ASSIGN_OR_RETURN(norm, a.symInts("normalized_shape"));
    if (norm.size() > in->sizes.size()) return a.error("normalized_shape", "longer than the input's rank");
    size_t axis = in->sizes.size() - norm.size();
    for (size_t i = 0; i < norm.size(); ++i)
        if (!sameSize(norm[i], in->sizes[axis + i]))
            return a.error("normalized_shape", "expected the input's trailing dims " + shapeString(norm) + ", got " + shapeString(in->sizes));
    MetaOutputs outs{InferredValue::tensor(contiguousMeta(in->dtype, in->sizes, in->device))};
    if (onlyOutput) return outs;
    std::vector<SymInt> statShape(in->sizes.begin(), in->sizes.begin() + static_cast<long>(axis));
    statShape.resize(in->sizes.size(), SymInt::literal(1));
    outs.push_back(InferredValue::tensor(contiguousMeta(in->dtype, statShape, in->device)));
    outs.push_back(InferredValue::tensor(contiguousMeta(in->dtype, statShape, in->device)));
    return outs;
}

Result<MetaOutputs> sdpa(const NodeArgs& a) {
    IRLENS_ASSIGN_OR_RETURN(q, a.tensor("query"));
    IRLENS_ASSIGN_OR_RETURN(v, a.tensor("value"));
    if (q->sizes.size() < 2 || v->sizes.empty()) return a.error("query", "expected at least 2-D query and value");
    auto shape = q->sizes;
    shape.back() = v->sizes.back();
    TensorMeta out = contiguousMeta(q->dtype, shape, q->device);
    // The CPU flash-attention meta allocates empty_like(query): the query's layout.
    if (sameSize(q->sizes.back(), v->sizes.back())) out.strides = preservedStrides(*q, shape);
    return singleTensor(std::move(out));
}

} // namespace

void registerNn(std::vector<std::pair<std::string, MetaFn>>& t) {
    t.emplace_back("aten::linear.default", linear);
    t.emplace_back("aten::addmm.default", [](const NodeArgs& a) { return mm(a, "mat1", "mat2"); });
    t.emplace_back("aten::mm.default", [](const NodeArgs& a) { return mm(a, "self", "mat2"); });
    t.emplace_back("aten::bmm.default", bmm);
    t.emplace_back("aten::matmul.default", matmul);
    t.emplace_back("aten::convolution.default", convolution);
    t.emplace_back("aten::conv1d.default", [](const NodeArgs& a) { return convolutionShape(a, false); });
    t.emplace_back("aten::conv2d.default", [](const NodeArgs& a) { return convolutionShape(a, false); });
    t.emplace_back("aten::conv3d.default", [](const NodeArgs& a) { return convolutionShape(a, false); });
    t.emplace_back("aten::max_pool2d.default", [](const NodeArgs& a) { return pool2d(a, false, true); });
    t.emplace_back("aten::max_pool2d_with_indices.default", [](const NodeArgs& a) { return pool2d(a, true, true); });
    t.emplace_back("aten::avg_pool2d.default", [](const NodeArgs& a) { return pool2d(a, false, false); });
    t.emplace_back("aten::adaptive_avg_pool2d.default", adaptivePool);
    t.emplace_back("aten::_adaptive_avg_pool2d.default", adaptivePool);
    t.emplace_back("aten::batch_norm.default", [](const NodeArgs& a) { return batchNormLike(a, 0); });
    t.emplace_back("aten::_native_batch_norm_legit_no_training.default", [](const NodeArgs& a) { return batchNormLike(a, 2); });
    t.emplace_back("aten::_native_batch_norm_legit.default", [](const NodeArgs& a) { return batchNormLike(a, 2); });
    t.emplace_back("aten::native_batch_norm.default", [](const NodeArgs& a) { return batchNormLike(a, 2); });
    t.emplace_back("aten::_native_batch_norm_legit_functional.default", [](const NodeArgs& a) { return batchNormLike(a, 4); });
    t.emplace_back("aten::native_layer_norm.default", [](const NodeArgs& a) { return nativeLayerNorm(a, false); });
    t.emplace_back("aten::layer_norm.default", [](const NodeArgs& a) { return nativeLayerNorm(a, true); });
    t.emplace_back("aten::_softmax.default", [](const NodeArgs& a) { return softmax(a, true); });
    t.emplace_back("aten::_log_softmax.default", [](const NodeArgs& a) { return softmax(a, true); });
    t.emplace_back("aten::softmax.int", [](const NodeArgs& a) { return softmax(a, false); });
    t.emplace_back("aten::log_softmax.int", [](const NodeArgs& a) { return softmax(a, false); });
    t.emplace_back("aten::_safe_softmax.default", [](const NodeArgs& a) { return softmax(a, false); });
    t.emplace_back("aten::scaled_dot_product_attention.default", sdpa);
    t.emplace_back("aten::sum.dim_IntList", [](const NodeArgs& a) { return reduction(a, "dim", 0); });
    t.emplace_back("aten::sum.default", [](const NodeArgs& a) { return reduction(a, "", 0); });
    t.emplace_back("aten::mean.dim", [](const NodeArgs& a) { return reduction(a, "dim", 1); });
    t.emplace_back("aten::mean.default", [](const NodeArgs& a) { return reduction(a, "", 1); });
    t.emplace_back("aten::amax.default", [](const NodeArgs& a) { return reduction(a, "dim", 2); });
    t.emplace_back("aten::amin.default", [](const NodeArgs& a) { return reduction(a, "dim", 2); });
    t.emplace_back("aten::var.correction", [](const NodeArgs& a) { return reduction(a, "dim", 3); });
    t.emplace_back("aten::var.dim", [](const NodeArgs& a) { return reduction(a, "dim", 3); });
    t.emplace_back("aten::any.dim", [](const NodeArgs& a) { return reduction(a, "dim", 4); });
    t.emplace_back("aten::any.dims", [](const NodeArgs& a) { return reduction(a, "dim", 4); });
    t.emplace_back("aten::any.default", [](const NodeArgs& a) { return reduction(a, "", 4); });
    t.emplace_back("aten::argmax.default", [](const NodeArgs& a) { return reduction(a, "dim", 5); });
    t.emplace_back("aten::argmin.default", [](const NodeArgs& a) { return reduction(a, "dim", 5); });
}

} // namespace irlens::core::meta
