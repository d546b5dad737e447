#include "core/teach/lesson_programs.h"

#include "core/ir/example_program.h"
#include "core/teach/program_kit.h"

namespace irlens::core::teach {

namespace {

const Origin kProj{"proj", "torch.nn.modules.linear.Linear", 12, "h = self.proj(x)", "l__self___proj"};

// The permute + addmm a Linear of `module` becomes at Core ATen: `permute` of the weight, then addmm.
void linearAsAddmm(ProgramBuilder& b, const std::string& root, const Origin& at, const std::string& weight,
                   const std::string& bias, const std::string& input, const std::string& permute, const std::string& addmm,
                   int64_t in, int64_t out, int64_t batch) {
    from(b.call("torch.ops.aten.permute.default", permute).arg("self", weight).arg("dims", Argument::ints({1, 0}))
             .out(transposedMeta(out, in)), root, at);
    from(b.call("torch.ops.aten.addmm.default", addmm).arg("self", bias).arg("mat1", input).arg("mat2", permute)
             .out(f32Meta({batch, out})), root, at);
}

// One branch of the cond lesson: `first`(arg0_1), then `second`(first, `scalar`).
std::shared_ptr<const Graph> branch(const char* first, const char* firstName, const char* second, const char* secondName,
                                    double scalar) {
    GraphBuilder g;
    g.input("arg0_1", f32Meta({4, 8}));
    g.call(first, firstName).arg("self", "arg0_1").out(f32Meta({4, 8}));
    g.call(second, secondName).arg("self", firstName).arg("other", Argument::floating(scalar)).out(f32Meta({4, 8}));
    g.outputTensor(secondName);
    auto built = g.build();
    return built ? built.value() : std::make_shared<const Graph>(g.buildUnchecked());
}

ProgramPtr finish(const ProgramBuilder& b) {
    auto built = b.build();
    // Fixed code: a failure here is a bug the tests catch, never a user's file.
    return built ? built.value() : ProgramPtr(std::make_shared<const Program>(b.buildUnchecked()));
}

} // namespace

ProgramPtr makeCondLesson() {
    const std::string root = "lessons.CondNet";
    ProgramBuilder b("cond_lesson");
    b.verifiers({"ATEN"});
    b.parameter("p_proj_weight", "proj.weight", makeSeededTensor({8, 8}, 41, 0.35f));
    b.parameter("p_proj_bias", "proj.bias", makeSeededTensor({8}, 42, 0.35f));
    b.parameter("p_head_weight", "head.weight", makeSeededTensor({4, 8}, 43, 0.35f));
    b.parameter("p_head_bias", "head.bias", makeSeededTensor({4}, 44, 0.35f));
    b.userInput("x", f32Meta({4, 8}));
    b.sampleInput(makeSeededTensor({4, 8}, 45, 1.0f));
    linearAsAddmm(b, root, kProj, "p_proj_weight", "p_proj_bias", "x", "permute", "addmm", 8, 8, 4);
    const Origin pred{"", "", 13, "return torch.cond(h.sum() > 0, true_fn, false_fn, [h])", "sum_1"};
    from(b.call("torch.ops.aten.sum.dim_IntList", "sum_1").arg("self", "addmm").arg("dim", Argument::ints({0, 1})).out(f32Meta({})), root, pred);
    from(b.call("torch.ops.aten.gt.Scalar", "gt").arg("self", "sum_1").arg("other", Argument::integer(0))
             .out(makeTensorMeta(ScalarType::Bool, std::vector<int64_t>{})), root, {"", "", 13, pred.code, "gt"});
    auto whenTrue = branch("torch.ops.aten.relu.default", "relu", "torch.ops.aten.mul.Tensor", "mul", 2.0);
    auto whenFalse = branch("torch.ops.aten.tanh.default", "tanh", "torch.ops.aten.sub.Tensor", "sub", 1.0);
    from(b.call("torch.ops.higher_order.cond", "cond").arg("", Argument::tensor("gt"))
             .arg("", graphArgument("true_graph_0", whenTrue)).arg("", graphArgument("false_graph_0", whenFalse))
             .arg("", Argument::tensors({"addmm"})).outNamed("getitem", f32Meta({4, 8})).hopSingleTensorReturn(false),
         root, {"", "", 13, pred.code, "cond"});
    linearAsAddmm(b, root, {"head", "torch.nn.modules.linear.Linear", 14, "return self.head(y)", "l__self___head"},
                  "p_head_weight", "p_head_bias", "getitem", "permute_1", "addmm_1", 8, 4, 4);
    b.userOutput("addmm_1");
    b.program().moduleCallGraph.push_back({"", std::nullopt});
    return finish(b);
}

ProgramPtr makeBufferLesson() {
    const std::string root = "lessons.RunningNorm";
    ProgramBuilder b("buffer_lesson");
    b.verifiers({"ATEN"});
    b.parameter("p_proj_weight", "proj.weight", makeSeededTensor({8, 8}, 51, 0.35f));
    b.parameter("p_proj_bias", "proj.bias", makeSeededTensor({8}, 52, 0.35f));
    b.buffer("b_steps", "steps", makeInt64Tensor({}, {0}));
    b.buffer("b_running_mean", "running_mean", makeFilledTensor({8}, 0.0f));
    b.userInput("x", f32Meta({4, 8}));
    b.sampleInput(makeSeededTensor({4, 8}, 53, 1.0f));
    linearAsAddmm(b, root, kProj, "p_proj_weight", "p_proj_bias", "x", "permute", "addmm", 8, 8, 4);
    const TensorMeta row = f32Meta({8});
    from(b.call("torch.ops.aten.add.Tensor", "add").arg("self", "b_steps").arg("other", Argument::integer(1))
             .out(makeTensorMeta(ScalarType::Int64, std::vector<int64_t>{})), root, {"", "", 20, "self.steps += 1", "iadd"});
    from(b.call("torch.ops.aten.mean.dim", "mean").arg("self", "addmm").arg("dim", Argument::ints({0})).out(row), root,
         {"", "", 21, "m = h.mean(0)", "mean"});
    const Origin ema{"", "", 22, "self.running_mean.mul_(0.9).add_(0.1 * m)", "mul_"};
    from(b.call("torch.ops.aten.mul.Tensor", "mul").arg("self", "b_running_mean").arg("other", Argument::floating(0.9)).out(row),
         root, ema);
    from(b.call("torch.ops.aten.mul.Tensor", "mul_1").arg("self", "mean").arg("other", Argument::floating(0.1)).out(row), root, ema);
    from(b.call("torch.ops.aten.add.Tensor", "add_1").arg("self", "mul").arg("other", "mul_1").out(row), root, ema);
    from(b.call("torch.ops.aten.sub.Tensor", "sub").arg("self", "addmm").arg("other", "add_1").out(f32Meta({4, 8})), root,
         {"", "", 23, "return (h - self.running_mean) / self.steps", "sub"});
    from(b.call("torch.ops.aten.div.Tensor", "div").arg("self", "sub").arg("other", "add").out(f32Meta({4, 8})), root,
         {"", "", 23, "return (h - self.running_mean) / self.steps", "truediv"});
    b.bufferMutation("add", "steps");
    b.bufferMutation("add_1", "running_mean");
    b.userOutput("div");
    b.program().moduleCallGraph.push_back({"", std::nullopt});
    return finish(b);
}

ProgramPtr makeDynamicLesson() {
    const std::string root = "lessons.DynamicMlp";
    ProgramBuilder b("dynamic_lesson");
    b.verifiers({"TRAINING"});
    const SymInt batch = SymInt::expression("Symbol('s0', integer=True, positive=True)", 4);
    auto rows = [&batch](int64_t width) {
        return makeTensorMeta(ScalarType::Float32, std::vector<SymInt>{batch, SymInt::literal(width)});
    };
    b.parameter("p_fc1_weight", "fc1.weight", makeSeededTensor({32, 16}, 61, 0.25f));
    b.parameter("p_fc1_bias", "fc1.bias", makeSeededTensor({32}, 62, 0.25f));
    b.parameter("p_fc2_weight", "fc2.weight", makeSeededTensor({8, 32}, 63, 0.18f));
    b.parameter("p_fc2_bias", "fc2.bias", makeSeededTensor({8}, 64, 0.18f));
    b.userInput("x", rows(16));
    b.rangeConstraint("s0", 2, 64);
    b.sampleInput(makeSeededTensor({4, 16}, 65, 1.0f));
    const std::string linear = "torch.nn.modules.linear.Linear";
    from(b.call("torch.ops.aten.linear.default", "linear").arg("input", "x").arg("weight", "p_fc1_weight").arg("bias", "p_fc1_bias")
             .out(rows(32)), root, {"fc1", linear, 30, "h = self.fc1(x)", "l__self___fc1"});
    from(b.call("torch.ops.aten.relu_.default", "relu_").arg("self", "linear").out(rows(32)), root,
         {"act", "torch.nn.modules.activation.ReLU", 31, "h = self.act(h)  # nn.ReLU(inplace=True)", "l__self___act"});
    from(b.call("torch.ops.aten.linear.default", "linear_1").arg("input", "relu_").arg("weight", "p_fc2_weight")
             .arg("bias", "p_fc2_bias").out(rows(8)), root, {"fc2", linear, 32, "return self.fc2(h)", "l__self___fc2"});
    b.userOutput("linear_1");
    b.program().moduleCallGraph.push_back({"", std::nullopt});
    return finish(b);
}

ProgramPtr makeLesson(const std::string& name) {
    if (name == "example") return makeExampleProgram();
    if (name == "cond") return makeCondLesson();
    if (name == "buffer") return makeBufferLesson();
    if (name == "dynamic") return makeDynamicLesson();
    return nullptr;
}

} // namespace irlens::core::teach
