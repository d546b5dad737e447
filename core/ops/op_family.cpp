#include "core/layout/op_family.h"

#include <array>
#include <string_view>

namespace irlens::core {
namespace {

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

bool anyOf(std::string_view op, std::initializer_list<std::string_view> names) {
    for (auto n : names)
        if (op == n) return true;
    return false;
}

} // namespace

OpFamily opFamilyOf(const Target& target) {
    if (target.kind == Target::Kind::HigherOrder) return OpFamily::HigherOrder;
    if (target.kind == Target::Kind::Symbolic) return OpFamily::Symbolic;
    if (target.ns == "prims") return OpFamily::Prims;
    std::string_view op = target.op;
    if (!op.empty() && op.back() == '_') op.remove_suffix(1); // in-place forms share the family
    if (startsWith(op, "sym_")) return OpFamily::Symbolic;
    if (op.find("conv") != std::string_view::npos ||
        anyOf(op, {"mm", "bmm", "addmm", "matmul", "linear", "baddbmm", "addbmm", "einsum", "scaled_dot_product_attention",
                   "_scaled_dot_product_flash_attention", "_scaled_dot_product_efficient_attention"}))
        return OpFamily::Linear;
    if (op.find("norm") != std::string_view::npos) return OpFamily::Normalization;
    if (anyOf(op, {"relu", "relu6", "gelu", "silu", "sigmoid", "tanh", "hardtanh", "hardswish", "hardsigmoid", "elu",
                   "leaky_relu", "softmax", "_softmax", "log_softmax", "_log_softmax", "mish", "softplus", "_safe_softmax",
                   "dropout", "native_dropout"}))
        return OpFamily::Activation;
    if (anyOf(op, {"sum", "mean", "amax", "amin", "max", "min", "argmax", "argmin", "prod", "var", "std", "var_mean",
                   "logsumexp", "any", "all", "norm", "cumsum", "avg_pool2d", "max_pool2d", "adaptive_avg_pool2d",
                   "_adaptive_avg_pool2d", "max_pool2d_with_indices", "adaptive_max_pool2d", "avg_pool1d", "max_pool1d"}))
        return OpFamily::Reduction;
    if (anyOf(op, {"view", "_unsafe_view", "reshape", "permute", "transpose", "t", "expand", "squeeze", "unsqueeze",
                   "flatten", "unflatten", "view_as", "expand_as", "alias", "as_strided", "contiguous", "clone",
                   "detach", "lift_fresh_copy", "_to_copy", "to", "unfold", "split", "split_with_sizes", "chunk",
                   "unbind", "movedim", "view_as_real", "view_as_complex", "_reshape_alias", "numpy_T"}))
        return OpFamily::View;
    if (anyOf(op, {"cat", "stack", "slice", "select", "index", "index_select", "gather", "scatter", "scatter_add",
                   "index_put", "embedding", "copy", "narrow", "pad", "constant_pad_nd", "repeat", "roll", "flip",
                   "full", "zeros", "ones", "empty", "arange", "full_like", "zeros_like", "ones_like", "empty_like",
                   "scalar_tensor", "masked_fill", "tril", "triu", "slice_scatter", "select_scatter", "_unsafe_index",
                   "upsample_nearest2d", "upsample_bilinear2d", "new_zeros", "new_ones", "new_full", "new_empty",
                   "empty_strided", "getitem"}))
        return OpFamily::DataMovement;
    if (target.kind == Target::Kind::Op) return OpFamily::Elementwise;
    return OpFamily::Other;
}

const char* opFamilyName(OpFamily family) {
    switch (family) {
    case OpFamily::Linear: return "linear";
    case OpFamily::Normalization: return "normalization";
    case OpFamily::Activation: return "activation";
    case OpFamily::Elementwise: return "elementwise";
    case OpFamily::Reduction: return "reduction";
    case OpFamily::View: return "view";
    case OpFamily::DataMovement: return "data movement";
    case OpFamily::Prims: return "prims";
    case OpFamily::HigherOrder: return "higher-order";
    case OpFamily::Symbolic: return "symbolic";
    case OpFamily::Other: return "other";
    }
    return "other";
}

unsigned opFamilyColor(OpFamily family) {
    // Pale fills so that the palette's text colour stays readable on a light theme.
    switch (family) {
    case OpFamily::Linear: return 0x9ecae1;
    case OpFamily::Normalization: return 0xc7e9c0;
    case OpFamily::Activation: return 0xfdd0a2;
    case OpFamily::Elementwise: return 0xdadaeb;
    case OpFamily::Reduction: return 0xfcbba1;
    case OpFamily::View: return 0xe5e5e5;
    case OpFamily::DataMovement: return 0xfff2ae;
    case OpFamily::Prims: return 0xd9f0d3;
    case OpFamily::HigherOrder: return 0xf1b6da;
    case OpFamily::Symbolic: return 0xd0d1e6;
    case OpFamily::Other: return 0xf0f0f0;
    }
    return 0xf0f0f0;
}

} // namespace irlens::core
