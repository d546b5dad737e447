// Metas of the gradient ops of the layers (convolution, layer / group norm, 2-D pooling) and of
// grid_sampler_2d and resize_. A gradient whose output_mask entry is False is None.

#include "core/ops/meta_common.h"

namespace irlens::core::meta {

namespace {

// output_mask as written (bool list); absent means every output.
std::vector<bool> outputMask(const NodeArgs& a) {
    std::vector<bool> mask{true, true, true};
    const Argument* m = a.get("output_mask");
    if (!m || m->list.size() != 3) return mask;
    for (size_t k = 0; k < 3; ++k) mask[k] = m->list[k].kind == ArgKind::Int ? m->list[k].i != 0 : m->list[k].b;
    return mask;
}

InferredValue maybe(bool wanted, TensorMeta m) { return wanted ? InferredValue::tensor(std::move(m)) : InferredValue{}; }

Result<MetaOutputs> convolutionBackward(const NodeArgs& a) {
    IRLENS_ASSIGN_OR_RETURN(go, a.tensor("grad_output"));
    IRLENS_ASSIGN_OR_RETURN(in, a.tensor("input"));
    IRLENS_ASSIGN_OR_RETURN(w, a.tensor("weight"));
    if (go->sizes.size() < 2) return a.error("grad_output", "expected a batch and a channel dimension");
    auto mask = outputMask(a);
    std::vector<SymInt> biasSize{go->sizes[1]};
    if (!a.isNone("bias_sizes")) {
        auto b = a.symInts("bias_sizes");
        if (b && !b->empty()) biasSize = *b;
    }
    return MetaOutputs{maybe(mask[0], contiguousMeta(in->dtype, in->sizes, in->device)), maybe(mask[1], contiguousMeta(w->dtype, w->sizes, w->device)),
                       maybe(mask[2], contiguousMeta(go->dtype, biasSize, go->device))};
}

Result<MetaOutputs> layerNormBackward(const NodeArgs& a) {
    IRLENS_ASSIGN_OR_RETURN(in, a.tensor("input"));
    IRLENS_ASSIGN_OR_RETURN(norm, a.symInts("normalized_shape"));
    auto mask = outputMask(a);
    const TensorMeta* w = a.optTensor("weight");
    const TensorMeta* b = a.optTensor("bias");
    return MetaOutputs{maybe(mask[0], contiguousMeta(in->dtype, in->sizes, in->device)),
                       maybe(mask[1], contiguousMeta(in->dtype, w ? w->sizes : norm, in->device)),
                       maybe(mask[2], contiguousMeta(in->dtype, b ? b->sizes : norm, in->device))};
}

Result<MetaOutputs> groupNormBackward(const NodeArgs& a) {
    IRLENS_ASSIGN_OR_RETURN(in, a.tensor("input"));
    IRLENS_ASSIGN_OR_RETURN(C, a.symInt("C"));
    auto mask = outputMask(a);
    return MetaOutputs{maybe(mask[0], contiguousMeta(in->dtype, in->sizes, in->device)), maybe(mask[1], contiguousMeta(in->dtype, {C}, in->device)),
                       maybe(mask[2], contiguousMeta(in->dtype, {C}, in->device))};
}

// The pooling gradients: the input's sizes, contiguous.
Result<MetaOutputs> likeSelf(const NodeArgs& a) {
    IRLENS_ASSIGN_OR_RETURN(self, a.tensor("self"));
    return singleTensor(contiguousMeta(self->dtype, self->sizes, self->device));
}

Result<MetaOutputs> gridSampler2d(const NodeArgs& a) {
    IRLENS_ASSIGN_OR_RETURN(in, a.tensor("input"));
    IRLENS_ASSIGN_OR_RETURN(grid, a.tensor("grid"));
    if (in->sizes.size() != 4 || grid->sizes.size() != 4) return a.error("grid", "expected a 4-D input and a 4-D grid");
    return singleTensor(contiguousMeta(in->dtype, {in->sizes[0], in->sizes[1], grid->sizes[1], grid->sizes[2]}, in->device));
}

// resize_: the same sizes keep self's strides; other sizes are contiguous.
Result<MetaOutputs> resize(const NodeArgs& a) {
    IRLENS_ASSIGN_OR_RETURN(self, a.tensor("self"));
    IRLENS_ASSIGN_OR_RETURN(size, a.symInts("size"));
    bool same = size.size() == self->sizes.size();
    for (size_t k = 0; same && k < size.size(); ++k) same = sameSize(size[k], self->sizes[k]);
    if (same) return singleTensor(*self);
    return singleTensor(contiguousMeta(self->dtype, size, self->device));
}

} // namespace

void registerBackward(std::vector<std::pair<std::string, MetaFn>>& t) {
    t.emplace_back("aten::convolution_backward.default", convolutionBackward);
    t.emplace_back("aten::native_layer_norm_backward.default", layerNormBackward);
    t.emplace_back("aten::native_group_norm_backward.default", groupNormBackward);
    t.emplace_back("aten::_adaptive_avg_pool2d_backward.default", likeSelf);
    t.emplace_back("aten::avg_pool2d_backward.default", likeSelf);
    t.emplace_back("aten::max_pool2d_with_indices_backward.default", likeSelf);
    t.emplace_back("aten::grid_sampler_2d.default", gridSampler2d);
    t.emplace_back("aten::resize_.default", resize);
}

} // namespace irlens::core::meta
