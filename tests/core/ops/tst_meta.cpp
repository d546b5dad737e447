// Meta functions on hand-made nodes: shapes, dtypes and strides as PyTorch computes them, errors with
// their exact message, and the recorded-meta check catching a wrong `val`.

#include "core/ir/builder.h"
#include "core/ops/meta.h"

#include <QTest>

using namespace irlens::core;

namespace {

struct Case {
    Graph graph;
    Node node;
};

// Inputs: "name:dtype:d0,d1[:s0,s1]" (optional strides).
Case makeCase(const QStringList& inputs, const QString& target, std::vector<NamedArgument> args) {
    Case c;
    for (const auto& spec : inputs) {
        auto parts = spec.split(':');
        std::vector<int64_t> sizes;
        for (const auto& d : parts[2].split(',', Qt::SkipEmptyParts)) sizes.push_back(d.toLongLong());
        TensorMeta m = makeTensorMeta(*dtypeFromName(parts[1].toStdString()), sizes);
        if (parts.size() > 3) {
            m.strides.clear();
            for (const auto& s : parts[3].split(',')) m.strides.push_back(SymInt::literal(s.toLongLong()));
        }
        c.graph.tensorValues[parts[0].toStdString()] = m;
        c.graph.inputs.push_back(Argument::tensor(parts[0].toStdString()));
    }
    c.node.name = "n";
    c.node.target = Target::parse(target.toStdString());
    c.node.inputs = std::move(args);
    return c;
}

NamedArgument T(const std::string& n, const std::string& v) { return {n, Argument::tensor(v), ArgumentKind::Positional}; }
NamedArgument I(const std::string& n, int64_t v) { return {n, Argument::integer(v), ArgumentKind::Positional}; }
NamedArgument Is(const std::string& n, std::vector<int64_t> v) { return {n, Argument::ints(v), ArgumentKind::Positional}; }
NamedArgument F(const std::string& n, double v) { return {n, Argument::floating(v), ArgumentKind::Positional}; }
NamedArgument B(const std::string& n, bool v) { return {n, Argument::boolean(v), ArgumentKind::Positional}; }

QString describe(const TensorMeta& m) {
    QString s = QString::fromStdString(m.shortString()) + " strides [";
    for (size_t i = 0; i < m.strides.size(); ++i) s += (i ? ", " : "") + QString::fromStdString(m.strides[i].toString());
    return s + "]";
}

} // namespace

Q_DECLARE_METATYPE(std::vector<irlens::core::NamedArgument>)

class TstMeta : public QObject {
    Q_OBJECT
private slots:
    void infer_data() {
        QTest::addColumn<QStringList>("inputs");
        QTest::addColumn<QString>("target");
        QTest::addColumn<std::vector<NamedArgument>>("args");
        QTest::addColumn<QString>("expected"); // first output, or the error message
        const QString a = "torch.ops.aten.";
        QTest::addRow("add broadcast") << QStringList{"x:int8:4,1", "y:float32:3"} << a + "add.Tensor"
                                       << std::vector<NamedArgument>{T("self", "x"), T("other", "y")} << "f32[4, 3] strides [3, 1]";
        QTest::addRow("mul by python float keeps int->float") << QStringList{"x:int64:3"} << a + "mul.Tensor"
                                                               << std::vector<NamedArgument>{T("self", "x"), F("other", 0.5)} << "f32[3] strides [1]";
        QTest::addRow("add keeps permuted layout") << QStringList{"x:float32:2,3:1,2"} << a + "add.Tensor"
                                                   << std::vector<NamedArgument>{T("self", "x"), T("other", "x")} << "f32[2, 3] strides [1, 2]";
        QTest::addRow("eq is bool") << QStringList{"x:float16:3"} << a + "eq.Scalar" << std::vector<NamedArgument>{T("self", "x"), F("other", 1)}
                                    << "b8[3] strides [1]";
        QTest::addRow("conv2d stride 2 pad 1") << QStringList{"x:float32:1,3,224,224", "w:float32:64,3,7,7"} << a + "convolution.default"
                                               << std::vector<NamedArgument>{T("input", "x"), T("weight", "w"), {"bias", Argument::none(), ArgumentKind::Positional},
                                                                             Is("stride", {2, 2}), Is("padding", {3, 3}), Is("dilation", {1, 1}),
                                                                             B("transposed", false), Is("output_padding", {0, 0}), I("groups", 1)}
                                               << "f32[1, 64, 112, 112] strides [802816, 12544, 112, 1]";
        QTest::addRow("max_pool ceil_mode") << QStringList{"x:float32:1,1,5,5"} << a + "max_pool2d_with_indices.default"
                                            << std::vector<NamedArgument>{T("self", "x"), Is("kernel_size", {2, 2}), Is("stride", {2, 2}),
                                                                          Is("padding", {0, 0}), Is("dilation", {1, 1}), B("ceil_mode", true)}
                                            << "f32[1, 1, 3, 3] strides [9, 9, 3, 1]";
        QTest::addRow("matmul batch broadcast") << QStringList{"x:float32:2,1,3,4", "y:float32:5,4,6"} << a + "matmul.default"
                                                << std::vector<NamedArgument>{T("self", "x"), T("other", "y")} << "f32[2, 5, 3, 6] strides [90, 18, 6, 1]";
        QTest::addRow("permute strides") << QStringList{"x:float32:2,3,4"} << a + "permute.default"
                                         << std::vector<NamedArgument>{T("self", "x"), Is("dims", {2, 0, 1})} << "f32[4, 2, 3] strides [1, 12, 4]";
        QTest::addRow("view -1") << QStringList{"x:float32:2,3,4"} << a + "view.default" << std::vector<NamedArgument>{T("self", "x"), Is("size", {-1, 4})}
                                 << "f32[6, 4] strides [4, 1]";
        QTest::addRow("view of a transpose, viewable") << QStringList{"x:float32:4,1,6:6,24,1"} << a + "view.default"
                                                       << std::vector<NamedArgument>{T("self", "x"), Is("size", {4, 6})} << "f32[4, 6] strides [6, 1]";
        QTest::addRow("view not viewable")
            << QStringList{"x:float32:3,4:1,3"} << a + "view.default" << std::vector<NamedArgument>{T("self", "x"), Is("size", {12})}
            << "node 'n' (aten.view.default): argument 'size': view size [12] is not compatible with the input's strides [1, 3] (use reshape)";
        QTest::addRow("expand") << QStringList{"x:float32:3,1"} << a + "expand.default" << std::vector<NamedArgument>{T("self", "x"), Is("size", {2, -1, 4})}
                                << "f32[2, 3, 4] strides [0, 1, 0]";
        QTest::addRow("slice step") << QStringList{"x:float32:10,4"} << a + "slice.Tensor"
                                    << std::vector<NamedArgument>{T("self", "x"), I("dim", 0), I("start", 1), I("end", 100), I("step", 3)}
                                    << "f32[3, 4] strides [12, 1]";
        QTest::addRow("native_layer_norm stats") << QStringList{"x:float32:2,5,8"} << a + "native_layer_norm.default"
                                                 << std::vector<NamedArgument>{T("input", "x"), Is("normalized_shape", {8}), {"weight", Argument::none(), ArgumentKind::Positional},
                                                                               {"bias", Argument::none(), ArgumentKind::Positional}, F("eps", 1e-5)}
                                                 << "f32[2, 5, 8] strides [40, 8, 1]";
        QTest::addRow("sum of bool is int64") << QStringList{"x:bool:4,3"} << a + "sum.dim_IntList"
                                              << std::vector<NamedArgument>{T("self", "x"), Is("dim", {1}), B("keepdim", true)} << "i64[4, 1] strides [1, 1]";
        QTest::addRow("mean of int is an error") << QStringList{"x:int32:4"} << a + "mean.dim" << std::vector<NamedArgument>{T("self", "x"), Is("dim", {0})}
                                                 << "node 'n' (aten.mean.dim): argument 'self': mean needs a floating point or complex input, got int32";
        QTest::addRow("broadcast error") << QStringList{"x:float32:4,3", "y:float32:2"} << a + "add.Tensor"
                                         << std::vector<NamedArgument>{T("self", "x"), T("other", "y")}
                                         << "node 'n' (aten.add.Tensor): cannot broadcast dimension -1: size 2 of argument 1 (shape [2]) against 3 (shape so far [4, 3])";
        QTest::addRow("mm shape error") << QStringList{"x:float32:2,3", "y:float32:4,5"} << a + "mm.default"
                                        << std::vector<NamedArgument>{T("self", "x"), T("mat2", "y")}
                                        << "node 'n' (aten.mm.default): cannot multiply [2, 3] by [4, 5]";
        QTest::addRow("prims broadcast_in_dim") << QStringList{"x:float32:3"} << "torch.ops.prims.broadcast_in_dim.default"
                                                << std::vector<NamedArgument>{T("a", "x"), Is("shape", {2, 3}), Is("broadcast_dimensions", {1})}
                                                << "f32[2, 3] strides [0, 1]";
        QTest::addRow("prims sum drops dims") << QStringList{"x:float32:2,3"} << "torch.ops.prims.sum.default"
                                              << std::vector<NamedArgument>{T("inp", "x"), Is("dims", {1})} << "f32[2] strides [1]";
        QTest::addRow("prims convert") << QStringList{"x:int8:2,3"} << "torch.ops.prims.convert_element_type.default"
                                       << std::vector<NamedArgument>{T("a", "x"), {"dtype", Argument::scalarType(ScalarType::Float16), ArgumentKind::Positional}}
                                       << "f16[2, 3] strides [3, 1]";
    }
    void infer() {
        QFETCH(QStringList, inputs);
        QFETCH(QString, target);
        QFETCH(std::vector<NamedArgument>, args);
        QFETCH(QString, expected);
        Case c = makeCase(inputs, target, args);
        auto r = inferMeta(c.node, c.graph);
        QString got = r.isOk() ? describe((*r)[0].meta) : QString::fromStdString(r.error());
        QCOMPARE(got, expected);
    }

    void recordedMismatchIsReported() {
        ProgramBuilder pb;
        auto x = pb.userInput("x", makeTensorMeta(ScalarType::Float32, {2, 3}));
        // The recorded output claims [3, 2]: a permute of [2, 3] by [1, 0] is [3, 2] ... but claim float16.
        pb.call("torch.ops.aten.permute.default", "permute").arg("self", x).arg("dims", Argument::ints({1, 0}))
            .out(makeTensorMeta(ScalarType::Float16, {3, 2}));
        pb.userOutput("permute");
        auto p = pb.build();
        QVERIFY(p.isOk());
        auto report = checkRecordedMeta(**p);
        QCOMPARE(report.mismatches.size(), size_t(1));
        QCOMPARE(QString::fromStdString(report.mismatches[0].message),
                 QString("node 'permute' (aten.permute.default): output 'permute' has dtype float16 recorded but float32 inferred"));
        // With the right dtype, the contiguous strides recorded for a permute are wrong too.
        ProgramBuilder pb2;
        auto y = pb2.userInput("x", makeTensorMeta(ScalarType::Float32, {2, 3}));
        pb2.call("torch.ops.aten.permute.default", "permute").arg("self", y).arg("dims", Argument::ints({1, 0}))
            .out(makeTensorMeta(ScalarType::Float32, {3, 2}));
        pb2.userOutput("permute");
        auto report2 = checkRecordedMeta(**pb2.build());
        QCOMPARE(report2.mismatches.size(), size_t(1));
        QCOMPARE(QString::fromStdString(report2.mismatches[0].field), QString("strides"));
        QCOMPARE(QString::fromStdString(report2.mismatches[0].recorded), QString("[2, 1]"));
        QCOMPARE(QString::fromStdString(report2.mismatches[0].inferred), QString("[1, 3]"));
        MetaCheckOptions noStrides;
        noStrides.compareStrides = false;
        QVERIFY(checkRecordedMeta(**pb2.build(), noStrides).clean());
    }
};

QTEST_GUILESS_MAIN(TstMeta)
#include "tst_meta.moc"
