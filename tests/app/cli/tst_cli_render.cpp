// irlens-cli render: the graph drawn headless, exit codes and messages for bad usage, and a big
// graph without modules drawn in bounded time and memory.
#include "support/chain_program.h"
#include "support/child_usage.h"
#include "support/cli_runner.h"
#include "support/shared_fixtures.h"
#include "support/view_programs.h"
#include "support/zoo_files.h"

#include "core/io/pt2_writer.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

class TstCliRender : public QObject {
    Q_OBJECT
private slots:
    void renders_data();
    void renders();
    void badUsage_data();
    void badUsage();
    void bigChainWithoutModules();
};

namespace {

using Run = irlens::testing::CliRun;

Run cli(const QStringList& args) { return irlens::testing::runCli(args); }

} // namespace

void TstCliRender::renders_data() {
    QTest::addColumn<QString>("fixture");
    QTest::addColumn<QString>("collapse");
    QTest::addColumn<QString>("ext");
    QTest::addColumn<QStringList>("mustContain");
    QTest::addRow("zoo/resnet_like svg") << "zoo/resnet_like" << "auto" << "svg" << QStringList{"convolution", "f32[1, 8, 16, 16]", "layer1.0 · BasicBlock"};
    QTest::addRow("zoo/resnet_like png") << "zoo/resnet_like" << "none" << "png" << QStringList{"PNG"};
    QTest::addRow("zoo/deep_decoder_like collapsed") << "zoo/deep_decoder_like" << "auto" << "svg" << QStringList{"layers", "6000 nodes"};
    QTest::addRow("zoo/cond_branch flat") << "zoo/cond_branch" << "none" << "svg" << QStringList{"cond"};
    // 6k boxes: laid out per module and composed, then drawn by Graphviz at those positions
    QTest::addRow("zoo/deep_decoder_like fully expanded") << "zoo/deep_decoder_like" << "none" << "svg"
                                                           << QStringList{"layers.239 · DecoderBlock", "_softmax", "f32[8, 16]"};
}

void TstCliRender::renders() {
    QFETCH(QString, fixture);
    IRLENS_REQUIRE_FIXTURE(fixture);
    if (fixture.startsWith("zoo/")) irlens::testing::writeViewPrograms();
    QFETCH(QString, collapse);
    QFETCH(QString, ext);
    QFETCH(QStringList, mustContain);
    QTemporaryDir dir;
    const QString out = dir.filePath("g." + ext);
    const QString in = QString::fromStdString(irlens::testing::fixture(irlens::testing::programFolder(fixture.toStdString()) + "/model.pt2").string());
    Run r = cli({"render", in, "-o", out, "--collapse", collapse});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray data = f.readAll();
    for (const auto& s : mustContain) QVERIFY2(data.contains(s.toUtf8()), qPrintable(s));
}

void TstCliRender::badUsage_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("error");
    QTest::addRow("no output") << QStringList{"render", "x.pt2"}
                               << "irlens-cli: usage: irlens-cli render FILE -o OUT.svg|.png [--collapse auto|none|top]\n";
    QTest::addRow("unknown format") << QStringList{"render", "x.pt2", "-o", "g.bmp"}
                                    << "irlens-cli: cannot tell the format of 'g.bmp': use .svg, .png, .pdf or .dot\n";
    QTest::addRow("bad collapse") << QStringList{"render", "x.pt2", "-o", "g.svg", "--collapse", "some"}
                                  << "irlens-cli: --collapse must be auto, none or top (got 'some')\n";
}

void TstCliRender::badUsage() {
    QFETCH(QStringList, args);
    QFETCH(QString, error);
    Run r = cli(args);
    QCOMPARE(r.code, 2);
    QCOMPARE(r.err, error);
}

// A 100,000-node chain with no nn_module_stack (a program after a pass that dropped the metadata):
// one flat dot run is out of the question, so it is cut into windows of 80 boxes (the GUI's layout)
// and written as SVG from that geometry. Measured on 2 cores: 1.1-1.4 s wall, 1.2-1.4 s CPU, 231 MiB.
// Graphviz's own renderer placing the edge labels ran past 300 s and 3 GB before it was stopped;
// drawing at pinned label positions it took 17 s CPU and 1.2 GB. The bounds leave room for a loaded
// machine and fail both of those.
void TstCliRender::bigChainWithoutModules() {
    constexpr int kNodes = 100000;
    QTemporaryDir dir;
    const std::string file = dir.filePath("chain.pt2").toStdString();
    // written by a child process: this one stays small, and the render's peak is its own (runInChild)
    QVERIFY(irlens::testing::runInChild([&] {
        auto p = irlens::testing::makeBareChain(kNodes);
        return p && irlens::core::savePt2(*p, file).isOk();
    }));
    const std::string cli = irlens::testing::cliPath().toStdString(), svg = dir.filePath("chain.svg").toStdString();
    const std::string err = dir.filePath("err.txt").toStdString();
    const auto r = irlens::testing::runMeasured({cli, "render", file, "-o", svg}, 120, err);
    qInfo("render of %d nodes: %.1f s wall, %.1f s CPU, peak %.0f MiB", kNodes, r.seconds, r.cpuSeconds, r.peakMiB);
    QVERIFY2(!r.timedOut, "render ran past 120 s");
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.cpuSeconds < 12, qPrintable(QString("render took %1 s of CPU").arg(r.cpuSeconds)));
    QVERIFY2(r.peakMiB < 800, qPrintable(QString("render peaked at %1 MiB").arg(r.peakMiB)));
    QFile f(QString::fromStdString(svg));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray data = f.readAll();
    QCOMPARE(data.count("<g class=\"node\">"), kNodes + 2); // every relu, the input and the output
    QVERIFY(data.contains("<title>relu_99999</title>"));

    // A PNG of it would be millions of pixels tall: refused, saying why and what to do instead.
    const auto png = irlens::testing::runCli({"render", QString::fromStdString(file), "-o", dir.filePath("chain.png")});
    QCOMPARE(png.code, 2);
    QVERIFY2(png.err.contains("show nothing readable; write .svg"), qPrintable(png.err));
    QVERIFY(!QFile::exists(dir.filePath("chain.png")));
}

QTEST_GUILESS_MAIN(TstCliRender)
#include "tst_cli_render.moc"
