// FLOP estimates for the profiler: 2·M·N·K for matrix products, 2·outputs·(C/groups)·kernel for
// convolutions, one per output element for pointwise ops and reductions' inputs.

#include "core/exec/engine.h"

namespace irlens::core::exec {

namespace {
const EValue* argNamed(const std::vector<BoundValue>& args, const char* name, size_t position) {
    for (const auto& a : args)
        if (a.name && *a.name == name) return a.value;
    return position < args.size() ? args[position].value : nullptr;
}
double numelOf(const EValue* v) { return v && v->isTensor() ? static_cast<double>(v->tensor.numel()) : 0.0; }
} // namespace

double estimateFlops(const PlanNode& pn, const std::vector<BoundValue>& args, const std::vector<EValue>& outputs) {
    const std::string& op = pn.node->target.op;
    const EValue* out = outputs.empty() ? nullptr : &outputs[0];
    if (!out || !out->isTensor()) return 0;
    double outN = static_cast<double>(out->tensor.numel());
    if (op == "mm" || op == "addmm" || op == "bmm" || op == "matmul" || op == "linear" || op == "baddbmm") {
        const EValue* a = argNamed(args, op == "addmm" || op == "baddbmm" ? "mat1" : "self", op == "addmm" || op == "baddbmm" ? 1 : 0);
        if (op == "linear") a = argNamed(args, "input", 0);
        if (op == "bmm" || op == "baddbmm") a = argNamed(args, op == "bmm" ? "self" : "batch1", op == "bmm" ? 0 : 1);
        if (!a || !a->isTensor() || a->tensor.dim() == 0) return 0;
        double k = static_cast<double>(a->tensor.size(a->tensor.dim() - 1));
        return 2.0 * outN * k;
    }
    if (op == "convolution" || op == "conv2d" || op == "conv1d" || op == "conv3d") {
        const EValue* w = argNamed(args, "weight", 1);
        if (!w || !w->isTensor() || w->tensor.dim() < 2) return 0;
        double perOut = 1;
        for (int64_t d = 1; d < w->tensor.dim(); ++d) perOut *= static_cast<double>(w->tensor.size(d));
        return 2.0 * outN * perOut;
    }
    if (op == "scaled_dot_product_attention") {
        const EValue* q = argNamed(args, "query", 0);
        const EValue* k = argNamed(args, "key", 1);
        if (!q || !k || !q->isTensor() || !k->isTensor() || q->tensor.dim() < 2) return 0;
        double S = static_cast<double>(k->tensor.size(k->tensor.dim() - 2));
        double E = static_cast<double>(q->tensor.size(q->tensor.dim() - 1));
        return 4.0 * numelOf(q) / E * S * E;
    }
    // views and copies do no arithmetic
    static const char* const kNoArith[] = {"view", "_unsafe_view", "reshape", "t", "transpose", "permute", "expand", "unsqueeze",
                                           "squeeze", "flatten", "unflatten", "select", "slice", "split", "clone", "contiguous",
                                           "detach", "alias", "_to_copy", "lift_fresh_copy", "embedding", "cat", "sym_size",
                                           "dropout", "arange", "full", "zeros", "ones", "empty", "index_select", "as_strided"};
    for (const char* n : kNoArith)
        if (op == n) return 0;
    if (op == "_native_batch_norm_legit_no_training" || op == "batch_norm" || op == "native_layer_norm" || op == "layer_norm" ||
        op == "_softmax" || op == "softmax" || op == "_log_softmax" || op == "log_softmax")
        return 5.0 * outN;
    if (op == "sum" || op == "mean" || op == "amax" || op == "amin" || op == "var" || op == "max_pool2d_with_indices" ||
        op == "adaptive_avg_pool2d" || op == "avg_pool2d" || op == "max_pool2d")
        return numelOf(argNamed(args, "self", 0));
    return outN;
}

} // namespace irlens::core::exec
