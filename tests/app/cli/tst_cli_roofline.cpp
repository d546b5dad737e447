// `irlens-cli run --roofline` on resnet18: the roofs and a row per node as text; as JSON (on the zoo's conv
// net), rows whose numbers agree with each other and with the run's nodes; the roofs measured once into the
// cache folder and read from it after, --measure-roofs measuring again; and the trace's share of the roof.
#include "support/cli_runner.h"
#include "support/zoo_files.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

namespace {

using Run = irlens::testing::CliRun;

QString fx(const char* rel) {
    if (std::string(rel).rfind("zoo/", 0) == 0) irlens::testing::zooDir();
    return QString::fromStdString(irlens::testing::fixture(rel).string());
}

// irlens-cli with XDG_CACHE_HOME set to `cacheHome`.
Run cliWithCache(const QStringList& args, const QString& cacheHome) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("XDG_CACHE_HOME", cacheHome);
    return irlens::testing::runProgram(irlens::testing::cliPath(), args, env);
}

QJsonObject jsonOf(const Run& r) { return QJsonDocument::fromJson(r.out.toUtf8()).object(); }

} // namespace

class TstCliRoofline : public QObject {
    Q_OBJECT
private slots:
    void rowPerNode();
    void jsonAgrees();
    void roofsCachedOnce();
    void traceCarriesTheRoof();

private:
    QTemporaryDir m_cache; // one cache for the tests that do not look at it
};

void TstCliRoofline::rowPerNode() {
    IRLENS_REQUIRE_SHARED();
    Run r = cliWithCache({"run", fx("generated/resnet18/model.pt2"), "--threads", "1", "--repeat", "3", "--roofline", "--top", "0"}, m_cache.path());
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("\nroofs     1 thread on "), qPrintable(r.out));
    QVERIFY(r.out.contains(" GFLOP/s (") && r.out.contains(" GB/s (triad over "));
    QVERIFY(r.out.contains("\nroofline  ") && r.out.contains("% of their attainable rate (") && r.out.contains(" of 70 nodes)"));
    // the ridge (peak over bandwidth) is this machine's: 5.6 FLOP/byte on one test VM, 12.3 on another
    const QRegularExpressionMatch ridgeMatch = QRegularExpression("; ridge ([0-9.]+) FLOP/byte\n").match(r.out);
    QVERIFY2(ridgeMatch.hasMatch(), qPrintable(r.out));
    const double ridge = ridgeMatch.captured(1).toDouble();
    QVERIFY(ridge > 0);
    const QStringList lines = r.out.split('\n');
    const qsizetype header = lines.indexOf(QRegularExpression("^  node +op +ms +MFLOP +KiB moved +FLOP/B .*bound$"));
    QVERIFY2(header > 0, qPrintable(r.out));
    int rows = 0, convolutions = 0, bounded = 0;
    for (qsizetype k = header + 1; k < lines.size() && lines[k].startsWith("  "); ++k) {
        ++rows;
        const QStringList cols = lines[k].split(' ', Qt::SkipEmptyParts); // node op ms MFLOP KiB FLOP/B attainable achieved % bound
        QCOMPARE(cols.size(), 10);
        const QString bound = cols[9];
        const double intensity = cols[5].toDouble();
        if (bound == "compute" || bound == "memory") {
            ++bounded;
            // min(peak, AI x bandwidth); both printed to two decimals, so a node at the ridge may go either way
            if (std::abs(intensity - ridge) > 0.01) QVERIFY2(bound == (intensity > ridge ? "compute" : "memory"), qPrintable(lines[k]));
        }
        if (cols[1] == "aten.convolution.default") {
            ++convolutions;
            // resnet18's convolutions do 10-170 FLOP per byte they move: compute-bound wherever the ridge is lower
            QVERIFY2(intensity >= 10 && intensity <= 170, qPrintable(lines[k]));
            QVERIFY2(bound == "compute" || bound == "memory", qPrintable(lines[k]));
        }
    }
    QCOMPARE(rows, 70);
    QCOMPARE(convolutions, 20);
    QVERIFY(bounded >= convolutions);
}

void TstCliRoofline::jsonAgrees() {
    Run r = cliWithCache({"run", fx("zoo/conv_attention/model.pt2"), "--threads", "1", "--repeat", "3", "--roofline", "--json"}, m_cache.path());
    QCOMPARE(r.code, 0);
    const QJsonObject o = jsonOf(r);
    const QJsonObject roof = o["roofline"].toObject();
    const QJsonObject roofs = roof["roofs"].toObject();
    QCOMPARE(roofs["threads"].toInt(), 1);
    const double peak = roofs["peak_gflops"].toDouble(), bandwidth = roofs["bandwidth_gbs"].toDouble();
    QVERIFY(peak > 0 && bandwidth > 0);
    QCOMPARE(roofs["ridge_flop_per_byte"].toDouble(), peak / bandwidth);
    const QJsonArray nodes = roof["nodes"].toArray();
    QCOMPARE(nodes.size(), o["nodes"].toArray().size()); // a row per node that ran
    double nodeMs = 0, nearMs = 0;
    for (const auto& v : nodes) {
        const QJsonObject n = v.toObject();
        const double ms = n["ms"].toDouble(), flops = n["flops"].toDouble(), bytes = n["bytes_moved"].toDouble();
        nodeMs += ms;
        if (n["bound"] == "view") {
            QVERIFY(flops == 0 && bytes == 0 && n["roof_percent"].isNull());
            continue;
        }
        // the least time the roofs allow over the measured one
        const double roofMs = std::max(flops / peak, bytes / bandwidth) / 1e6;
        QVERIFY(std::abs(n["roof_percent"].toDouble() - 100.0 * roofMs / ms) < 1e-6 * std::max(1.0, n["roof_percent"].toDouble()));
        if (bytes > 0) QCOMPARE(n["bound"].toString(), QString(flops / bytes >= peak / bandwidth ? "compute" : "memory"));
        if (n["roof_percent"].toDouble() >= 70.0) nearMs += ms;
    }
    QVERIFY(std::abs(roof["node_ms"].toDouble() - nodeMs) < 1e-9 * std::max(1.0, nodeMs));
    QVERIFY(std::abs(roof["near_roof_share"].toDouble() - nearMs / nodeMs) < 1e-9);
    QCOMPARE(roof["near_roof_threshold"].toDouble(), 0.7);
}

void TstCliRoofline::roofsCachedOnce() {
    QTemporaryDir home;
    const QStringList args{"run", fx("zoo/mlp/model.pt2"), "--threads", "1", "--roofline", "--json"};
    const QJsonObject first = jsonOf(cliWithCache(args, home.path()))["roofline"].toObject()["roofs"].toObject();
    QCOMPARE(first["from_cache"].toBool(), false);
    QCOMPARE(first["cache_path"].toString(), home.filePath("irlens/roofs.json"));
    QVERIFY(QFile::exists(home.filePath("irlens/roofs.json")));
    const QJsonObject second = jsonOf(cliWithCache(args, home.path()))["roofline"].toObject()["roofs"].toObject();
    QCOMPARE(second["from_cache"].toBool(), true);
    QCOMPARE(second["peak_gflops"].toDouble(), first["peak_gflops"].toDouble());
    QCOMPARE(second["measured_at"].toString(), first["measured_at"].toString());
    Run again = cliWithCache({"run", fx("zoo/mlp/model.pt2"), "--threads", "1", "--measure-roofs"}, home.path());
    QCOMPARE(again.code, 0);
    QVERIFY2(again.out.contains("          measured now in "), qPrintable(again.out)); // --measure-roofs implies --roofline
}

void TstCliRoofline::traceCarriesTheRoof() {
    IRLENS_REQUIRE_SHARED();
    QTemporaryDir dir;
    const QString trace = dir.filePath("t.json");
    Run r = cliWithCache({"run", fx("generated/tiny_gpt/model.pt2"), "--threads", "2", "--repeat", "5", "--trace", trace}, m_cache.path());
    QCOMPARE(r.code, 0);
    QFile f(trace);
    QVERIFY(f.open(QIODevice::ReadOnly));
    int slices = 0, withRoof = 0, counters = 0;
    for (const auto& v : QJsonDocument::fromJson(f.readAll()).object()["traceEvents"].toArray()) {
        const QJsonObject e = v.toObject();
        if (e["ph"] == "X" && !e["args"].toObject().contains("part_of")) { // a node's slice, not a part another worker ran
            ++slices;
            withRoof += e["args"].toObject().contains("roof_percent") ? 1 : 0;
        }
        counters += e["ph"] == "C" && e["name"] == "memory" ? 1 : 0;
    }
    QCOMPARE(slices, 210);
    // every node but the views (tiny_gpt's 140 views, transposes, expands and slices move nothing)
    QVERIFY2(withRoof >= 60 && withRoof < slices, qPrintable(QString::number(withRoof)));
    QVERIFY(counters > 0);
}

QTEST_GUILESS_MAIN(TstCliRoofline)
#include "tst_cli_roofline.moc"
