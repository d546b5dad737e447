// The CLI's `run` and the GUI's Run reach the same verdict against the reference (model.expected/):
// the same values compared (user outputs by position, mutated buffers by name, every case), the same
// pass or fail each, on every shared program; and both flag a deliberately wrong output or buffer.

#include "support/zoo_files.h"
#include "support/gui_test_util.h"
#include "views/document.h"
#include "views/main_window.h"
#include "views/run/run_controller.h"
#include "views/run/run_snapshot.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QSignalSpy>
#include <QTest>

#include <cstring>
#include <filesystem>

using namespace irlens;
using namespace irlens::views;

namespace {

// One front end's verdict: exit-code-like pass/fail, and "case what: ok|MISMATCH" per compared value.
struct Verdict {
    bool compared = false;
    bool ok = true;
    QStringList checks;
    QString text;
    QString error;
};

QString expectedDirOf(const QString& file) {
    const QString dir = QFileInfo(file).dir().filePath("model.expected");
    return QFileInfo::exists(dir + "/manifest.json") ? dir : QString();
}

// `irlens-cli run FILE [--expect DIR] --json`, with the folder the GUI would find next to the file.
Verdict cliVerdict(const QString& file) {
    Verdict v;
    QStringList args{"run", file, "--threads", "2", "--json"};
    if (const QString dir = expectedDirOf(file); !dir.isEmpty()) args << "--expect" << dir;
    QProcess p;
    p.start(IRLENS_CLI, args);
    if (!p.waitForFinished(300000)) {
        p.kill();
        v.error = "irlens-cli timed out";
        return v;
    }
    if (p.exitStatus() != QProcess::NormalExit || (p.exitCode() != 0 && p.exitCode() != 1)) {
        v.error = "irlens-cli failed: " + QString::fromUtf8(p.readAllStandardError());
        return v;
    }
    const QJsonObject expect = QJsonDocument::fromJson(p.readAllStandardOutput()).object()["expect"].toObject();
    v.compared = !expect.isEmpty();
    v.ok = p.exitCode() == 0;
    v.text = expect["verdict"].toString();
    for (const auto& c : expect["checks"].toArray()) {
        const QJsonObject o = c.toObject();
        v.checks << o["case"].toString() + " " + o["output"].toString() + ": " + (o["ok"].toBool() ? "ok" : "MISMATCH");
    }
    return v;
}

// Opens the file in a main window and presses Run.
Verdict guiVerdict(const QString& file) {
    Verdict v;
    MainWindow w;
    v.error = testing::openAndWait(*w.document(), file.toStdString());
    if (!v.error.isEmpty()) return v;
    auto* rc = w.findChild<RunController*>();
    rc->threadsBox()->setValue(std::min(2, rc->threadsBox()->maximum()));
    QSignalSpy failed(rc, &RunController::runFailed);
    rc->runAction()->trigger();
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 300000 && !w.document()->runResult() && failed.isEmpty()) QTest::qWait(10);
    if (!failed.isEmpty()) v.error = "the GUI's run failed: " + failed.front().front().toString();
    RunSnapshotPtr run = w.document()->runResult();
    if (!run) {
        if (v.error.isEmpty()) v.error = "the GUI's run timed out";
        return v;
    }
    v.compared = run->compared;
    v.ok = run->matches;
    v.text = run->verdict;
    for (const auto& c : run->checks)
        v.checks << QString::fromStdString(c.caseName + " " + c.what) + ": " + (c.ok ? "ok" : "MISMATCH");
    // the Outputs pane shows the main case's result on the rows of the compared values
    for (const auto& c : run->checks)
        if (c.output >= 0 && run->outputs[static_cast<size_t>(c.output)].check.isEmpty()) v.error = "no check text on output row";
    return v;
}

// Every program of ../shared: each generated folder's archives and the real files (the zoo's come apart).
QStringList sharedPrograms() {
    QStringList out;
    const auto root = testing::fixture("generated");
    for (const auto& dir : std::filesystem::directory_iterator(root))
        for (const char* f : {"model.pt2", "model.training.pt2", "model.legacy.pt2"})
            if (std::filesystem::exists(dir.path() / f)) out << QString::fromStdString((dir.path() / f).string());
    for (const auto& e : std::filesystem::recursive_directory_iterator(testing::fixture("real")))
        if (e.path().extension() == ".pt2" || e.path().extension() == ".ep") out << QString::fromStdString(e.path().string());
    out.sort();
    return out;
}

// Overwrites the first bytes of a reference file with `value`'s.
template <class T>
bool corrupt(const QString& path, T value) {
    QFile f(path);
    if (!f.open(QIODevice::ReadWrite)) return false;
    QByteArray bytes = f.readAll();
    if (bytes.size() < static_cast<qsizetype>(sizeof value)) return false;
    std::memcpy(bytes.data(), &value, sizeof value);
    f.seek(0);
    return f.write(bytes) == bytes.size();
}

} // namespace

class TstRunVerdict : public QObject {
    Q_OBJECT
private slots:
    void sameVerdictOnEveryProgram_data() {
        QTest::addColumn<QString>("file");
        for (const auto& rel : testing::zooProgramFiles())
            QTest::addRow("%s", rel.c_str()) << QString::fromStdString(testing::fixture(rel).string());
        if (!testing::haveShared()) return;
        const QString base = QString::fromStdString(testing::fixture("").string());
        for (const QString& f : sharedPrograms()) QTest::addRow("%s", qPrintable(QString(f).remove(base))) << f;
    }
    void sameVerdictOnEveryProgram() {
        QFETCH(QString, file);
        if (!file.startsWith(QString::fromStdString(testing::zooDir().string()))) IRLENS_REQUIRE_SHARED();
        const Verdict cli = cliVerdict(file);
        QVERIFY2(cli.error.isEmpty(), qPrintable(cli.error));
        const Verdict gui = guiVerdict(file);
        QVERIFY2(gui.error.isEmpty(), qPrintable(gui.error));
        QCOMPARE(gui.compared, cli.compared);
        QCOMPARE(gui.compared, !expectedDirOf(file).isEmpty());
        QCOMPARE(gui.checks, cli.checks);
        QCOMPARE(gui.ok, cli.ok);
        QCOMPARE(gui.text, cli.text);
        // PyTorch's numbers are met on every program that ships them
        QVERIFY2(cli.ok, qPrintable(cli.checks.join("; ")));
    }

    // A wrong reference output, or a wrong reference buffer alone, is flagged by both front ends.
    void wrongReferenceFlaggedByBoth_data() {
        QTest::addColumn<QString>("file");     // the reference file to corrupt
        QTest::addColumn<QStringList>("bad");  // the checks that must fail
        QTest::addRow("output") << "output_0.bin" << QStringList{"main mul_1: MISMATCH"};
        QTest::addRow("float buffer") << "buffer_1.bin" << QStringList{"main buffer average: MISMATCH"};
        QTest::addRow("int64 buffer") << "buffer_0.bin" << QStringList{"main buffer steps: MISMATCH"};
    }
    void wrongReferenceFlaggedByBoth() {
        QFETCH(QString, file);
        QFETCH(QStringList, bad);
        QTemporaryDir dir;
        testing::zooDir();
        const QString src = QString::fromStdString(testing::fixture("zoo/buffer_mutation").string());
        QVERIFY(QFile::link(src + "/model.pt2", dir.filePath("model.pt2"))); // the program itself is not copied
        QVERIFY(QDir(dir.path()).mkdir("model.expected"));
        for (const QString& name : QDir(src + "/model.expected").entryList(QDir::Files))
            QVERIFY(QFile::copy(src + "/model.expected/" + name, dir.filePath("model.expected/" + name)));
        const QString target = dir.filePath("model.expected/" + file);
        QFile::setPermissions(target, QFile::ReadOwner | QFile::WriteOwner);
        QVERIFY(file == "buffer_0.bin" ? corrupt<int64_t>(target, 41) : corrupt<float>(target, 123.0f));

        const Verdict cli = cliVerdict(dir.filePath("model.pt2"));
        QVERIFY2(cli.error.isEmpty(), qPrintable(cli.error));
        const Verdict gui = guiVerdict(dir.filePath("model.pt2"));
        QVERIFY2(gui.error.isEmpty(), qPrintable(gui.error));
        QVERIFY(!cli.ok);
        QVERIFY(!gui.ok);
        QCOMPARE(gui.checks, cli.checks);
        QCOMPARE(gui.checks.size(), 3); // the output and both buffers
        for (const QString& c : gui.checks) QCOMPARE(c.endsWith("MISMATCH"), bad.contains(c));
        QVERIFY2(gui.text.startsWith("1 of 3 values differ"), qPrintable(gui.text));
    }
};

QTEST_MAIN(TstRunVerdict)
#include "tst_run_verdict.moc"
