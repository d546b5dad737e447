// Plan fusion (batch norm folded into convolutions, relu / hardtanh as their post-op) on the real
// CNN programs: which nodes fold, that the program the user sees is untouched, and that the fused
// plan still gives PyTorch's outputs and the unfused plan's.
#include "core/exec/engine.h"
#include "core/exec/inputs.h"
#include "core/io/pt2_reader.h"
#include "support/shared_fixtures.h"
#include "support/zoo_files.h"

#include <QTest>

#include <cstring>

using namespace irlens::core;
using namespace irlens::core::exec;
using irlens::testing::fixture;

namespace {

TensorData f32Data(const std::vector<int64_t>& sizes, const std::vector<float>& v) {
    std::vector<std::byte> bytes(v.size() * sizeof(float));
    std::memcpy(bytes.data(), v.data(), bytes.size());
    TensorData t;
    t.sizes = sizes;
    int64_t stride = 1;
    t.strides.resize(sizes.size());
    for (size_t k = sizes.size(); k-- > 0;) { t.strides[k] = stride; stride *= sizes[k]; }
    t.storage = Storage::fromBytes(std::move(bytes));
    return t;
}

// x [1, 1, 1, 2] -> 1x1 convolution to 2 channels (weights 2, -3; bias 1, 0.5) -> batch norm
// (gamma 2, 0.5; beta 1, -1; mean 0.5, 1; var 4, 0.25; eps 0) -> `activation` (relu or hardtanh(0, 6)).
ProgramPtr convBnProgram(const std::string& activation, bool mutateMean) {
    auto p = std::make_shared<Program>();
    auto param = [&](const std::string& value, const std::string& fqn, InputKind kind, TensorData data) {
        p->graph.inputs.push_back(Argument::tensor(value));
        InputSpec s;
        s.kind = kind;
        s.arg = Argument::tensor(value);
        s.target = fqn;
        p->signature.inputSpecs.push_back(s);
        p->weights[fqn] = std::move(data);
    };
    param("w", "conv.weight", InputKind::Parameter, f32Data({2, 1, 1, 1}, {2, -3}));
    param("cb", "conv.bias", InputKind::Parameter, f32Data({2}, {1, 0.5f}));
    param("g", "bn.weight", InputKind::Parameter, f32Data({2}, {2, 0.5f}));
    param("b", "bn.bias", InputKind::Parameter, f32Data({2}, {1, -1}));
    param("m", "bn.running_mean", InputKind::Buffer, f32Data({2}, {0.5f, 1}));
    param("v", "bn.running_var", InputKind::Buffer, f32Data({2}, {4, 0.25f}));
    p->graph.inputs.push_back(Argument::tensor("x"));
    p->signature.inputSpecs.push_back(InputSpec{});
    p->signature.inputSpecs.back().arg = Argument::tensor("x");
    auto node = [&](const std::string& name, const std::string& target, std::vector<NamedArgument> in, std::vector<std::string> outs) {
        Node n;
        n.name = name;
        n.target = Target::parse(target);
        n.inputs = std::move(in);
        for (auto& o : outs) n.outputs.push_back(Argument::tensor(o));
        p->graph.nodes.push_back(n);
    };
    node("conv", "torch.ops.aten.convolution.default",
         {{"input", Argument::tensor("x"), ArgumentKind::Positional}, {"weight", Argument::tensor("w"), ArgumentKind::Positional}, {"bias", Argument::tensor("cb"), ArgumentKind::Positional},
          {"stride", Argument::ints({1, 1}), ArgumentKind::Positional}, {"padding", Argument::ints({0, 0}), ArgumentKind::Positional}, {"dilation", Argument::ints({1, 1}), ArgumentKind::Positional},
          {"transposed", Argument::boolean(false), ArgumentKind::Positional}, {"output_padding", Argument::ints({0, 0}), ArgumentKind::Positional}, {"groups", Argument::integer(1), ArgumentKind::Positional}},
         {"conv"});
    node("bn", "torch.ops.aten._native_batch_norm_legit_no_training.default",
         {{"input", Argument::tensor("conv"), ArgumentKind::Positional}, {"weight", Argument::tensor("g"), ArgumentKind::Positional}, {"bias", Argument::tensor("b"), ArgumentKind::Positional},
          {"running_mean", Argument::tensor("m"), ArgumentKind::Positional}, {"running_var", Argument::tensor("v"), ArgumentKind::Positional}, {"momentum", Argument::floating(0.1), ArgumentKind::Positional},
          {"eps", Argument::floating(0.0), ArgumentKind::Positional}},
         {"bn", "bn_1", "bn_2"});
    std::vector<NamedArgument> actArgs{{"self", Argument::tensor("bn"), ArgumentKind::Positional}};
    if (activation == "hardtanh") {
        actArgs.push_back({"min_val", Argument::floating(0.0), ArgumentKind::Positional});
        actArgs.push_back({"max_val", Argument::floating(6.0), ArgumentKind::Positional});
    }
    node("act", "torch.ops.aten." + activation + ".default", actArgs, {"act"});
    p->graph.outputs.push_back(Argument::tensor("act"));
    p->signature.outputSpecs.push_back({OutputKind::UserOutput, Argument::tensor("act"), ""});
    if (mutateMean) {
        p->graph.outputs.insert(p->graph.outputs.begin(), Argument::tensor("m"));
        p->signature.outputSpecs.insert(p->signature.outputSpecs.begin(), {OutputKind::BufferMutation, Argument::tensor("m"), "bn.running_mean"});
    }
    return p;
}

} // namespace

class TstPlanFusion : public QObject {
    Q_OBJECT
private slots:
    // y = act(gamma * (w * x + b - mean) / sqrt(var) + beta), by hand for x = (1, -2):
    // channel 0: 2 * (2x + 1 - 0.5) / 2 + 1 = 2x + 1.5 -> 3.5, -2.5; channel 1: 0.5 * (-3x + 0.5 - 1) / 0.5 - 1 = -3x - 1.5 -> -4.5, 4.5
    void handComputed_data() {
        QTest::addColumn<QString>("activation");
        QTest::addColumn<bool>("mutateMean");
        QTest::addColumn<int>("folded");
        QTest::addColumn<QVector<double>>("expected");
        QTest::addRow("relu") << "relu" << false << 2 << QVector<double>{3.5, 0, 0, 4.5};
        QTest::addRow("hardtanh(0, 6)") << "hardtanh" << false << 2 << QVector<double>{3.5, 0, 0, 4.5};
        // a running statistic the program mutates is not a constant: nothing folds
        QTest::addRow("mutated mean") << "relu" << true << 0 << QVector<double>{3.5, 0, 0, 4.5};
    }
    void handComputed() {
        QFETCH(QString, activation);
        QFETCH(bool, mutateMean);
        QFETCH(int, folded);
        QFETCH(QVector<double>, expected);
        auto plan = ExecutionPlan::compile(convBnProgram(activation.toStdString(), mutateMean));
        QVERIFY2(plan.isOk(), plan.error().c_str());
        QCOMPARE((*plan)->fusedNodes(), folded);
        if (folded) {
            QCOMPARE((*plan)->graph().nodes[1].fusedInto, 0);
            QCOMPARE((*plan)->graph().nodes[2].fusedInto, 0);
        }
        auto x = *Tensor::empty(ScalarType::Float32, {1, 1, 1, 2});
        x.data<float>()[0] = 1;
        x.data<float>()[1] = -2;
        Engine engine(*plan);
        auto r = engine.run({EValue::fromTensor(x)});
        QVERIFY2(r.isOk(), r.error().c_str());
        const Tensor& out = r->outputs[static_cast<size_t>(r->userOutputs[0])].tensor;
        QCOMPARE(out.numel(), int64_t(4));
        for (int64_t i = 0; i < 4; ++i) QVERIFY2(std::abs(out.at(i) - expected[i]) < 1e-5, std::to_string(out.at(i)).c_str());
    }

    void cnn_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("batchNorms");
        QTest::addColumn<int>("activations");
        // the bundled example: one conv+bn pair, its relu reads the folded result alone
        QTest::addRow("zoo/conv_attention") << "zoo/conv_attention" << "model.pt2" << 1 << 1;
        // the ResNet: 6 conv+bn pairs (the stem, 2 in each block, the downsample shortcut); the relu after
        // the stem's bn1 and after each block's bn1 (3) reads the folded result alone, the 2 after a
        // residual add do not follow a convolution
        QTest::addRow("zoo/conv_net") << "zoo/conv_net" << "model.pt2" << 6 << 3;
        // the MobileNet: 10 conv+bn pairs, 7 hardtanh(0, 6), none after a projection or a residual add
        QTest::addRow("zoo/depthwise_net") << "zoo/depthwise_net" << "model.pt2" << 10 << 7;
        QTest::addRow("zoo/depthwise_net_training") << "zoo/depthwise_net_training" << "model.pt2" << 10 << 7;
    }
    void cnn() {
        QFETCH(QString, name);
        IRLENS_REQUIRE_FIXTURE(name);
        QFETCH(QString, file);
        QFETCH(int, batchNorms);
        QFETCH(int, activations);
        const std::string dir = fixture(irlens::testing::programFolder(name.toStdString())).string();
        auto program = loadPt2(dir + "/" + file.toStdString());
        QVERIFY2(program.isOk(), program.error().c_str());
        const size_t nodesBefore = (*program)->graph.nodes.size();
        auto fused = ExecutionPlan::compile(*program);
        auto plain = ExecutionPlan::compile(*program, false, false);
        QVERIFY2(fused.isOk() && plain.isOk(), "compile failed");
        QCOMPARE((*plain)->fusedNodes(), 0);
        QCOMPARE((*fused)->fusedNodes(), batchNorms + activations);
        // the program, and so the graph on screen, keeps every node and target
        QCOMPARE((*program)->graph.nodes.size(), nodesBefore);
        int bn = 0, act = 0;
        for (const auto& pn : (*fused)->graph().nodes) {
            if (pn.fusedInto < 0) continue;
            const PlanNode& conv = (*fused)->graph().nodes[static_cast<size_t>(pn.fusedInto)];
            QVERIFY2(conv.node->target.op().find("conv") != std::string::npos, pn.node->name.c_str());
            QVERIFY(conv.fusedInto < 0);
            if (pn.node->target.op().find("batch_norm") != std::string::npos) ++bn;
            else ++act;
            QCOMPARE(pn.node->target.op().empty(), false);
        }
        QCOMPARE(bn, batchNorms);
        QCOMPARE(act, activations);

        auto expected = loadExpected(dir + "/model.expected");
        QVERIFY2(expected.isOk(), expected.error().c_str());
        for (int threads : {1, 2}) {
            Engine a(*fused), b(*plain);
            RunOptions ro;
            ro.threads = threads;
            auto ra = a.run(expected->main.inputs, ro);
            auto rb = b.run(expected->main.inputs, ro);
            QVERIFY2(ra.isOk(), ra.error().c_str());
            QVERIFY2(rb.isOk(), rb.error().c_str());
            const Tensor& out = ra->outputs[static_cast<size_t>(ra->userOutputs[0])].tensor;
            Comparison vsTorch = compareWithReference(out, expected->main.outputs[0].tensor);
            QVERIFY2(vsTorch.ok, vsTorch.message.c_str());
            Comparison vsPlain = compareWithReference(out, rb->outputs[static_cast<size_t>(rb->userOutputs[0])].tensor);
            QVERIFY2(vsPlain.ok, vsPlain.message.c_str());
        }
    }

    // A model without convolutions folds nothing.
    void noConvolution() {
        auto program = loadPt2(fixture(irlens::testing::programFolder("zoo/gpt_block") + "/model.pt2").string());
        QVERIFY2(program.isOk(), program.error().c_str());
        auto plan = ExecutionPlan::compile(*program);
        QVERIFY2(plan.isOk(), plan.error().c_str());
        QCOMPARE((*plan)->fusedNodes(), 0);
    }
};

QTEST_GUILESS_MAIN(TstPlanFusion)
#include "tst_plan_fusion.moc"
