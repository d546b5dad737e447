// FLOP estimates for the profiler: 2·M·N·K for matrix products, 2·outputs·(C/groups)·kernel for
// convolutions, a few per element for normalisations, one per element for pointwise ops and for
// reductions' inputs, none for views and copies. The op family is classified once per plan node.

#include "core/exec/engine.h"

#include <unordered_map>

namespace irlens::core::exec {

namespace {

enum FlopClass { kPointwise = 0, kNone, kMatmul, kAddmm, kBmm, kBaddbmm, kLinear, kConv, kAttention, kNorm, kReduce };

const EValue* argNamed(std::span<const BoundValue> args, const char* name, size_t position) {
    for (const auto& a : args)
        if (a.name && *a.name == name) return a.value;
    return position < args.size() ? args[position].value : nullptr;
}
double numelOf(const EValue* v) { return v && v->isTensor() ? static_cast<double>(v->tensor.numel()) : 0.0; }
double lastDim(const EValue* v) {
    return v && v->isTensor() && v->tensor.dim() > 0 ? static_cast<double>(v->tensor.size(v->tensor.dim() - 1)) : 0.0;
}

} // namespace

int flopClassOf(const std::string& op) {
    static const std::unordered_map<std::string, int> table = [] {
        std::unordered_map<std::string, int> t;
        for (const char* n : {"view", "_unsafe_view", "reshape", "t", "transpose", "permute", "expand", "unsqueeze", "squeeze", "flatten",
                              "unflatten", "select", "slice", "split", "split_with_sizes", "clone", "contiguous", "detach", "alias",
                              "_to_copy", "lift_fresh_copy", "embedding", "cat", "sym_size", "dropout", "arange", "full", "zeros", "ones",
                              "empty", "index_select", "as_strided", "cond", "broadcast_in_dim", "convert_element_type"})
            t[n] = kNone;
        for (const char* n : {"mm", "matmul", "dot", "mv"}) t[n] = kMatmul;
        t["addmm"] = kAddmm;
        t["bmm"] = kBmm;
        t["baddbmm"] = kBaddbmm;
        t["linear"] = kLinear;
        for (const char* n : {"convolution", "conv2d", "conv1d", "_convolution"}) t[n] = kConv;
        t["scaled_dot_product_attention"] = kAttention;
        for (const char* n : {"_native_batch_norm_legit_no_training", "batch_norm", "native_layer_norm", "layer_norm", "_softmax", "softmax",
                              "_log_softmax", "log_softmax", "native_batch_norm", "native_group_norm", "group_norm"})
            t[n] = kNorm;
        for (const char* n : {"sum", "mean", "amax", "amin", "var", "std", "prod", "max_pool2d_with_indices", "adaptive_avg_pool2d",
                              "avg_pool2d", "max_pool2d"})
            t[n] = kReduce;
        return t;
    }();
    auto it = table.find(op);
    return it == table.end() ? kPointwise : it->second;
}

double estimateWork(const Graph& graph, const Node& node, int flopClass) {
    auto numel = [&](const std::string& name) -> double {
        const TensorMeta* m = name.empty() ? nullptr : graph.tensorMeta(name);
        if (!m) return 0;
        double n = 1;
        for (const auto& s : m->sizes) n *= s.isStatic() ? static_cast<double>(s.value) : 1.0;
        return n;
    };
    auto lastDimOf = [&](size_t input) -> double {
        if (input >= node.inputs.size()) return 1;
        const TensorMeta* m = graph.tensorMeta(node.inputs[input].arg.s);
        return m && !m->sizes.empty() && m->sizes.back().isStatic() ? static_cast<double>(m->sizes.back().value) : 1.0;
    };
    double out = 0;
    for (const auto& o : node.outputs) out += numel(o.s);
    switch (flopClass) {
    case kNone: return 0;
    case kMatmul: case kBmm: return out * lastDimOf(0);
    case kAddmm: case kBaddbmm: return out * lastDimOf(1);
    case kLinear: return out * lastDimOf(0);
    case kConv: {
        const TensorMeta* w = node.inputs.size() > 1 ? graph.tensorMeta(node.inputs[1].arg.s) : nullptr;
        double perOut = 1;
        if (w)
            for (size_t d = 1; d < w->sizes.size(); ++d) perOut *= w->sizes[d].isStatic() ? static_cast<double>(w->sizes[d].value) : 1.0;
        return out * perOut;
    }
    default: return out;
    }
}

bool workKnown(const Graph& graph, const Node& node) {
    for (const auto& o : node.outputs) {
        if (o.kind != ArgKind::Tensor) continue;
        const TensorMeta* m = graph.tensorMeta(o.s);
        if (!m) return false;
        for (const auto& s : m->sizes)
            if (!s.isStatic()) return false;
    }
    return true;
}

double estimateFlops(const PlanNode& pn, std::span<const BoundValue> args, const std::vector<EValue>& outputs) {
    const EValue* out = outputs.empty() ? nullptr : &outputs[0];
    if (!out || !out->isTensor()) return 0;
    const double outN = static_cast<double>(out->tensor.numel());
    switch (pn.flopClass) {
    case kNone: return 0;
    case kMatmul: return 2.0 * outN * lastDim(argNamed(args, "self", 0));
    case kAddmm: return 2.0 * outN * lastDim(argNamed(args, "mat1", 1));
    case kBmm: return 2.0 * outN * lastDim(argNamed(args, "self", 0));
    case kBaddbmm: return 2.0 * outN * lastDim(argNamed(args, "batch1", 1));
    case kLinear: return 2.0 * outN * lastDim(argNamed(args, "input", 0));
    case kConv: {
        const EValue* w = argNamed(args, "weight", 1);
        if (!w || !w->isTensor() || w->tensor.dim() < 2) return 0;
        double perOut = 1;
        for (int64_t d = 1; d < w->tensor.dim(); ++d) perOut *= static_cast<double>(w->tensor.size(d));
        return 2.0 * outN * perOut;
    }
    case kAttention: {
        const EValue* q = argNamed(args, "query", 0);
        const EValue* k = argNamed(args, "key", 1);
        if (!q || !k || !q->isTensor() || !k->isTensor() || k->tensor.dim() < 2) return 0;
        double S = static_cast<double>(k->tensor.size(k->tensor.dim() - 2));
        return 4.0 * numelOf(q) * S; // q·kᵀ and p·v
    }
    case kNorm: return 5.0 * outN;
    case kReduce: return numelOf(argNamed(args, "self", 0));
    default: return outN;
    }
}

} // namespace irlens::core::exec
