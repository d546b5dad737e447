// File › Export run: before a run its four actions are disabled and say to run first; after a run,
// each one, chosen through the menu and answered in the file dialog, writes the file `irlens-cli run`
// writes for the same program (--profile, --trace, --memory-csv, --critical-path-csv), compared field
// by field except the times, and the Profile dock's context menu the same; the folder is remembered;
// a file that cannot be written is named.

#include "core/io/pt2_writer.h"
#include "support/cli_runner.h"
#include "support/gui_test_util.h"
#include "support/numeric_programs.h"
#include "views/document.h"
#include "views/main_window.h"
#include "views/run/run_controller.h"
#include "views/run/run_export.h"
#include "views/inspect/table_pane.h"
#include "views/run/run_snapshot.h"
#include "views/settings_writer.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTreeView>
#include <QTest>

#include <array>
#include <utility>

using namespace irlens;
using namespace irlens::views;

namespace {

constexpr int kRepeat = 3;

/// File › Export run, as a user reaches it.
QMenu* exportRunMenu(MainWindow& w) {
    for (QAction* a : w.menuBar()->actions())
        if (a->text().remove('&') == "File")
            for (QAction* f : a->menu()->actions())
                if (f->menu() && f->text().remove('&') == "Export run") return f->menu();
    return nullptr;
}

QAction* menuAction(QMenu* menu, const QString& text) {
    for (QAction* a : menu->actions())
        if (a->text().remove('&') == text) return a;
    return nullptr;
}

QStringList readLines(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
}

/// The CSV's rows with the columns named in `keep` only (by the header's names), one string per row.
QStringList columns(const QStringList& lines, const QStringList& keep) {
    if (lines.isEmpty()) return {"(empty file)"};
    const QStringList header = lines.front().split(',');
    QStringList rows;
    for (const QString& line : lines) {
        // module paths are quoted and hold no comma in these programs, so a plain split is exact
        const QStringList cells = line.split(',');
        QStringList kept;
        for (const QString& name : keep) kept << cells.value(static_cast<int>(header.indexOf(name)), "(missing)");
        rows << kept.join(',');
    }
    return rows;
}

/// What a trace says apart from its times: each slice (name, op, module, worker), the memory counter's
/// values and the number of flows and thread names.
QStringList traceFacts(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {"(unreadable)"};
    QStringList facts;
    int flows = 0, threads = 0;
    for (const auto& e : QJsonDocument::fromJson(f.readAll()).object()["traceEvents"].toArray()) {
        const QJsonObject o = e.toObject();
        const QString ph = o["ph"].toString();
        const QJsonObject args = o["args"].toObject();
        if (ph == "X")
            facts << "slice " + o["name"].toString() + " " + args["op"].toString() + " " + args["module"].toString() + " tid " +
                         QString::number(o["tid"].toInt());
        else if (ph == "C") facts << "live " + QString::number(args["live bytes"].toDouble(), 'f', 0);
        else if (ph == "s" || ph == "f") ++flows;
        else if (o["name"].toString() == "thread_name") ++threads;
    }
    facts.sort();
    facts << QString("flows %1, threads %2").arg(flows).arg(threads);
    return facts;
}

/// The program of a row: the built MLP written next to the outputs, or a fixture of ../shared.
QString programOf(const QString& name, const QTemporaryDir& dir) {
    if (name != "built") return QString::fromStdString(testing::fixture(name.toStdString()).string());
    const QString path = dir.filePath("mlp.pt2");
    return core::savePt2(*testing::makeNumericMlp(), path.toStdString()).isOk() ? path : QString();
}

} // namespace

class TstRunExport : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("irlens-tests");
        QCoreApplication::setApplicationName("tst_run_export");
        QSettings().clear();
    }
    void disabledUntilARun();
    void sameFilesAsTheCli_data();
    void sameFilesAsTheCli();
    void unwritableFileIsNamed();
};

// Before a run there is nothing to export: each action is off and its tips say to run first.
void TstRunExport::disabledUntilARun() {
    MainWindow w;
    QMenu* menu = exportRunMenu(w);
    QVERIFY2(menu, "File › Export run is missing");
    const QStringList items{"Profile (CSV)…", "Trace (Chrome JSON)…", "Memory curve (CSV)…", "Critical path (CSV)…"};
    for (const QString& text : items) {
        QAction* a = menuAction(menu, text);
        QVERIFY2(a, qPrintable(text + " is missing"));
        QVERIFY2(!a->isEnabled(), qPrintable(text));
        QVERIFY2(a->toolTip().contains("Run the program first"), qPrintable(a->toolTip()));
        QVERIFY2(a->statusTip().contains("Run the program first"), qPrintable(a->statusTip()));
    }
    // the docks' context menus offer the same, as disabled
    const QList<QAction*> context = w.findChildren<QAction*>(QRegularExpression("^exportRun.*Context$"));
    QCOMPARE(context.size(), 4);
    for (QAction* a : context) QVERIFY2(!a->isEnabled() && a->toolTip().contains("Run the program first"), qPrintable(a->objectName()));
    // an open program that has not run yet: still nothing to export
    QTemporaryDir dir;
    QCOMPARE(testing::openAndWait(*w.document(), programOf("built", dir).toStdString()), QString());
    for (const QString& text : items) QVERIFY2(!menuAction(menu, text)->isEnabled(), qPrintable(text));
}

void TstRunExport::sameFilesAsTheCli_data() {
    QTest::addColumn<QString>("program");
    QTest::addRow("built mlp") << "built";
    QTest::addRow("resnet18") << "generated/resnet18/model.pt2";
}

// One thread, so the execution order, and with it the memory curve and the trace's worker, is the
// graph's in both front ends.
void TstRunExport::sameFilesAsTheCli() {
    QFETCH(QString, program);
    if (program != "built" && !testing::haveShared()) QSKIP("../shared is absent: the fixture rows need it");
    QTemporaryDir dir;
    const QString file = programOf(program, dir);
    QVERIFY(!file.isEmpty());

    MainWindow w;
    w.resize(1366, 768);
    w.show();
    QCOMPARE(testing::openAndWait(*w.document(), file.toStdString()), QString());
    RunController* rc = w.runController();
    rc->threadsBox()->setValue(1);
    rc->warmupBox()->setValue(1);
    rc->repeatBox()->setValue(kRepeat);
    rc->runAction()->trigger();
    QVERIFY(QTest::qWaitFor([&] { return w.document()->runResult() && !rc->isRunning(); }, 300000));

    QMenu* menu = exportRunMenu(w);
    QVERIFY(menu);
    RunExport* exporter = w.runExport();
    QSignalSpy exported(exporter, &RunExport::exported);
    QSignalSpy failed(exporter, &RunExport::exportFailed);
    const std::array<std::pair<QString, QString>, 4> choices{{{"Profile (CSV)…", "gui-profile.csv"},
                                                               {"Trace (Chrome JSON)…", "gui-trace.json"},
                                                               {"Memory curve (CSV)…", "gui-memory.csv"},
                                                               {"Critical path (CSV)…", "gui-critical-path.csv"}}};
    for (const auto& [text, name] : choices) {
        QAction* a = menuAction(menu, text);
        QVERIFY2(a && a->isEnabled(), qPrintable(text));
        QVERIFY2(a->toolTip().contains("irlens-cli run"), qPrintable(a->toolTip()));
        const qsizetype before = exported.size();
        testing::answerFileDialog(dir.filePath(name));
        a->trigger();
        QVERIFY2(QTest::qWaitFor([&] { return exported.size() > before || !failed.isEmpty(); }, 30000), qPrintable(text));
        QVERIFY2(failed.isEmpty(), qPrintable(failed.isEmpty() ? QString() : failed.front().at(1).toString()));
        QCOMPARE(exported.back().front().toString(), dir.filePath(name));
    }
    // the Profile's context menu writes the same file as File › Export run › Profile
    QAction* fromProfile = nullptr;
    for (QAction* a : rc->profilePane()->view()->actions())
        if (a->text().startsWith("Export the profile")) fromProfile = a;
    QVERIFY(fromProfile && fromProfile->isEnabled());
    testing::answerFileDialog(dir.filePath("context-profile.csv"));
    fromProfile->trigger();
    QVERIFY(QTest::qWaitFor([&] { return exported.size() == 5 || !failed.isEmpty(); }, 30000));
    QVERIFY(failed.isEmpty());
    QCOMPARE(readLines(dir.filePath("context-profile.csv")), readLines(dir.filePath("gui-profile.csv")));
    // the folder written to is offered next time
    waitForSettingWrites();
    QCOMPARE(QSettings().value("export/runFolder").toString(), QFileInfo(dir.path()).absoluteFilePath());

    QStringList args{"run", file, "--threads", "1", "--warmup", "1", "--repeat", QString::number(kRepeat),
                     "--profile", dir.filePath("cli-profile.csv"), "--trace", dir.filePath("cli-trace.json"),
                     "--memory-csv", dir.filePath("cli-memory.csv"), "--critical-path-csv", dir.filePath("cli-critical-path.csv")};
    // the GUI runs on the reference's inputs when a model.expected/ folder sits beside the file
    if (const QString expected = QFileInfo(file).dir().filePath("model.expected"); QFileInfo::exists(expected)) args << "--expect" << expected;
    const testing::CliRun cli = testing::runCli(args, 300000);
    QVERIFY2(cli.code == 0, qPrintable(cli.err));

    const QStringList profileKeys{"node", "op", "module", "bytes", "flops"};
    const QStringList guiProfile = columns(readLines(dir.filePath("gui-profile.csv")), profileKeys);
    QVERIFY2(guiProfile.size() > 4, qPrintable(guiProfile.join('\n')));
    QCOMPARE(guiProfile, columns(readLines(dir.filePath("cli-profile.csv")), profileKeys));

    const QStringList guiTrace = traceFacts(dir.filePath("gui-trace.json"));
    QCOMPARE(guiTrace.filter("slice ").size(), guiProfile.size() - 1); // a slice per node; the profile has a header
    QCOMPARE(guiTrace, traceFacts(dir.filePath("cli-trace.json")));

    // the memory curve holds no time at all: the whole file is the same
    const QStringList guiMemory = readLines(dir.filePath("gui-memory.csv"));
    QCOMPARE(guiMemory.size(), guiProfile.size()); // a row per node that ran
    QCOMPARE(guiMemory, readLines(dir.filePath("cli-memory.csv")));

    const QStringList guiPath = readLines(dir.filePath("gui-critical-path.csv"));
    QCOMPARE(guiPath.value(0), QString("position,node,op,module,self_us,cumulative_us"));
    if (program == "built") {
        // a chain: the path is every node, whatever the times
        const QStringList pathKeys{"position", "node", "op", "module"};
        QCOMPARE(columns(guiPath, pathKeys), columns(readLines(dir.filePath("cli-critical-path.csv")), pathKeys));
        QCOMPARE(columns(guiPath, {"node"}).mid(1), QStringList({"mm", "relu", "add", "mm_1"}));
    } else {
        // branches: which one is longest depends on the times, so each file is checked on its own
        for (const QString& name : {QString("gui-critical-path.csv"), QString("cli-critical-path.csv")}) {
            const QStringList rows = readLines(dir.filePath(name));
            QVERIFY2(rows.size() > 10, qPrintable(name));
            double sum = 0;
            for (const QString& row : rows.mid(1)) sum += row.section(',', -2, -2).toDouble();
            QVERIFY2(qAbs(sum - rows.back().section(',', -1).toDouble()) < 0.01 * rows.size(), qPrintable(name));
        }
    }
}

// A file that cannot be written: nothing is written, the dialog and the signal name the file and why.
void TstRunExport::unwritableFileIsNamed() {
    QTemporaryDir dir;
    MainWindow w;
    w.show();
    QCOMPARE(testing::openAndWait(*w.document(), programOf("built", dir).toStdString()), QString());
    w.runController()->repeatBox()->setValue(1);
    w.runController()->runAction()->trigger();
    QVERIFY(QTest::qWaitFor([&] { return w.document()->runResult() != nullptr; }, 60000));
    QSignalSpy failed(w.runExport(), &RunExport::exportFailed);
    const QString path = dir.filePath("no-such-folder/profile.csv");
    w.runExport()->write(RunFile::Profile, path);
    QVERIFY(QTest::qWaitFor([&] { return !failed.isEmpty(); }, 30000));
    QCOMPARE(failed.front().front().toString(), path);
    QVERIFY2(failed.front().at(1).toString().contains(path), qPrintable(failed.front().at(1).toString()));
    auto* box = w.findChild<QMessageBox*>("exportRunError");
    QVERIFY2(box && box->isVisible(), "no error dialog");
    QVERIFY2(box->text().contains(path), qPrintable(box->text()));
    box->close();
    QVERIFY(!QFileInfo::exists(path));
}

QTEST_MAIN(TstRunExport)
#include "tst_run_export.moc"
