#include "core/ops/op_tags.h"

#include <unordered_map>

namespace irlens::core {

const std::vector<std::string>& layerTags(const std::string& opName) {
    static const std::unordered_map<std::string, std::vector<std::string>> table = [] {
        const std::pair<const char*, std::vector<const char*>> groups[] = {
            {"linear", {"convolution", "_convolution", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
                        "conv_transpose3d", "mm", "bmm", "addmm", "matmul", "linear", "baddbmm", "addbmm", "einsum", "mv", "dot",
                        "scaled_dot_product_attention", "_scaled_dot_product_flash_attention",
                        "_scaled_dot_product_flash_attention_for_cpu", "_scaled_dot_product_efficient_attention"}},
            {"normalization", {"batch_norm", "native_batch_norm", "_native_batch_norm_legit", "_native_batch_norm_legit_no_training",
                               "_native_batch_norm_legit_functional", "layer_norm", "native_layer_norm", "group_norm",
                               "native_group_norm", "rms_norm", "instance_norm"}},
            {"activation", {"relu", "relu6", "gelu", "silu", "sigmoid", "tanh", "hardtanh", "hardswish", "hardsigmoid", "elu",
                            "leaky_relu", "mish", "softplus", "glu", "softmax", "_softmax", "log_softmax", "_log_softmax",
                            "_safe_softmax", "dropout", "native_dropout", "feature_dropout"}},
            {"pooling", {"avg_pool1d", "avg_pool2d", "avg_pool3d", "max_pool1d", "max_pool2d", "max_pool2d_with_indices",
                         "max_pool3d_with_indices", "adaptive_avg_pool1d", "adaptive_avg_pool2d", "_adaptive_avg_pool2d",
                         "_adaptive_avg_pool3d", "adaptive_max_pool2d"}},
            {"view", {"_unsafe_view", "_reshape_alias", "lift_fresh_copy", "lift_fresh"}},
            // PyTorch's own `pointwise` tag, for training-IR ops whose table rows carry no tags
            {"pointwise", {"masked_fill"}},
        };
        std::unordered_map<std::string, std::vector<std::string>> t;
        for (const auto& [tag, names] : groups)
            for (const char* name : names) t[name].push_back(tag);
        return t;
    }();
    static const std::vector<std::string> none;
    std::string name = opName.size() > 1 && opName.back() == '_' ? opName.substr(0, opName.size() - 1) : opName;
    auto it = table.find(name);
    return it == table.end() ? none : it->second;
}

} // namespace irlens::core
