// Meta functions of the PT2E quantization ops (quantized_decomposed::*): elementwise conversions
// that keep the input's shape and layout and change only the dtype, and choose_qparams' two
// one-element results (torch/ao/quantization/fx/_decomposed.py, the ops' meta implementations).

#include "core/ops/meta_common.h"

namespace irlens::core::meta {

namespace {

// The input's sizes and (dense-preserving) strides with another dtype.
Result<MetaOutputs> convertTo(const NodeArgs& a, std::optional<ScalarType> dtype, const char* what) {
    IRLENS_ASSIGN_OR_RETURN(in, a.tensor("input"));
    if (!dtype) return a.error(what, "missing or not a dtype");
    TensorMeta out = *in;
    out.dtype = *dtype;
    out.strides = preservedStrides(*in, in->sizes);
    out.requiresGrad = false;
    return singleTensor(std::move(out));
}

Result<MetaOutputs> quantize(const NodeArgs& a) { return convertTo(a, a.scalarType("dtype"), "dtype"); }

Result<MetaOutputs> dequantize(const NodeArgs& a) {
    // out_dtype is keyword-only and optional: float32 unless given.
    const auto out = a.isNone("out_dtype") ? std::optional<ScalarType>(ScalarType::Float32) : a.scalarType("out_dtype");
    return convertTo(a, out, "out_dtype");
}

Result<MetaOutputs> chooseQParams(const NodeArgs& a) {
    IRLENS_ASSIGN_OR_RETURN(in, a.tensor("input"));
    return MetaOutputs{InferredValue::tensor(contiguousMeta(ScalarType::Float64, {SymInt::literal(1)}, in->device)),
                       InferredValue::tensor(contiguousMeta(ScalarType::Int64, {SymInt::literal(1)}, in->device))};
}

} // namespace

void registerQuant(std::vector<std::pair<std::string, MetaFn>>& t) {
    for (const char* key : {"quantized_decomposed::quantize_per_tensor.default", "quantized_decomposed::quantize_per_tensor.tensor",
                            "quantized_decomposed::quantize_per_channel.default"})
        t.emplace_back(key, quantize);
    for (const char* key : {"quantized_decomposed::dequantize_per_tensor.default",
                            "quantized_decomposed::dequantize_per_tensor.tensor",
                            "quantized_decomposed::dequantize_per_channel.default"})
        t.emplace_back(key, dequantize);
    t.emplace_back("quantized_decomposed::choose_qparams.tensor", chooseQParams);
}

} // namespace irlens::core::meta
