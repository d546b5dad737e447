// Metas of the non-generic elementwise ops, copies and factories.

#include "core/ops/meta_common.h"

#include <cmath>

namespace irlens::core::meta {

namespace {

Result<MetaOutputs> sameAs(const NodeArgs& a, const std::string& arg) {
    auto t = a.tensor(arg);
    if (!t) return t.status();
    return singleTensor(**t);
}

// empty_like(x, memory_format) strides: preserve (default) keeps x's layout when dense.
std::vector<SymInt> likeStrides(const NodeArgs& a, const TensorMeta& in, const std::string& formatArg) {
    const Argument* f = a.get(formatArg);
    if (f && f->kind == ArgKind::MemoryFormat && f->i == static_cast<int>(MemoryFormat::Contiguous)) return contiguousStrides(in.sizes);
    return preservedStrides(in, in.sizes);
}

Result<MetaOutputs> cloneLike(const NodeArgs& a) {
    auto t = a.tensor("self");
    if (!t) return t.status();
    TensorMeta out = **t;
    out.strides = likeStrides(a, **t, "memory_format");
    out.storageOffset = SymInt::literal(0);
    out.requiresGrad = false;
    if (auto d = a.scalarType("dtype")) out.dtype = *d;
    return singleTensor(std::move(out));
}

Result<MetaOutputs> maskedFill(const NodeArgs& a) {
    auto self = a.tensor("self");
    auto mask = a.tensor("mask");
    if (!self) return self.status();
    if (!mask) return mask.status();
    auto shape = broadcastShapes({(*self)->sizes, (*mask)->sizes});
    if (!shape) return a.error("mask", shape.error());
    TensorMeta out = contiguousMeta((*self)->dtype, *shape, (*self)->device);
    out.strides = iteratorStrides({*self, *mask}, *shape);
    return singleTensor(std::move(out));
}

ScalarType numberDtype(const Argument* v) {
    if (!v) return ScalarType::Float32;
    if (v->kind == ArgKind::Bool) return ScalarType::Bool;
    if (v->kind == ArgKind::Int || v->kind == ArgKind::SymInt) return ScalarType::Int64;
    return ScalarType::Float32;
}

Device deviceArg(const NodeArgs& a) {
    const Argument* d = a.get("device");
    return d && d->kind == ArgKind::Device ? d->device() : Device{};
}

Result<MetaOutputs> arange(const NodeArgs& a, bool hasStart, bool hasStep) {
    double start = 0, step = 1;
    if (hasStart) {
        auto s = a.number("start");
        if (!s) return s.status();
        start = *s;
    }
    auto end = a.number("end");
    if (!end) return end.status();
    if (hasStep) {
        auto s = a.number("step");
        if (!s) return s.status();
        step = *s;
    }
    if (step == 0) return a.error("step", "step must be nonzero");
    auto length = static_cast<int64_t>(std::ceil((*end - start) / step));
    if (length < 0) return a.error("end", "upper bound and step are inconsistent with the start");
    ScalarType dtype = ScalarType::Int64;
    for (const char* n : {"start", "end", "step"})
        if (const Argument* v = a.get(n); v && v->kind == ArgKind::Float) dtype = ScalarType::Float32;
    if (auto d = a.scalarType("dtype")) dtype = *d;
    return singleTensor(contiguousMeta(dtype, {SymInt::literal(length)}, deviceArg(a)));
}

Result<MetaOutputs> factory(const NodeArgs& a, const std::string& sizeArg, std::optional<ScalarType> fallback) {
    auto sizes = a.symInts(sizeArg);
    if (!sizes) return sizes.status();
    ScalarType dtype = fallback.value_or(numberDtype(a.get("fill_value")));
    if (auto d = a.scalarType("dtype")) dtype = *d;
    return singleTensor(contiguousMeta(dtype, *sizes, deviceArg(a)));
}

// The *_like factories and fill make what clone makes: self's shape, strides as memory_format says, dtype if given.
Result<MetaOutputs> likeFactory(const NodeArgs& a) { return cloneLike(a); }

} // namespace

void registerPointwise(std::vector<std::pair<std::string, MetaFn>>& t) {
    t.emplace_back("aten::masked_fill.Scalar", maskedFill);
    t.emplace_back("aten::masked_fill.Tensor", maskedFill);
    t.emplace_back("aten::clone.default", cloneLike);
    t.emplace_back("aten::lift_fresh_copy.default", cloneLike);
    t.emplace_back("aten::_to_copy.default", cloneLike);
    t.emplace_back("aten::detach.default", [](const NodeArgs& a) { return sameAs(a, "self"); });
    t.emplace_back("aten::alias.default", [](const NodeArgs& a) { return sameAs(a, "self"); });
    t.emplace_back("aten::lift_fresh.default", [](const NodeArgs& a) { return sameAs(a, "self"); });
    t.emplace_back("aten::dropout.default", [](const NodeArgs& a) -> Result<MetaOutputs> {
        auto train = a.boolean("train");
        if (train && !*train) return sameAs(a, "input"); // eval: the input itself
        auto t = a.tensor("input");
        if (!t) return t.status();
        return singleTensor(contiguousMeta((*t)->dtype, (*t)->sizes, (*t)->device));
    });
    t.emplace_back("aten::native_dropout.default", [](const NodeArgs& a) -> Result<MetaOutputs> {
        auto t = a.tensor("input");
        if (!t) return t.status();
        TensorMeta out = **t;
        out.strides = preservedStrides(**t, (*t)->sizes);
        TensorMeta mask = out;
        mask.dtype = ScalarType::Bool;
        return MetaOutputs{InferredValue::tensor(out), InferredValue::tensor(mask)};
    });
    t.emplace_back("aten::contiguous.default", [](const NodeArgs& a) -> Result<MetaOutputs> {
        auto s = a.tensor("self");
        if (!s) return s.status();
        if (isContiguous(**s)) return singleTensor(**s); // returns self
        return singleTensor(contiguousMeta((*s)->dtype, (*s)->sizes, (*s)->device));
    });
    t.emplace_back("aten::arange.default", [](const NodeArgs& a) { return arange(a, false, false); });
    t.emplace_back("aten::arange.start", [](const NodeArgs& a) { return arange(a, true, false); });
    t.emplace_back("aten::arange.start_step", [](const NodeArgs& a) { return arange(a, true, true); });
    t.emplace_back("aten::full.default", [](const NodeArgs& a) { return factory(a, "size", std::nullopt); });
    t.emplace_back("aten::zeros.default", [](const NodeArgs& a) { return factory(a, "size", ScalarType::Float32); });
    t.emplace_back("aten::ones.default", [](const NodeArgs& a) { return factory(a, "size", ScalarType::Float32); });
    t.emplace_back("aten::empty.memory_format", [](const NodeArgs& a) { return factory(a, "size", ScalarType::Float32); });
    t.emplace_back("aten::scalar_tensor.default", [](const NodeArgs& a) -> Result<MetaOutputs> {
        ScalarType dtype = ScalarType::Float32;
        if (auto d = a.scalarType("dtype")) dtype = *d;
        return singleTensor(contiguousMeta(dtype, {}, deviceArg(a)));
    });
    for (const char* op : {"aten::full_like.default", "aten::zeros_like.default", "aten::ones_like.default", "aten::empty_like.default"})
        t.emplace_back(op, likeFactory);
    t.emplace_back("aten::fill.Scalar", [](const NodeArgs& a) { return likeFactory(a); });
    // cumsum(self, dim, *, dtype=None): self's shape, contiguous; integer and bool inputs sum in int64
    t.emplace_back("aten::cumsum.default", [](const NodeArgs& a) -> Result<MetaOutputs> {
        auto s = a.tensor("self");
        if (!s) return s.status();
        auto d = wrapDim(a, "dim", a.optInteger("dim").value_or(0), static_cast<int64_t>((*s)->sizes.size()));
        if (!d) return d.status();
        ScalarType dtype = (*s)->dtype;
        if (categoryOf(dtype) < TypeCategory::Floating) dtype = ScalarType::Int64;
        if (auto given = a.scalarType("dtype")) dtype = *given;
        return singleTensor(contiguousMeta(dtype, (*s)->sizes, (*s)->device));
    });
}

} // namespace irlens::core::meta
