// The zoo's programs (support/zoo_programs.h), compiled once for every test: the small programs and the list;
// the nets in the shape of the bigger models are in zoo_nets.cpp.
#include "support/zoo_builders.h"

#include "core/ir/example_program.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <utility>

namespace irlens::testing::zoo {

TensorMeta dense(const std::vector<int64_t>& sizes, ScalarType dtype) {
    return makeTensorMeta(dtype, sizes);
}

/// A [rows, cols] matrix's transpose as permute(w, [1, 0]) records it: [cols, rows] with strides [1, cols].
TensorMeta transposed(int64_t rows, int64_t cols) {
    TensorMeta m = dense({cols, rows});
    m.strides = {SymInt::literal(1), SymInt::literal(cols)};
    return m;
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
ProgramPtr mlpTraining() {
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
    const std::string tokens = tokensInput(b, L, V, 7, 3);

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
ProgramPtr dtypeMix() {
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
ProgramPtr bufferMutation() {
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
ProgramPtr condBranch() {
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
ProgramPtr dynamicMlp() {
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
