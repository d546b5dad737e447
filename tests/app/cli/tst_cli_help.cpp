// irlens-cli's manners: every command answers --help (and -h, and `help COMMAND`) with its forms, its
// arguments, a line for each flag and its exit codes; the flags the help lists are the flags the
// parser takes, and every command runs its real usage on a program written here without reading a
// flag its description lacks (that would exit 70).
#include "support/cli_help.h"

#include "core/io/pt2_writer.h"
#include "core/ir/example_program.h"

#include <QMap>
#include <QTemporaryDir>
#include <QTest>

namespace {

using irlens::testing::CliRun;
using irlens::testing::runCli;
using irlens::testing::CliHelpFlag;
using irlens::testing::cliCommands;
using irlens::testing::cliHelpFlags;

/// The flags the usage lines at the top name ("[--threads N]", "-o OUT.pt2", "--to core|prims").
QSet<QString> usageFlags(const QString& help) {
    QSet<QString> flags;
    for (const QString& line : help.section("\n\n", 0, 0).split('\n')) {
        auto it = QRegularExpression("(?:^|[ \\[|])(--?[a-z][-a-z]*)").globalMatch(line);
        while (it.hasNext()) flags << it.next().captured(1);
    }
    return flags;
}

void addCommandRows() {
    QTest::addColumn<QString>("command");
    for (const QString& c : cliCommands()) QTest::newRow(qPrintable(c)) << c;
}

} // namespace

class TstCliHelp : public QObject {
    Q_OBJECT
private slots:
    void programHelp() {
        for (const QStringList& args : {QStringList{"--help"}, QStringList{"-h"}, QStringList{"help"}}) {
            CliRun r = runCli(args);
            QCOMPARE(r.code, 0);
            QVERIFY(r.out.startsWith("irlens-cli — "));
            QCOMPARE(r.err, QString());
        }
        QVERIFY2(cliCommands().size() >= 11, qPrintable(cliCommands().join(' ')));
        CliRun none = runCli({"help", "frobnicate"});
        QCOMPARE(none.code, 2);
        QCOMPARE(none.err.count('\n'), 1);
    }

    void commandHelp_data() { addCommandRows(); }
    void commandHelp() {
        QFETCH(QString, command);
        CliRun help = runCli({command, "--help"});
        QCOMPARE(help.code, 0);
        QCOMPARE(help.err, QString());
        QVERIFY2(help.out.startsWith("usage: irlens-cli " + command), qPrintable(help.out));
        QCOMPARE(runCli({command, "-h"}).out, help.out);
        QCOMPARE(runCli({"help", command}).out, help.out);
        // help wins over the rest of the line, as a user asking for it wants
        QCOMPARE(runCli({command, "--no-such-flag", "--help"}).code, 0);
        const QList<CliHelpFlag> flags = cliHelpFlags(help.out);
        QSet<QString> listed;
        for (const auto& f : flags) {
            QVERIFY2(!f.help.trimmed().isEmpty(), qPrintable(command + " " + f.name));
            listed << f.name;
        }
        QVERIFY2(listed.contains("--help"), qPrintable(help.out));
        for (const QString& f : usageFlags(help.out)) QVERIFY2(listed.contains(f), qPrintable(command + " usage names " + f));
        const QStringList lines = help.out.split('\n');
        const qsizetype exits = lines.indexOf("exit codes:");
        QVERIFY2(exits > 0, qPrintable(help.out));
        QVERIFY(lines.value(exits + 1).startsWith("  0  "));
        QVERIFY(help.out.contains("\n  2  "));
    }

    // Every flag the help lists is one the parser takes: never "unknown flag", never a bug (70). The
    // extra operands make every command stop at its usage check or its input, before any real work.
    void listedFlagsParse_data() { addCommandRows(); }
    void listedFlagsParse() {
        QFETCH(QString, command);
        for (const CliHelpFlag& f : cliHelpFlags(runCli({command, "--help"}).out)) {
            if (f.name == "--help") continue;
            QStringList args{command, f.name};
            if (!f.value.isEmpty()) args << "1";
            args << "no-such-input-a.pt2" << "no-such-input-b.pt2" << "no-such-input-c.pt2";
            CliRun r = runCli(args);
            QVERIFY2(r.code == 0 || r.code == 1 || r.code == 2, qPrintable(args.join(' ') + ": " + r.err));
            QVERIFY2(!r.err.contains("unknown flag") && !r.err.contains("internal error"), qPrintable(args.join(' ') + ": " + r.err));
        }
    }

    void unknownFlagRefused_data() { addCommandRows(); }
    void unknownFlagRefused() {
        QFETCH(QString, command);
        CliRun r = runCli({command, "--no-such-flag", "x.pt2"});
        QCOMPARE(r.code, 2);
        QCOMPARE(r.err, QString("irlens-cli: unknown flag '--no-such-flag' for %1 (see irlens-cli %1 --help)\n").arg(command));
        QCOMPARE(runCli({command, "--no-such-flag=1"}).code, 2);
        QCOMPARE(runCli({command, "-x"}).err, QString("irlens-cli: unknown flag '-x' for %1 (see irlens-cli %1 --help)\n").arg(command));
    }

    // One real command line per command on the example program written here, with the flags that
    // change what the command reads: each must do its job (exit 0). A command without a row fails, so a
    // new command brings its own.
    void realUsage() {
        QTemporaryDir dir;
        const QString program = dir.filePath("example.pt2");
        QVERIFY(irlens::core::savePt2(*irlens::core::makeExampleProgram(), program.toStdString()));
        const QString out = dir.path() + "/";
        const QMap<QString, QStringList> usage{
            {"convert", {program, "-o", out + "converted.pt2"}},
            {"decompose", {program, "--to", "prims", "--check", "--tolerance", "1e-4", "-o", out + "prims.pt2"}},
            {"diff", {program, program, "--numeric", "--json"}},
            {"dot", {program, "-o", out + "graph.dot", "--no-weights"}},
            {"info", {program}},
            {"ops", {}},
            {"print", {program, "--code"}},
            {"records", {program, "--check"}},
            {"render", {program, "-o", out + "graph.svg", "--collapse", "none"}},
            {"report", {program, "-o", out + "report.html", "--run", "--repeat", "2", "--threads", "1", "--compare", program}},
            {"run", {program, "--repeat", "2", "--warmup", "1", "--threads", "2", "--memory", "--what-if", "convolution=0.5", "--by-line",
                     "--top", "3", "--trace", out + "trace.json", "--profile", out + "profile.csv", "--seed", "1", "--json"}},
            {"verify", {program, "--meta", "--core-aten", "--json"}},
        };
        for (const QString& command : cliCommands()) {
            QVERIFY2(usage.contains(command), qPrintable("no real usage for " + command));
            CliRun r = runCli(QStringList{command} + usage[command]);
            QVERIFY2(r.code == 0, qPrintable(command + " exited " + QString::number(r.code) + ": " + r.err));
        }
        QCOMPARE(runCli({"diff", program, out + "converted.pt2"}).code, 0);
        QVERIFY(QFileInfo(out + "trace.json").size() > 0 && QFileInfo(out + "graph.svg").size() > 0 && QFileInfo(out + "report.html").size() > 0);
    }
};

QTEST_GUILESS_MAIN(TstCliHelp)
#include "tst_cli_help.moc"
