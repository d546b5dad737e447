// The zoo's nets in the shape of the bigger models (a residual stack, a ResNet-like and a MobileNet-like conv
// net, a Llama-shaped decoder, a training-IR GPT), compiled once for every test.
#include "support/zoo_builders.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <utility>

namespace irlens::testing::zoo {

/// `blocks` residual blocks (layer norm -> Linear -> GELU -> Linear -> add) under "layers", width 16, then a
/// "head" Linear: 7 nodes a block and 2 for the head, for the layout and big-graph paths at a size a test can
/// afford. Collapsed to its top-level modules it shows x, layers, head and the output.
ProgramPtr residualStack(int blocks) {
    constexpr int64_t R = 4, D = 16;
    ProgramBuilder b("model");
    b.verifiers({"ATEN"});
    const std::string root = "zoo.Stack";
    const std::string x = b.userInput("x", dense({R, D}));
    b.sampleInput(makeSeededTensor({R, D}, 600, 1.0f));
    std::string prev = x;
    int permutes = 0, addmms = 0;
    auto suffix = [](const std::string& base, int k) { return k == 0 ? base : base + "_" + std::to_string(k); };
    for (int k = 0; k < blocks; ++k) {
        const std::string path = "layers." + std::to_string(k), value = "p_layers_" + std::to_string(k);
        b.parameter(value + "_norm_weight", path + ".norm.weight", makeFilledTensor({D}, 1.0f));
        b.parameter(value + "_norm_bias", path + ".norm.bias", makeFilledTensor({D}, 0.0f));
        const std::string ln = suffix("native_layer_norm", k), normed = suffix("getitem", k);
        auto n = b.call("torch.ops.aten.native_layer_norm.default", ln)
                     .arg("input", prev).arg("normalized_shape", Argument::ints({D})).arg("weight", value + "_norm_weight")
                     .arg("bias", value + "_norm_bias").arg("eps", Argument::floating(1e-05))
                     .outNamed(normed, dense({R, D})).outNamed(ln + "_unused_1", dense({R, 1})).outNamed(ln + "_unused_2", dense({R, 1}));
        at(n, root, path + ".norm", "torch.nn.modules.normalization.LayerNorm", 20, "h = self.norm(x)");
        LinearLayer linear{b, root, 21};
        const std::string up = linear(path + ".up", normed, R, D, D, suffix("permute", permutes), suffix("addmm", addmms), 700 + 4 * k);
        ++permutes, ++addmms;
        const std::string act = suffix("gelu", k);
        auto g = b.call("torch.ops.aten.gelu.default", act).arg("self", up).out(dense({R, D}));
        at(g, root, path, "zoo.Block", 22, "h = F.gelu(h)");
        const std::string down = linear(path + ".down", act, R, D, D, suffix("permute", permutes), suffix("addmm", addmms), 702 + 4 * k);
        ++permutes, ++addmms;
        const std::string add = suffix("add", k);
        auto a = b.call("torch.ops.aten.add.Tensor", add).arg("self", prev).arg("other", down).out(dense({R, D}));
        at(a, root, path, "zoo.Block", 23, "return x + h");
        prev = add;
    }
    LinearLayer head{b, root, 30};
    b.userOutput(head("head", prev, R, D, D, suffix("permute", permutes), suffix("addmm", addmms), 999));
    return finish(b);
}

/// Conv2d (no bias) and BatchNorm2d in eval mode as export lowers them: convolution, then
/// _native_batch_norm_legit_no_training whose first output is a getitem; or, at the training-IR level, as the
/// model called them: conv2d (trailing arguments equal to their default left out) and batch_norm. The running
/// statistics are buffers, lifted after every parameter as export lists them: declareBuffers() once all layers
/// are built.
struct ConvBnLayers {
    ProgramBuilder& b;
    std::string rootType;
    bool training = false;
    int convolutions = 0, norms = 0, getitems = 0;
    std::vector<std::pair<std::string, int64_t>> normChannels; // each BatchNorm's path and channels

    ConvBnLayers(ProgramBuilder& builder, std::string root, bool trainingIr = false)
        : b(builder), rootType(std::move(root)), training(trainingIr) {}

    /// [1, cin, h, w] -> [1, cout, h', w'] with a k x k kernel and padding k / 2; `groups` == cin == cout is depthwise.
    std::string conv(const std::string& path, const std::string& in, int64_t cin, int64_t cout, int64_t& h, int64_t& w, int64_t k,
                     int64_t stride, int64_t groups, uint64_t seed, int line) {
        const std::string weight = placeholderName("p_", path) + "_weight";
        const float scale = 2.0f / static_cast<float>(cin / groups * k * k);
        b.parameter(weight, path + ".weight", makeSeededTensor({cout, cin / groups, k, k}, seed, scale));
        const int64_t pad = k / 2;
        h = (h + 2 * pad - k) / stride + 1;
        w = (w + 2 * pad - k) / stride + 1;
        if (training) {
            const std::string name = numbered("conv2d", convolutions);
            NodeBuilder n = b.call("torch.ops.aten.conv2d.default", name);
            n.arg("input", in).arg("weight", weight);
            if (stride != 1 || pad != 0 || groups != 1)
                n.arg("bias", Argument::none()).arg("stride", Argument::ints({stride, stride})).arg("padding", Argument::ints({pad, pad}));
            if (groups != 1) n.arg("dilation", Argument::ints({1, 1})).arg("groups", Argument::integer(groups));
            n.out(dense({1, cout, h, w}));
            at(n, rootType, path, "torch.nn.modules.conv.Conv2d", line, "x = self." + path + "(x)");
            return name;
        }
        const std::string name = numbered("convolution", convolutions);
        auto n = b.call("torch.ops.aten.convolution.default", name)
                     .arg("input", in).arg("weight", weight).arg("bias", Argument::none())
                     .arg("stride", Argument::ints({stride, stride})).arg("padding", Argument::ints({pad, pad}))
                     .arg("dilation", Argument::ints({1, 1})).arg("transposed", Argument::boolean(false))
                     .arg("output_padding", Argument::ints({0, 0})).arg("groups", Argument::integer(groups))
                     .out(dense({1, cout, h, w}));
        at(n, rootType, path, "torch.nn.modules.conv.Conv2d", line, "x = self." + path + "(x)");
        return name;
    }

    /// BatchNorm2d over [1, c, h, w].
    std::string norm(const std::string& path, const std::string& in, int64_t c, int64_t h, int64_t w, uint64_t seed, int line) {
        const std::string value = placeholderName("p_", path), buffer = placeholderName("b_", path);
        b.parameter(value + "_weight", path + ".weight", positiveTensor({c}, seed, 0.2f));
        b.parameter(value + "_bias", path + ".bias", makeSeededTensor({c}, seed + 1, 0.1f));
        normChannels.emplace_back(path, c);
        if (training) {
            const std::string name = numbered("batch_norm", norms);
            auto n = b.call("torch.ops.aten.batch_norm.default", name)
                         .arg("input", in).arg("weight", value + "_weight").arg("bias", value + "_bias")
                         .arg("running_mean", buffer + "_running_mean").arg("running_var", buffer + "_running_var")
                         .arg("training", Argument::boolean(false)).arg("momentum", Argument::floating(0.1))
                         .arg("eps", Argument::floating(1e-05)).arg("cudnn_enabled", Argument::boolean(true)).out(dense({1, c, h, w}));
            at(n, rootType, path, "torch.nn.modules.batchnorm.BatchNorm2d", line, "x = self." + path + "(x)");
            return name;
        }
        const std::string name = numbered("_native_batch_norm_legit_no_training", norms), out = numbered("getitem", getitems);
        auto n = b.call("torch.ops.aten._native_batch_norm_legit_no_training.default", name)
                     .arg("input", in).arg("weight", value + "_weight").arg("bias", value + "_bias")
                     .arg("running_mean", buffer + "_running_mean").arg("running_var", buffer + "_running_var")
                     .arg("momentum", Argument::floating(0.1)).arg("eps", Argument::floating(1e-05))
                     .outNamed(out, dense({1, c, h, w})).outNamed(name + "_unused_1", dense({0})).outNamed(name + "_unused_2", dense({0}));
        at(n, rootType, path, "torch.nn.modules.batchnorm.BatchNorm2d", line, "x = self." + path + "(x)");
        return out;
    }

    /// Every BatchNorm's running_mean, running_var (of a trained layer: small means, variances near 1) and
    /// num_batches_tracked, in layer order.
    void declareBuffers() {
        uint64_t seed = 900;
        for (const auto& [path, c] : normChannels) {
            const std::string buffer = placeholderName("b_", path);
            b.buffer(buffer + "_running_mean", path + ".running_mean", makeSeededTensor({c}, seed++, 0.1f));
            b.buffer(buffer + "_running_var", path + ".running_var", positiveTensor({c}, seed++, 0.3f));
            b.buffer(buffer + "_num_batches_tracked", path + ".num_batches_tracked", makeInt64Tensor({}, {0}));
        }
    }
};

/// The image classifiers' head: mean over the spatial dims (adaptive average pooling to 1 x 1), flatten, Linear;
/// at the training-IR level adaptive_avg_pool2d, flatten, dropout (not training: an identity) and linear.
inline std::string poolAndClassify(ProgramBuilder& b, const std::string& root, const std::string& in, int64_t c, int64_t classes,
                                   int line, bool training = false) {
    if (training) {
        auto pool = b.call("torch.ops.aten.adaptive_avg_pool2d.default", "adaptive_avg_pool2d").arg("self", in)
                        .arg("output_size", Argument::ints({1, 1})).out(dense({1, c, 1, 1}));
        at(pool, root, "avgpool", "torch.nn.modules.pooling.AdaptiveAvgPool2d", line, "x = self.avgpool(x)");
        auto flat = b.call("torch.ops.aten.flatten.using_ints", "flatten").arg("self", "adaptive_avg_pool2d")
                        .arg("start_dim", Argument::integer(1)).out(dense({1, c}));
        at(flat, root, "", "", line + 1, "x = torch.flatten(x, 1)");
        auto drop = b.call("torch.ops.aten.dropout.default", "dropout").arg("input", "flatten").arg("p", Argument::floating(0.2))
                        .arg("train", Argument::boolean(false)).out(dense({1, c}));
        at(drop, root, "dropout", "torch.nn.modules.dropout.Dropout", line + 2, "x = self.dropout(x)");
        // the weights of LinearLayer's fc
        const float scale = 1.0f / static_cast<float>(c) * 4.0f;
        b.parameter("p_fc_weight", "fc.weight", makeSeededTensor({classes, c}, 990, scale));
        b.parameter("p_fc_bias", "fc.bias", makeSeededTensor({classes}, 991, scale));
        auto fc = b.call("torch.ops.aten.linear.default", "linear").arg("input", "dropout").arg("weight", "p_fc_weight")
                      .arg("bias", "p_fc_bias").out(dense({1, classes}));
        at(fc, root, "fc", "torch.nn.modules.linear.Linear", line + 3, "return self.fc(x)");
        return "linear";
    }
    auto mean = b.call("torch.ops.aten.mean.dim", "mean").arg("self", in).arg("dim", Argument::ints({-1, -2}))
                    .arg("keepdim", Argument::boolean(true)).out(dense({1, c, 1, 1}));
    at(mean, root, "avgpool", "torch.nn.modules.pooling.AdaptiveAvgPool2d", line, "x = self.avgpool(x)");
    auto flat = b.call("torch.ops.aten.view.default", "view").arg("self", "mean").arg("size", Argument::ints({1, c})).out(dense({1, c}));
    at(flat, root, "", "", line + 1, "x = torch.flatten(x, 1)");
    LinearLayer linear{b, root, line + 2};
    return linear("fc", "view", 1, c, classes, "permute", "addmm", 990);
}

/// A ResNet in small: conv stem with batch norm, ReLU and a 3 x 3 stride-2 max pool, a basic block (two
/// conv-bn pairs and an identity shortcut), a stride-2 basic block whose shortcut is a 1 x 1 conv with batch
/// norm, then average pooling and a Linear head. x f32[1, 3, 16, 16] -> [1, 10]; 24 nodes.
ProgramPtr convNet() {
    ProgramBuilder b("model");
    b.verifiers({"ATEN"});
    const std::string root = "zoo.ConvNet";
    ConvBnLayers layers{b, root};
    const std::string x = b.userInput("x", dense({1, 3, 16, 16}));
    b.sampleInput(makeSeededTensor({1, 3, 16, 16}, 800, 1.0f));
    int64_t h = 16, w = 16;
    int reluCount = 0, adds = 0;
    auto relu = [&](const std::string& in, int64_t c, const std::string& path, int line) {
        const std::string name = numbered("relu", reluCount);
        auto r = b.call("torch.ops.aten.relu.default", name).arg("self", in).out(dense({1, c, h, w}));
        at(r, root, path, "torch.nn.modules.activation.ReLU", line, "x = self.relu(x)");
        return name;
    };
    std::string v = layers.conv("conv1", x, 3, 8, h, w, 3, 1, 1, 801, 10);
    v = layers.norm("bn1", v, 8, h, w, 802, 11);
    v = relu(v, 8, "relu", 12);
    h = (h + 2 - 3) / 2 + 1, w = (w + 2 - 3) / 2 + 1;
    const std::string pooled = numbered("getitem", layers.getitems);
    auto pool = b.call("torch.ops.aten.max_pool2d_with_indices.default", "max_pool2d_with_indices")
                    .arg("self", v).arg("kernel_size", Argument::ints({3, 3})).arg("stride", Argument::ints({2, 2}))
                    .arg("padding", Argument::ints({1, 1}))
                    .outNamed(pooled, dense({1, 8, h, w})).outNamed("max_pool2d_with_indices_unused_1", dense({1, 8, h, w}, ScalarType::Int64));
    at(pool, root, "maxpool", "torch.nn.modules.pooling.MaxPool2d", 13, "x = self.maxpool(x)");
    // a basic block: conv-bn-relu-conv-bn, plus the shortcut (the input, or a strided 1 x 1 conv-bn), then relu
    auto block = [&](const std::string& path, const std::string& in, int64_t cin, int64_t cout, int64_t stride, uint64_t seed) {
        const int64_t inH = h, inW = w;
        std::string y = layers.conv(path + ".conv1", in, cin, cout, h, w, 3, stride, 1, seed, 30);
        y = layers.norm(path + ".bn1", y, cout, h, w, seed + 1, 31);
        y = relu(y, cout, path + ".relu", 32);
        y = layers.conv(path + ".conv2", y, cout, cout, h, w, 3, 1, 1, seed + 3, 33);
        y = layers.norm(path + ".bn2", y, cout, h, w, seed + 4, 34);
        std::string shortcut = in;
        if (stride != 1 || cin != cout) {
            int64_t sh = inH, sw = inW;
            shortcut = layers.conv(path + ".downsample.0", in, cin, cout, sh, sw, 1, stride, 1, seed + 6, 36);
            shortcut = layers.norm(path + ".downsample.1", shortcut, cout, sh, sw, seed + 7, 36);
        }
        const std::string sum = numbered("add", adds);
        auto a = b.call("torch.ops.aten.add.Tensor", sum).arg("self", y).arg("other", shortcut).out(dense({1, cout, h, w}));
        at(a, root, path, "zoo.BasicBlock", 37, "out = out + identity");
        return relu(sum, cout, path + ".relu", 38);
    };
    v = block("layer1.0", pooled, 8, 8, 1, 810);
    v = block("layer2.0", v, 8, 16, 2, 820);
    b.userOutput(poolAndClassify(b, root, v, 16, 10, 20));
    layers.declareBuffers();
    return finish(b);
}

/// A MobileNetV2 in small: a conv-bn-ReLU6 stem, inverted residual blocks (1 x 1 expansion, 3 x 3 depthwise conv
/// with groups = channels, 1 x 1 linear projection, each with batch norm; a residual add where the shape
/// allows), a 1 x 1 conv-bn-ReLU6 head, average pooling and a Linear. x f32[1, 3, 16, 16] -> [1, 10]; 33 nodes.
/// `training`: the same model, weights and sample input at torch.export's training-IR level (verifier TRAINING):
/// conv2d, batch_norm, the in-place hardtanh_ of ReLU6(inplace=True) whose output aliases its input,
/// adaptive_avg_pool2d, flatten, dropout and linear; 33 nodes too.
ProgramPtr depthwiseNet(bool training) {
    ProgramBuilder b("model");
    b.verifiers({training ? "TRAINING" : "ATEN"});
    const std::string root = "zoo.DepthwiseNet";
    ConvBnLayers layers{b, root, training};
    const std::string x = b.userInput("x", dense({1, 3, 16, 16}));
    b.sampleInput(makeSeededTensor({1, 3, 16, 16}, 850, 1.0f));
    int64_t h = 16, w = 16;
    int clamps = 0, adds = 0;
    auto relu6 = [&](const std::string& in, int64_t c, const std::string& path, int line) {
        const std::string name = numbered(training ? "hardtanh_" : "hardtanh", clamps);
        auto r = b.call(training ? "torch.ops.aten.hardtanh_.default" : "torch.ops.aten.hardtanh.default", name)
                     .arg("self", in).arg("min_val", Argument::floating(0.0))
                     .arg("max_val", Argument::floating(6.0)).out(dense({1, c, h, w}));
        at(r, root, path, "torch.nn.modules.activation.ReLU6", line, "x = self." + path.substr(path.rfind('.') + 1) + "(x)");
        return name;
    };
    auto convBnAct = [&](const std::string& path, const std::string& in, int64_t cin, int64_t cout, int64_t k, int64_t stride,
                         int64_t groups, bool act, uint64_t seed, int line) {
        std::string y = layers.conv(path + ".conv", in, cin, cout, h, w, k, stride, groups, seed, line);
        y = layers.norm(path + ".bn", y, cout, h, w, seed + 1, line + 1);
        return act ? relu6(y, cout, path + ".act", line + 2) : y;
    };
    std::string v = convBnAct("stem", x, 3, 8, 3, 2, 1, true, 851, 10);
    // expansion factor, output channels, stride
    struct Block { int64_t expand, cout, stride; };
    int64_t c = 8;
    int index = 1;
    for (Block blk : {Block{1, 8, 1}, Block{2, 12, 2}, Block{2, 12, 1}}) {
        const std::string path = "features." + std::to_string(index++);
        const uint64_t seed = 860 + 10 * static_cast<uint64_t>(index);
        const int64_t hidden = c * blk.expand;
        std::string y = v;
        if (blk.expand != 1) y = convBnAct(path + ".expand", y, c, hidden, 1, 1, 1, true, seed, 40);
        y = convBnAct(path + ".depthwise", y, hidden, hidden, 3, blk.stride, hidden, true, seed + 3, 43);
        y = convBnAct(path + ".project", y, hidden, blk.cout, 1, 1, 1, false, seed + 6, 46);
        if (blk.stride == 1 && c == blk.cout) {
            const std::string sum = numbered("add", adds);
            auto a = b.call("torch.ops.aten.add.Tensor", sum).arg("self", v).arg("other", y).out(dense({1, blk.cout, h, w}));
            at(a, root, path, "zoo.InvertedResidual", 48, "return x + self.conv(x)");
            y = sum;
        }
        v = y;
        c = blk.cout;
    }
    v = convBnAct("head", v, c, 32, 1, 1, 1, true, 890, 60);
    b.userOutput(poolAndClassify(b, root, v, 32, 10, 70, training));
    layers.declareBuffers();
    return finish(b);
}

/// A Llama-shaped decoder: token embedding, `blocks` pre-norm blocks (RMSNorm as pow, mean, add, rsqrt, mul;
/// bias-free q/k/v projections, two heads with bmm over transposed views, a causal mask (a lifted constant),
/// softmax, the output projection and a residual add; RMSNorm and a SwiGLU MLP with SiLU and a second residual),
/// a final RMSNorm and the LM head. tokens i64[1, 8] of a 32-word vocabulary, width 16 -> logits [1, 8, 32].
ProgramPtr decoderStack(int blocks) {
    constexpr int64_t L = 8, D = 16, V = 32, Heads = 2, Hd = D / Heads, F = 32;
    ProgramBuilder b("model");
    b.verifiers({"ATEN"});
    const std::string root = "zoo.Decoder";
    FxNames name;
    b.parameter("p_embed_weight", "embed.weight", makeSeededTensor({V, D}, 1001, 1.0f));
    std::vector<float> mask(static_cast<size_t>(L * L), 0.0f);
    for (int64_t r = 0; r < L; ++r)
        for (int64_t c = r + 1; c < L; ++c) mask[static_cast<size_t>(r * L + c)] = -10000.0f;
    b.tensorConstant("c_causal_mask", "causal_mask", makeFloatTensor({L, L}, mask));
    const std::string tokens = tokensInput(b, L, V, 11, 5);

    auto e = b.call("torch.ops.aten.embedding.default", "embedding").arg("weight", "p_embed_weight").arg("indices", tokens)
                 .out(dense({1, L, D}));
    at(e, root, "embed", "torch.nn.modules.sparse.Embedding", 10, "h = self.embed(tokens)");
    std::string h = name("view");
    auto flat = b.call("torch.ops.aten.view.default", h).arg("self", "embedding").arg("size", Argument::ints({L, D})).out(dense({L, D}));
    at(flat, root, "", "", 11, "h = h.view(l, d)");

    auto rmsNorm = [&](const std::string& path, const std::string& in, uint64_t seed) {
        const std::string weight = placeholderName("p_", path) + "_weight";
        b.parameter(weight, path + ".weight", positiveTensor({D}, seed, 0.1f));
        const std::string type = "zoo.RmsNorm";
        const std::string sq = name("pow"), mean = name("mean"), shifted = name("add"), inv = name("rsqrt"), normed = name("mul"),
                          scaled = name("mul");
        at(b.call("torch.ops.aten.pow.Tensor_Scalar", sq).arg("self", in).arg("exponent", Argument::integer(2)).out(dense({L, D})), root,
           path, type, 20, "v = x.pow(2).mean(-1, keepdim=True)");
        at(b.call("torch.ops.aten.mean.dim", mean).arg("self", sq).arg("dim", Argument::ints({-1})).arg("keepdim", Argument::boolean(true))
               .out(dense({L, 1})), root, path, type, 20, "v = x.pow(2).mean(-1, keepdim=True)");
        at(b.call("torch.ops.aten.add.Tensor", shifted).arg("self", mean).arg("other", Argument::floating(1e-06)).out(dense({L, 1})), root,
           path, type, 21, "x = x * torch.rsqrt(v + self.eps)");
        at(b.call("torch.ops.aten.rsqrt.default", inv).arg("self", shifted).out(dense({L, 1})), root, path, type, 21,
           "x = x * torch.rsqrt(v + self.eps)");
        at(b.call("torch.ops.aten.mul.Tensor", normed).arg("self", in).arg("other", inv).out(dense({L, D})), root, path, type, 21,
           "x = x * torch.rsqrt(v + self.eps)");
        at(b.call("torch.ops.aten.mul.Tensor", scaled).arg("self", weight).arg("other", normed).out(dense({L, D})), root, path, type, 22,
           "return self.weight * x");
        return scaled;
    };
    // a bias-free Linear: permute(weight) then mm
    auto linear = [&](const std::string& path, const std::string& in, int64_t inFeatures, int64_t outFeatures, uint64_t seed, int line,
                      const std::string& code) {
        const std::string weight = placeholderName("p_", path) + "_weight";
        b.parameter(weight, path + ".weight", makeSeededTensor({outFeatures, inFeatures}, seed, 2.0f / static_cast<float>(inFeatures)));
        const std::string t = name("permute"), product = name("mm");
        at(b.call("torch.ops.aten.permute.default", t).arg("self", weight).arg("dims", Argument::ints({1, 0}))
               .out(transposed(outFeatures, inFeatures)), root, path, "torch.nn.modules.linear.Linear", line, code);
        at(b.call("torch.ops.aten.mm.default", product).arg("self", in).arg("mat2", t).out(dense({L, outFeatures})), root, path,
           "torch.nn.modules.linear.Linear", line, code);
        return product;
    };
    for (int k = 0; k < blocks; ++k) {
        const std::string path = "layers." + std::to_string(k), attn = path + ".attn", mlp = path + ".mlp";
        const uint64_t seed = 1100 + 20 * static_cast<uint64_t>(k);
        const std::string x = rmsNorm(path + ".attn_norm", h, seed);
        const std::string q = linear(attn + ".q_proj", x, D, D, seed + 1, 30, "q = self.q_proj(x)");
        const std::string kk = linear(attn + ".k_proj", x, D, D, seed + 2, 31, "k = self.k_proj(x)");
        const std::string v = linear(attn + ".v_proj", x, D, D, seed + 3, 32, "v = self.v_proj(x)");
        // [L, D] -> [Heads, L, Hd] (keys as [Heads, Hd, L]) as views of the projections
        auto heads = [&](const std::string& in, const std::vector<int64_t>& dims, TensorMeta out) {
            const std::string viewed = name("view"), moved = name("permute");
            at(b.call("torch.ops.aten.view.default", viewed).arg("self", in).arg("size", Argument::ints({L, Heads, Hd}))
                   .out(dense({L, Heads, Hd})), root, attn, "zoo.Attention", 33, "z.view(l, self.heads, -1).transpose(0, 1)");
            at(b.call("torch.ops.aten.permute.default", moved).arg("self", viewed).arg("dims", Argument::ints(dims)).out(std::move(out)),
               root, attn, "zoo.Attention", 33, "z.view(l, self.heads, -1).transpose(0, 1)");
            return moved;
        };
        const std::string qh = heads(q, {1, 0, 2}, strided({Heads, L, Hd}, {Hd, D, 1}));
        const std::string kh = heads(kk, {1, 2, 0}, strided({Heads, Hd, L}, {Hd, 1, D}));
        const std::string vh = heads(v, {1, 0, 2}, strided({Heads, L, Hd}, {Hd, D, 1}));
        const std::string scores = name("bmm"), scaled = name("mul"), masked = name("add"), weights = name("_softmax");
        at(b.call("torch.ops.aten.bmm.default", scores).arg("self", qh).arg("mat2", kh).out(dense({Heads, L, L})), root, attn,
           "zoo.Attention", 34, "s = q @ k.transpose(1, 2) * self.scale + self.causal_mask");
        at(b.call("torch.ops.aten.mul.Tensor", scaled).arg("self", scores).arg("other", Argument::floating(1.0 / std::sqrt(double(Hd))))
               .out(dense({Heads, L, L})), root, attn, "zoo.Attention", 34, "s = q @ k.transpose(1, 2) * self.scale + self.causal_mask");
        at(b.call("torch.ops.aten.add.Tensor", masked).arg("self", scaled).arg("other", "c_causal_mask").out(dense({Heads, L, L})), root,
           attn, "zoo.Attention", 34, "s = q @ k.transpose(1, 2) * self.scale + self.causal_mask");
        at(b.call("torch.ops.aten._softmax.default", weights).arg("self", masked).arg("dim", Argument::integer(-1))
               .arg("half_to_float", Argument::boolean(false)).out(dense({Heads, L, L})), root, attn, "zoo.Attention", 35,
           "a = s.softmax(-1)");
        const std::string mixed = name("bmm"), back = name("permute"), packed = name("clone"), merged = name("view");
        const std::string mixCode = "o = (a @ v).transpose(0, 1).reshape(l, -1)";
        at(b.call("torch.ops.aten.bmm.default", mixed).arg("self", weights).arg("mat2", vh).out(dense({Heads, L, Hd})), root, attn,
           "zoo.Attention", 36, mixCode);
        at(b.call("torch.ops.aten.permute.default", back).arg("self", mixed).arg("dims", Argument::ints({1, 0, 2}))
               .out(strided({L, Heads, Hd}, {Hd, L * Hd, 1})), root, attn, "zoo.Attention", 36, mixCode);
        Argument contiguousFormat;
        contiguousFormat.kind = ArgKind::MemoryFormat;
        contiguousFormat.i = static_cast<int>(MemoryFormat::Contiguous);
        at(b.call("torch.ops.aten.clone.default", packed).arg("self", back).kwarg("memory_format", contiguousFormat)
               .out(dense({L, Heads, Hd})), root, attn, "zoo.Attention", 36, mixCode);
        at(b.call("torch.ops.aten.view.default", merged).arg("self", packed).arg("size", Argument::ints({L, D})).out(dense({L, D})), root,
           attn, "zoo.Attention", 36, mixCode);
        const std::string o = linear(attn + ".o_proj", merged, D, D, seed + 4, 37, "return self.o_proj(o)");
        const std::string afterAttn = name("add");
        at(b.call("torch.ops.aten.add.Tensor", afterAttn).arg("self", h).arg("other", o).out(dense({L, D})), root, path,
           "zoo.DecoderBlock", 50, "h = h + self.attn(self.attn_norm(h))");
        const std::string y = rmsNorm(path + ".mlp_norm", afterAttn, seed + 5);
        const std::string gate = linear(mlp + ".gate_proj", y, D, F, seed + 6, 60, "g = F.silu(self.gate_proj(x))");
        const std::string up = linear(mlp + ".up_proj", y, D, F, seed + 7, 61, "u = self.up_proj(x)");
        const std::string act = name("silu"), product = name("mul");
        at(b.call("torch.ops.aten.silu.default", act).arg("self", gate).out(dense({L, F})), root, mlp, "zoo.SwiGlu", 60,
           "g = F.silu(self.gate_proj(x))");
        at(b.call("torch.ops.aten.mul.Tensor", product).arg("self", act).arg("other", up).out(dense({L, F})), root, mlp, "zoo.SwiGlu", 62,
           "return self.down_proj(g * u)");
        const std::string down = linear(mlp + ".down_proj", product, F, D, seed + 8, 62, "return self.down_proj(g * u)");
        const std::string afterMlp = name("add");
        at(b.call("torch.ops.aten.add.Tensor", afterMlp).arg("self", afterAttn).arg("other", down).out(dense({L, D})), root, path,
           "zoo.DecoderBlock", 51, "h = h + self.mlp(self.mlp_norm(h))");
        h = afterMlp;
    }
    const std::string normed = rmsNorm("norm", h, 1090);
    const std::string logits = linear("lm_head", normed, D, V, 1091, 70, "return self.lm_head(self.norm(h)).view(1, l, -1)");
    const std::string out = name("view");
    at(b.call("torch.ops.aten.view.default", out).arg("self", logits).arg("size", Argument::ints({1, L, V})).out(dense({1, L, V})), root,
       "", "", 70, "return self.lm_head(self.norm(h)).view(1, l, -1)");
    b.userOutput(out);
    return finish(b);
}

/// A GPT of `blocks` pre-LN blocks at torch.export's training-IR level (verifier TRAINING), as the model called
/// its ops: token and position embeddings (unsqueeze, add), layer_norm, one fused qkv linear split in three,
/// heads as view and transpose, matmul, a causal mask (a bool buffer per block) sliced, negated and applied with
/// masked_fill(-inf), softmax.int, contiguous, a GELU MLP with linear, and an LM head. tokens i64[1, 8] of a
/// 32-word vocabulary, width 16 -> logits [1, 8, 32].
ProgramPtr gptTraining(int blocks) {
    constexpr int64_t L = 8, D = 16, V = 32, Heads = 2, Hd = D / Heads, H = 32;
    ProgramBuilder b("model");
    b.verifiers({"TRAINING"});
    const std::string root = "zoo.Gpt";
    FxNames name;
    b.parameter("p_tok_emb_weight", "tok_emb.weight", makeSeededTensor({V, D}, 1201, 1.0f));
    b.parameter("p_pos_emb_weight", "pos_emb.weight", makeSeededTensor({L, D}, 1202, 0.5f));
    std::vector<int64_t> positions(L);
    for (int64_t k = 0; k < L; ++k) positions[static_cast<size_t>(k)] = k;
    b.buffer("b_positions", "positions", makeInt64Tensor({L}, positions), false);
    const std::string tokens = tokensInput(b, L, V, 5, 2);

    auto linear = [&](const std::string& path, const std::string& in, int64_t inFeatures, int64_t outFeatures, bool bias, uint64_t seed,
                      int line, const std::string& code) {
        const std::string value = placeholderName("p_", path), out = name("linear");
        const float scale = 2.0f / static_cast<float>(inFeatures);
        b.parameter(value + "_weight", path + ".weight", makeSeededTensor({outFeatures, inFeatures}, seed, scale));
        NodeBuilder n = b.call("torch.ops.aten.linear.default", out);
        n.arg("input", in).arg("weight", value + "_weight");
        if (bias) {
            b.parameter(value + "_bias", path + ".bias", makeSeededTensor({outFeatures}, seed + 1, scale));
            n.arg("bias", value + "_bias");
        }
        n.out(dense({1, L, outFeatures}));
        at(n, root, path, "torch.nn.modules.linear.Linear", line, code);
        return out;
    };
    auto norm = [&](const std::string& path, const std::string& in, uint64_t seed) {
        const std::string value = placeholderName("p_", path), out = name("layer_norm");
        b.parameter(value + "_weight", path + ".weight", positiveTensor({D}, seed, 0.1f));
        b.parameter(value + "_bias", path + ".bias", makeSeededTensor({D}, seed + 1, 0.1f));
        at(b.call("torch.ops.aten.layer_norm.default", out).arg("input", in).arg("normalized_shape", Argument::ints({D}))
               .arg("weight", value + "_weight").arg("bias", value + "_bias").out(dense({1, L, D})),
           root, path, "torch.nn.modules.normalization.LayerNorm", 20, "h = self." + path.substr(path.rfind('.') + 1) + "(x)");
        return out;
    };

    at(b.call("torch.ops.aten.embedding.default", name("embedding")).arg("weight", "p_tok_emb_weight").arg("indices", tokens)
           .out(dense({1, L, D})), root, "tok_emb", "torch.nn.modules.sparse.Embedding", 10, "h = self.tok_emb(tokens)");
    at(b.call("torch.ops.aten.embedding.default", name("embedding")).arg("weight", "p_pos_emb_weight").arg("indices", "b_positions")
           .out(dense({L, D})), root, "pos_emb", "torch.nn.modules.sparse.Embedding", 11, "h = h + self.pos_emb(self.positions)[None]");
    at(b.call("torch.ops.aten.unsqueeze.default", name("unsqueeze")).arg("self", "embedding_1").arg("dim", Argument::integer(0))
           .out(dense({1, L, D})), root, "", "", 11, "h = h + self.pos_emb(self.positions)[None]");
    std::string h = name("add");
    at(b.call("torch.ops.aten.add.Tensor", h).arg("self", "embedding").arg("other", "unsqueeze").out(dense({1, L, D})), root, "", "", 11,
       "h = h + self.pos_emb(self.positions)[None]");

    for (int k = 0; k < blocks; ++k) {
        const std::string path = "blocks." + std::to_string(k), attn = path + ".attn";
        const uint64_t seed = 1210 + 20 * static_cast<uint64_t>(k);
        std::vector<std::byte> lower(static_cast<size_t>(L * L));
        for (int64_t r = 0; r < L; ++r)
            for (int64_t c = 0; c <= r; ++c) lower[static_cast<size_t>(r * L + c)] = std::byte{1};
        TensorData mask = makeInt64Tensor({L, L}, {});
        mask.dtype = ScalarType::Bool;
        mask.storage = Storage::fromBytes(std::move(lower));
        const std::string maskName = placeholderName("b_", attn) + "_causal_mask";
        b.buffer(maskName, attn + ".causal_mask", mask);

        const std::string x = norm(path + ".ln1", h, seed);
        const std::string qkv = linear(attn + ".qkv", x, D, 3 * D, true, seed + 2, 30, "q, k, v = self.qkv(x).split(self.d, dim=2)");
        const std::string q = name("getitem"), kk = name("getitem"), v = name("getitem");
        at(b.call("torch.ops.aten.split.Tensor", name("split")).arg("self", qkv).arg("split_size", Argument::integer(D))
               .arg("dim", Argument::integer(2))
               .outList({{q, strided({1, L, D}, {L * 3 * D, 3 * D, 1}, 0)}, {kk, strided({1, L, D}, {L * 3 * D, 3 * D, 1}, D)},
                         {v, strided({1, L, D}, {L * 3 * D, 3 * D, 1}, 2 * D)}}),
           root, attn, "zoo.Attention", 30, "q, k, v = self.qkv(x).split(self.d, dim=2)");
        // [1, L, D] chunk of the qkv rows -> [1, Heads, L, Hd]
        auto heads = [&](const std::string& in, int64_t offset) {
            const std::string viewed = name("view"), moved = name("transpose");
            const std::string code = "z.view(1, l, self.heads, -1).transpose(1, 2)";
            at(b.call("torch.ops.aten.view.default", viewed).arg("self", in).arg("size", Argument::ints({1, L, Heads, Hd}))
                   .out(strided({1, L, Heads, Hd}, {L * 3 * D, 3 * D, Hd, 1}, offset)), root, attn, "zoo.Attention", 31, code);
            at(b.call("torch.ops.aten.transpose.int", moved).arg("self", viewed).arg("dim0", Argument::integer(1))
                   .arg("dim1", Argument::integer(2)).out(strided({1, Heads, L, Hd}, {L * 3 * D, Hd, 3 * D, 1}, offset)),
               root, attn, "zoo.Attention", 31, code);
            return moved;
        };
        const std::string qh = heads(q, 0), kh = heads(kk, D), vh = heads(v, 2 * D);
        const std::string scoreCode = "s = (q @ k.transpose(-2, -1)) * self.scale";
        const std::string kt = name("transpose"), scores = name("matmul"), scaled = name("mul");
        at(b.call("torch.ops.aten.transpose.int", kt).arg("self", kh).arg("dim0", Argument::integer(-2)).arg("dim1", Argument::integer(-1))
               .out(strided({1, Heads, Hd, L}, {L * 3 * D, Hd, 1, 3 * D}, D)), root, attn, "zoo.Attention", 32, scoreCode);
        at(b.call("torch.ops.aten.matmul.default", scores).arg("self", qh).arg("other", kt).out(dense({1, Heads, L, L})), root, attn,
           "zoo.Attention", 32, scoreCode);
        at(b.call("torch.ops.aten.mul.Tensor", scaled).arg("self", scores).arg("other", Argument::floating(1.0 / std::sqrt(double(Hd))))
               .out(dense({1, Heads, L, L})), root, attn, "zoo.Attention", 32, scoreCode);
        const std::string maskCode = "s = s.masked_fill(~self.causal_mask[:l, :l], float('-inf'))";
        const std::string rows = name("slice"), cols = name("slice"), outside = name("logical_not"), masked = name("masked_fill");
        TensorMeta boolMeta = dense({L, L}, ScalarType::Bool);
        at(b.call("torch.ops.aten.slice.Tensor", rows).arg("self", maskName).arg("dim", Argument::integer(0))
               .arg("start", Argument::integer(0)).arg("end", Argument::integer(L)).out(boolMeta), root, attn, "zoo.Attention", 33, maskCode);
        at(b.call("torch.ops.aten.slice.Tensor", cols).arg("self", rows).arg("dim", Argument::integer(1))
               .arg("start", Argument::integer(0)).arg("end", Argument::integer(L)).out(boolMeta), root, attn, "zoo.Attention", 33, maskCode);
        at(b.call("torch.ops.aten.logical_not.default", outside).arg("self", cols).out(boolMeta), root, attn, "zoo.Attention", 33, maskCode);
        at(b.call("torch.ops.aten.masked_fill.Scalar", masked).arg("self", scaled).arg("mask", outside)
               .arg("value", Argument::floating(-INFINITY)).out(dense({1, Heads, L, L})), root, attn, "zoo.Attention", 33, maskCode);
        const std::string weights = name("softmax"), mixed = name("matmul"), back = name("transpose"), packed = name("contiguous"),
                          merged = name("view");
        at(b.call("torch.ops.aten.softmax.int", weights).arg("self", masked).arg("dim", Argument::integer(-1)).out(dense({1, Heads, L, L})),
           root, attn, "zoo.Attention", 34, "a = s.softmax(-1)");
        const std::string mixCode = "o = (a @ v).transpose(1, 2).contiguous().view(1, l, -1)";
        at(b.call("torch.ops.aten.matmul.default", mixed).arg("self", weights).arg("other", vh).out(dense({1, Heads, L, Hd})), root, attn,
           "zoo.Attention", 35, mixCode);
        at(b.call("torch.ops.aten.transpose.int", back).arg("self", mixed).arg("dim0", Argument::integer(1)).arg("dim1", Argument::integer(2))
               .out(strided({1, L, Heads, Hd}, {Heads * L * Hd, Hd, L * Hd, 1})), root, attn, "zoo.Attention", 35, mixCode);
        at(b.call("torch.ops.aten.contiguous.default", packed).arg("self", back).out(dense({1, L, Heads, Hd})), root, attn,
           "zoo.Attention", 35, mixCode);
        at(b.call("torch.ops.aten.view.default", merged).arg("self", packed).arg("size", Argument::ints({1, L, D})).out(dense({1, L, D})),
           root, attn, "zoo.Attention", 35, mixCode);
        const std::string o = linear(attn + ".proj", merged, D, D, true, seed + 4, 36, "return self.proj(o)");
        const std::string afterAttn = name("add");
        at(b.call("torch.ops.aten.add.Tensor", afterAttn).arg("self", h).arg("other", o).out(dense({1, L, D})), root, path, "zoo.Block", 50,
           "h = h + self.attn(self.ln1(h))");
        const std::string y = norm(path + ".ln2", afterAttn, seed + 6);
        const std::string up = linear(path + ".mlp.fc", y, D, H, true, seed + 8, 60, "return self.out(F.gelu(self.fc(x)))");
        const std::string act = name("gelu");
        at(b.call("torch.ops.aten.gelu.default", act).arg("self", up).out(dense({1, L, H})), root, path + ".mlp", "zoo.Mlp", 60,
           "return self.out(F.gelu(self.fc(x)))");
        const std::string down = linear(path + ".mlp.out", act, H, D, true, seed + 10, 60, "return self.out(F.gelu(self.fc(x)))");
        const std::string afterMlp = name("add");
        at(b.call("torch.ops.aten.add.Tensor", afterMlp).arg("self", afterAttn).arg("other", down).out(dense({1, L, D})), root, path,
           "zoo.Block", 51, "h = h + self.mlp(self.ln2(h))");
        h = afterMlp;
    }
    const std::string normed = norm("ln_f", h, 1290);
    b.userOutput(linear("lm_head", normed, D, V, false, 1292, 70, "return self.lm_head(self.ln_f(h))"));
    return finish(b);
}

} // namespace irlens::testing::zoo
