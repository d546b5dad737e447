// Unit tests per rule: the nodes each rule makes (targets in order), their meta, inherited node meta,
// the link to the replaced node, and the renaming of later uses.

#include "core/decomp/decomp_session.h"
#include "core/exec/tensor.h"
#include "core/ir/builder.h"
#include "core/ops/meta.h"

#include <QTest>

using namespace irlens::core;

namespace {

// A small program built node by node; each node's output meta is inferred as it is added.
class Tiny {
public:
    Tiny() { m_pb.verifiers({"TRAINING"}); }
    std::string input(const std::string& name, ScalarType dt, const std::vector<int64_t>& sizes) {
        return m_pb.userInput(name, makeTensorMeta(dt, sizes));
    }
    std::string param(const std::string& name, const std::vector<int64_t>& sizes) {
        return m_pb.parameter(name, name, makeSeededTensor(sizes, 7, 1.0f));
    }
    // Adds a node; `args` are (name, argument) pairs. Returns its (first) output name.
    std::string call(const std::string& target, const std::string& name, std::vector<NamedArgument> args) {
        auto nb = m_pb.call(target, name);
        for (auto& a : args) nb.arg(a.name, a.arg);
        nb.stackTrace("File \"model.py\", line 3, in forward");
        nb.module("L__self__blk", "blk", "torch.nn.Module");
        Graph& g = m_pb.graph().graph();
        auto metas = inferMeta(g.nodes.back(), g);
        if (!metas) {
            qWarning("%s", metas.error().c_str());
            return {};
        }
        if (metas->size() == 1) {
            nb.out((*metas)[0].meta);
            return name;
        }
        // Multi-output: a Tensor[] list for split, a tuple otherwise.
        std::vector<std::pair<std::string, TensorMeta>> values;
        for (size_t i = 0; i < metas->size(); ++i) values.emplace_back(name + "_" + std::to_string(i), (*metas)[i].meta);
        if (target.find("split") != std::string::npos) nb.outList(values);
        else for (auto& [n, m] : values) nb.outNamed(n, m);
        return values[0].first;
    }
    void output(const std::string& v) { m_pb.userOutput(v); }
    ProgramPtr build() {
        auto p = m_pb.build();
        if (!p) qWarning("%s", p.error().c_str());
        return p ? *p : nullptr;
    }

private:
    ProgramBuilder m_pb;
};

QStringList targets(const Program& p) {
    QStringList out;
    for (const auto& n : p.graph.nodes) out << QString::fromStdString(n.target.shortName());
    return out;
}

const Node* nodeByTarget(const Program& p, const std::string& shortName) {
    for (const auto& n : p.graph.nodes)
        if (n.target.shortName() == shortName) return &n;
    return nullptr;
}

QString metaOf(const Program& p, const std::string& value) {
    const TensorMeta* m = p.graph.tensorMeta(value);
    return m ? QString::fromStdString(m->shortString()) : QString("<none>");
}

NamedArgument T(const std::string& n, const std::string& v) { return {n, Argument::tensor(v), ArgumentKind::Positional}; }
NamedArgument I(const std::string& n, int64_t v) { return {n, Argument::integer(v), ArgumentKind::Positional}; }
NamedArgument F(const std::string& n, double v) { return {n, Argument::floating(v), ArgumentKind::Positional}; }
NamedArgument B(const std::string& n, bool v) { return {n, Argument::boolean(v), ArgumentKind::Positional}; }
NamedArgument Is(const std::string& n, std::vector<int64_t> v) { return {n, Argument::ints(v), ArgumentKind::Positional}; }
std::string aten(const std::string& op, const std::string& ov = "default") { return "torch.ops.aten." + op + "." + ov; }

DecompSessionOptions quiet() {
    DecompSessionOptions o;
    o.verify = false;
    return o;
}

} // namespace

class TstDecompRules : public QObject {
    Q_OBJECT
private slots:
    void linear2d() {
        Tiny t;
        auto x = t.input("x", ScalarType::Float32, {2, 4});
        auto w = t.param("w", {3, 4});
        auto b = t.param("b", {3});
        auto y = t.call(aten("linear"), "linear", {T("input", x), T("weight", w), T("bias", b)});
        auto z = t.call(aten("relu"), "relu", {T("self", y)});
        t.output(z);
        DecompSession s(t.build(), quiet());
        QCOMPARE(s.candidates(DecompStage::ToCore).size(), size_t(1));
        auto step = s.stepNode("linear", DecompStage::ToCore);
        QVERIFY2(step.isOk(), step.error().c_str());
        const Program& p = *s.current();
        QCOMPARE(targets(p), (QStringList{"aten.t.default", "aten.addmm.default", "aten.relu.default"}));
        const Node* addmm = nodeByTarget(p, "aten.addmm.default");
        QVERIFY(addmm);
        QCOMPARE(QString::fromStdString(addmm->derivedFrom), QString("linear"));
        QVERIFY(addmm->meta.stackTrace && addmm->meta.stackTrace->find("model.py") != std::string::npos);
        QVERIFY(addmm->meta.moduleStack && addmm->meta.moduleStack->size() == 1);
        QCOMPARE(metaOf(p, addmm->name), QString("f32[2, 3]"));
        // relu now reads the addmm output.
        QCOMPARE(QString::fromStdString(p.graph.nodes[2].inputs[0].arg.s), QString::fromStdString(addmm->name));
        QCOMPARE((*step)->oldToNew().at("linear").size(), size_t(2));
        // Then t -> permute.
        auto step2 = s.stepOp("aten.t.default", DecompStage::ToCore);
        QVERIFY2(step2.isOk(), step2.error().c_str());
        QCOMPARE(targets(*s.current()), (QStringList{"aten.permute.default", "aten.addmm.default", "aten.relu.default"}));
        const Node* perm = nodeByTarget(*s.current(), "aten.permute.default");
        QCOMPARE(metaOf(*s.current(), perm->name), QString("f32[4, 3]"));
        QCOMPARE(s.current()->graph.tensorMeta(perm->name)->strides[0].value, int64_t(1)); // a view: strides [1, 4]
        QCOMPARE(s.currentNodesFor("linear"), (std::vector<std::string>{perm->name, addmm->name}));
        QCOMPARE(s.current()->verifiers, (std::vector<std::string>{"ATEN"}));
        QVERIFY(checkRecordedMeta(*s.current()).clean());
    }

    void trainingRules_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<QStringList>("expected");
        QTest::addRow("linear 3-D contiguous") << 0 << QStringList{"aten.view.default", "aten.permute.default", "aten.addmm.default", "aten.view.default"};
        QTest::addRow("linear 3-D no bias") << 1 << QStringList{"aten.permute.default", "aten.view.default", "aten.mm.default", "aten.view.default"};
        QTest::addRow("conv2d") << 2 << QStringList{"aten.convolution.default"};
        QTest::addRow("batch_norm eval") << 3 << QStringList{"aten._native_batch_norm_legit_no_training.default"};
        QTest::addRow("dropout eval") << 4 << QStringList{"aten.clone.default"};
        QTest::addRow("softmax.int") << 5 << QStringList{"aten._softmax.default"};
        QTest::addRow("masked_fill.Scalar") << 6 << QStringList{"aten.full.default", "aten.where.self"};
        QTest::addRow("matmul 4-D") << 7
                                    << QStringList{"aten.expand.default", "aten.view.default", "aten.expand.default",
                                                   "aten.view.default", "aten.bmm.default", "aten.view.default"};
        QTest::addRow("silu") << 8 << QStringList{"aten.sigmoid.default", "aten.mul.Tensor"};
        QTest::addRow("max_pool2d") << 9 << QStringList{"aten.max_pool2d_with_indices.default"};
        QTest::addRow("adaptive_avg_pool2d 1x1") << 10 << QStringList{"aten.mean.dim"};
        QTest::addRow("squeeze.dim") << 11 << QStringList{"aten.squeeze.dims"};
        QTest::addRow("flatten") << 12 << QStringList{"aten.view.default"};
        QTest::addRow("transpose.int") << 13 << QStringList{"aten.permute.default"};
    }
    void trainingRules() {
        QFETCH(int, which);
        QFETCH(QStringList, expected);
        Tiny t;
        std::string out;
        switch (which) {
        case 0: case 1: {
            auto x = t.input("x", ScalarType::Float32, {2, 5, 4});
            auto w = t.param("w", {3, 4});
            std::vector<NamedArgument> a{T("input", x), T("weight", w)};
            if (which == 0) a.push_back(T("bias", t.param("b", {3})));
            out = t.call(aten("linear"), "linear", a);
            break;
        }
        case 2: {
            auto x = t.input("x", ScalarType::Float32, {1, 3, 8, 8});
            auto w = t.param("w", {4, 3, 3, 3});
            out = t.call(aten("conv2d"), "conv2d", {T("input", x), T("weight", w), {"bias", Argument::none(), ArgumentKind::Positional}, Is("stride", {2, 2}), Is("padding", {1, 1})});
            break;
        }
        case 3: {
            auto x = t.input("x", ScalarType::Float32, {1, 3, 4, 4});
            auto w = t.param("w", {3}), b = t.param("b", {3}), m = t.param("m", {3}), v = t.param("v", {3});
            out = t.call(aten("batch_norm"), "batch_norm", {T("input", x), T("weight", w), T("bias", b), T("running_mean", m), T("running_var", v),
                                                            B("training", false), F("momentum", 0.1), F("eps", 1e-5), B("cudnn_enabled", true)});
            break;
        }
        case 4: out = t.call(aten("dropout"), "dropout", {T("input", t.input("x", ScalarType::Float32, {4})), F("p", 0.1), B("train", false)}); break;
        case 5: out = t.call(aten("softmax", "int"), "softmax", {T("self", t.input("x", ScalarType::Float32, {2, 8})), I("dim", -1)}); break;
        case 6: {
            auto x = t.input("x", ScalarType::Float32, {2, 8});
            auto m = t.input("m", ScalarType::Bool, {8});
            out = t.call(aten("masked_fill", "Scalar"), "masked_fill", {T("self", x), T("mask", m), F("value", -1e9)});
            break;
        }
        case 7: {
            auto q = t.input("q", ScalarType::Float32, {1, 2, 8, 4});
            auto k = t.input("k", ScalarType::Float32, {1, 2, 8, 4});
            auto kt = t.call(aten("transpose", "int"), "kt", {T("self", k), I("dim0", -2), I("dim1", -1)});
            out = t.call(aten("matmul"), "matmul", {T("self", q), T("other", kt)});
            break;
        }
        case 8: out = t.call(aten("silu"), "silu", {T("self", t.input("x", ScalarType::Float32, {4}))}); break;
        case 9: out = t.call(aten("max_pool2d"), "max_pool2d", {T("self", t.input("x", ScalarType::Float32, {1, 2, 8, 8})), Is("kernel_size", {2, 2})}); break;
        case 10: out = t.call(aten("adaptive_avg_pool2d"), "pool", {T("self", t.input("x", ScalarType::Float32, {1, 2, 8, 8})), Is("output_size", {1, 1})}); break;
        case 11: out = t.call(aten("squeeze", "dim"), "squeeze", {T("self", t.input("x", ScalarType::Float32, {2, 1, 3})), I("dim", 1)}); break;
        case 12: out = t.call(aten("flatten", "using_ints"), "flatten", {T("self", t.input("x", ScalarType::Float32, {2, 3, 4})), I("start_dim", 1)}); break;
        case 13: out = t.call(aten("transpose", "int"), "transpose", {T("self", t.input("x", ScalarType::Float32, {2, 3, 4})), I("dim0", 0), I("dim1", 2)}); break;
        }
        QVERIFY(!out.empty());
        t.output(out);
        auto program = t.build();
        QVERIFY(program);
        const TensorMeta before = *program->graph.tensorMeta(out);
        DecompSession s(program, quiet());
        auto step = s.stepAll(DecompStage::ToCore);
        QVERIFY2(step.isOk(), step.error().c_str());
        QVERIFY2((*step)->skipped.empty(), (*step)->skipped.empty() ? "" : (*step)->skipped[0].reason.c_str());
        const Program& p = *s.current();
        QStringList got = targets(p);
        if (which == 7) got.removeFirst(); // the transpose feeding matmul (a permute now)
        QCOMPARE(got, expected);
        // The program output has the same dtype and shape as before.
        const auto& outName = p.graph.outputs[0].s;
        QCOMPARE(metaOf(p, outName), QString::fromStdString(before.shortString()));
        auto report = checkRecordedMeta(p);
        QVERIFY2(report.clean(), report.clean() ? "" : report.mismatches[0].message.c_str());
        for (const auto& n : p.graph.nodes) QVERIFY(!n.derivedFrom.empty() || n.name == "kt");
    }

    void inplaceIsFunctionalized() {
        Tiny t;
        auto x = t.input("x", ScalarType::Float32, {4});
        auto a = t.call(aten("add", "Tensor"), "add", {T("self", x), T("other", x)});
        auto r = t.call(aten("relu_"), "relu_", {T("self", a)});
        auto m = t.call(aten("mul", "Tensor"), "mul", {T("self", a), T("other", r)}); // reads the mutated `add`
        t.output(m);
        DecompSession s(t.build(), quiet());
        auto step = s.stepAll(DecompStage::ToCore);
        QVERIFY2(step.isOk(), step.error().c_str());
        const Program& p = *s.current();
        QCOMPARE(targets(p), (QStringList{"aten.add.Tensor", "aten.relu.default", "aten.mul.Tensor"}));
        const Node& mul = p.graph.nodes[2];
        QCOMPARE(QString::fromStdString(mul.inputs[0].arg.s), QString::fromStdString(p.graph.nodes[1].name));
        QCOMPARE(QString::fromStdString(mul.inputs[1].arg.s), QString::fromStdString(p.graph.nodes[1].name));
    }

    void contiguousVanishes() {
        Tiny t;
        auto x = t.input("x", ScalarType::Float32, {2, 3});
        auto c = t.call(aten("contiguous"), "contiguous", {T("self", x)});
        auto r = t.call(aten("relu"), "relu", {T("self", c)});
        t.output(r);
        DecompSession s(t.build(), quiet());
        auto step = s.stepAll(DecompStage::ToCore);
        QVERIFY(step.isOk());
        QCOMPARE(targets(*s.current()), QStringList{"aten.relu.default"});
        QCOMPARE(QString::fromStdString(s.current()->graph.nodes[0].inputs[0].arg.s), QString("x"));
        QVERIFY((*step)->oldToNew().at("contiguous").empty());
        QVERIFY(!s.current()->graph.tensorMeta("contiguous"));
    }

    void splitRenamesItems() {
        Tiny t;
        auto x = t.input("x", ScalarType::Float32, {2, 10});
        auto s0 = t.call(aten("split", "Tensor"), "split", {T("self", x), I("split_size", 4), I("dim", 1)});
        auto r = t.call(aten("relu"), "relu", {T("self", "split_2")});
        t.output(s0);
        t.output(r);
        DecompSession s(t.build(), quiet());
        auto step = s.stepAll(DecompStage::ToCore);
        QVERIFY2(step.isOk(), step.error().c_str());
        const Program& p = *s.current();
        QCOMPARE(targets(p), (QStringList{"aten.split_with_sizes.default", "aten.relu.default"}));
        QCOMPARE(p.graph.nodes[0].inputs[1].arg.list.size(), size_t(3));
        QCOMPARE(p.graph.nodes[0].inputs[1].arg.list[2].i, int64_t(2));
        const std::string third = p.graph.nodes[0].outputs[0].list[2].s;
        QCOMPARE(QString::fromStdString(p.graph.nodes[1].inputs[0].arg.s), QString::fromStdString(third));
        QCOMPARE(metaOf(p, third), QString("f32[2, 2]"));
        QCOMPARE(QString::fromStdString(p.signature.outputSpecs[0].arg.s), QString::fromStdString(p.graph.nodes[0].outputs[0].list[0].s));
    }

    void primsElementwise_data() {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<double>("alpha");
        QTest::addColumn<QStringList>("expected");
        QTest::addColumn<QString>("out");
        // The worked trace of the reference notes (section 3): add.Tensor(int8[4,1], float32[3]).
        QTest::addRow("int8[4,1] + f32[3]") << "int8:4,1" << "float32:3" << 1.0
                                            << QStringList{"prims.convert_element_type.default", "prims.broadcast_in_dim.default",
                                                           "prims.broadcast_in_dim.default", "prims.add.default"}
                                            << "f32[4, 3]";
        QTest::addRow("f16 opmath") << "float16:2,3" << "float16:3" << 1.0
                                    << QStringList{"prims.convert_element_type.default", "prims.convert_element_type.default",
                                                   "prims.broadcast_in_dim.default", "prims.add.default", "prims.convert_element_type.default"}
                                    << "f16[2, 3]";
        QTest::addRow("alpha scales other") << "float32:3" << "float32:3" << 2.0
                                            << QStringList{"prims.mul.default", "prims.add.default"} << "f32[3]";
        QTest::addRow("same shape f32") << "float32:3" << "float32:3" << 1.0 << QStringList{"prims.add.default"} << "f32[3]";
    }
    void primsElementwise() {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(double, alpha);
        QFETCH(QStringList, expected);
        QFETCH(QString, out);
        auto parse = [](const QString& s, Tiny& t, const char* name) {
            auto parts = s.split(':');
            std::vector<int64_t> sizes;
            for (const auto& d : parts[1].split(',')) sizes.push_back(d.toLongLong());
            return t.input(name, *dtypeFromName(parts[0].toStdString()), sizes);
        };
        Tiny t;
        auto x = parse(a, t, "x");
        auto y = parse(b, t, "y");
        std::vector<NamedArgument> args{T("self", x), T("other", y)};
        if (alpha != 1.0) args.push_back({"alpha", Argument::floating(alpha), ArgumentKind::Keyword});
        t.output(t.call(aten("add", "Tensor"), "add", args));
        DecompSession s(t.build(), quiet());
        auto step = s.stepAll(DecompStage::ToPrims);
        QVERIFY2(step.isOk(), step.error().c_str());
        const Program& p = *s.current();
        QCOMPARE(targets(p), expected);
        QCOMPARE(metaOf(p, p.graph.outputs[0].s), out);
        if (expected.size() == 4 && a.startsWith("int8")) {
            // broadcast dims: [0, 1] for the [4, 1] operand, [1] for the [3] operand
            QCOMPARE(p.graph.nodes[1].inputs[2].arg.list.size(), size_t(2));
            QCOMPARE(p.graph.nodes[2].inputs[2].arg.list.size(), size_t(1));
            QCOMPARE(p.graph.nodes[2].inputs[2].arg.list[0].i, int64_t(1));
        }
        QVERIFY(checkRecordedMeta(p).clean());
    }

    void primsStructural_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<QStringList>("expected");
        QTest::addRow("_softmax") << 0
                                  << QStringList{"prims.amax.default", "prims.broadcast_in_dim.default", "prims.broadcast_in_dim.default",
                                                 "prims.sub.default", "prims.exp.default", "prims.sum.default", "prims.broadcast_in_dim.default",
                                                 "prims.broadcast_in_dim.default", "prims.div.default"};
        QTest::addRow("view") << 1 << QStringList{"prims.collapse_view.default", "prims.split_dim.default"};
        QTest::addRow("permute") << 2 << QStringList{"prims.transpose.default"};
        QTest::addRow("relu") << 3 << QStringList{"prims.le.default", "prims.where.default"};
        QTest::addRow("mean.dim keepdim") << 4 << QStringList{"prims.sum.default", "prims.broadcast_in_dim.default", "prims.div.default"};
        QTest::addRow("addmm") << 5 << QStringList{"aten.mm.default", "prims.broadcast_in_dim.default", "prims.add.default"};
        QTest::addRow("sigmoid") << 6 << QStringList{"prims.neg.default", "prims.exp.default", "prims.add.default", "prims.div.default"};
        QTest::addRow("expand") << 7 << QStringList{"prims.broadcast_in_dim.default"};
    }
    void primsStructural() {
        QFETCH(int, which);
        QFETCH(QStringList, expected);
        Tiny t;
        auto x = t.input("x", ScalarType::Float32, {2, 8});
        std::string out;
        switch (which) {
        case 0: out = t.call(aten("_softmax"), "_softmax", {T("self", x), I("dim", -1), B("half_to_float", false)}); break;
        case 1: out = t.call(aten("view"), "view", {T("self", x), Is("size", {4, 4})}); break;
        case 2: out = t.call(aten("permute"), "permute", {T("self", x), Is("dims", {1, 0})}); break;
        case 3: out = t.call(aten("relu"), "relu", {T("self", x)}); break;
        case 4: out = t.call(aten("mean", "dim"), "mean", {T("self", x), Is("dim", {-1}), B("keepdim", true)}); break;
        case 5: {
            auto w = t.param("w", {8, 3}), b = t.param("b", {3});
            out = t.call(aten("addmm"), "addmm", {T("self", b), T("mat1", x), T("mat2", w)});
            break;
        }
        case 6: out = t.call(aten("sigmoid"), "sigmoid", {T("self", x)}); break;
        case 7: out = t.call(aten("expand"), "expand", {T("self", t.input("y", ScalarType::Float32, {1, 8})), Is("size", {3, 8})}); break;
        }
        t.output(out);
        auto program = t.build();
        const TensorMeta before = *program->graph.tensorMeta(out);
        DecompSession s(program, quiet());
        auto step = s.stepAll(DecompStage::ToPrims);
        QVERIFY2(step.isOk(), step.error().c_str());
        QCOMPARE(targets(*s.current()), expected);
        QCOMPARE(metaOf(*s.current(), s.current()->graph.outputs[0].s), QString::fromStdString(before.shortString()));
        QVERIFY(!(*step)->teaching().empty());
    }

    void noPrimSaysWhy() {
        Tiny t;
        auto x = t.input("x", ScalarType::Float32, {1, 3, 8, 8});
        auto w = t.param("w", {4, 3, 3, 3});
        auto c = t.call(aten("convolution"), "convolution",
                        {T("input", x), T("weight", w), {"bias", Argument::none(), ArgumentKind::Positional}, Is("stride", {1, 1}), Is("padding", {0, 0}),
                         Is("dilation", {1, 1}), B("transposed", false), Is("output_padding", {0, 0}), I("groups", 1)});
        t.output(c);
        DecompSession s(t.build(), quiet());
        QVERIFY(s.candidates(DecompStage::ToPrims).empty());
        auto blocked = s.blocked(DecompStage::ToPrims);
        QCOMPARE(blocked.size(), size_t(1));
        QCOMPARE(QString::fromStdString(blocked[0].reason),
                 QString("convolution has no prim and no torch._refs reference: it stays an ATen call at the prims level"));
        auto step = s.stepNode("convolution", DecompStage::ToPrims);
        QVERIFY(!step.isOk());
        QCOMPARE(QString::fromStdString(step.error()),
                 QString("node 'convolution' (aten.convolution.default) has no core ATen -> prims rule: convolution has no prim and no "
                         "torch._refs reference: it stays an ATen call at the prims level"));
    }

    void numericCheckFlagsADifference() {
        auto tensor = [](std::vector<float> v) { return *exec::Tensor::fromTensorData(makeFloatTensor({4}, v)); };
        auto same = compareTensorLists({tensor({2, -4, 6, 1})}, {tensor({2, -4, 6, 1})});
        QVERIFY2(same.isOk(), same.error().c_str());
        QCOMPARE(same->maxAbs, 0.0);
        QVERIFY(same->withinTolerance());
        auto off = compareTensorLists({tensor({2, -4, 6, 1})}, {tensor({2, -4, 6.003f, 1})});
        QVERIFY2(off.isOk(), off.error().c_str());
        QCOMPARE(off->elements, int64_t(4));
        QVERIFY(std::abs(off->maxAbs - 0.003) < 1e-5);
        QVERIFY(std::abs(off->maxRel - 0.0005) < 1e-5); // relative to the largest |before| (6)
        QVERIFY(!off->withinTolerance());
        auto shape = compareTensorLists({tensor({1, 2, 3, 4})}, {*exec::Tensor::fromTensorData(makeFloatTensor({2, 2}, {1, 2, 3, 4}))});
        QCOMPARE(QString::fromStdString(shape.error()), QString("output 0 changed shape: f32[4] -> f32[2, 2]"));
        // The session flags such a step; here through a program without sample inputs it says why it did not run.
        Tiny t;
        t.output(t.call(aten("silu"), "silu", {T("self", t.input("x", ScalarType::Float32, {4}))}));
        DecompSessionOptions o = quiet();
        o.numericCheck = true;
        DecompSession s(t.build(), o);
        auto step = s.stepAll(DecompStage::ToCore);
        QVERIFY(step.isOk());
        QVERIFY(!(*step)->numeric);
        QCOMPARE(QString::fromStdString((*step)->numericNote), QString("the program has no sample inputs to run the numeric check on"));
    }

    void undoRedo() {
        Tiny t;
        auto x = t.input("x", ScalarType::Float32, {2, 4});
        auto w = t.param("w", {3, 4});
        t.output(t.call(aten("linear"), "linear", {T("input", x), T("weight", w)}));
        auto program = t.build();
        DecompSession s(program, quiet());
        QVERIFY(!s.canUndo());
        QVERIFY(s.stepNode("linear", DecompStage::ToCore).isOk());
        auto afterFirst = s.current();
        QVERIFY(s.stepAll(DecompStage::ToCore).isOk());
        QCOMPARE(s.history().size(), size_t(2));
        QVERIFY(s.undo().isOk());
        QCOMPARE(s.current(), afterFirst);
        QVERIFY(s.undo().isOk());
        QCOMPARE(s.current(), program);
        QCOMPARE(QString::fromStdString(s.undo().message()), QString("nothing to undo"));
        QVERIFY(s.redo().isOk());
        QCOMPARE(s.current(), afterFirst);
        QCOMPARE(s.history().size(), size_t(1));
        // A new step drops the redo tail.
        QVERIFY(s.stepOp("t", DecompStage::ToCore).isOk());
        QVERIFY(!s.canRedo());
        QCOMPARE(s.history().size(), size_t(2));
    }
};

QTEST_GUILESS_MAIN(TstDecompRules)
#include "tst_decomp_rules.moc"
