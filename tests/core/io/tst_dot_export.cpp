// DOT export: structure of the text and, when Graphviz is installed, that `dot` accepts it.
#include "core/io/dot_export.h"
#include "core/ir/builder.h"
#include "core/ir/example_program.h"

#include <QProcess>
#include <QStandardPaths>
#include <QTest>

using namespace irlens::core;

class TstDotExport : public QObject {
    Q_OBJECT
private slots:
    void escape_data() {
        QTest::addColumn<QString>("in");
        QTest::addColumn<QString>("out");
        QTest::addRow("quote") << "a\"b" << "a\\\"b";
        QTest::addRow("backslash") << "a\\b" << "a\\\\b";
        QTest::addRow("newline") << "a\nb" << "a\\nb";
        QTest::addRow("control dropped") << QString("a") + QChar(7) + "b" << "ab";
    }
    void escape() {
        QFETCH(QString, in);
        QTEST(QString::fromStdString(dotEscape(in.toStdString())), "out");
    }

    void exampleStructure() {
        auto p = makeExampleProgram();
        QString dot = QString::fromStdString(exportDot(*p));
        QVERIFY(dot.startsWith("digraph \"example\" {"));
        QVERIFY(dot.trimmed().endsWith("}"));
        // one box per node, one ellipse per placeholder
        QCOMPARE(dot.count("shape=box"), int(p->graph.nodes.size()));
        QCOMPARE(dot.count("shape=ellipse"), int(p->graph.inputs.size()));
        // the op and the output shape label the node; the producer's shape labels the edge
        QVERIFY(dot.contains("label=\"convolution\\naten.convolution.default\\nf32[1, 16, 16, 16]\"]"));
        QVERIFY(dot.contains("n0 -> n1 [label=\"f32[1, 16, 16, 16]\"];"));
        QVERIFY(dot.contains(" -> output [label=\"f32[1, 64, 16]\"];"));
        DotOptions noWeights;
        noWeights.includeWeights = false;
        QString slim = QString::fromStdString(exportDot(*p, noWeights));
        QCOMPARE(slim.count("shape=ellipse"), 1); // only the user input x
    }

    void dotAcceptsIt() {
        const QString dotExe = QStandardPaths::findExecutable("dot");
        if (dotExe.isEmpty()) QSKIP("Graphviz 'dot' not installed");
        // A program with quotes and backslashes in names and a multi-output node.
        ProgramBuilder b("we\"ird\\name");
        b.userInput("x", makeTensorMeta(ScalarType::Float32, std::vector<int64_t>{2, 2}));
        b.call("torch.ops.aten.native_layer_norm.default", "ln").arg("input", "x").arg("normalized_shape", Argument::ints({2}))
            .arg("weight", Argument::none()).arg("bias", Argument::none()).arg("eps", Argument::floating(1e-5))
            .outNamed("getitem", makeTensorMeta(ScalarType::Float32, std::vector<int64_t>{2, 2}))
            .outNamed("ln_unused_1", makeTensorMeta(ScalarType::Float32, std::vector<int64_t>{2, 1}))
            .outNamed("ln_unused_2", makeTensorMeta(ScalarType::Float32, std::vector<int64_t>{2, 1}));
        b.userOutput("getitem");
        for (auto program : {makeExampleProgram(), b.build().value()}) {
            QProcess proc;
            proc.start(dotExe, {"-Tsvg"});
            QVERIFY(proc.waitForStarted());
            proc.write(QByteArray::fromStdString(exportDot(*program)));
            proc.closeWriteChannel();
            QVERIFY(proc.waitForFinished(60000));
            QVERIFY2(proc.exitCode() == 0, proc.readAllStandardError().constData());
            QByteArray svg = proc.readAllStandardOutput();
            QVERIFY(svg.contains("<svg"));
            QVERIFY(svg.contains(QByteArray::fromStdString(program->graph.nodes.back().name)));
        }
    }
};

QTEST_GUILESS_MAIN(TstDotExport)
#include "tst_dot_export.moc"
