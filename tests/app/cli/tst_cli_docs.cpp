// What the build writes from irlens-cli's descriptions and `cmake --install` installs: the bash
// completion (sourced into bash, driven through COMP_WORDS / COMP_CWORD as bash drives it, COMPREPLY
// read back) and the man page irlens-cli(1) (rendered by man, which must not warn).
#include "support/cli_help.h"

#include <QDir>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

namespace {

using irlens::testing::runCli;

QString completionScript() { return QString(IRLENS_BINARY_DIR) + "/share/bash-completion/completions/irlens-cli"; }
QString manPagePath() { return QString(IRLENS_BINARY_DIR) + "/share/man/man1/irlens-cli.1.gz"; }

/// What the completion offers for the words typed so far (the last one is the word under the cursor),
/// run in `dir`; sorted.
QStringList complete(const QStringList& words, const QString& dir = QDir::currentPath()) {
    QString line = "COMP_WORDS=(";
    for (const QString& w : words) line += " '" + w + "'";
    line += QString(" ); COMP_CWORD=%1; _irlens_cli; printf '%s\\n' \"${COMPREPLY[@]}\"").arg(words.size() - 1);
    QProcess bash;
    bash.setWorkingDirectory(dir);
    bash.start("bash", {"--norc", "--noprofile", "-c", "source '" + completionScript() + "' && " + line});
    if (!bash.waitForFinished(30000) || bash.exitCode() != 0) return {"bash failed: " + QString::fromUtf8(bash.readAllStandardError())};
    QStringList out = QString::fromUtf8(bash.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
    out.sort();
    return out;
}

/// The flags `irlens-cli COMMAND --help` lists, sorted.
QStringList helpFlags(const QString& command) {
    QStringList flags;
    for (const auto& f : irlens::testing::cliHelpFlags(runCli({command, "--help"}).out)) flags << f.name;
    flags.sort();
    return flags;
}

} // namespace

class TstCliDocs : public QObject {
    Q_OBJECT
private slots:
    void completesCommandsAndFlags() {
        QVERIFY2(QFileInfo::exists(completionScript()), qPrintable(completionScript()));
        QCOMPARE(complete({"irlens-cli", "ru"}), QStringList{"run"});
        QCOMPARE(complete({"irlens-cli", "run", "--th"}), QStringList{"--threads"});
        QCOMPARE(complete({"irlens-cli", "decompose", "model.pt2", "--to", ""}), (QStringList{"core", "prims"}));
        QCOMPARE(complete({"irlens-cli", "render", "model.pt2", "--collapse", "t"}), QStringList{"top"});
        QCOMPARE(complete({"irlens-cli", "help", "ve"}), QStringList{"verify"});
        QCOMPARE(complete({"irlens-cli", "run", "--threads", ""}), QStringList{}); // a number: nothing to offer
    }

    // Each command completes exactly the flags its --help lists: the two come from one description.
    void completionMatchesHelp() {
        const QStringList names = irlens::testing::cliCommands();
        QVERIFY(names.size() >= 11);
        QStringList all = names;
        all << "help" << "--bash-completion" << "--help" << "--man" << "--version";
        all.sort();
        QCOMPARE(complete({"irlens-cli", ""}), all);
        for (const QString& c : names) QCOMPARE(complete({"irlens-cli", c, "-"}), helpFlags(c));
    }

    // A program argument completes .pt2 files and folders (to walk into), not other files; a flag that
    // writes a file completes any file, a folder flag folders only.
    void completesFiles() {
        QTemporaryDir dir;
        QDir(dir.path()).mkdir("models");
        for (const char* name : {"tiny.pt2", "notes.txt"}) QVERIFY(irlens::testing::writeFile(dir.filePath(name), "x"));
        QCOMPARE(complete({"irlens-cli", "info", ""}, dir.path()), (QStringList{"models", "tiny.pt2"}));
        QCOMPARE(complete({"irlens-cli", "info", "t"}, dir.path()), QStringList{"tiny.pt2"});
        QCOMPARE(complete({"irlens-cli", "convert", "tiny.pt2", "-o", ""}, dir.path()), (QStringList{"models", "notes.txt", "tiny.pt2"}));
        QCOMPARE(complete({"irlens-cli", "run", "tiny.pt2", "--expect", ""}, dir.path()), QStringList{"models"});
    }

    // The man page renders without a warning and has a section for every command naming its flags.
    void manPageNamesEveryCommand() {
        const QString man = QStandardPaths::findExecutable("man");
        if (man.isEmpty()) QSKIP("man (man-db) is not installed");
        QVERIFY2(QFileInfo::exists(manPagePath()), qPrintable(manPagePath()));
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("MANWIDTH", "200");
        env.insert("LC_ALL", "C.UTF-8");
        p.setProcessEnvironment(env);
        p.start(man, {"--warnings", "-E", "UTF-8", "-l", manPagePath()});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(QString::fromUtf8(p.readAllStandardError()), QString());
        const QString page = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY2(page.contains("irlens-cli - inspect"), qPrintable(page.left(400)));
        const QStringList lines = page.split('\n');
        for (const QString& c : irlens::testing::cliCommands()) {
            const qsizetype at = lines.indexOf("   " + c); // a subsection heading
            QVERIFY2(at > 0, qPrintable("no section for " + c));
            const qsizetype end = std::find_if(lines.begin() + at + 1, lines.end(),
                                               [](const QString& l) { return l.startsWith("   ") && l[3] != ' '; }) - lines.begin();
            const QString section = lines.mid(at, end - at).join('\n');
            for (const QString& f : helpFlags(c))
                if (f != "--help") QVERIFY2(section.contains(QRegularExpression("\\n +" + QRegularExpression::escape(f) + "\\b")), qPrintable(c + " " + f));
        }
    }

    // What the build installs is what the binary prints now.
    void filesMatchTheBinary() {
        QFile script(completionScript());
        QVERIFY(script.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(script.readAll()), runCli({"--bash-completion"}).out);
        QProcess gunzip;
        gunzip.start("gzip", {"-dc", manPagePath()});
        QVERIFY(gunzip.waitForFinished(30000));
        QCOMPARE(QString::fromUtf8(gunzip.readAllStandardOutput()), runCli({"--man"}).out);
    }
};

QTEST_GUILESS_MAIN(TstCliDocs)
#include "tst_cli_docs.moc"
