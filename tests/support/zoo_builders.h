#pragma once
// What the zoo's sources share (zoo_programs.cpp: the small programs and the list; zoo_nets.cpp: the nets in
// the shape of the bigger models): module-stack and naming helpers, nn.Linear as export lowers it, and the
// builders the list calls. Not for tests: they take the programs from support/zoo_programs.h.
#include "support/zoo_programs.h"

#include "core/ir/builder.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace irlens::testing::zoo {

using namespace irlens::core;

/// 1 + a seeded value in [-scale, scale): a positive scale or variance.
inline TensorData positiveTensor(const std::vector<int64_t>& sizes, uint64_t seed, float scale) {
    TensorData t = makeSeededTensor(sizes, seed, scale);
    std::vector<std::byte> bytes = t.contiguousBytes();
    auto* v = reinterpret_cast<float*>(bytes.data());
    for (size_t k = 0; k < bytes.size() / sizeof(float); ++k) v[k] += 1.0f;
    t.storage = Storage::fromBytes(std::move(bytes));
    return t;
}

/// "name", "name_1", "name_2", ...: the k-th node of a kind as torch.export names it.
inline std::string numbered(const std::string& base, int& counter) {
    const int k = counter++;
    return k == 0 ? base : base + "_" + std::to_string(k);
}

/// Node names as torch.fx gives them, kind by kind ("add", "add_1", ...). fx never names a node as a
/// Python builtin, so the first node of such a kind (pow, slice, ...) is already "pow_1".
class FxNames {
public:
    std::string operator()(const std::string& base) {
        static const std::set<std::string> builtins{"abs", "all", "any", "max", "min", "pow", "round", "slice", "sum"};
        auto [at, added] = m_counts.try_emplace(base, builtins.count(base) ? 1 : 0);
        return numbered(base, at->second);
    }

private:
    std::map<std::string, int> m_counts;
};

/// A module path as a name: "p_" + "layer1.0.bn1" -> "p_layer1_0_bn1".
inline std::string placeholderName(const std::string& prefix, const std::string& path) {
    std::string value = prefix + path;
    for (auto& c : value)
        if (c == '.') c = '_';
    return value;
}

/// The class of a module that holds others in a zoo model (the Sequential of the residual stack's blocks, a
/// block, the GPT block's attention and MLP), as the model's source declares it.
inline std::string enclosingModuleType(const std::string& rootType, const std::string& path) {
    if (rootType == "zoo.Stack") return path == "layers" ? "torch.nn.modules.container.Sequential" : "zoo.Block";
    if (rootType == "zoo.TinyGpt") return path == "attn" ? "zoo.Attention" : "zoo.Mlp";
    const auto depth = std::count(path.begin(), path.end(), '.');
    // "layer2", "layer2.0", "layer2.0.downsample": the stage, its block, the block's shortcut
    if (rootType == "zoo.ConvNet") return depth == 1 ? "zoo.BasicBlock" : "torch.nn.modules.container.Sequential";
    if (rootType == "zoo.DepthwiseNet") {
        if (path == "features") return "torch.nn.modules.container.Sequential";
        return depth == 0 ? "zoo.ConvBnAct" : "zoo.InvertedResidual";
    }
    if (rootType == "zoo.Gpt") {
        if (path == "blocks") return "torch.nn.modules.container.ModuleList";
        if (depth == 1) return "zoo.Block";
        return path.find(".attn") != std::string::npos ? "zoo.Attention" : "zoo.Mlp";
    }
    if (rootType == "zoo.Decoder") {
        if (path == "layers") return "torch.nn.modules.container.ModuleList";
        if (path.find(".attn") != std::string::npos) return "zoo.Attention";
        if (path.find(".mlp") != std::string::npos) return "zoo.SwiGlu";
        return "zoo.DecoderBlock";
    }
    return "torch.nn.modules.module.Module";
}

/// Where a node came from: its module path below the root (empty: the root) and a line of the model's forward.
/// The module stack holds the whole chain as torch.export records it: the root, every enclosing module
/// ("layers", "layers.3") and the node's own ("layers.3.norm").
inline NodeBuilder& at(NodeBuilder& n, const std::string& rootType, const std::string& path, const std::string& type, int line,
                       const std::string& code) {
    n.module("L__self__", "", rootType);
    for (size_t dot = path.find('.'); !path.empty(); dot = path.find('.', dot + 1)) {
        const std::string prefix = path.substr(0, dot);
        n.module(placeholderName("L__self___", prefix), prefix, dot == std::string::npos ? type : enclosingModuleType(rootType, prefix));
        if (dot == std::string::npos) break;
    }
    n.stackTrace("  File \"zoo/models.py\", line " + std::to_string(line) + ", in forward\n    " + code + "\n");
    // the module call, or the tensor method or function, the node came from
    if (!path.empty()) {
        n.sourceFn(placeholderName("l__self___", path), type);
    } else {
        n.sourceFn(n.name(), "builtin_function_or_method." + n.name());
    }
    return n;
}

/// The user input "tokens" i64[1, length] with its sample input: token k is (k * step + offset) % vocabulary.
inline std::string tokensInput(ProgramBuilder& b, int64_t length, int64_t vocabulary, int64_t step, int64_t offset) {
    const std::string tokens = b.userInput("tokens", dense({1, length}, ScalarType::Int64));
    std::vector<int64_t> sample(static_cast<size_t>(length));
    for (int64_t k = 0; k < length; ++k) sample[static_cast<size_t>(k)] = (k * step + offset) % vocabulary;
    b.sampleInput(makeInt64Tensor({1, length}, sample));
    return tokens;
}

/// A view's meta: `sizes` over `strides` from `offset` elements into its storage.
inline TensorMeta strided(const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides, int64_t offset = 0) {
    TensorMeta m = dense(sizes);
    m.strides.clear();
    for (int64_t s : strides) m.strides.push_back(SymInt::literal(s));
    m.storageOffset = SymInt::literal(offset);
    return m;
}

/// nn.Linear as export lowers it: permute(weight) then addmm(bias, x, permute); returns the addmm's name.
struct LinearLayer {
    ProgramBuilder& b;
    std::string rootType;
    int line = 1;

    std::string operator()(const std::string& path, const std::string& in, int64_t rows, int64_t inFeatures, int64_t outFeatures,
                           const std::string& permuteName, const std::string& addmmName, uint64_t seed) {
        const std::string value = placeholderName("p_", path);
        const float scale = 1.0f / static_cast<float>(inFeatures) * 4.0f;
        b.parameter(value + "_weight", path + ".weight", makeSeededTensor({outFeatures, inFeatures}, seed, scale));
        b.parameter(value + "_bias", path + ".bias", makeSeededTensor({outFeatures}, seed + 1, scale));
        const std::string code = "h = self." + path + "(h)";
        auto p = b.call("torch.ops.aten.permute.default", permuteName).arg("self", value + "_weight").arg("dims", Argument::ints({1, 0}))
                     .out(transposed(outFeatures, inFeatures));
        at(p, rootType, path, "torch.nn.modules.linear.Linear", line, code);
        auto a = b.call("torch.ops.aten.addmm.default", addmmName).arg("self", value + "_bias").arg("mat1", in).arg("mat2", permuteName)
                     .out(dense({rows, outFeatures}));
        at(a, rootType, path, "torch.nn.modules.linear.Linear", line++, code);
        return addmmName;
    }
};

ProgramPtr mlpTraining();
ProgramPtr dtypeMix();
ProgramPtr bufferMutation();
ProgramPtr condBranch();
ProgramPtr dynamicMlp();
ProgramPtr gptTraining(int blocks = 2);
ProgramPtr residualStack(int blocks = 24);
ProgramPtr convNet();
ProgramPtr depthwiseNet(bool training = false);
ProgramPtr decoderStack(int blocks = 4);

} // namespace irlens::testing::zoo
