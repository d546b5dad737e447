// irlens-cli run's numeric mode as scripts use it: --dump, --reference [--tolerance] and
// --check-finite on programs the tests build and save; exit 0 when every value agrees, 1 at the
// first divergence or NaN made, 2 with one line for unusable inputs, references and flags.
#include "core/io/pt2_writer.h"
#include "core/io/tensor_file.h"
#include "support/cli_runner.h"
#include "support/numeric_programs.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>

using namespace irlens::core;
using irlens::testing::CliRun;
using irlens::testing::runCli;

namespace {

QString dataFile(const char* name) { return QString(IRLENS_SOURCE_DIR) + "/tests/core/io/tensor_files/" + name; }

} // namespace

class TstCliNumerics : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void dumpThenReferenceAgrees();
    void scaledValueIsTheFirstDivergence();
    void checkFiniteNamesTheProducer();
    void unusableInputIsOneLine_data();
    void unusableInputIsOneLine();

private:
    QTemporaryDir m_dir;
    QString m_mlp, m_nan;
};

void TstCliNumerics::initTestCase() {
    m_mlp = m_dir.path() + "/mlp.pt2";
    m_nan = m_dir.path() + "/nan.pt2";
    QVERIFY(savePt2(*irlens::testing::makeNumericMlp(), m_mlp.toStdString()));
    QVERIFY(savePt2(*irlens::testing::makeNanInTheMiddle(), m_nan.toStdString()));
}

void TstCliNumerics::dumpThenReferenceAgrees() {
    const QString dump = m_dir.path() + "/values.safetensors";
    const CliRun d = runCli({"run", m_mlp, "--inputs", dataFile("x.pt"), "--dump", dump});
    QVERIFY2(d.code == 0, qPrintable(d.out + d.err));
    QVERIFY2(d.out.contains("dump      " + dump + ": 4 values"), qPrintable(d.out));
    QVERIFY2(d.out.contains("inputs    " + dataFile("x.pt") + " (by position)"), qPrintable(d.out));
    // the same values from another format, compared with the dump
    const CliRun r = runCli({"run", m_mlp, "--inputs", dataFile("x_named.npz"), "--reference", dump, "--check-finite"});
    QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
    QVERIFY2(r.out.contains("reference " + dump + ": 4 agree, 0 differ, 0 shape, 0 dtype; 0 not in the reference, 0 only in the reference"),
             qPrintable(r.out));
    QVERIFY2(r.out.contains("finite    no node makes a NaN"), qPrintable(r.out));
    QVERIFY2(r.out.contains("verdict   all 4 compared values agree with the reference (normwise relative error <= 0.0001)"), qPrintable(r.out));
}

void TstCliNumerics::scaledValueIsTheFirstDivergence() {
    const QString dump = m_dir.path() + "/base.safetensors", scaled = m_dir.path() + "/scaled.safetensors";
    QCOMPARE(runCli({"run", m_mlp, "--inputs", dataFile("x.npy"), "--dump", dump}).code, 0);
    auto values = readTensorFile(dump.toStdString());
    QVERIFY(values);
    std::vector<std::pair<std::string, TensorData>> entries;
    for (const auto& e : values->entries) {
        std::vector<std::byte> bytes = e.value.tensor.contiguousBytes();
        if (e.name == "add")
            for (size_t k = 0; k < bytes.size(); k += 4) {
                float f;
                std::memcpy(&f, bytes.data() + k, 4);
                f *= 1.02f;
                std::memcpy(bytes.data() + k, &f, 4);
            }
        TensorData t = e.value.tensor;
        t.storage = Storage::fromBytes(std::move(bytes));
        t.storageOffset = 0;
        entries.emplace_back(e.name, t);
    }
    QVERIFY(writeSafetensors(scaled.toStdString(), entries));
    const CliRun text = runCli({"run", m_mlp, "--inputs", dataFile("x.npy"), "--reference", scaled});
    QCOMPARE(text.code, 1);
    QVERIFY2(text.out.contains("first     add (aten.add.Tensor) models.py:12 `y = self.step(x)`\n"), qPrintable(text.out));
    QVERIFY2(text.out.contains("agreeing  mm -> relu -> add\n"), qPrintable(text.out));
    QVERIFY2(text.out.contains("verdict   first divergence at add: "), qPrintable(text.out));
    // a tolerance above 2 % lets it pass
    QCOMPARE(runCli({"run", m_mlp, "--inputs", dataFile("x.npy"), "--reference", scaled, "--tolerance", "0.05"}).code, 0);

    const CliRun json = runCli({"run", m_mlp, "--inputs", dataFile("x.npy"), "--reference", scaled, "--json"});
    QCOMPARE(json.code, 1);
    const QJsonObject j = QJsonDocument::fromJson(json.out.toUtf8()).object();
    QCOMPARE(j["values"].toArray().size(), 4);
    const QJsonObject first = j["first_divergence"].toObject();
    QCOMPARE(first["name"].toString(), QString("add"));
    QCOMPARE(first["check"].toString(), QString("differ"));
    QVERIFY(std::fabs(first["error"].toObject()["norm_rel"].toDouble() - 0.02 / 1.02) < 1e-4);
    QCOMPARE(first["agreeing_chain"].toArray(), (QJsonArray{"mm", "relu"}));
    QCOMPARE(j["reference"].toObject()["differ"].toInt(), 1);
    // every value carries the five measures
    for (const auto& v : j["values"].toArray())
        for (const char* key : {"max_abs", "max_rel", "norm_rel", "cosine", "sqnr_db"}) QVERIFY(v.toObject()["error"].toObject().contains(key));
}

void TstCliNumerics::checkFiniteNamesTheProducer() {
    const CliRun r = runCli({"run", m_nan, "--check-finite"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.out.contains("finite    first NaN/Inf made by div (aten.div.Tensor) models.py:22 `y = self.step(x)`\n"), qPrintable(r.out));
    QVERIFY2(r.out.contains("          value div f32[2, 8]: 16 NaN, 0 +inf, 0 -inf of 16; first at [0, 0]\n"), qPrintable(r.out));
    QVERIFY2(r.out.contains("          2 later values only carry it on; 0 more nodes make their own\n"), qPrintable(r.out));
    const CliRun json = runCli({"run", m_nan, "--check-finite", "--json"});
    const QJsonObject f = QJsonDocument::fromJson(json.out.toUtf8()).object()["finite"].toObject();
    QCOMPARE(f["first_producer"].toObject()["name"].toString(), QString("div"));
    QCOMPARE(f["carriers"].toInt(), 2);
    // the same program without --check-finite still runs (exit 0: nothing was asked about NaN), and
    // its output line counts the NaN instead of printing min -nan max -nan
    QCOMPARE(runCli({"run", m_nan, "--dump", m_dir.path() + "/nan.safetensors"}).code, 0);
    const CliRun timed = runCli({"run", m_nan});
    QCOMPARE(timed.code, 0);
    QVERIFY2(timed.out.contains(QRegularExpression("output +relu +USER_OUTPUT +f32\\[2, 8\\]  16 NaN of 16\n")), qPrintable(timed.out));
}

void TstCliNumerics::unusableInputIsOneLine_data() {
    QTest::addColumn<QStringList>("args");  // after "run FILE"
    QTest::addColumn<QString>("message");   // the whole of stderr; {dir} is the tensor files' folder
    QTest::addRow("two values for one input") << QStringList{"--inputs", dataFile("x.npy"), dataFile("ids.npy"), "--check-finite"}
                                              << "2 values in {dir}/x.npy, {dir}/ids.npy, the program takes 1 user input (x)";
    QTest::addRow("wrong dtype") << QStringList{"--inputs", dataFile("ids.npy"), "--check-finite"}
                                 << "input 'x': given i64[5], the program expects f32[1, 16]";
    QTest::addRow("reference by position") << QStringList{"--reference", dataFile("x.npy")}
                                           << "{dir}/x.npy: reference values must be keyed by node name (a dict .pt, safetensors, named .npz or "
                                              "a folder of NAME.npy); this npy file holds values by position";
    QTest::addRow("unreadable reference") << QStringList{"--reference", dataFile("make_tensor_files.py")}
                                          << "{dir}/make_tensor_files.py: not a tensor file (expected torch.save .pt, .npy, .npz or "
                                             ".safetensors; a torch.save written with _use_new_zipfile_serialization=False is not read)";
    QTest::addRow("tolerance alone") << QStringList{"--tolerance", "0.1"} << "--tolerance applies to --reference";
    QTest::addRow("bad tolerance") << QStringList{"--reference", dataFile("x.safetensors"), "--tolerance", "1e-x"}
                                   << "--tolerance needs a number >= 0 (the normwise relative error allowed), not '1e-x'";
    QTest::addRow("timed flag") << QStringList{"--check-finite", "--repeat", "3"}
                                << "--repeat does not combine with --dump, --reference or --check-finite (they run every node once, in "
                                   "order, on one thread)";
}

void TstCliNumerics::unusableInputIsOneLine() {
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const CliRun r = runCli(QStringList{"run", m_mlp} + args);
    QCOMPARE(r.code, 2);
    QCOMPARE(r.err, "irlens-cli: " + QString(message).replace("{dir}", QString(IRLENS_SOURCE_DIR) + "/tests/core/io/tensor_files") + "\n");
    QVERIFY(r.out.isEmpty());
}

QTEST_GUILESS_MAIN(TstCliNumerics)
#include "tst_cli_numerics.moc"
