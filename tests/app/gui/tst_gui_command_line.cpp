// irlens's command line where there is no display (a terminal over ssh, a build, a package check):
// --help, --version and --man answer and exit 0 with DISPLAY, WAYLAND_DISPLAY and QT_QPA_PLATFORM
// unset; the man page the build installs is what --man prints, renders without a warning and names
// every option --help lists.
#include "support/cli_runner.h"

#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTest>

namespace {

using Run = irlens::testing::CliRun;

QString guiPath() { return QString(IRLENS_BINARY_DIR) + "/app/irlens"; }
QString manPagePath() { return QString(IRLENS_BINARY_DIR) + "/share/man/man1/irlens.1.gz"; }

Run run(const QString& program, const QStringList& args, const QProcessEnvironment& env) {
    return irlens::testing::runProgram(program, args, env, 60000);
}

QProcessEnvironment headless() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"}) env.remove(name);
    return env;
}

/// The long options `irlens --help` lists ("--select", ...).
QStringList helpOptions() {
    QStringList options;
    auto it = QRegularExpression("^  (?:-\\w, )?(--[a-z][-a-z]*)", QRegularExpression::MultilineOption)
                  .globalMatch(run(guiPath(), {"--help"}, headless()).out);
    while (it.hasNext()) options << it.next().captured(1);
    return options;
}

} // namespace

class TstGuiCommandLine : public QObject {
    Q_OBJECT
private slots:
    void helpAndVersionWithoutDisplay() {
        const Run version = run(guiPath(), {"--version"}, headless());
        QCOMPARE(version.code, 0);
        QCOMPARE(version.out, QString("irlens %1\n").arg(IRLENS_VERSION));
        for (const char* flag : {"--help", "-h"}) {
            const Run help = run(guiPath(), {flag}, headless());
            QCOMPARE(help.code, 0);
            QVERIFY2(help.out.contains("Inspect torch.export programs (.pt2)") && help.out.contains("--select <NAME>"), qPrintable(help.out));
        }
    }

    void manPageNamesEveryOption() {
        const QStringList options = helpOptions();
        QVERIFY2(options.contains("--select") && options.contains("--dock") && options.contains("--man"), qPrintable(options.join(' ')));
        const Run man = run(guiPath(), {"--man"}, headless());
        QCOMPARE(man.code, 0);
        QVERIFY(man.out.startsWith(".TH IRLENS 1 "));
        QProcess gunzip;
        gunzip.start("gzip", {"-dc", manPagePath()});
        QVERIFY(gunzip.waitForFinished(30000));
        QCOMPARE(QString::fromUtf8(gunzip.readAllStandardOutput()), man.out); // the installed page is this one

        const QString manProgram = QStandardPaths::findExecutable("man");
        if (manProgram.isEmpty()) QSKIP("man (man-db) is not installed");
        QProcessEnvironment env = headless();
        env.insert("MANWIDTH", "200");
        env.insert("LC_ALL", "C.UTF-8");
        const Run rendered = run(manProgram, {"--warnings", "-E", "UTF-8", "-l", manPagePath()}, env);
        QCOMPARE(rendered.code, 0);
        QCOMPARE(rendered.err, QString());
        for (const QString& o : options)
            QVERIFY2(rendered.out.contains(QRegularExpression("\\n +(-\\w, )?" + QRegularExpression::escape(o) + "\\b")), qPrintable(o));
    }
};

QTEST_GUILESS_MAIN(TstGuiCommandLine)
#include "tst_gui_command_line.moc"
