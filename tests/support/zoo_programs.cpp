// The zoo's programs (support/zoo_programs.h), compiled once for every test.
#include "support/zoo_programs.h"

#include "core/ir/example_program.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <utility>

namespace irlens::testing::zoo {

using namespace irlens::core;

TensorMeta dense(const std::vector<int64_t>& sizes, ScalarType dtype) {
    return makeTensorMeta(dtype, sizes);
}

/// A [rows, cols] matrix's transpose as permute(w, [1, 0]) records it: [cols, rows] with strides [1, cols].
TensorMeta transposed(int64_t rows, int64_t cols) {
    TensorMeta m = dense({cols, rows});
    m.strides = {SymInt::literal(1), SymInt::literal(cols)};
    return m;
}

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

/// The finished program, with the lifted state (parameters, buffers, constants) before the user inputs as
/// export lists them: the zoo declares a layer's weights where the layer is built.
ProgramPtr finish(ProgramBuilder& b) {
    auto& specs = b.program().signature.inputSpecs;
    auto& inputs = b.graph().graph().inputs;
    std::vector<size_t> order(specs.size());
    for (size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::stable_partition(order.begin(), order.end(), [&](size_t k) { return specs[k].kind != InputKind::UserInput; });
    std::vector<InputSpec> sortedSpecs;
    std::vector<Argument> sortedInputs;
    for (size_t k : order) {
        sortedSpecs.push_back(specs[k]);
        sortedInputs.push_back(inputs[k]);
    }
    specs = std::move(sortedSpecs);
    inputs = std::move(sortedInputs);
    return b.build().value();
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

/// x f32[4, 16] -> Linear(16, 32) -> ReLU -> Linear(32, 32) -> ReLU -> Linear(32, 10): 8 nodes.
ProgramPtr mlp() {
    ProgramBuilder b("model");
    b.verifiers({"ATEN"});
    const std::string root = "zoo.Mlp";
    LinearLayer linear{b, root, 10};
    const std::string x = b.userInput("x", dense({4, 16}));
    b.sampleInput(makeSeededTensor({4, 16}, 100, 1.0f));
    linear("fc1", x, 4, 16, 32, "permute", "addmm", 1);
    auto r = b.call("torch.ops.aten.relu.default", "relu").arg("self", "addmm").out(dense({4, 32}));
    at(r, root, "act1", "torch.nn.modules.activation.ReLU", 20, "h = self.act1(h)");
    linear("fc2", "relu", 4, 32, 32, "permute_1", "addmm_1", 3);
    auto r1 = b.call("torch.ops.aten.relu.default", "relu_1").arg("self", "addmm_1").out(dense({4, 32}));
    at(r1, root, "act2", "torch.nn.modules.activation.ReLU", 21, "h = self.act2(h)");
    linear("head", "relu_1", 4, 32, 10, "permute_2", "addmm_2", 5);
    b.userOutput("addmm_2");
    return finish(b);
}

/// The MLP at torch.export's training-IR level (verifier TRAINING): x f32[4, 16] -> linear -> relu -> linear -> relu
/// -> linear, nodes linear, relu, linear_1, relu_1, linear_2 (5 nodes), each linear with its weight and bias.
inline ProgramPtr mlpTraining() {
    ProgramBuilder b("model");
    b.verifiers({"TRAINING"});
    const std::string root = "zoo.Mlp";
    const std::string x = b.userInput("x", dense({4, 16}));
    b.sampleInput(makeSeededTensor({4, 16}, 100, 1.0f));
    auto linear = [&](const std::string& path, const std::string& in, int64_t inFeatures, int64_t outFeatures, const std::string& name,
                      uint64_t seed, int line) {
        const float scale = 1.0f / static_cast<float>(inFeatures) * 4.0f;
        b.parameter("p_" + path + "_weight", path + ".weight", makeSeededTensor({outFeatures, inFeatures}, seed, scale));
        b.parameter("p_" + path + "_bias", path + ".bias", makeSeededTensor({outFeatures}, seed + 1, scale));
        auto n = b.call("torch.ops.aten.linear.default", name).arg("input", in).arg("weight", "p_" + path + "_weight")
                     .arg("bias", "p_" + path + "_bias").out(dense({4, outFeatures}));
        at(n, root, path, "torch.nn.modules.linear.Linear", line, "h = self." + path + "(h)");
    };
    linear("fc1", x, 16, 32, "linear", 1, 10);
    auto r = b.call("torch.ops.aten.relu.default", "relu").arg("self", "linear").out(dense({4, 32}));
    at(r, root, "act1", "torch.nn.modules.activation.ReLU", 20, "h = self.act1(h)");
    linear("fc2", "relu", 32, 32, "linear_1", 3, 11);
    auto r1 = b.call("torch.ops.aten.relu.default", "relu_1").arg("self", "linear_1").out(dense({4, 32}));
    at(r1, root, "act2", "torch.nn.modules.activation.ReLU", 21, "h = self.act2(h)");
    linear("head", "relu_1", 32, 10, "linear_2", 5, 12);
    b.userOutput("linear_2");
    return finish(b);
}

/// One pre-LN transformer block over 8 tokens of a 32-word vocabulary, width 16: token and position
/// embeddings, layer norm, q/k/v projections, scores with a causal mask (a lifted constant), softmax,
/// the attention output, a residual add, a GELU MLP, a second residual, a final layer norm and the LM head.
ProgramPtr gptBlock() {
    constexpr int64_t L = 8, D = 16, V = 32, H = 32;
    ProgramBuilder b("model");
    b.verifiers({"ATEN"});
    const std::string root = "zoo.TinyGpt";
    LinearLayer linear{b, root, 40};
    b.parameter("p_wte_weight", "wte.weight", makeSeededTensor({V, D}, 21, 0.5f));
    b.parameter("p_wpe_weight", "wpe.weight", makeSeededTensor({L, D}, 22, 0.5f));
    std::vector<int64_t> positions(L);
    for (int64_t k = 0; k < L; ++k) positions[static_cast<size_t>(k)] = k;
    b.buffer("b_positions", "positions", makeInt64Tensor({L}, positions), false);
    std::vector<float> mask(static_cast<size_t>(L * L), 0.0f);
    for (int64_t r = 0; r < L; ++r)
        for (int64_t c = r + 1; c < L; ++c) mask[static_cast<size_t>(r * L + c)] = -10000.0f;
    b.tensorConstant("c_causal_mask", "causal_mask", makeFloatTensor({L, L}, mask));
    auto norm = [&](const std::string& path, const std::string& in, const std::string& name, const std::string& out, int line) {
        const std::string value = "p_" + path;
        b.parameter(value + "_weight", path + ".weight", makeFilledTensor({D}, 1.0f));
        b.parameter(value + "_bias", path + ".bias", makeSeededTensor({D}, static_cast<uint64_t>(line), 0.1f));
        auto n = b.call("torch.ops.aten.native_layer_norm.default", name)
                     .arg("input", in).arg("normalized_shape", Argument::ints({D})).arg("weight", value + "_weight")
                     .arg("bias", value + "_bias").arg("eps", Argument::floating(1e-05))
                     .outNamed(out, dense({L, D})).outNamed(name + "_unused_1", dense({L, 1})).outNamed(name + "_unused_2", dense({L, 1}));
        at(n, root, path, "torch.nn.modules.normalization.LayerNorm", line, "h = self." + path + "(h)");
    };
    const std::string tokens = b.userInput("tokens", dense({1, L}, ScalarType::Int64));
    std::vector<int64_t> sample(static_cast<size_t>(L));
    for (int64_t k = 0; k < L; ++k) sample[static_cast<size_t>(k)] = (k * 7 + 3) % V;
    b.sampleInput(makeInt64Tensor({1, L}, sample));

    auto e = b.call("torch.ops.aten.embedding.default", "embedding").arg("weight", "p_wte_weight").arg("indices", tokens).out(dense({1, L, D}));
    at(e, root, "wte", "torch.nn.modules.sparse.Embedding", 30, "h = self.wte(tokens)");
    auto e1 = b.call("torch.ops.aten.embedding.default", "embedding_1").arg("weight", "p_wpe_weight").arg("indices", "b_positions")
                  .out(dense({L, D}));
    at(e1, root, "wpe", "torch.nn.modules.sparse.Embedding", 31, "h = h + self.wpe(self.positions)");
    auto add = b.call("torch.ops.aten.add.Tensor", "add").arg("self", "embedding").arg("other", "embedding_1").out(dense({1, L, D}));
    at(add, root, "", "", 31, "h = h + self.wpe(self.positions)");
    auto view = b.call("torch.ops.aten.view.default", "view").arg("self", "add").arg("size", Argument::ints({L, D})).out(dense({L, D}));
    at(view, root, "", "", 32, "h = h.view(l, d)");
    norm("ln1", "view", "native_layer_norm", "getitem", 33);
    linear("attn.q_proj", "getitem", L, D, D, "permute", "addmm", 31);
    linear("attn.k_proj", "getitem", L, D, D, "permute_1", "addmm_1", 33);
    linear("attn.v_proj", "getitem", L, D, D, "permute_2", "addmm_2", 35);
    TensorMeta kt = dense({D, L});
    kt.strides = {SymInt::literal(1), SymInt::literal(D)};
    auto t = b.call("torch.ops.aten.permute.default", "permute_3").arg("self", "addmm_1").arg("dims", Argument::ints({1, 0})).out(kt);
    at(t, root, "attn", "zoo.Attention", 50, "s = q @ k.t()");
    auto mm = b.call("torch.ops.aten.mm.default", "mm").arg("self", "addmm").arg("mat2", "permute_3").out(dense({L, L}));
    at(mm, root, "attn", "zoo.Attention", 50, "s = q @ k.t()");
    auto mul = b.call("torch.ops.aten.mul.Tensor", "mul").arg("self", "mm").arg("other", Argument::floating(0.25)).out(dense({L, L}));
    at(mul, root, "attn", "zoo.Attention", 51, "s = s * self.scale + self.causal_mask");
    auto masked = b.call("torch.ops.aten.add.Tensor", "add_1").arg("self", "mul").arg("other", "c_causal_mask").out(dense({L, L}));
    at(masked, root, "attn", "zoo.Attention", 51, "s = s * self.scale + self.causal_mask");
    auto sm = b.call("torch.ops.aten._softmax.default", "_softmax").arg("self", "add_1").arg("dim", Argument::integer(-1))
                  .arg("half_to_float", Argument::boolean(false)).out(dense({L, L}));
    at(sm, root, "attn", "zoo.Attention", 52, "a = s.softmax(-1)");
    auto mix = b.call("torch.ops.aten.mm.default", "mm_1").arg("self", "_softmax").arg("mat2", "addmm_2").out(dense({L, D}));
    at(mix, root, "attn", "zoo.Attention", 53, "o = a @ v");
    linear("attn.o_proj", "mm_1", L, D, D, "permute_4", "addmm_3", 37);
    auto res = b.call("torch.ops.aten.add.Tensor", "add_2").arg("self", "view").arg("other", "addmm_3").out(dense({L, D}));
    at(res, root, "", "", 34, "h = h + self.attn(self.ln1(h))");
    norm("ln2", "add_2", "native_layer_norm_1", "getitem_3", 35);
    linear("mlp.up", "getitem_3", L, D, H, "permute_5", "addmm_4", 39);
    auto g = b.call("torch.ops.aten.gelu.default", "gelu").arg("self", "addmm_4").out(dense({L, H}));
    at(g, root, "mlp.act", "torch.nn.modules.activation.GELU", 60, "h = self.act(self.up(x))");
    linear("mlp.down", "gelu", L, H, D, "permute_6", "addmm_5", 41);
    auto res2 = b.call("torch.ops.aten.add.Tensor", "add_3").arg("self", "add_2").arg("other", "addmm_5").out(dense({L, D}));
    at(res2, root, "", "", 36, "h = h + self.mlp(self.ln2(h))");
    norm("ln_f", "add_3", "native_layer_norm_2", "getitem_6", 37);
    b.parameter("p_lm_head_weight", "lm_head.weight", makeSeededTensor({V, D}, 43, 0.25f));
    auto pt = b.call("torch.ops.aten.permute.default", "permute_7").arg("self", "p_lm_head_weight").arg("dims", Argument::ints({1, 0}))
                  .out(transposed(V, D));
    at(pt, root, "lm_head", "torch.nn.modules.linear.Linear", 38, "return self.lm_head(h).view(1, l, -1)");
    auto head = b.call("torch.ops.aten.mm.default", "mm_2").arg("self", "getitem_6").arg("mat2", "permute_7").out(dense({L, V}));
    at(head, root, "lm_head", "torch.nn.modules.linear.Linear", 38, "return self.lm_head(h).view(1, l, -1)");
    auto logits = b.call("torch.ops.aten.view.default", "view_1").arg("self", "mm_2").arg("size", Argument::ints({1, L, V}))
                      .out(dense({1, L, V}));
    at(logits, root, "", "", 38, "return self.lm_head(h).view(1, l, -1)");
    b.userOutput("view_1");
    return finish(b);
}

/// int64 counts and float32 values with Python scalars: a cast, a comparison, where (its 0.0 a lifted tensor
/// constant), a bool reduction cast to int32, and an integer output. Outputs of four dtypes.
inline ProgramPtr dtypeMix() {
    ProgramBuilder b("model");
    b.verifiers({"ATEN"});
    const std::string root = "zoo.DtypeMix";
    b.tensorConstant("c_zero", "zero", makeFilledTensor({}, 0.0f)); // the 0.0 of where(), lifted as export lifts it
    const std::string counts = b.userInput("counts", dense({2, 4}, ScalarType::Int64));
    const std::string values = b.userInput("values", dense({2, 4}));
    b.sampleInput(makeInt64Tensor({2, 4}, {3, -1, 0, 7, 2, 5, -4, 1}));
    b.sampleInput(makeSeededTensor({2, 4}, 200, 2.0f));
    auto cast = b.call("torch.ops.aten._to_copy.default", "_to_copy").arg("self", counts)
                    .kwarg("dtype", Argument::scalarType(ScalarType::Float32)).out(dense({2, 4}));
    at(cast, root, "", "", 10, "c = counts.float()");
    auto mul = b.call("torch.ops.aten.mul.Tensor", "mul").arg("self", "_to_copy").arg("other", values).out(dense({2, 4}));
    at(mul, root, "", "", 11, "v = c * values");
    auto gt = b.call("torch.ops.aten.gt.Scalar", "gt").arg("self", "mul").arg("other", Argument::floating(0.5))
                  .out(dense({2, 4}, ScalarType::Bool));
    at(gt, root, "", "", 12, "keep = v > 0.5");
    auto where = b.call("torch.ops.aten.where.self", "where").arg("condition", "gt").arg("self", "mul").arg("other", "c_zero")
                     .out(dense({2, 4}));
    at(where, root, "", "", 13, "kept = torch.where(keep, v, 0.0)");
    Argument i32 = Argument::scalarType(ScalarType::Int32);
    auto sum = b.call("torch.ops.aten.sum.dim_IntList", "sum_1").arg("self", "gt").arg("dim", Argument::ints({1}))
                   .kwarg("dtype", i32).out(dense({2}, ScalarType::Int32));
    at(sum, root, "", "", 14, "n = keep.sum(1, dtype=torch.int32)");
    auto shifted = b.call("torch.ops.aten.add.Tensor", "add").arg("self", counts).arg("other", Argument::integer(3))
                       .out(dense({2, 4}, ScalarType::Int64));
    at(shifted, root, "", "", 15, "shifted = counts + 3");
    b.userOutput("where");
    b.userOutput("gt");
    b.userOutput("sum_1");
    b.userOutput("add");
    return finish(b);
}

/// A step counter (int64) and a running average (float32) updated in place, functionalized into two
/// BUFFER_MUTATION outputs before the user output.
inline ProgramPtr bufferMutation() {
    ProgramBuilder b("model");
    b.verifiers({"ATEN"});
    const std::string root = "zoo.RunningAverage";
    b.parameter("p_scale", "scale", makeSeededTensor({8}, 300, 1.0f));
    b.buffer("b_steps", "steps", makeInt64Tensor({}, {4}));
    b.buffer("b_average", "average", makeSeededTensor({8}, 301, 0.5f));
    const std::string x = b.userInput("x", dense({2, 8}));
    b.sampleInput(makeSeededTensor({2, 8}, 302, 1.0f));
    auto step = b.call("torch.ops.aten.add.Tensor", "add").arg("self", "b_steps").arg("other", Argument::integer(1))
                    .out(dense({}, ScalarType::Int64));
    at(step, root, "", "", 10, "self.steps += 1");
    auto mean = b.call("torch.ops.aten.mean.dim", "mean").arg("self", x).arg("dim", Argument::ints({0})).out(dense({8}));
    at(mean, root, "", "", 11, "m = x.mean(0)");
    auto decay = b.call("torch.ops.aten.mul.Tensor", "mul").arg("self", "b_average").arg("other", Argument::floating(0.9)).out(dense({8}));
    at(decay, root, "", "", 12, "self.average.mul_(0.9).add_(m, alpha=0.1)");
    auto blend = b.call("torch.ops.aten.add.Tensor", "add_1").arg("self", "mul").arg("other", "mean")
                     .kwarg("alpha", Argument::floating(0.1)).out(dense({8}));
    at(blend, root, "", "", 12, "self.average.mul_(0.9).add_(m, alpha=0.1)");
    auto centered = b.call("torch.ops.aten.sub.Tensor", "sub").arg("self", x).arg("other", "add_1").out(dense({2, 8}));
    at(centered, root, "", "", 13, "return (x - self.average) * self.scale");
    auto scaled = b.call("torch.ops.aten.mul.Tensor", "mul_1").arg("self", "sub").arg("other", "p_scale").out(dense({2, 8}));
    at(scaled, root, "", "", 13, "return (x - self.average) * self.scale");
    b.bufferMutation("add", "steps");
    b.bufferMutation("add_1", "average");
    b.userOutput("mul_1");
    return finish(b);
}

/// Linear, then cond on h.sum() > 0 (true: relu(h) * 2, false: sigmoid(h) - 1), then Linear.
inline ProgramPtr condBranch() {
    constexpr int64_t N = 2, D = 8;
    auto branch = [&](const std::string& op, const std::string& first, const std::string& scalarOp, const std::string& second,
                      double scalar) {
        GraphBuilder g;
        g.input("arg0_1", dense({N, D}));
        g.call("torch.ops.aten." + op, first).arg("self", "arg0_1").out(dense({N, D}));
        g.call("torch.ops.aten." + scalarOp, second).arg("self", first).arg("other", Argument::floating(scalar)).out(dense({N, D}));
        g.outputTensor(second);
        return g.build().value();
    };
    ProgramBuilder b("model");
    b.verifiers({"ATEN"});
    const std::string root = "zoo.Branchy";
    LinearLayer linear{b, root, 10};
    const std::string x = b.userInput("x", dense({N, D}));
    b.sampleInput(makeSeededTensor({N, D}, 400, 1.0f));
    linear("fc1", x, N, D, D, "permute", "addmm", 401);
    auto sum = b.call("torch.ops.aten.sum.default", "sum_1").arg("self", "addmm").out(dense({}));
    at(sum, root, "", "", 20, "pred = h.sum() > 0");
    auto gt = b.call("torch.ops.aten.gt.Scalar", "gt").arg("self", "sum_1").arg("other", Argument::integer(0))
                  .out(dense({}, ScalarType::Bool));
    at(gt, root, "", "", 20, "pred = h.sum() > 0");
    auto c = b.call("torch.ops.higher_order.cond", "cond").arg("", "gt")
                 .arg("", graphArgument("true_graph_0", branch("relu.default", "relu", "mul.Tensor", "mul", 2.0)))
                 .arg("", graphArgument("false_graph_0", branch("sigmoid.default", "sigmoid", "sub.Tensor", "sub", 1.0)))
                 .arg("", Argument::tensors({"addmm"})).outNamed("getitem", dense({N, D}));
    at(c, root, "", "", 21, "h = torch.cond(pred, self.grow, self.shrink, (h,))");
    linear("fc2", "getitem", N, D, 4, "permute_1", "addmm_1", 403);
    b.userOutput("addmm_1");
    return finish(b);
}

/// An MLP over a dynamic batch s0 in [1, 16]: sym_size, an _operator node, a view by a symbolic size.
inline ProgramPtr dynamicMlp() {
    constexpr int64_t D = 8;
    ProgramBuilder b("model");
    b.verifiers({"ATEN"});
    const std::string root = "zoo.DynamicMlp";
    const SymInt s0 = SymInt::expression("s0", 4);
    auto rows = [&](int64_t cols) { return makeTensorMeta(ScalarType::Float32, std::vector<SymInt>{s0, SymInt::literal(cols)}); };
    b.parameter("p_fc1_weight", "fc1.weight", makeSeededTensor({16, D}, 500, 0.5f));
    b.parameter("p_fc1_bias", "fc1.bias", makeSeededTensor({16}, 501, 0.5f));
    b.parameter("p_fc2_weight", "fc2.weight", makeSeededTensor({D, 16}, 502, 0.25f));
    b.parameter("p_fc2_bias", "fc2.bias", makeSeededTensor({D}, 503, 0.25f));
    const std::string x = b.userInput("x", rows(D));
    b.rangeConstraint("s0", 1, 16);
    b.sampleInput(makeSeededTensor({4, D}, 504, 1.0f));
    auto size = b.call("torch.ops.aten.sym_size.int", "sym_size_int").arg("self", x).arg("dim", Argument::integer(0)).outSymInt(s0);
    at(size, root, "", "", 10, "n = x.shape[0]");
    auto p = b.call("torch.ops.aten.permute.default", "permute").arg("self", "p_fc1_weight").arg("dims", Argument::ints({1, 0}))
                 .out(transposed(16, D));
    at(p, root, "fc1", "torch.nn.modules.linear.Linear", 11, "h = self.fc1(x).relu()");
    auto a = b.call("torch.ops.aten.addmm.default", "addmm").arg("self", "p_fc1_bias").arg("mat1", x).arg("mat2", "permute").out(rows(16));
    at(a, root, "fc1", "torch.nn.modules.linear.Linear", 11, "h = self.fc1(x).relu()");
    auto r = b.call("torch.ops.aten.relu.default", "relu").arg("self", "addmm").out(rows(16));
    at(r, root, "", "", 11, "h = self.fc1(x).relu()");
    auto p1 = b.call("torch.ops.aten.permute.default", "permute_1").arg("self", "p_fc2_weight").arg("dims", Argument::ints({1, 0}))
                  .out(transposed(D, 16));
    at(p1, root, "fc2", "torch.nn.modules.linear.Linear", 12, "h = self.fc2(h)");
    auto a1 = b.call("torch.ops.aten.addmm.default", "addmm_1").arg("self", "p_fc2_bias").arg("mat1", "relu").arg("mat2", "permute_1")
                  .out(rows(D));
    at(a1, root, "fc2", "torch.nn.modules.linear.Linear", 12, "h = self.fc2(h)");
    auto twice = b.call("_operator.mul", "mul").arg("a", Argument::symIntName("sym_size_int")).arg("b", Argument::integer(2))
                     .outSymInt(SymInt::expression("2*s0", 8));
    at(twice, root, "", "", 13, "return h.view(n * 2, -1)");
    Argument shape;
    shape.kind = ArgKind::SymInts;
    shape.list = {Argument::symIntName("mul"), Argument::integer(D / 2)};
    shape.list[1].kind = ArgKind::SymInt;
    auto v = b.call("torch.ops.aten.view.default", "view").arg("self", "addmm_1").arg("size", shape)
                 .out(makeTensorMeta(ScalarType::Float32, std::vector<SymInt>{SymInt::expression("2*s0", 8), SymInt::literal(D / 2)}));
    at(v, root, "", "", 13, "return h.view(n * 2, -1)");
    b.userOutput("view");
    return finish(b);
}

/// `blocks` residual blocks (layer norm -> Linear -> GELU -> Linear -> add) under "layers", width 16, then a
/// "head" Linear: 7 nodes a block and 2 for the head, for the layout and big-graph paths at a size a test can
/// afford. Collapsed to its top-level modules it shows x, layers, head and the output.
inline ProgramPtr residualStack(int blocks = 24) {
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
inline ProgramPtr convNet() {
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
inline ProgramPtr depthwiseNet(bool training = false) {
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
inline ProgramPtr decoderStack(int blocks = 4) {
    constexpr int64_t L = 8, D = 16, V = 32, Heads = 2, Hd = D / Heads, F = 32;
    ProgramBuilder b("model");
    b.verifiers({"ATEN"});
    const std::string root = "zoo.Decoder";
    // torch.fx never names a node as a Python builtin: the first pow is pow_1
    std::map<std::string, int> counters{{"pow", 1}};
    auto name = [&](const std::string& base) { return numbered(base, counters[base]); };
    auto strided = [](std::vector<int64_t> sizes, const std::vector<int64_t>& strides) {
        TensorMeta m = dense(sizes);
        m.strides.clear();
        for (int64_t s : strides) m.strides.push_back(SymInt::literal(s));
        return m;
    };
    b.parameter("p_embed_weight", "embed.weight", makeSeededTensor({V, D}, 1001, 1.0f));
    std::vector<float> mask(static_cast<size_t>(L * L), 0.0f);
    for (int64_t r = 0; r < L; ++r)
        for (int64_t c = r + 1; c < L; ++c) mask[static_cast<size_t>(r * L + c)] = -10000.0f;
    b.tensorConstant("c_causal_mask", "causal_mask", makeFloatTensor({L, L}, mask));
    const std::string tokens = b.userInput("tokens", dense({1, L}, ScalarType::Int64));
    std::vector<int64_t> sample(static_cast<size_t>(L));
    for (int64_t k = 0; k < L; ++k) sample[static_cast<size_t>(k)] = (k * 11 + 5) % V;
    b.sampleInput(makeInt64Tensor({1, L}, sample));

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
inline ProgramPtr gptTraining(int blocks = 2) {
    constexpr int64_t L = 8, D = 16, V = 32, Heads = 2, Hd = D / Heads, H = 32;
    ProgramBuilder b("model");
    b.verifiers({"TRAINING"});
    const std::string root = "zoo.Gpt";
    // torch.fx never names a node as a Python builtin: the first slice is slice_1
    std::map<std::string, int> counters{{"slice", 1}};
    auto name = [&](const std::string& base) { return numbered(base, counters[base]); };
    auto strided = [](std::vector<int64_t> sizes, const std::vector<int64_t>& strides, int64_t offset = 0) {
        TensorMeta m = dense(sizes);
        m.strides.clear();
        for (int64_t s : strides) m.strides.push_back(SymInt::literal(s));
        m.storageOffset = SymInt::literal(offset);
        return m;
    };
    b.parameter("p_tok_emb_weight", "tok_emb.weight", makeSeededTensor({V, D}, 1201, 1.0f));
    b.parameter("p_pos_emb_weight", "pos_emb.weight", makeSeededTensor({L, D}, 1202, 0.5f));
    std::vector<int64_t> positions(L);
    for (int64_t k = 0; k < L; ++k) positions[static_cast<size_t>(k)] = k;
    b.buffer("b_positions", "positions", makeInt64Tensor({L}, positions), false);
    const std::string tokens = b.userInput("tokens", dense({1, L}, ScalarType::Int64));
    std::vector<int64_t> sample(static_cast<size_t>(L));
    for (int64_t k = 0; k < L; ++k) sample[static_cast<size_t>(k)] = (k * 5 + 2) % V;
    b.sampleInput(makeInt64Tensor({1, L}, sample));

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


/// Every zoo program, smallest first. Each is called "model", as torch.export names the one program of a file.
const std::vector<ZooProgram>& programs() {
    static const std::vector<ZooProgram> all = {
        {"mlp", mlp},
        {"mlp_training", mlpTraining},
        {"dtype_mix", dtypeMix},
        {"buffer_mutation", bufferMutation},
        {"cond_branch", condBranch},
        {"dynamic_mlp", dynamicMlp},
        {"gpt_block", gptBlock},
        {"gpt_training", [] { return gptTraining(); }},
        {"conv_attention", [] {
             // the bundled example (conv, batch norm, pooling, attention, layer norm, MLP) under the name export gives
             auto p = std::make_shared<Program>(*makeExampleProgram());
             p->modelName = "model";
             return ProgramPtr(p);
         }},
        {"conv_net", convNet},
        {"depthwise_net", [] { return depthwiseNet(); }},
        {"depthwise_net_training", [] { return depthwiseNet(true); }},
        {"residual_stack", [] { return residualStack(); }},
        {"decoder_stack", [] { return decoderStack(); }},
    };
    return all;
}

/// A zoo program by name, or "deep_residual_stack": 240 residual blocks and a head (1,682 nodes), big enough
/// that the views open it collapsed and lay it out composed; nullptr for a name the zoo does not have.
ProgramPtr byName(const std::string& name) {
    if (name == "deep_residual_stack") return residualStack(240);
    for (const auto& z : programs())
        if (name == z.name) return z.make();
    return nullptr;
}

} // namespace irlens::testing::zoo
