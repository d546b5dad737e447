// One broken program per verifier rule (and the helpers that build them), shared by tst_verifier's
// per-rule checks and its rule-browser checks.
#include "broken_programs.h"

#include "core/ir/builder.h"

#include <cctype>

using namespace irlens::core;

namespace irlens::testing {


TensorMeta f32(const std::vector<int64_t>& sizes) { return makeTensorMeta(ScalarType::Float32, sizes); }

void withMeta(NodeBuilder n) {
    n.stackTrace("  File \"m.py\", line 3, in forward\n    return x\n").module("L__self__", "", "m.M").sourceFn("f", "torch.f");
}

// A clean program the broken variants start from: w (parameter), x -> relu -> add(relu, w).
ProgramBuilder base(const char* dialect) {
    ProgramBuilder b("base");
    b.verifiers({dialect});
    b.parameter("p_w", "w", makeFilledTensor({2, 2}, 1.0f));
    b.userInput("x", f32({2, 2}));
    withMeta(b.call("torch.ops.aten.relu.default", "relu").arg("self", "x").out(f32({2, 2})));
    withMeta(b.call("torch.ops.aten.add.Tensor", "add").arg("self", "relu").arg("other", "p_w").out(f32({2, 2})));
    b.userOutput("add");
    return b;
}

Program withNode(const std::string& target, const std::function<void(NodeBuilder&)>& fill, const char* dialect) {
    ProgramBuilder b = base(dialect);
    NodeBuilder n = b.call(target, "bad");
    fill(n);
    withMeta(n);
    return b.buildUnchecked();
}

namespace {

using AddCase = std::function<void(const std::string&, std::function<Program()>, VerifyOptions)>;

// Input x [s0, 2] (s0's hint `hint`), relu, output; no range constraint on s0.
ProgramBuilder symbolicRelu(const std::string& name, int64_t hint) {
    ProgramBuilder b(name);
    b.verifiers({"ATEN"});
    std::vector<SymInt> sizes{SymInt::expression("Symbol('s0', integer=True, positive=True)", hint), SymInt::literal(2)};
    b.userInput("x", makeTensorMeta(ScalarType::Float32, sizes));
    withMeta(b.call("torch.ops.aten.relu.default", "relu").arg("self", "x").out(makeTensorMeta(ScalarType::Float32, sizes)));
    b.userOutput("relu");
    return b;
}

// A program with a dynamic first dimension s0 in [2, 8] (input x [s0, 2], relu, output), and `sample` as its
// sample input.
Program dynamicProgram(const std::vector<int64_t>& sample) {
    ProgramBuilder b = symbolicRelu("dyn", 4);
    b.rangeConstraint("s0", 2, 8);
    b.sampleInput(makeFilledTensor(sample, 1.0f));
    return b.buildUnchecked();
}

} // namespace

// A buffer n updated functionally: add = b_n + x is written back to n, relu(x) is the user output.
ProgramBuilder bufferProgram() {
    ProgramBuilder b("buf");
    b.verifiers({"ATEN"});
    b.buffer("b_n", "n", makeFilledTensor({2, 2}, 0.0f));
    b.userInput("x", f32({2, 2}));
    withMeta(b.call("torch.ops.aten.add.Tensor", "add").arg("self", "b_n").arg("other", "x").out(f32({2, 2})));
    withMeta(b.call("torch.ops.aten.relu.default", "relu").arg("self", "x").out(f32({2, 2})));
    b.bufferMutation("add", "n");
    b.userOutput("relu");
    return b;
}

// An elementwise prim `target` of x (f32[2, 2]) and a second input of `other`.
Program primOf(const std::string& target, const TensorMeta& other, const TensorMeta& out) {
    ProgramBuilder b = base();
    b.userInput("y", other);
    withMeta(b.call(target, "bad").arg("self", "x").arg("other", "y").out(out));
    return b.buildUnchecked();
}

namespace {

// The cases of the rules added with the rule catalogue (item order as in verifierRules()).
void addNewRuleCases(const AddCase& add) {
    VerifyOptions core;
    core.coreAtenOnly = true;
    add("D004 custom op under core-aten", [] {
        return withNode("torch.ops.quantized_decomposed.quantize_per_tensor.default", [](NodeBuilder& n) {
            n.arg("input", "x").arg("scale", Argument::floating(0.5)).arg("zero_point", Argument::integer(0))
                .arg("quant_min", Argument::integer(-128)).arg("quant_max", Argument::integer(127))
                .arg("dtype", Argument::scalarType(ScalarType::Int8)).out(makeTensorMeta(ScalarType::Int8, {2, 2}));
        });
    }, core);
    add("P001 prims add of int8 and float32", [] {
        return primOf("torch.ops.prims.add.default", makeTensorMeta(ScalarType::Int8, {2, 2}), f32({2, 2}));
    }, {});
    add("P002 prims gt of [2, 2] and [2]", [] {
        return primOf("torch.ops.prims.gt.default", f32({2}), makeTensorMeta(ScalarType::Bool, {2, 2}));
    }, {});
    add("M003 no module stack", [] {
        ProgramBuilder b = base();
        b.call("torch.ops.aten.neg.default", "bad").arg("self", "x").out(f32({2, 2})).stackTrace("  File \"m.py\", line 3").sourceFn("f", "torch.f");
        return b.buildUnchecked();
    }, {});
    add("M004 no source_fn_stack", [] {
        ProgramBuilder b = base();
        b.call("torch.ops.aten.neg.default", "bad").arg("self", "x").out(f32({2, 2})).stackTrace("  File \"m.py\", line 3").module("L__self__", "", "m.M");
        return b.buildUnchecked();
    }, {});
    add("G008 placeholder without val", [] {
        Program p = base().buildUnchecked();
        p.graph.tensorValues.erase("x");
        return p;
    }, {});
    add("G009 parameter shape differs from the state dict", [] {
        Program p = base().buildUnchecked();
        p.weights["w"] = makeFilledTensor({3, 2}, 1.0f);
        return p;
    }, {});
    add("G010 sample outside the range", [] { return dynamicProgram({1, 2}); }, {});
    add("G011 dropped BUFFER_MUTATION entry", [] {
        Program p = bufferProgram().buildUnchecked();
        p.signature.outputSpecs.erase(p.signature.outputSpecs.begin());
        return p;
    }, {});
}

} // namespace

std::map<std::string, Case>& cases() {
    static std::map<std::string, Case> all;
    if (!all.empty()) return all;
    auto add = [&](const std::string& name, std::function<Program()> make, VerifyOptions o = {}) { all[name] = {std::move(make), o}; };
    add("S001 python callable", [] { return withNode("os.system", [](NodeBuilder& n) { n.arg("x", "x").out(f32({2, 2})); }); });
    add("S002 overload packet", [] { return withNode("torch.ops.aten.relu", [](NodeBuilder& n) { n.arg("self", "x").out(f32({2, 2})); }); });
    add("S003 placeholder redefined", [] {
        Program p = base().buildUnchecked();
        p.graph.nodes[0].outputs[0] = Argument::tensor("x");
        p.graph.nodes[1].inputs[0].arg = Argument::tensor("x");
        return p;
    });
    add("S004 output undefined", [] {
        Program p = base().buildUnchecked();
        p.graph.outputs[0] = Argument::tensor("nope");
        p.signature.outputSpecs[0].arg = Argument::tensor("nope");
        return p;
    });
    add("S005 use before def", [] {
        Program p = base().buildUnchecked();
        std::swap(p.graph.nodes[0], p.graph.nodes[1]);
        return p;
    });
    add("S006 dangling", [] { return withNode("torch.ops.aten.relu.default", [](NodeBuilder& n) { n.arg("self", "ghost").out(f32({2, 2})); }); });
    add("S007 defined twice", [] { return withNode("torch.ops.aten.neg.default", [](NodeBuilder& n) { n.arg("self", "x").outNamed("relu", f32({2, 2})); }); });
    add("S008 own output", [] { return withNode("torch.ops.aten.relu.default", [](NodeBuilder& n) { n.arg("self", "bad").out(f32({2, 2})); }); });
    add("S009 S005 cycle", [] { // a cycle always reads a later node's output: EIR-S005 comes with it
        ProgramBuilder b = base();
        withMeta(b.call("torch.ops.aten.neg.default", "a").arg("self", "b").out(f32({2, 2})));
        withMeta(b.call("torch.ops.aten.neg.default", "b").arg("self", "a").out(f32({2, 2})));
        return b.buildUnchecked();
    });
    add("S010 subgraph on an op", [] {
        GraphBuilder g;
        g.input("y", f32({2, 2}));
        g.outputTensor("y");
        auto sub = g.build().value();
        return withNode("torch.ops.aten.relu.default", [sub](NodeBuilder& n) {
            n.arg("self", "x").arg("graph", graphArgument("sub_graph_0", sub)).out(f32({2, 2}));
        });
    });
    add("S012 cond branch arity", [] {
        GraphBuilder t;
        t.input("a", f32({2, 2}));
        t.outputTensor("a");
        GraphBuilder f;
        f.input("a", f32({2, 2}));
        f.input("b", f32({2, 2}));
        f.outputTensor("a");
        auto tg = t.build().value();
        auto fg = f.build().value();
        return withNode("torch.ops.higher_order.cond", [tg, fg](NodeBuilder& n) {
            n.arg("", Argument::boolean(true)).arg("", graphArgument("true_graph_0", tg))
                .arg("", graphArgument("false_graph_0", fg)).arg("", Argument::tensors({"x"})).outNamed("getitem", f32({2, 2}));
        });
    });
    add("S006 inside a subgraph", [] {
        GraphBuilder t;
        t.input("a", f32({2, 2}));
        t.call("torch.ops.aten.neg.default", "neg").arg("self", "ghost").out(f32({2, 2}));
        t.outputTensor("neg");
        Graph tg = t.buildUnchecked();
        auto g = std::make_shared<const Graph>(tg);
        return withNode("torch.ops.higher_order.cond", [g](NodeBuilder& n) {
            n.arg("", Argument::boolean(true)).arg("", graphArgument("true_graph_0", g))
                .arg("", graphArgument("false_graph_0", g)).arg("", Argument::tensors({"x"})).outNamed("getitem", f32({2, 2}));
        });
    });
    // In a training program: in an ATen one the unknown op is also outside Core ATen (EIR-D003).
    add("S011 unknown aten op", [] {
        return withNode("torch.ops.aten.frobnicate.default", [](NodeBuilder& n) { n.arg("self", "x").out(f32({2, 2})); }, "TRAINING");
    });
    // An in-place op is never in the Core ATen opset either: EIR-D003 comes with it in an ATen program.
    add("D001 D003 in-place in ATen", [] { return withNode("torch.ops.aten.relu_.default", [](NodeBuilder& n) { n.arg("self", "x").out(f32({2, 2})); }); });
    add("D001 in-place in training", [] {
        return withNode("torch.ops.aten.relu_.default", [](NodeBuilder& n) { n.arg("self", "x").out(f32({2, 2})); }, "TRAINING");
    });
    // irlens's tables hold no out= schema (EIR-S011), and no out= overload is Core ATen (EIR-D003); the
    // training program keeps only the first.
    add("D002 S011 out overload in training", [] {
        return withNode("torch.ops.aten.add.out", [](NodeBuilder& n) {
            n.arg("self", "x").arg("other", "x").kwarg("out", Argument::tensor("relu")).out(f32({2, 2}));
        }, "TRAINING");
    });
    add("D002 S011 D003 out overload", [] {
        return withNode("torch.ops.aten.add.out", [](NodeBuilder& n) {
            n.arg("self", "x").arg("other", "x").kwarg("out", Argument::tensor("relu")).out(f32({2, 2}));
        });
    });
    add("D003 training op in ATen", [] {
        return withNode("torch.ops.aten.linear.default", [](NodeBuilder& n) { n.arg("input", "x").arg("weight", "p_w").out(f32({2, 2})); });
    });
    VerifyOptions core;
    core.coreAtenOnly = true;
    add("D003 forced core", [] {
        return withNode("torch.ops.aten.linear.default", [](NodeBuilder& n) { n.arg("input", "x").arg("weight", "p_w").out(f32({2, 2})); }, "TRAINING");
    }, core);
    add("M001 M003 M004 no meta", [] {
        ProgramBuilder b = base();
        b.call("torch.ops.aten.neg.default", "bad").arg("self", "x").out(f32({2, 2}));
        return b.buildUnchecked();
    });
    add("M002 no val", [] {
        Program p = withNode("torch.ops.aten.neg.default", [](NodeBuilder& n) { n.arg("self", "x").out(f32({2, 2})); });
        p.graph.tensorValues.erase("bad");
        return p;
    });
    add("M005 tuple recorded as one", [] {
        return withNode("torch.ops.aten.native_layer_norm.default", [](NodeBuilder& n) {
            n.arg("input", "x").arg("normalized_shape", Argument::ints({2})).arg("weight", Argument::none())
                .arg("bias", Argument::none()).arg("eps", Argument::floating(1e-5)).out(f32({2, 2}));
        });
    });
    VerifyOptions meta;
    meta.checkInferredMeta = true;
    add("M006 val disagrees with meta", [] {
        return withNode("torch.ops.aten.relu.default", [](NodeBuilder& n) { n.arg("self", "x").out(f32({3, 2})); });
    }, meta);
    add("G001 spec names another input", [] {
        Program p = base().buildUnchecked();
        p.signature.inputSpecs[1].arg = Argument::tensor("y");
        return p;
    });
    add("G002 missing output spec", [] {
        Program p = base().buildUnchecked();
        p.signature.outputSpecs.clear();
        return p;
    });
    add("G003 parameter after user input", [] {
        ProgramBuilder b("g3");
        b.verifiers({"ATEN"});
        b.userInput("x", f32({2, 2}));
        b.parameter("p_w", "w", makeFilledTensor({2, 2}, 1.0f));
        withMeta(b.call("torch.ops.aten.add.Tensor", "add").arg("self", "x").arg("other", "p_w").out(f32({2, 2})));
        b.userOutput("add");
        return b.buildUnchecked();
    });
    add("G004 mutation after user output", [] {
        ProgramBuilder b("g4");
        b.verifiers({"ATEN"});
        b.buffer("b_n", "n", makeFilledTensor({2, 2}, 0.0f));
        b.userInput("x", f32({2, 2}));
        withMeta(b.call("torch.ops.aten.add.Tensor", "add").arg("self", "x").arg("other", "b_n").out(f32({2, 2})));
        b.userOutput("add");
        b.bufferMutation("add", "n");
        return b.buildUnchecked();
    });
    add("G005 missing weight", [] {
        Program p = base().buildUnchecked();
        p.weights["other"] = p.weights["w"];
        p.weights.erase("w");
        return p;
    });
    add("G006 mutation of a non-buffer", [] {
        ProgramBuilder b = base();
        b.bufferMutation("relu", "w");
        Program p = b.buildUnchecked();
        std::swap(p.signature.outputSpecs[0], p.signature.outputSpecs[1]);
        std::swap(p.graph.outputs[0], p.graph.outputs[1]);
        return p;
    });
    add("G007 sample input shape", [] {
        ProgramBuilder b = base();
        b.sampleInput(makeFilledTensor({3, 2}, 1.0f));
        return b.buildUnchecked();
    });
    add("Y001 unconstrained symbol", [] { return symbolicRelu("y1", 3).buildUnchecked(); });
    add("S013 target not an op name", [] {
        return withNode("torch.ops.aten.../../etc/passwd", [](NodeBuilder& n) { n.arg("self", "x").out(f32({2, 2})); });
    });
    add("S014 argument passed twice", [] {
        return withNode("torch.ops.aten.add.Tensor", [](NodeBuilder& n) {
            n.arg("self", "x").arg("other", "x").kwarg("alpha", Argument::integer(1)).kwarg("alpha", Argument::integer(2)).out(f32({2, 2}));
        });
    });
    // a node FX renames ("sum" shadows the builtin): the message names it as the FX text does
    add("S014 on a node FX renames", [] {
        ProgramBuilder b("renamed");
        b.verifiers({"ATEN"});
        b.userInput("x", f32({2, 2}));
        b.call("torch.ops.aten.add.Tensor", "sum").arg("self", "x").arg("other", "x")
            .kwarg("alpha", Argument::integer(1)).kwarg("alpha", Argument::integer(2)).out(f32({2, 2}));
        b.userOutput("sum");
        return b.buildUnchecked();
    });
    // A tensor meta no tensor can have, on the node 'bad': `edit` breaks its tensor_values entry.
    auto badMeta = [](std::function<void(TensorMeta&)> edit) {
        return [edit] {
            Program p = withNode("torch.ops.aten.neg.default", [](NodeBuilder& n) { n.arg("self", "x").out(f32({2, 2})); });
            edit(p.graph.tensorValues.at("bad"));
            return p;
        };
    };
    add("T001 dtype code 255", badMeta([](TensorMeta& m) { m.dtype = ScalarType(255); }));
    add("T002 element count overflows", badMeta([](TensorMeta& m) {
        m.sizes.assign(8, SymInt::literal(1'000'000'000));
        m.strides.assign(8, SymInt::literal(1));
    }));
    add("T003 negative stride", badMeta([](TensorMeta& m) { m.strides[0] = SymInt::literal(-1); }));
    add("Y002 min above max", [] {
        ProgramBuilder b = base();
        b.rangeConstraint("s0", 10, 2);
        return b.buildUnchecked();
    });
    addNewRuleCases([&](const std::string& name, std::function<Program()> make, VerifyOptions o) { add(name, std::move(make), o); });
    return all;
}

// The rule ids a case's name starts with: "M001 M003 M004 no meta" -> {EIR-M001, EIR-M003, EIR-M004}.
std::set<std::string> rulesNamedBy(const std::string& caseName) {
    std::set<std::string> out;
    size_t pos = 0;
    while (pos + 4 <= caseName.size() && std::isupper(static_cast<unsigned char>(caseName[pos])) &&
           std::isdigit(static_cast<unsigned char>(caseName[pos + 1])) && (pos + 4 == caseName.size() || caseName[pos + 4] == ' ')) {
        out.insert("EIR-" + caseName.substr(pos, 4));
        pos += 5;
    }
    return out;
}

} // namespace irlens::testing
