// The IR model's small pieces: targets, metadata parsing, symbolic pretty-printing, tensor views.
#include "core/ir/program.h"

#include <QTest>

using namespace irlens::core;

class TstIr : public QObject {
    Q_OBJECT
private slots:
    void targetParse_data() {
        QTest::addColumn<QString>("full");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("ns");
        QTest::addColumn<QString>("op");
        QTest::addColumn<QString>("overload");
        QTest::addRow("aten") << "torch.ops.aten.add.Tensor" << int(Target::Kind::Op) << "aten" << "add" << "Tensor";
        QTest::addRow("default") << "torch.ops.aten.linear.default" << int(Target::Kind::Op) << "aten" << "linear" << "default";
        QTest::addRow("hop") << "torch.ops.higher_order.cond" << int(Target::Kind::HigherOrder) << "higher_order" << "cond" << "";
        QTest::addRow("sym") << "_operator.floordiv" << int(Target::Kind::Symbolic) << "_operator" << "floordiv" << "";
        QTest::addRow("ext") << "#mylib:relu" << int(Target::Kind::Extension) << "mylib" << "relu" << "";
        QTest::addRow("junk") << "os.system" << int(Target::Kind::Unknown) << "" << "" << "";
    }
    void targetParse() {
        QFETCH(QString, full);
        QFETCH(int, kind);
        Target t = Target::parse(full.toStdString());
        QCOMPARE(int(t.kind), kind);
        QTEST(QString::fromStdString(t.ns()), "ns");
        QTEST(QString::fromStdString(t.op()), "op");
        QTEST(QString::fromStdString(t.overload()), "overload");
    }

    void moduleStack_data() {
        QTest::addColumn<QString>("raw");
        QTest::addColumn<QStringList>("paths");
        QTest::addColumn<QStringList>("types");
        QTest::addRow("new") << "L__self__,,__main__.M;L__self___layer1_0,layer1.0,torchvision.models.resnet.BasicBlock"
                             << QStringList{"", "layer1.0"} << QStringList{"__main__.M", "torchvision.models.resnet.BasicBlock"};
        QTest::addRow("old") << "L__self___fc:(fc,torch.nn.modules.linear.Linear)" << QStringList{"fc"}
                             << QStringList{"torch.nn.modules.linear.Linear"};
        QTest::addRow("commas in path") << "k,blocks[slice(0, 2, None)],mod.Seq" << QStringList{"blocks[slice(0, 2, None)]"}
                                        << QStringList{"mod.Seq"};
    }
    void moduleStack() {
        QFETCH(QString, raw);
        QFETCH(QStringList, paths);
        QFETCH(QStringList, types);
        NodeMeta m;
        m.raw["nn_module_stack"] = raw.toStdString();
        m.parseFromRaw();
        QVERIFY(m.moduleStack != nullptr);
        QCOMPARE(int(m.moduleStack->size()), paths.size());
        for (int k = 0; k < paths.size(); ++k) {
            QCOMPARE(QString::fromStdString((*m.moduleStack)[k].path), paths[k]);
            QCOMPARE(QString::fromStdString((*m.moduleStack)[k].type), types[k]);
        }
    }

    void stackFrames() {
        NodeMeta m;
        m.raw["stack_trace"] = "  File \"model.py\", line 12, in forward\n    x = self.fc(x)\n"
                               "  File \"/usr/lib/torch/nn/linear.py\", line 114, in forward\n    return F.linear(input)\n";
        m.parseFromRaw();
        QCOMPARE(int(m.frames.size()), 2);
        QCOMPARE(QString::fromStdString(m.frames[0].file), QString("model.py"));
        QCOMPARE(m.frames[0].line, 12);
        QCOMPARE(QString::fromStdString(m.frames[0].function), QString("forward"));
        QCOMPARE(QString::fromStdString(m.frames[1].code), QString("return F.linear(input)"));
    }

    void symPretty_data() {
        QTest::addColumn<QString>("expr");
        QTest::addColumn<QString>("pretty");
        QTest::addRow("plain") << "s0" << "s0";
        QTest::addRow("symbol") << "Symbol('s0', integer=True, positive=True)" << "s0";
        QTest::addRow("mul") << "Mul(Integer(2), Symbol('s0', integer=True, positive=True))" << "2*s0";
        QTest::addRow("add") << "Add(Symbol('s0'), Integer(-1))" << "s0 - 1";
        QTest::addRow("nested") << "Mul(Integer(4), Add(Symbol('s0'), Integer(1)))" << "4*(s0 + 1)";
        QTest::addRow("floordiv") << "FloorDiv(Symbol('s0'), Integer(2))" << "FloorDiv(s0, 2)";
        QTest::addRow("garbage kept") << "Mul(((" << "Mul(((";
    }
    void symPretty() {
        QFETCH(QString, expr);
        QTEST(QString::fromStdString(prettySymExpr(expr.toStdString())), "pretty");
    }

    void tensorViews() {
        std::vector<std::byte> bytes(6 * sizeof(float));
        float v[6] = {0, 1, 2, 3, 4, 5};
        std::memcpy(bytes.data(), v, sizeof v);
        TensorData t;
        t.dtype = ScalarType::Float32;
        t.storage = Storage::fromBytes(bytes);
        t.sizes = {3, 2};
        t.strides = {1, 3}; // transpose of a 2x3
        QVERIFY(!t.isContiguous());
        QVERIFY(t.fitsStorage());
        auto c = t.contiguousBytes();
        float out[6];
        std::memcpy(out, c.data(), sizeof out);
        const float expected[6] = {0, 3, 1, 4, 2, 5};
        for (int k = 0; k < 6; ++k) QCOMPARE(out[k], expected[k]);
        t.storageOffset = 1;
        QVERIFY(!t.fitsStorage()); // the last element would fall outside the 6-element storage
    }

    void dtypes() {
        QCOMPARE(elementSize(ScalarType::BFloat16), 2);
        QCOMPARE(QString::fromStdString(dtypeName(ScalarType::Bool)), QString("bool"));
        QCOMPARE(QString::fromStdString(dtypeName(static_cast<ScalarType>(99))), QString("dtype(99)"));
        QVERIFY(dtypeFromName("torch.float32") == ScalarType::Float32);
        QVERIFY(dtypeFromName("long") == ScalarType::Int64);
        QVERIFY(!dtypeFromName("float128"));
    }
};

QTEST_GUILESS_MAIN(TstIr)
#include "tst_ir.moc"
