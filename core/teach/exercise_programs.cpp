#include "core/teach/exercise_programs.h"

#include "core/teach/program_kit.h"

namespace irlens::core::teach::drill {

namespace {

constexpr const char* kMlp = "exercises.Mlp";
const char* const kLinear = "torch.nn.modules.linear.Linear";

TensorMeta batchMeta(const MlpOptions& o, int64_t width) {
    if (!o.batch) return f32Meta({2, width});
    return makeTensorMeta(ScalarType::Float32, std::vector<SymInt>{*o.batch, SymInt::literal(width)});
}

void mlpState(ProgramBuilder& b, const MlpOptions& o) {
    b.parameter("p_fc1_weight", "fc1.weight", makeSeededTensor({8, 8}, 71, 0.35f));
    b.parameter("p_fc1_bias", "fc1.bias", makeSeededTensor({8}, 72, 0.35f));
    b.parameter("p_fc2_weight", "fc2.weight", makeSeededTensor({4, 8}, 73, 0.35f));
    if (o.userInputBeforeFc2Bias) b.userInput("x", batchMeta(o, 8));
    b.parameter("p_fc2_bias", "fc2.bias", makeSeededTensor({4}, 74, 0.35f));
}

} // namespace

ProgramBuilder mlp(const MlpOptions& o) {
    ProgramBuilder b("exercise");
    b.verifiers({o.dialect});
    mlpState(b, o);
    if (!o.userInputBeforeFc2Bias) b.userInput("x", batchMeta(o, 8));
    if (o.withSample) b.sampleInput(makeSeededTensor({2, 8}, 75, 1.0f));
    const Origin fc1{"fc1", kLinear, 40, "h = self.fc1(x)", "l__self___fc1"};
    from(b.call("torch.ops.aten.permute.default", "permute").arg("self", "p_fc1_weight").arg("dims", Argument::ints({1, 0}))
             .out(transposedMeta(8, 8)), kMlp, fc1);
    from(b.call("torch.ops.aten.addmm.default", "addmm").arg("self", "p_fc1_bias").arg("mat1", "x").arg("mat2", "permute")
             .out(batchMeta(o, 8)), kMlp, fc1);
    from(b.call(o.act, o.actName).arg("self", "addmm").out(batchMeta(o, 8)), kMlp,
         {"act", "torch.nn.modules.activation.ReLU", 41, "h = self.act(h)", "l__self___act"});
    const Origin fc2{"fc2", kLinear, 42, "return self.fc2(h)", "l__self___fc2"};
    if (o.fc2AsLinear) {
        from(b.call("torch.ops.aten.linear.default", "linear").arg("input", o.actName).arg("weight", "p_fc2_weight")
                 .arg("bias", "p_fc2_bias").out(batchMeta(o, 4)), kMlp, fc2);
        return b;
    }
    from(b.call("torch.ops.aten.permute.default", "permute_1").arg("self", "p_fc2_weight").arg("dims", Argument::ints({1, 0}))
             .out(transposedMeta(4, 8)), kMlp, fc2);
    from(b.call("torch.ops.aten.addmm.default", "addmm_1").arg("self", "p_fc2_bias").arg("mat1", o.actName).arg("mat2", "permute_1")
             .out(batchMeta(o, 4)), kMlp, fc2);
    return b;
}

Program mlpProgram(const MlpOptions& o) {
    ProgramBuilder b = mlp(o);
    b.userOutput(o.fc2AsLinear ? "linear" : "addmm_1");
    return b.buildUnchecked();
}

Program counterProgram(bool inplace, bool mutationLast) {
    ProgramBuilder b("exercise");
    b.verifiers({inplace ? "TRAINING" : "ATEN"});
    mlpState(b, {});
    b.buffer("b_calls", "calls", makeInt64Tensor({}, {0}));
    b.userInput("x", f32Meta({2, 8}));
    b.sampleInput(makeSeededTensor({2, 8}, 75, 1.0f));
    const Origin count{"", "", 39, "self.calls += 1", "iadd"};
    const TensorMeta scalar = makeTensorMeta(ScalarType::Int64, std::vector<int64_t>{});
    const std::string counter = inplace ? "add_" : "add";
    from(b.call(inplace ? "torch.ops.aten.add_.Tensor" : "torch.ops.aten.add.Tensor", counter).arg("self", "b_calls")
             .arg("other", Argument::integer(1)).out(scalar), kMlp, count);
    const Origin fc1{"fc1", kLinear, 40, "h = self.fc1(x)", "l__self___fc1"};
    from(b.call("torch.ops.aten.permute.default", "permute").arg("self", "p_fc1_weight").arg("dims", Argument::ints({1, 0}))
             .out(transposedMeta(8, 8)), kMlp, fc1);
    from(b.call("torch.ops.aten.addmm.default", "addmm").arg("self", "p_fc1_bias").arg("mat1", "x").arg("mat2", "permute")
             .out(f32Meta({2, 8})), kMlp, fc1);
    if (!inplace && !mutationLast) b.bufferMutation(counter, "calls");
    b.userOutput("addmm");
    if (!inplace && mutationLast) b.bufferMutation(counter, "calls");
    return b.buildUnchecked();
}

Program primsProgram(bool skipConvert, bool skipBroadcast) {
    ProgramBuilder b("exercise");
    b.verifiers({"ATEN"});
    b.parameter("p_bias", "bias", makeSeededTensor({8}, 81, 0.5f));
    b.userInput("x", f32Meta({2, 8}));
    b.userInput("steps", makeTensorMeta(ScalarType::Int64, {2, 8}));
    b.sampleInput(makeSeededTensor({2, 8}, 82, 1.0f));
    b.sampleInput(makeInt64Tensor({2, 8}, std::vector<int64_t>(16, 3)));
    const std::string root = "exercises.Scaled";
    const Origin line{"", "", 50, "return x * torch.exp(-x) + steps + self.bias", "add"};
    const TensorMeta row = f32Meta({2, 8});
    from(b.call("torch.ops.prims.neg.default", "neg").arg("self", "x").out(row), root, line);
    from(b.call("torch.ops.prims.exp.default", "exp").arg("self", "neg").out(row), root, line);
    from(b.call("torch.ops.prims.mul.default", "mul").arg("self", "x").arg("other", "exp").out(row), root, line);
    std::string steps = "steps";
    if (!skipConvert) {
        from(b.call("torch.ops.prims.convert_element_type.default", "convert_element_type").arg("a", "steps")
                 .arg("dtype", Argument::scalarType(ScalarType::Float32)).out(row), root, line);
        steps = "convert_element_type";
    }
    from(b.call("torch.ops.prims.add.default", "add").arg("self", "mul").arg("other", steps).out(row), root, line);
    std::string bias = "p_bias";
    if (!skipBroadcast) {
        from(b.call("torch.ops.prims.broadcast_in_dim.default", "broadcast_in_dim").arg("a", "p_bias")
                 .arg("shape", Argument::ints({2, 8})).arg("broadcast_dimensions", Argument::ints({1})).out(row), root, line);
        bias = "broadcast_in_dim";
    }
    from(b.call("torch.ops.prims.add.default", "add_1").arg("self", "add").arg("other", bias).out(row), root, line);
    b.userOutput("add_1");
    return b.buildUnchecked();
}

Program condProgram(int falseInputs) {
    const std::string root = "exercises.Gate";
    ProgramBuilder b("exercise");
    b.verifiers({"ATEN"});
    b.userInput("x", f32Meta({2, 8}));
    b.sampleInput(makeSeededTensor({2, 8}, 91, 1.0f));
    const Origin line{"", "", 60, "return torch.cond(x.sum() > 0, torch.relu, torch.neg, [x])", "cond"};
    from(b.call("torch.ops.aten.sum.dim_IntList", "sum_1").arg("self", "x").arg("dim", Argument::ints({0, 1})).out(f32Meta({})), root, line);
    from(b.call("torch.ops.aten.gt.Scalar", "gt").arg("self", "sum_1").arg("other", Argument::integer(0))
             .out(makeTensorMeta(ScalarType::Bool, std::vector<int64_t>{})), root, line);
    auto branch = [](const char* target, const char* name, int inputs) {
        GraphBuilder g;
        for (int k = 0; k < inputs; ++k) g.input("arg" + std::to_string(k) + "_1", f32Meta({2, 8}));
        g.call(target, name).arg("self", "arg0_1").out(f32Meta({2, 8}));
        g.outputTensor(name);
        return std::make_shared<const Graph>(g.buildUnchecked());
    };
    from(b.call("torch.ops.higher_order.cond", "cond").arg("", Argument::tensor("gt"))
             .arg("", graphArgument("true_graph_0", branch("torch.ops.aten.relu.default", "relu", 1)))
             .arg("", graphArgument("false_graph_0", branch("torch.ops.aten.neg.default", "neg", falseInputs)))
             .arg("", Argument::tensors({"x"})).outNamed("getitem", f32Meta({2, 8})).hopSingleTensorReturn(false),
         root, line);
    b.userOutput("getitem");
    return b.buildUnchecked();
}

} // namespace irlens::core::teach::drill
