// irlens-cli render: the graph drawn headless, exit codes and messages for bad usage.
#include "support/cli_runner.h"
#include "support/shared_fixtures.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

class TestCliRender : public QObject {
    Q_OBJECT
private slots:
    void renders_data();
    void renders();
    void badUsage_data();
    void badUsage();
};

namespace {

using Run = irlens::testing::CliRun;

Run cli(const QStringList& args) { return irlens::testing::runCli(args); }

} // namespace

void TestCliRender::renders_data() {
    QTest::addColumn<QString>("fixture");
    QTest::addColumn<QString>("collapse");
    QTest::addColumn<QString>("ext");
    QTest::addColumn<QStringList>("mustContain");
    QTest::addRow("resnet18 svg") << "resnet18" << "auto" << "svg" << QStringList{"convolution", "f32[1, 64, 112, 112]", "layer1.0 · BasicBlock"};
    QTest::addRow("resnet18 png") << "resnet18" << "none" << "png" << QStringList{"PNG"};
    QTest::addRow("deep_stack collapsed") << "deep_stack" << "auto" << "svg" << QStringList{"layers", "5400 nodes"};
    QTest::addRow("cond_branch flat") << "cond_branch" << "none" << "svg" << QStringList{"cond"};
    // 12k boxes: laid out per module and composed, then drawn by Graphviz at those positions
    QTest::addRow("llama_deep fully expanded") << "llama_deep" << "none" << "svg"
                                               << QStringList{"layers.127 · LlamaBlock", "embedding", "f32[1, 16, 32]"};
}

void TestCliRender::renders() {
    IRLENS_REQUIRE_SHARED();
    QFETCH(QString, fixture);
    QFETCH(QString, collapse);
    QFETCH(QString, ext);
    QFETCH(QStringList, mustContain);
    QTemporaryDir dir;
    const QString out = dir.filePath("g." + ext);
    const QString in = QString::fromStdString(irlens::testing::fixture("generated/" + fixture.toStdString() + "/model.pt2").string());
    Run r = cli({"render", in, "-o", out, "--collapse", collapse});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray data = f.readAll();
    for (const auto& s : mustContain) QVERIFY2(data.contains(s.toUtf8()), qPrintable(s));
}

void TestCliRender::badUsage_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("error");
    QTest::addRow("no output") << QStringList{"render", "x.pt2"}
                               << "irlens-cli: usage: irlens-cli render FILE -o OUT.svg|.png [--collapse auto|none|top]\n";
    QTest::addRow("unknown format") << QStringList{"render", "x.pt2", "-o", "g.bmp"}
                                    << "irlens-cli: cannot tell the format of 'g.bmp': use .svg, .png, .pdf or .dot\n";
    QTest::addRow("bad collapse") << QStringList{"render", "x.pt2", "-o", "g.svg", "--collapse", "some"}
                                  << "irlens-cli: --collapse must be auto, none or top (got 'some')\n";
}

void TestCliRender::badUsage() {
    QFETCH(QStringList, args);
    QFETCH(QString, error);
    Run r = cli(args);
    QCOMPARE(r.code, 2);
    QCOMPARE(r.err, error);
}

QTEST_GUILESS_MAIN(TestCliRender)
#include "tst_cli_render.moc"
