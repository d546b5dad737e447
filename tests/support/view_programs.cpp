// The programs in the shape of the bigger models (support/view_programs.h), compiled once for every test.
#include "support/view_programs.h"

#include "core/io/pt2_writer.h"
#include "support/zoo_files.h"
#include "support/zoo_programs.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <utility>

namespace irlens::testing::owned {

using namespace irlens::core;
using zoo::dense;

/// Unique node names as torch.export gives them: "relu", "relu_1", "relu_2", ...
class NodeNames {
public:
    std::string operator()(const std::string& base) {
        const int k = next_[base]++;
        return k == 0 ? base : base + "_" + std::to_string(k);
    }

private:
    std::map<std::string, int> next_;
};

/// A module path as export spells it in value and key names: "layer1.0.conv1" -> "layer1_0_conv1".
inline std::string underscored(std::string path) {
    std::replace(path.begin(), path.end(), '.', '_');
    return path;
}

/// Places a node in its module: the whole chain of enclosing modules of `path` (types from `enclosingType`), the
/// node's own module of `type`, and a line of the model's forward, then `libraryFrame` (PyTorch's own frame of
/// the layer, as a traceback through an installed torch shows it) when there is one.
inline NodeBuilder& placed(NodeBuilder& n, const std::string& rootType, const std::function<std::string(const std::string&)>& enclosingType,
                           const std::string& path, const std::string& type, int line, const std::string& code,
                           const std::string& libraryFrame = {}) {
    n.module("L__self__", "", rootType);
    // one module per prefix ending at a dot or at the end: "layer1", "layer1.0", "layer1.0.conv1"
    for (size_t end = 0; end < path.size(); ++end) {
        end = std::min(path.find('.', end), path.size());
        const std::string prefix = path.substr(0, end);
        n.module("L__self___" + underscored(prefix), prefix, end == path.size() ? type : enclosingType(prefix));
    }
    n.stackTrace("  File \"views/models.py\", line " + std::to_string(line) + ", in forward\n    " + code + "\n" + libraryFrame);
    return n;
}

/// Builds conv nets: conv, batch norm and activation layers over [1, C, H, W] values with their weights.
struct ConvNetBuilder {
    ConvNetBuilder(ProgramBuilder& builder, std::string root, std::function<std::string(const std::string&)> enclosing)
        : b(builder), rootType(std::move(root)), enclosingType(std::move(enclosing)) {}

    ProgramBuilder& b;
    std::string rootType;
    std::function<std::string(const std::string&)> enclosingType;
    NodeNames names;
    uint64_t seed = 1000;

    NodeBuilder& place(NodeBuilder& n, const std::string& path, const std::string& type, int line, const std::string& code,
                       const std::string& libraryFrame = {}) {
        return placed(n, rootType, enclosingType, path, type, line, code, libraryFrame);
    }

    /// Conv2d without bias: `in` [1, cin, h, w] -> [1, cout, h / stride, w / stride] (padding k / 2).
    std::string conv(const std::string& path, const std::string& in, int64_t cin, int64_t cout, int64_t hw, int64_t kernel, int64_t stride,
                     int64_t groups, int line) {
        const std::string w = "p_" + underscored(path) + "_weight";
        b.parameter(w, path + ".weight", makeSeededTensor({cout, cin / groups, kernel, kernel}, seed++, 1.5f / static_cast<float>(cin / groups * kernel * kernel)));
        const std::string out = names("convolution");
        const int64_t pad = kernel / 2;
        auto n = b.call("torch.ops.aten.convolution.default", out)
                     .arg("input", in).arg("weight", w).arg("bias", Argument::none())
                     .arg("stride", Argument::ints({stride, stride})).arg("padding", Argument::ints({pad, pad}))
                     .arg("dilation", Argument::ints({1, 1})).arg("transposed", Argument::boolean(false))
                     .arg("output_padding", Argument::ints({0, 0})).arg("groups", Argument::integer(groups))
                     .out(dense({1, cout, hw / stride, hw / stride}));
        place(n, path, "torch.nn.modules.conv.Conv2d", line, "x = self." + path + "(x)",
              "  File \"/usr/lib/python3/dist-packages/torch/nn/modules/conv.py\", line 456, in _conv_forward\n"
              "    return F.conv2d(input, weight, bias, self.stride,\n");
        return out;
    }

    /// BatchNorm2d in eval mode over [1, c, hw, hw], with running statistics as training leaves them.
    std::string batchNorm(const std::string& path, const std::string& in, int64_t c, int64_t hw, int line) {
        const std::string v = underscored(path);
        b.parameter("p_" + v + "_weight", path + ".weight", makeFilledTensor({c}, 1.0f));
        b.parameter("p_" + v + "_bias", path + ".bias", makeSeededTensor({c}, seed++, 0.1f));
        b.buffer("b_" + v + "_running_mean", path + ".running_mean", makeSeededTensor({c}, seed++, 0.1f));
        b.buffer("b_" + v + "_running_var", path + ".running_var", makeFilledTensor({c}, 1.0f));
        b.buffer("b_" + v + "_num_batches_tracked", path + ".num_batches_tracked", makeInt64Tensor({}, {0}));
        const std::string node = names("_native_batch_norm_legit_no_training"), out = names("getitem");
        auto n = b.call("torch.ops.aten._native_batch_norm_legit_no_training.default", node)
                     .arg("input", in).arg("weight", "p_" + v + "_weight").arg("bias", "p_" + v + "_bias")
                     .arg("running_mean", "b_" + v + "_running_mean").arg("running_var", "b_" + v + "_running_var")
                     .arg("momentum", Argument::floating(0.1)).arg("eps", Argument::floating(1e-05))
                     .outNamed(out, dense({1, c, hw, hw})).outNamed(node + "_unused_1", dense({0})).outNamed(node + "_unused_2", dense({0}));
        place(n, path, "torch.nn.modules.batchnorm.BatchNorm2d", line, "x = self." + path + "(x)",
              "  File \"/usr/lib/python3/dist-packages/torch/nn/functional.py\", line 2450, in batch_norm\n"
              "    return torch.batch_norm(\n");
        return out;
    }

    std::string relu(const std::string& path, const std::string& in, const std::vector<int64_t>& sizes, int line) {
        const std::string out = names("relu");
        auto n = b.call("torch.ops.aten.relu.default", out).arg("self", in).out(dense(sizes));
        place(n, path, "torch.nn.modules.activation.ReLU", line, "x = self." + path + "(x)");
        return out;
    }

    /// ReLU6 as export lowers it: hardtanh(x, 0, 6).
    std::string relu6(const std::string& path, const std::string& in, const std::vector<int64_t>& sizes, int line) {
        const std::string out = names("hardtanh");
        auto n = b.call("torch.ops.aten.hardtanh.default", out)
                     .arg("self", in).arg("min_val", Argument::floating(0.0)).arg("max_val", Argument::floating(6.0)).out(dense(sizes));
        place(n, path, "torch.nn.modules.activation.ReLU6", line, "x = self." + path + "(x)");
        return out;
    }

    std::string add(const std::string& path, const std::string& type, const std::string& a, const std::string& c,
                    const std::vector<int64_t>& sizes, int line) {
        const std::string out = names("add");
        auto n = b.call("torch.ops.aten.add.Tensor", out).arg("self", a).arg("other", c).out(dense(sizes));
        place(n, path, type, line, "out = out + identity");
        return out;
    }

    /// The head: adaptive average pool to 1x1, flatten, Linear(c, classes) as permute + addmm.
    std::string head(const std::string& poolPath, const std::string& fcPath, const std::string& in, int64_t c, int64_t classes, int line) {
        const std::string pooled = names("_adaptive_avg_pool2d");
        auto p = b.call("torch.ops.aten._adaptive_avg_pool2d.default", pooled).arg("self", in).arg("output_size", Argument::ints({1, 1}))
                     .out(dense({1, c, 1, 1}));
        place(p, poolPath, "torch.nn.modules.pooling.AdaptiveAvgPool2d", line, "x = self." + poolPath + "(x)");
        const std::string flat = names("view");
        auto v = b.call("torch.ops.aten.view.default", flat).arg("self", pooled).arg("size", Argument::ints({1, c})).out(dense({1, c}));
        place(v, "", rootType, line + 1, "x = torch.flatten(x, 1)");
        const std::string fc = underscored(fcPath);
        b.parameter("p_" + fc + "_weight", fcPath + ".weight", makeSeededTensor({classes, c}, seed++, 4.0f / static_cast<float>(c)));
        b.parameter("p_" + fc + "_bias", fcPath + ".bias", makeSeededTensor({classes}, seed++, 0.1f));
        const std::string perm = names("permute"), out = names("addmm");
        auto t = b.call("torch.ops.aten.permute.default", perm).arg("self", "p_" + fc + "_weight").arg("dims", Argument::ints({1, 0}))
                     .out(zoo::transposed(classes, c));
        place(t, fcPath, "torch.nn.modules.linear.Linear", line + 2, "return self." + fcPath + "(x)");
        auto a = b.call("torch.ops.aten.addmm.default", out).arg("self", "p_" + fc + "_bias").arg("mat1", flat).arg("mat2", perm)
                     .out(dense({1, classes}));
        place(a, fcPath, "torch.nn.modules.linear.Linear", line + 2, "return self." + fcPath + "(x)");
        return out;
    }
};

/// A ResNet-like net: x f32[1, 3, 16, 16] -> conv1, bn1, relu, maxpool (8 channels, 8x8) -> layer1 (two basic
/// blocks) -> layer2 (two basic blocks of 16 channels, the first strided with a conv + batch norm downsample,
/// 4x4) -> avgpool -> fc (10 classes): 38 nodes, 20 of them conv or batch norm.
inline ProgramPtr convBnNet() {
    ProgramBuilder b("model");
    b.verifiers({"ATEN"});
    ConvNetBuilder net{b, "views.ResNet", [](const std::string& prefix) {
                           if (prefix.find('.') == std::string::npos) return std::string("torch.nn.modules.container.Sequential");
                           if (prefix.size() > 11 && prefix.substr(prefix.size() - 11) == ".downsample") return std::string("torch.nn.modules.container.Sequential");
                           return std::string("views.BasicBlock");
                       }};
    const std::string x = b.userInput("x", dense({1, 3, 16, 16}));
    b.sampleInput(makeSeededTensor({1, 3, 16, 16}, 1001, 1.0f));
    std::string h = net.relu("relu", net.batchNorm("bn1", net.conv("conv1", x, 3, 8, 16, 3, 1, 1, 10), 8, 16, 11), {1, 8, 16, 16}, 12);
    const std::string pool = net.names("max_pool2d_with_indices"), pooled = net.names("getitem");
    auto mp = b.call("torch.ops.aten.max_pool2d_with_indices.default", pool)
                  .arg("self", h).arg("kernel_size", Argument::ints({3, 3})).arg("stride", Argument::ints({2, 2})).arg("padding", Argument::ints({1, 1}))
                  .outNamed(pooled, dense({1, 8, 8, 8})).outNamed(pool + "_unused_1", dense({1, 8, 8, 8}, ScalarType::Int64));
    net.place(mp, "maxpool", "torch.nn.modules.pooling.MaxPool2d", 13, "x = self.maxpool(x)");
    h = pooled;
    int64_t channels = 8, hw = 8;
    for (int layer = 1; layer <= 2; ++layer)
        for (int block = 0; block < 2; ++block) {
            const std::string path = "layer" + std::to_string(layer) + "." + std::to_string(block);
            const int64_t out = 8 * layer, stride = (layer > 1 && block == 0) ? 2 : 1, outHw = hw / stride;
            std::string y = net.conv(path + ".conv1", h, channels, out, hw, 3, stride, 1, 30);
            y = net.relu(path + ".relu", net.batchNorm(path + ".bn1", y, out, outHw, 31), {1, out, outHw, outHw}, 32);
            y = net.batchNorm(path + ".bn2", net.conv(path + ".conv2", y, out, out, outHw, 3, 1, 1, 33), out, outHw, 34);
            std::string identity = h;
            if (stride != 1 || out != channels)
                identity = net.batchNorm(path + ".downsample.1", net.conv(path + ".downsample.0", h, channels, out, hw, 1, stride, 1, 35), out, outHw, 35);
            h = net.relu(path + ".relu", net.add(path, "views.BasicBlock", y, identity, {1, out, outHw, outHw}, 36), {1, out, outHw, outHw}, 37);
            channels = out, hw = outHw;
        }
    b.userOutput(net.head("avgpool", "fc", h, channels, 10, 14));
    return zoo::finish(b);
}

/// A MobileNet-like net: x f32[1, 3, 16, 16] -> features.0 (strided conv, batch norm, ReLU6; 8 channels, 8x8) ->
/// features.1 (depthwise 3x3 then pointwise projection) -> features.2 (inverted residual: pointwise expansion to 16,
/// depthwise, projection back to 8, residual add) -> features.3 (the same, strided, to 16 channels at 4x4, no
/// residual) -> avgpool -> classifier.1 (10 classes): 29 nodes.
inline ProgramPtr depthwiseNet() {
    ProgramBuilder b("model");
    b.verifiers({"ATEN"});
    ConvNetBuilder net{b, "views.MobileNet", [](const std::string& prefix) {
                           const auto dots = std::count(prefix.begin(), prefix.end(), '.');
                           if (dots == 1 && prefix.rfind("features.", 0) == 0 && prefix != "features.0") return std::string("views.InvertedResidual");
                           if (prefix.size() > 5 && prefix.substr(prefix.size() - 5) == ".conv") return std::string("torch.nn.modules.container.Sequential");
                           return std::string(dots == 0 ? "torch.nn.modules.container.Sequential" : "torchvision.ops.misc.Conv2dNormActivation");
                       }};
    const std::string x = b.userInput("x", dense({1, 3, 16, 16}));
    b.sampleInput(makeSeededTensor({1, 3, 16, 16}, 1002, 1.0f));
    // conv, batch norm and (unless `act` is false) ReLU6 as one Conv2dNormActivation at `path`.0/.1/.2
    auto convBn = [&](const std::string& path, const std::string& in, int64_t cin, int64_t cout, int64_t hw, int64_t kernel, int64_t stride,
                      int64_t groups, bool act, int line) {
        const int64_t outHw = hw / stride;
        std::string y = net.batchNorm(path + ".1", net.conv(path + ".0", in, cin, cout, hw, kernel, stride, groups, line), cout, outHw, line);
        return act ? net.relu6(path + ".2", y, {1, cout, outHw, outHw}, line) : y;
    };
    std::string h = convBn("features.0", x, 3, 8, 16, 3, 2, 1, true, 20);
    // features.1: expansion 1, depthwise then projection
    h = convBn("features.1.conv.0", h, 8, 8, 8, 3, 1, 8, true, 30);
    h = net.batchNorm("features.1.conv.2", net.conv("features.1.conv.1", h, 8, 8, 8, 1, 1, 1, 31), 8, 8, 31);
    // features.2: expansion 2 with the residual; features.3: strided, wider, no residual
    for (int k : {2, 3}) {
        const std::string path = "features." + std::to_string(k);
        const int64_t stride = k == 3 ? 2 : 1, hw = 8, outHw = hw / stride, out = k == 3 ? 16 : 8;
        std::string y = convBn(path + ".conv.0", h, 8, 16, hw, 1, 1, 1, true, 40);
        y = convBn(path + ".conv.1", y, 16, 16, hw, 3, stride, 16, true, 41);
        y = net.batchNorm(path + ".conv.3", net.conv(path + ".conv.2", y, 16, out, outHw, 1, 1, 1, 42), out, outHw, 42);
        h = k == 2 ? net.add(path, "views.InvertedResidual", h, y, {1, out, outHw, outHw}, 43) : y;
    }
    b.userOutput(net.head("avgpool", "classifier.1", h, 16, 10, 50));
    return zoo::finish(b);
}

/// Builds the layers of a transformer over [rows, width] activations: Linears (permute + addmm, or linear at the
/// training-IR level), layer norms and plain ops, each placed in its module.
struct TransformerBuilder {
    TransformerBuilder(ProgramBuilder& builder, std::string root, std::function<std::string(const std::string&)> enclosing, bool training)
        : b(builder), rootType(std::move(root)), enclosingType(std::move(enclosing)), trainingIr(training) {}

    ProgramBuilder& b;
    std::string rootType;
    std::function<std::string(const std::string&)> enclosingType;
    bool trainingIr;
    NodeNames names;
    uint64_t seed = 3000;

    NodeBuilder& place(NodeBuilder& n, const std::string& path, const std::string& type, int line, const std::string& code) {
        return placed(n, rootType, enclosingType, path, type, line, code);
    }

    /// nn.Linear(inFeatures, outFeatures) at `path` over `in` [rows, inFeatures].
    std::string linear(const std::string& path, const std::string& in, int64_t rows, int64_t inFeatures, int64_t outFeatures, int line) {
        const std::string v = "p_" + underscored(path);
        const float scale = 4.0f / static_cast<float>(inFeatures);
        b.parameter(v + "_weight", path + ".weight", makeSeededTensor({outFeatures, inFeatures}, seed++, scale));
        b.parameter(v + "_bias", path + ".bias", makeSeededTensor({outFeatures}, seed++, scale));
        const std::string code = "return self." + path.substr(path.rfind('.') + 1) + "(h)";
        if (trainingIr) {
            const std::string out = names("linear");
            auto l = b.call("torch.ops.aten.linear.default", out).arg("input", in).arg("weight", v + "_weight").arg("bias", v + "_bias")
                         .out(dense({rows, outFeatures}));
            place(l, path, "torch.nn.modules.linear.Linear", line, code);
            return out;
        }
        const std::string perm = names("permute"), out = names("addmm");
        auto p = b.call("torch.ops.aten.permute.default", perm).arg("self", v + "_weight").arg("dims", Argument::ints({1, 0}))
                     .out(zoo::transposed(outFeatures, inFeatures));
        place(p, path, "torch.nn.modules.linear.Linear", line, code);
        auto a = b.call("torch.ops.aten.addmm.default", out).arg("self", v + "_bias").arg("mat1", in).arg("mat2", perm).out(dense({rows, outFeatures}));
        place(a, path, "torch.nn.modules.linear.Linear", line, code);
        return out;
    }

    /// A node of `target` named after `base`, with the arguments `args` sets and one output of `meta`.
    std::string op(const std::string& target, const std::string& base, const std::string& path, const std::string& type, int line,
                   const TensorMeta& meta, const std::function<void(NodeBuilder&)>& args) {
        const std::string out = names(base);
        auto n = b.call(target, out);
        args(n);
        n.out(meta);
        place(n, path, type, line, "h = " + base + "(h)");
        return out;
    }

    /// nn.LayerNorm(width) at `path` over `in` [rows, width].
    std::string norm(const std::string& path, const std::string& in, int64_t rows, int64_t width, int line) {
        const std::string v = "p_" + underscored(path);
        b.parameter(v + "_weight", path + ".weight", makeFilledTensor({width}, 1.0f));
        b.parameter(v + "_bias", path + ".bias", makeFilledTensor({width}, 0.0f));
        if (trainingIr) {
            const std::string out = names("layer_norm");
            auto n = b.call("torch.ops.aten.layer_norm.default", out)
                         .arg("input", in).arg("normalized_shape", Argument::ints({width})).arg("weight", v + "_weight").arg("bias", v + "_bias")
                         .arg("eps", Argument::floating(1e-05)).out(dense({rows, width}));
            place(n, path, "torch.nn.modules.normalization.LayerNorm", line, "h = self.norm(x)");
            return out;
        }
        const std::string node = names("native_layer_norm"), out = names("getitem");
        auto n = b.call("torch.ops.aten.native_layer_norm.default", node)
                     .arg("input", in).arg("normalized_shape", Argument::ints({width})).arg("weight", v + "_weight").arg("bias", v + "_bias")
                     .arg("eps", Argument::floating(1e-05))
                     .outNamed(out, dense({rows, width})).outNamed(node + "_unused_1", dense({rows, 1})).outNamed(node + "_unused_2", dense({rows, 1}));
        place(n, path, "torch.nn.modules.normalization.LayerNorm", line, "h = self.norm(x)");
        return out;
    }
};

/// `blocks` pre-norm decoder blocks under "layers" over 8 tokens of width 16, each: layer norm, q/k/v Linears,
/// scores q k^T scaled, softmax, the mix with v, the output Linear, a residual add, layer norm, a gated MLP (gate
/// and up Linears, SiLU, product, down Linear) and a second residual add: 25 nodes a block and 2 for the "head".
/// With `trainingIr`, as torch.export.export() returns it before run_decompositions() (verifier TRAINING):
/// linear, layer_norm, t, matmul and softmax.int, 17 nodes a block and 1 for the head.
ProgramPtr decoderStack(int blocks, bool trainingIr) {
    constexpr int64_t R = 8, D = 16;
    ProgramBuilder b("model");
    b.verifiers({trainingIr ? "TRAINING" : "ATEN"});
    TransformerBuilder t{b, "views.Decoder", [](const std::string& prefix) {
                             if (prefix == "layers") return std::string("torch.nn.modules.container.Sequential");
                             if (prefix.find(".attn") != std::string::npos) return std::string("views.Attention");
                             if (prefix.find(".mlp") != std::string::npos) return std::string("views.GatedMlp");
                             return std::string("views.DecoderBlock");
                         }, trainingIr};
    const std::string x = b.userInput("x", dense({R, D}));
    b.sampleInput(makeSeededTensor({R, D}, 1003, 1.0f));
    // a product of two matrices: mm, or matmul before decomposition
    const std::string product = trainingIr ? "matmul" : "mm";
    const auto multiply = [&](const std::string& a, const std::string& c) {
        return [&, a, c](NodeBuilder& n) { n.arg("self", a).arg(trainingIr ? "other" : "mat2", c); };
    };
    std::string h = x;
    for (int k = 0; k < blocks; ++k) {
        const std::string path = "layers." + std::to_string(k), attn = path + ".attn", mlp = path + ".mlp";
        const std::string n1 = t.norm(path + ".norm1", h, R, D, 20);
        const std::string q = t.linear(attn + ".q", n1, R, D, D, 40), kk = t.linear(attn + ".k", n1, R, D, D, 41),
                          v = t.linear(attn + ".v", n1, R, D, D, 42);
        const std::string kt = trainingIr ? t.op("torch.ops.aten.t.default", "t", attn, "views.Attention", 43, zoo::transposed(R, D),
                                                 [&](NodeBuilder& n) { n.arg("self", kk); })
                                          : t.op("torch.ops.aten.permute.default", "permute", attn, "views.Attention", 43, zoo::transposed(R, D),
                                                 [&](NodeBuilder& n) { n.arg("self", kk).arg("dims", Argument::ints({1, 0})); });
        const std::string s = t.op("torch.ops.aten." + product + ".default", product, attn, "views.Attention", 43, dense({R, R}), multiply(q, kt));
        const std::string scaled = t.op("torch.ops.aten.mul.Tensor", "mul", attn, "views.Attention", 43, dense({R, R}),
                                        [&](NodeBuilder& n) { n.arg("self", s).arg("other", Argument::floating(0.25)); });
        const std::string probs = trainingIr
            ? t.op("torch.ops.aten.softmax.int", "softmax", attn, "views.Attention", 44, dense({R, R}),
                   [&](NodeBuilder& n) { n.arg("self", scaled).arg("dim", Argument::integer(-1)); })
            : t.op("torch.ops.aten._softmax.default", "_softmax", attn, "views.Attention", 44, dense({R, R}), [&](NodeBuilder& n) {
                  n.arg("self", scaled).arg("dim", Argument::integer(-1)).arg("half_to_float", Argument::boolean(false));
              });
        const std::string mixed = t.op("torch.ops.aten." + product + ".default", product, attn, "views.Attention", 45, dense({R, D}), multiply(probs, v));
        const std::string o = t.linear(attn + ".o", mixed, R, D, D, 46);
        const std::string r1 = t.op("torch.ops.aten.add.Tensor", "add", path, "views.DecoderBlock", 21, dense({R, D}),
                                    [&](NodeBuilder& n) { n.arg("self", h).arg("other", o); });
        const std::string n2 = t.norm(path + ".norm2", r1, R, D, 22);
        const std::string gate = t.linear(mlp + ".gate", n2, R, D, D, 60), up = t.linear(mlp + ".up", n2, R, D, D, 61);
        const std::string act = t.op("torch.ops.aten.silu.default", "silu", mlp, "views.GatedMlp", 62, dense({R, D}),
                                     [&](NodeBuilder& n) { n.arg("self", gate); });
        const std::string gated = t.op("torch.ops.aten.mul.Tensor", "mul", mlp, "views.GatedMlp", 62, dense({R, D}),
                                       [&](NodeBuilder& n) { n.arg("self", act).arg("other", up); });
        const std::string down = t.linear(mlp + ".down", gated, R, D, D, 63);
        h = t.op("torch.ops.aten.add.Tensor", "add", path, "views.DecoderBlock", 23, dense({R, D}),
                 [&](NodeBuilder& n) { n.arg("self", r1).arg("other", down); });
    }
    b.userOutput(t.linear("head", h, R, D, D, 30));
    return zoo::finish(b);
}

/// A strided view's meta: `sizes` with the given `strides`.
inline TensorMeta strided(const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides) {
    TensorMeta m = dense(sizes);
    for (size_t k = 0; k < strides.size(); ++k) m.strides[k] = SymInt::literal(strides[k]);
    return m;
}

/// One post-norm encoder layer as nn.TransformerEncoderLayer(16, nhead=2, dim_feedforward=32) lowers over 8
/// tokens: q/k/v Linears, two heads split by view and permute, batched scores (bmm), scaling, softmax, the batched
/// mix, the heads merged (permute, clone, view), the output Linear, a residual add and layer norm, a ReLU
/// feed-forward (Linear 16 -> 32 -> 16), a second residual add and layer norm: 30 nodes.
inline ProgramPtr encoderLayer() {
    constexpr int64_t R = 8, D = 16, Heads = 2, Hd = 8;
    ProgramBuilder b("model");
    b.verifiers({"ATEN"});
    TransformerBuilder t{b, "views.Encoder", [](const std::string& prefix) {
                             return std::string(prefix == "self_attn" ? "torch.nn.modules.activation.MultiheadAttention" : "torch.nn.modules.module.Module");
                         }, false};
    const std::string x = b.userInput("x", dense({R, D}));
    b.sampleInput(makeSeededTensor({R, D}, 1004, 1.0f));
    const std::string attn = "self_attn", mha = "torch.nn.modules.activation.MultiheadAttention";
    const std::string q = t.linear(attn + ".q_proj", x, R, D, D, 40), k = t.linear(attn + ".k_proj", x, R, D, D, 40),
                      v = t.linear(attn + ".v_proj", x, R, D, D, 40);
    // [8, 16] -> [8, 2, 8] -> heads first: q and v as [2, 8, 8], k already transposed for the scores
    auto heads = [&](const std::string& in, const std::vector<int64_t>& dims, const TensorMeta& meta) {
        const std::string split = t.op("torch.ops.aten.view.default", "view", attn, mha, 41, dense({R, Heads, Hd}),
                                       [&](NodeBuilder& n) { n.arg("self", in).arg("size", Argument::ints({R, Heads, Hd})); });
        return t.op("torch.ops.aten.permute.default", "permute", attn, mha, 41, meta,
                    [&](NodeBuilder& n) { n.arg("self", split).arg("dims", Argument::ints(dims)); });
    };
    const std::string qh = heads(q, {1, 0, 2}, strided({Heads, R, Hd}, {Hd, D, 1}));
    const std::string kh = heads(k, {1, 2, 0}, strided({Heads, Hd, R}, {Hd, 1, D}));
    const std::string vh = heads(v, {1, 0, 2}, strided({Heads, R, Hd}, {Hd, D, 1}));
    const std::string scores = t.op("torch.ops.aten.bmm.default", "bmm", attn, mha, 42, dense({Heads, R, R}),
                                    [&](NodeBuilder& n) { n.arg("self", qh).arg("mat2", kh); });
    const std::string scaled = t.op("torch.ops.aten.mul.Tensor", "mul", attn, mha, 42, dense({Heads, R, R}),
                                    [&](NodeBuilder& n) { n.arg("self", scores).arg("other", Argument::floating(1.0 / 2.8284271247461903)); });
    const std::string probs = t.op("torch.ops.aten._softmax.default", "_softmax", attn, mha, 43, dense({Heads, R, R}), [&](NodeBuilder& n) {
        n.arg("self", scaled).arg("dim", Argument::integer(-1)).arg("half_to_float", Argument::boolean(false));
    });
    const std::string mixed = t.op("torch.ops.aten.bmm.default", "bmm", attn, mha, 44, dense({Heads, R, Hd}),
                                   [&](NodeBuilder& n) { n.arg("self", probs).arg("mat2", vh); });
    const std::string tokens = t.op("torch.ops.aten.permute.default", "permute", attn, mha, 45, strided({R, Heads, Hd}, {Hd, R * Hd, 1}),
                                    [&](NodeBuilder& n) { n.arg("self", mixed).arg("dims", Argument::ints({1, 0, 2})); });
    Argument contiguousFormat;
    contiguousFormat.kind = ArgKind::MemoryFormat;
    contiguousFormat.i = static_cast<int>(MemoryFormat::Contiguous);
    const std::string merged = t.op("torch.ops.aten.clone.default", "clone", attn, mha, 45, dense({R, Heads, Hd}),
                                    [&](NodeBuilder& n) { n.arg("self", tokens).kwarg("memory_format", contiguousFormat); });
    const std::string flat = t.op("torch.ops.aten.view.default", "view", attn, mha, 45, dense({R, D}),
                                  [&](NodeBuilder& n) { n.arg("self", merged).arg("size", Argument::ints({R, D})); });
    const std::string o = t.linear(attn + ".out_proj", flat, R, D, D, 46);
    const std::string r1 = t.op("torch.ops.aten.add.Tensor", "add", "", "views.Encoder", 50, dense({R, D}),
                                [&](NodeBuilder& n) { n.arg("self", x).arg("other", o); });
    const std::string n1 = t.norm("norm1", r1, R, D, 50);
    const std::string up = t.linear("linear1", n1, R, D, 32, 51);
    const std::string act = t.op("torch.ops.aten.relu.default", "relu", "", "views.Encoder", 51, dense({R, 32}),
                                 [&](NodeBuilder& n) { n.arg("self", up); });
    const std::string down = t.linear("linear2", act, R, 32, D, 51);
    const std::string r2 = t.op("torch.ops.aten.add.Tensor", "add", "", "views.Encoder", 52, dense({R, D}),
                                [&](NodeBuilder& n) { n.arg("self", n1).arg("other", down); });
    b.userOutput(t.norm("norm2", r2, R, D, 52));
    return zoo::finish(b);
}

/// The programs of this header by name ("resnet_like", "mobilenet_like", "decoder_like", its training-IR form
/// "decoder_like_training", "deep_decoder_like");
/// nullptr for another name.
ProgramPtr byName(const std::string& name) {
    if (name == "resnet_like") return convBnNet();
    if (name == "mobilenet_like") return depthwiseNet();
    if (name == "decoder_like") return decoderStack();
    if (name == "decoder_like_training") return decoderStack(4, true);
    if (name == "encoder_layer_like") return encoderLayer();
    if (name == "deep_decoder_like") return decoderStack(240);
    return nullptr;
}

const std::vector<std::string>& names() {
    static const std::vector<std::string> all = {"resnet_like", "mobilenet_like", "decoder_like", "decoder_like_training",
                                                         "encoder_layer_like", "deep_decoder_like"};
    return all;
}

/// The generated fixture of ../shared whose shape each program here has (resnet18, mobilenet_v2, tiny_gpt,
/// transformer_layer, deep_stack), so a test's rows over those run on these; "" for another name.
std::string standInFor(const std::string& generated) {
    if (generated == "resnet18") return "resnet_like";
    if (generated == "mobilenet_v2") return "mobilenet_like";
    if (generated == "tiny_gpt") return "decoder_like";
    if (generated == "transformer_layer") return "encoder_layer_like";
    if (generated == "deep_stack") return "deep_decoder_like";
    return "";
}

} // namespace irlens::testing::owned

namespace irlens::testing {

/// A program the project owns by row name: "zoo/<name>" of the zoo or of this header (built in memory); nullptr otherwise.
core::ProgramPtr ownedProgram(const std::string& row) {
    if (row.rfind("zoo/", 0) != 0) return nullptr;
    const std::string name = row.substr(4);
    if (auto p = zoo::byName(name)) return p;
    return owned::byName(name);
}

/// Writes this header's programs as `<zoo folder>/<name>/model.pt2` (once a process; the zoo written first), so
/// fixture("zoo/<name>/model.pt2") finds them. They have no model.expected/: nothing here has PyTorch's numbers.
void writeViewPrograms() {
    static const bool written = [] {
        const auto& dir = zooDir();
        for (const auto& name : owned::names()) {
            std::filesystem::create_directories(dir / name);
            if (auto saved = core::savePt2(*owned::byName(name), (dir / name / "model.pt2").string()); !saved.isOk()) {
                // a program of the test kit that does not save is a mistake in the kit: stop every test loudly
                std::fprintf(stderr, "writing %s: %s\n", name.c_str(), saved.message().c_str());
                std::abort();
            }
        }
        return true;
    }();
    (void)written;
}

} // namespace irlens::testing
