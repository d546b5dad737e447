// irlens-cli convert: legacy and archive fixtures convert to an equal program, warnings go to stderr,
// torch_version holds only a version the source recorded, bad usage and unreadable input exit with
// 2 and a one-line message.
#include "core/io/json_codec.h"
#include "core/io/pt2_reader.h"
#include "core/io/zip_archive.h"
#include "support/cli_runner.h"
#include "support/shared_fixtures.h"

#include <QTest>

#include <nlohmann/json.hpp>

using namespace irlens::core;
namespace fs = std::filesystem;

namespace {

using Run = irlens::testing::CliRun;

Run cli(const QStringList& args) { return irlens::testing::runCli(args); }

} // namespace

class TstCliConvert : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        m_dir = fs::temp_directory_path() / ("irlens_cli_convert_" + std::to_string(QCoreApplication::applicationPid()));
        fs::create_directories(m_dir);
    }
    void cleanupTestCase() {
        std::error_code ec;
        fs::remove_all(m_dir, ec);
    }
    void converts_data();
    void converts();
    void usageErrors_data();
    void usageErrors();

private:
    fs::path m_dir;
};

void TstCliConvert::converts_data() {
    QTest::addColumn<QString>("rel");
    QTest::addColumn<QString>("summary");
    QTest::addColumn<QString>("warning");
    QTest::addColumn<QString>("torchVersion"); // the written torch_version; "" when it must be absent
    QTest::addColumn<QString>("estimate");     // the written estimate in irlens's metadata; "" when absent
    // a torch 2.2 file: no torch_version to keep, so the era estimate goes to the metadata only
    QTest::addRow("hades schema 2") << "real/hades-pid-dann-legacy-schema2/exported_program.pt2"
                                    << "legacy zip, schema 2 -> %1: PT2 archive, schema 8.12, 34 nodes, 30 weights, 0 constants"
                                    << "schema version 2: this reader follows schema 8.x; the program was decoded leniently"
                                    << "" << "<=2.4";
    QTest::addRow("tiny_mlp legacy 7.4") << "generated/tiny_mlp/model.legacy.pt2"
                                         << "legacy zip, schema 7.4 -> %1: PT2 archive, schema 8.12, 8 nodes, 6 weights, 0 constants, sample inputs"
                                         << "schema version 7.4: this reader follows schema 8.x; the program was decoded leniently"
                                         << "1.13.0a0+pt2gen" << "";
    QTest::addRow("executorch 8.12") << "real/executorch-linear-pt2archive/linear.pt2"
                                     << "PT2 archive, schema 8.12 -> %1: PT2 archive, schema 8.12, 1 nodes, 2 weights, 0 constants, sample inputs"
                                     << "" << "2.9.0a0+fb" << "";
}

void TstCliConvert::converts() {
    IRLENS_REQUIRE_SHARED();
    QFETCH(QString, rel);
    QFETCH(QString, summary);
    QFETCH(QString, warning);
    QFETCH(QString, torchVersion);
    QFETCH(QString, estimate);
    const std::string in = irlens::testing::fixture(rel.toStdString()).string();
    const std::string out = (m_dir / "converted.pt2").string();
    Run r = cli({"convert", QString::fromStdString(in), "-o", QString::fromStdString(out)});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out.trimmed(), QString::fromStdString(in) + ": " + summary.arg(QString::fromStdString(out)));
    if (warning.isEmpty()) QCOMPARE(r.err, QString());
    else QCOMPARE(r.err.trimmed(), "irlens-cli: warning: " + QString::fromStdString(in) + ": " + warning);

    auto a = loadPt2(in);
    auto b = loadPt2(out);
    QVERIFY2(a.isOk(), a.error().c_str());
    QVERIFY2(b.isOk(), b.error().c_str());
    Program expected = **a;
    for (auto& s : expected.signature.inputSpecs)
        if (s.kind == InputKind::Buffer && !s.persistent) s.persistent = true;
    QCOMPARE(QString::fromStdString(compareProgramsDetail(expected, **b)), QString());
    QCOMPARE((*b)->container, ContainerKind::Pt2Archive);

    // the program JSON as written: torch_version only when the source recorded one
    auto zip = ZipArchive::openFile(out);
    QVERIFY2(zip.isOk(), zip.error().c_str());
    std::string modelRecord;
    for (const auto& name : (*zip)->names())
        if (name.find("/models/") != std::string::npos && name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0) modelRecord = name;
    QVERIFY(!modelRecord.empty());
    auto text = (*zip)->readText(modelRecord, uint64_t(1) << 30);
    QVERIFY2(text.isOk(), text.error().c_str());
    const nlohmann::json written = nlohmann::json::parse(*text);
    QCOMPARE(QString::fromStdString(written.value("torch_version", std::string())), torchVersion);
    QCOMPARE(written.contains("torch_version"), !torchVersion.isEmpty());
    const nlohmann::json& metadata = written.at("graph_module").at("metadata");
    QCOMPARE(QString::fromStdString(metadata.value(kTorchEstimateMetadataKey, std::string())), estimate);
    QCOMPARE(QString::fromStdString((*b)->torchVersionOrEstimate()), torchVersion.isEmpty() ? estimate : torchVersion);
}

void TstCliConvert::usageErrors_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::addRow("no output") << QStringList{"convert", "in.pt2"} << "irlens-cli: usage: irlens-cli convert FILE -o OUT.pt2 [--model NAME]";
    QTest::addRow("no input") << QStringList{"convert", "-o", "x.pt2"} << "irlens-cli: usage: irlens-cli convert FILE -o OUT.pt2 [--model NAME]";
    QTest::addRow("-o without value") << QStringList{"convert", "in.pt2", "-o"} << "irlens-cli: -o needs a file name";
}

void TstCliConvert::usageErrors() {
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    Run r = cli(args);
    QCOMPARE(r.code, 2);
    QCOMPARE(r.err.trimmed(), message);
    QCOMPARE(r.out, QString());
    // Unreadable input: exit 2 and a single line naming the file; nothing is written.
    const std::string missing = (m_dir / "missing.pt2").string();
    const std::string out = (m_dir / "never.pt2").string();
    Run m = cli({"convert", QString::fromStdString(missing), "-o", QString::fromStdString(out)});
    QCOMPARE(m.code, 2);
    QVERIFY(m.err.startsWith("irlens-cli: "));
    QVERIFY(m.err.contains(QString::fromStdString(missing)));
    QCOMPARE(m.err.count('\n'), 1);
    QVERIFY(!fs::exists(out));
}

QTEST_GUILESS_MAIN(TstCliConvert)
#include "tst_cli_convert.moc"
