#pragma once
// Small programs made with the builder, each exercising one printing feature. Their FX text and
// signature are compared with golden files in tests/golden/.

#include "core/ir/builder.h"
#include "core/ir/example_program.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace irlens::testing {

using namespace irlens::core;

inline TensorMeta f32(const std::vector<int64_t>& sizes) { return makeTensorMeta(ScalarType::Float32, sizes); }

/// add with a keyword alpha, a Python-float scalar operand, a parameter and a buffer mutation.
inline ProgramPtr programAddAlpha() {
    ProgramBuilder b("add_alpha");
    b.verifiers({"ATEN"});
    b.parameter("p_scale", "scale", makeFilledTensor({2, 3}, 0.5f));
    b.buffer("b_count", "count", makeFilledTensor({2, 3}, 0.0f), true);
    b.userInput("x", f32({2, 3}));
    b.userInput("y", f32({2, 3}));
    b.call("torch.ops.aten.add.Tensor", "add").arg("self", "x").arg("other", "y").kwarg("alpha", Argument::integer(2)).out(f32({2, 3}));
    b.call("torch.ops.aten.mul.Tensor", "mul").arg("self", "add").arg("other", "p_scale").out(f32({2, 3}));
    b.call("torch.ops.aten.mul.Tensor", "mul_1").arg("self", "mul").arg("other", Argument::floating(1e-05)).out(f32({2, 3}));
    b.call("torch.ops.aten.add.Tensor", "add_1").arg("self", "b_count").arg("other", Argument::floating(1.0)).out(f32({2, 3}));
    b.bufferMutation("add_1", "count");
    b.userOutput("mul_1");
    return b.build().value();
}

/// Multi-output ops: a tuple return (native_layer_norm) and a Tensor[] return (split), with getitems.
inline ProgramPtr programMultiOutput() {
    ProgramBuilder b("multi_output");
    b.verifiers({"ATEN"});
    b.userInput("x", f32({4, 6}));
    b.call("torch.ops.aten.native_layer_norm.default", "native_layer_norm")
        .arg("input", "x").arg("normalized_shape", Argument::ints({6})).arg("weight", Argument::none())
        .arg("bias", Argument::none()).arg("eps", Argument::floating(1e-05))
        .outNamed("getitem", f32({4, 6})).outNamed("native_layer_norm_unused_1", f32({4, 1}))
        .outNamed("native_layer_norm_unused_2", f32({4, 1}));
    b.call("torch.ops.aten.split.Tensor", "split").arg("self", "getitem").arg("split_size", Argument::integer(3))
        .arg("dim", Argument::integer(1)).outList({{"getitem_1", f32({4, 3})}, {"getitem_2", f32({4, 3})}});
    b.call("torch.ops.aten.add.Tensor", "add").arg("self", "getitem_1").arg("other", "getitem_2").out(f32({4, 3}));
    b.userOutput("add");
    b.userOutput("getitem_1");
    return b.build().value();
}

/// cond with two inline subgraphs.
inline ProgramPtr programCond() {
    auto branch = [](const std::string& op, const std::string& name) {
        GraphBuilder g;
        g.input("x", f32({3}));
        g.call("torch.ops.aten." + op, name).arg("self", "x").out(f32({3}));
        g.outputTensor(name);
        return g.build().value();
    };
    ProgramBuilder b("cond");
    b.verifiers({"ATEN"});
    b.userInput("x", f32({3}));
    b.call("torch.ops.aten.sum.default", "sum_1").arg("self", "x").out(f32({}));
    b.call("torch.ops.aten.gt.Scalar", "gt").arg("self", "sum_1").arg("other", Argument::integer(0))
        .out(makeTensorMeta(ScalarType::Bool, std::vector<int64_t>{}));
    b.call("torch.ops.higher_order.cond", "cond").arg("", "gt")
        .arg("", graphArgument("true_graph_0", branch("relu.default", "relu")))
        .arg("", graphArgument("false_graph_0", branch("sigmoid.default", "sigmoid")))
        .arg("", Argument::tensors({"x"})).outNamed("getitem", f32({3}));
    b.userOutput("getitem");
    return b.build().value();
}

/// Dynamic batch: sym_size, an _operator node, a view with a mixed SymInt list, range constraints.
inline ProgramPtr programDynamic() {
    ProgramBuilder b("dynamic");
    b.verifiers({"ATEN"});
    SymInt s0 = SymInt::expression("s0", 4);
    b.userInput("x", makeTensorMeta(ScalarType::Float32, std::vector<SymInt>{s0, SymInt::literal(4)}));
    b.call("torch.ops.aten.sym_size.int", "sym_size_int").arg("self", "x").arg("dim", Argument::integer(0)).outSymInt(s0);
    b.call("_operator.mul", "mul").arg("a", Argument::symIntName("sym_size_int")).arg("b", Argument::integer(2))
        .outSymInt(SymInt::expression("2*s0", 8));
    Argument shape;
    shape.kind = ArgKind::SymInts;
    shape.list = {Argument::symIntName("mul"), Argument::integer(2)};
    shape.list[1].kind = ArgKind::SymInt;
    b.call("torch.ops.aten.view.default", "view").arg("self", "x").arg("size", shape)
        .out(makeTensorMeta(ScalarType::Float32, std::vector<SymInt>{SymInt::expression("2*s0", 8), SymInt::literal(2)}));
    b.userOutput("view");
    b.rangeConstraint("s0", 2, std::nullopt);
    return b.build().value();
}

/// Argument reprs: dtype, device, layout, memory format, bools, None, negative floats, strings, a name that
/// shadows a Python builtin, arguments whose kind is unknown (split by the schema), a constant input.
inline ProgramPtr programArgReprs() {
    ProgramBuilder b("arg_reprs");
    b.verifiers({"ATEN"});
    b.userInput("x", f32({2, 8}));
    b.constantInput("alpha", Argument::floating(0.5));
    Argument dev;
    dev.kind = ArgKind::Device;
    Argument layout;
    layout.kind = ArgKind::Layout;
    layout.i = 7;
    Argument fmt;
    fmt.kind = ArgKind::MemoryFormat;
    fmt.i = static_cast<int>(MemoryFormat::Preserve);
    b.call("torch.ops.aten._to_copy.default", "_to_copy").arg("self", "x")
        .kwarg("dtype", Argument::scalarType(ScalarType::Float16)).kwarg("layout", layout).kwarg("device", dev)
        .kwarg("memory_format", fmt).out(makeTensorMeta(ScalarType::Float16, std::vector<int64_t>{2, 8}));
    b.call("torch.ops.aten.slice.Tensor", "slice").arg("self", "x").arg("dim", Argument::integer(1))
        .arg("start", Argument::integer(0)).arg("end", Argument::integer(4)).out(f32({2, 4}));
    b.call("torch.ops.aten.gelu.default", "gelu").arg("self", "slice").kwarg("approximate", Argument::string("tanh")).out(f32({2, 4}));
    b.call("torch.ops.aten.max_pool2d_with_indices.default", "max_pool2d_with_indices")
        .argUnknownKind("self", Argument::tensor("gelu")).argUnknownKind("kernel_size", Argument::ints({1, 2}))
        .argUnknownKind("stride", Argument::ints({1, 2})).argUnknownKind("ceil_mode", Argument::boolean(true))
        .outNamed("getitem", f32({2, 2})).outNamed("max_pool2d_with_indices_unused_1",
                                                   makeTensorMeta(ScalarType::Int64, std::vector<int64_t>{2, 2}));
    b.call("torch.ops.aten.clamp.default", "clamp").arg("self", "getitem").arg("min", Argument::floating(-2.5))
        .arg("max", Argument::none()).out(f32({2, 2}));
    b.userOutput("_to_copy");
    b.userOutput("clamp");
    return b.build().value();
}

/// Every builder program with its golden base name.
inline std::vector<std::pair<std::string, std::function<ProgramPtr()>>> goldenPrograms() {
    return {{"example", [] { return makeExampleProgram(); }},
            {"add_alpha", programAddAlpha},
            {"multi_output", programMultiOutput},
            {"cond", programCond},
            {"dynamic", programDynamic},
            {"arg_reprs", programArgReprs}};
}

} // namespace irlens::testing
