// ProgramBuilder and the bundled example: what they build, what build() refuses, determinism, and
// (through the op library's meta functions, an independent implementation) that every recorded val of
// the example is what PyTorch's meta functions would compute.
#include "core/io/fx_printer.h"
#include "core/io/pt2_reader.h"
#include "core/io/pt2_writer.h"
#include "core/ir/builder.h"
#include "core/ir/example_program.h"
#include "core/ops/meta.h"

#include <QTemporaryDir>
#include <QTest>

#include <cstring>

using namespace irlens::core;

namespace {

TensorMeta f32(const std::vector<int64_t>& sizes) { return makeTensorMeta(ScalarType::Float32, sizes); }

std::vector<float> floats(const TensorData& t) {
    std::vector<float> v(static_cast<size_t>(t.numel()));
    auto bytes = t.contiguousBytes();
    std::memcpy(v.data(), bytes.data(), bytes.size());
    return v;
}

} // namespace

class TstBuilder : public QObject {
    Q_OBJECT
private slots:
    void refuses_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("message");
        QTest::addRow("dangling input") << 0 << "program 'p': node 'n' reads 'ghost', which no input or earlier node defines";
        QTest::addRow("later value") << 1 << "program 'p': node 'a' reads 'b', which no input or earlier node defines";
        QTest::addRow("duplicate") << 2 << "program 'p': node 'b' defines 'a', which is already defined";
        QTest::addRow("dangling output") << 3 << "program 'p': the graph returns 'nope', which is never defined";
        QTest::addRow("duplicate input") << 4 << "program 'p': input 'x' is defined twice";
    }
    void refuses() {
        QFETCH(int, which);
        ProgramBuilder b("p");
        b.userInput("x", f32({2}));
        switch (which) {
        case 0: b.call("torch.ops.aten.neg.default", "n").arg("self", "ghost").out(f32({2})); break;
        case 1:
            b.call("torch.ops.aten.neg.default", "a").arg("self", "b").out(f32({2}));
            b.call("torch.ops.aten.neg.default", "b").arg("self", "x").out(f32({2}));
            break;
        case 2:
            b.call("torch.ops.aten.neg.default", "a").arg("self", "x").out(f32({2}));
            b.call("torch.ops.aten.neg.default", "b").arg("self", "x").outNamed("a", f32({2}));
            break;
        case 3: b.userOutput("nope"); break;
        case 4: b.userInput("x", f32({2})); break;
        }
        auto r = b.build();
        QVERIFY(!r.isOk());
        QTEST(QString::fromStdString(r.error()), "message");
        // buildUnchecked keeps what was recorded, for tests of the verifier
        QVERIFY(!b.buildUnchecked().graph.inputs.empty());
    }

    void recordsEverything() {
        ProgramBuilder b("m");
        b.verifiers({"TRAINING"});
        b.parameter("p_w", "fc.weight", makeSeededTensor({3, 2}, 7, 1.0f));
        b.buffer("b_mean", "bn.mean", makeFilledTensor({3}, 0.5f), true);
        b.buffer("b_mask", "mask", makeFilledTensor({3}, 1.0f), false);
        b.tensorConstant("c_k", "k", makeFilledTensor({1}, 2.0f));
        std::vector<SymInt> dyn{SymInt::expression("s0", 4), SymInt::literal(2)};
        b.userInput("x", makeTensorMeta(ScalarType::Float32, dyn));
        b.call("torch.ops.aten.linear.default", "linear").arg("input", "x").arg("weight", "p_w").out(f32({4, 3}))
            .stackTrace("  File \"m.py\", line 9, in forward\n    return self.fc(x)\n")
            .module("L__self__", "", "m.M").module("L__self___fc", "fc", "torch.nn.modules.linear.Linear")
            .sourceFn("l__self___fc", "torch.nn.modules.linear.Linear").torchFn("linear_1", "builtin_function_or_method.linear")
            .meta("custom", "{\"k\": 1}");
        b.call("torch.ops.aten.add.Tensor", "add").arg("self", "b_mean").arg("other", "c_k").out(f32({3}));
        b.bufferMutation("add", "bn.mean");
        b.userOutput("linear");
        b.rangeConstraint("s0", 2, std::nullopt);
        b.sampleInput(makeFilledTensor({4, 2}, 1.0f));
        auto r = b.build();
        QVERIFY2(r.isOk(), r.error().c_str());
        const Program& p = *r.value();
        QCOMPARE(p.container, ContainerKind::Builder);
        QVERIFY(p.isTrainingDialect());
        QCOMPARE(int(p.signature.inputSpecs.size()), 5);
        QCOMPARE(p.signature.inputSpecs[2].persistent, std::optional<bool>(false));
        QVERIFY(p.weights.count("fc.weight") && p.weights.count("bn.mean"));
        QVERIFY(p.constants.count("mask") && p.constants.count("k")); // non-persistent buffers live in constants
        QVERIFY(p.weights.at("fc.weight").isParameter);
        QCOMPARE(p.signature.outputSpecs[0].kind, OutputKind::BufferMutation);
        QCOMPARE(QString::fromStdString(p.signature.outputSpecs[0].target), QString("bn.mean"));
        // symbolic sizes get symbolic contiguous strides
        const TensorMeta& xm = p.graph.tensorValues.at("x");
        QCOMPARE(QString::fromStdString(xm.shortString()), QString("f32[s0, 2]"));
        QCOMPARE(QString::fromStdString(xm.strides[0].toString()), QString("2"));
        const Node& lin = p.graph.nodes[0];
        QVERIFY(lin.meta.moduleStack && lin.meta.moduleStack->size() == 2);
        QCOMPARE(QString::fromStdString((*lin.meta.moduleStack)[1].path), QString("fc"));
        QCOMPARE(QString::fromStdString(lin.meta.frames.at(0).code), QString("return self.fc(x)"));
        QCOMPARE(QString::fromStdString(*lin.meta.torchFn), QString("linear_1;builtin_function_or_method.linear"));
        QCOMPARE(QString::fromStdString(lin.meta.raw.at("source_fn_stack")), QString("l__self___fc,torch.nn.modules.linear.Linear"));
        QVERIFY(p.hasSampleInputs && p.sampleArgs.size() == 1);
        QCOMPARE(p.rangeConstraints.at("s0").minVal, std::optional<int64_t>(2));
    }

    void symbolicStrides() {
        std::vector<SymInt> sizes{SymInt::literal(3), SymInt::expression("s0"), SymInt::literal(4)};
        TensorMeta m = makeTensorMeta(ScalarType::Float32, sizes);
        QCOMPARE(QString::fromStdString(m.strides[0].toString()), QString("4*s0"));
        QCOMPARE(QString::fromStdString(m.strides[1].toString()), QString("4"));
        QCOMPARE(QString::fromStdString(m.strides[2].toString()), QString("1"));
    }

    void seededTensorsAreDeterministic() {
        auto a = floats(makeSeededTensor({4, 5}, 42, 0.5f));
        auto b = floats(makeSeededTensor({4, 5}, 42, 0.5f));
        auto c = floats(makeSeededTensor({4, 5}, 43, 0.5f));
        QVERIFY(a == b);
        QVERIFY(a != c);
        for (float v : a) QVERIFY(v >= -0.5f && v <= 0.5f);
        // values are spread, not constant
        QVERIFY(*std::max_element(a.begin(), a.end()) - *std::min_element(a.begin(), a.end()) > 0.3f);
    }

    void exampleIsDeterministic() {
        auto a = makeExampleProgram();
        auto b = makeExampleProgram();
        QCOMPARE(QString::fromStdString(compareProgramsDetail(*a, *b)), QString());
        QCOMPARE(a->verifiers, std::vector<std::string>{"ATEN"});
        QVERIFY(a->hasSampleInputs);
        QCOMPARE(int(a->graph.nodes.size()), 38);
        // every node carries the metadata contract
        for (const auto& n : a->graph.nodes) {
            QVERIFY2(n.meta.stackTrace && !n.meta.frames.empty(), n.name.c_str());
            QVERIFY2(n.meta.moduleStack && !n.meta.moduleStack->empty(), n.name.c_str());
            QVERIFY2(n.meta.sourceFnStack && n.meta.torchFn, n.name.c_str());
        }
        // batch-norm variances are positive (the stem would produce NaNs otherwise)
        for (float v : floats(a->weights.at("stem.bn.running_var"))) QVERIFY(v > 0.5f);
    }

    void exampleSurvivesTheFormat() {
        // Saved as a PT2 archive and loaded back, the example is the same program and prints the same.
        auto p = makeExampleProgram();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath("example.pt2").toStdString();
        Status saved = savePt2(*p, path);
        QVERIFY2(saved.isOk(), saved.message().c_str());
        auto loaded = loadPt2(path);
        QVERIFY2(loaded.isOk(), loaded.error().c_str());
        QCOMPARE(QString::fromStdString(printFxGraph(*loaded.value())), QString::fromStdString(printFxGraph(*p)));
        QCOMPARE(QString::fromStdString(compareProgramsDetail(*p, *loaded.value())), QString());
    }

    void exampleValsMatchMetaFunctions() {
        auto p = makeExampleProgram();
        MetaCheckReport report = checkRecordedMeta(*p);
        QString mismatches;
        for (const auto& m : report.mismatches) mismatches += QString::fromStdString(m.message) + "\n";
        QVERIFY2(report.clean(), qPrintable(mismatches));
        QCOMPARE(report.nodesChecked, int(p->graph.nodes.size()));
        QVERIFY2(report.unsupported.empty(), report.unsupported.empty() ? "" : report.unsupported[0].c_str());
        QVERIFY(report.valuesCompared >= int(p->graph.nodes.size()));
    }
};

QTEST_GUILESS_MAIN(TstBuilder)
#include "tst_builder.moc"
