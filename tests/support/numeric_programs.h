#pragma once
// Small runnable programs for the numeric debugging tests, built with the project's builder:
// weights included, node names as print(ep.graph) would show them, module stacks and stack traces.

#include "core/ir/builder.h"

#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

namespace irlens::testing {

/// The built program; stops the test when it cannot be built (a mistake in the test, not in the code tested).
inline core::ProgramPtr builtOrDie(const core::Result<core::ProgramPtr>& p) {
    if (!p) {
        std::fprintf(stderr, "building a test program: %s\n", p.error().c_str());
        std::abort();
    }
    return *p;
}

inline core::NodeBuilder& inModule(core::NodeBuilder& n, const std::string& path, int line) {
    n.module("L__self__", "", "models.Net");
    if (!path.empty()) n.module("L__self__" + path, path, "torch.nn.modules.linear.Linear");
    n.stackTrace("  File \"/home/user/models.py\", line " + std::to_string(line) + ", in forward\n    y = self.step(x)");
    return n;
}

/// x [1, 16] (or [s0, 16] with s0 in [1, 8] when `dynamic`) -> mm(x, fc1.weight) -> relu -> add(relu, x)
/// -> mm(add, fc2.weight): node names mm, relu, add, mm_1; weights seeded.
inline core::ProgramPtr makeNumericMlp(bool dynamic = false) {
    using namespace irlens::core;
    ProgramBuilder b("numeric_mlp");
    const SymInt rows = dynamic ? SymInt::expression("s0", 4) : SymInt::literal(1);
    const TensorMeta act = makeTensorMeta(ScalarType::Float32, std::vector<SymInt>{rows, SymInt::literal(16)});
    const std::string w1 = b.parameter("p_fc1_weight", "fc1.weight", makeSeededTensor({16, 16}, 11, 0.25f));
    const std::string w2 = b.parameter("p_fc2_weight", "fc2.weight", makeSeededTensor({16, 16}, 12, 0.25f));
    const std::string x = b.userInput("x", act);
    if (dynamic) b.rangeConstraint("s0", 1, 8);
    auto mm = b.call("torch.ops.aten.mm.default", "mm").arg("self", x).arg("mat2", w1).out(act);
    inModule(mm, "fc1", 10);
    auto relu = b.call("torch.ops.aten.relu.default", "relu").arg("self", "mm").out(act);
    inModule(relu, "", 11);
    auto add = b.call("torch.ops.aten.add.Tensor", "add").arg("self", "relu").arg("other", x).out(act);
    inModule(add, "", 12);
    auto mm1 = b.call("torch.ops.aten.mm.default", "mm_1").arg("self", "add").arg("mat2", w2).out(act);
    inModule(mm1, "fc2", 13);
    b.userOutput("mm_1");
    return builtOrDie(b.build());
}

/// x [2, 8] -> mul(x, 2) -> sub(mul, mul) (zeros) -> div(sub, sub) (0/0: NaN) -> add(div, x) -> relu:
/// the NaN is made in the middle, by div, from finite inputs.
inline core::ProgramPtr makeNanInTheMiddle() {
    using namespace irlens::core;
    ProgramBuilder b("nan_middle");
    const TensorMeta m = makeTensorMeta(ScalarType::Float32, std::vector<int64_t>{2, 8});
    const std::string x = b.userInput("x", m);
    auto mul = b.call("torch.ops.aten.mul.Tensor", "mul").arg("self", x).arg("other", Argument::floating(2.0)).out(m);
    inModule(mul, "", 20);
    auto sub = b.call("torch.ops.aten.sub.Tensor", "sub").arg("self", "mul").arg("other", "mul").out(m);
    inModule(sub, "", 21);
    auto div = b.call("torch.ops.aten.div.Tensor", "div").arg("self", "sub").arg("other", "sub").out(m);
    inModule(div, "", 22);
    auto add = b.call("torch.ops.aten.add.Tensor", "add").arg("self", "div").arg("other", x).out(m);
    inModule(add, "", 23);
    auto relu = b.call("torch.ops.aten.relu.default", "relu").arg("self", "add").out(m);
    inModule(relu, "", 24);
    b.userOutput("relu");
    return builtOrDie(b.build());
}

} // namespace irlens::testing
