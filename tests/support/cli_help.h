#pragma once
// Reads irlens-cli's help text as a user sees it: the commands `irlens-cli --help` lists and the flags
// of `irlens-cli COMMAND --help`, so tests check the help, the parser, the completion and the man page
// against one another.

#include "support/cli_runner.h"

#include <QList>
#include <QRegularExpression>
#include <QStringList>

namespace irlens::testing {

/// The commands in the "commands:" section of `irlens-cli --help`.
inline QStringList cliCommands() {
    const QStringList lines = runCli({"--help"}).out.split('\n');
    QStringList names;
    const QRegularExpression row("^  ([a-z]+)  +\\S");
    for (qsizetype k = lines.indexOf("commands:") + 1; k > 0 && k < lines.size() && !lines[k].isEmpty(); ++k)
        if (auto m = row.match(lines[k]); m.hasMatch()) names << m.captured(1);
    return names;
}

struct CliHelpFlag {
    QString name;  // "--threads"; "-h, --help" is "--help"
    QString value; // "N"; "" for a switch
    QString help;  // its text, continuation lines joined
};

/// The "options:" section of a command's help text.
inline QList<CliHelpFlag> cliHelpFlags(const QString& help) {
    QList<CliHelpFlag> flags;
    const QStringList lines = help.split('\n');
    // a term too long for the column has its text on the lines below
    const QRegularExpression row("^  (-[-a-z]*)(?: ([^ ]+))?(?:  +(.+))?$");
    for (qsizetype k = lines.indexOf("options:") + 1; k > 0 && k < lines.size() && !lines[k].isEmpty(); ++k) {
        if (lines[k].startsWith("  -h, --help ")) flags.push_back({"--help", "", lines[k].mid(13).trimmed()});
        else if (auto m = row.match(lines[k]); m.hasMatch()) flags.push_back({m.captured(1), m.captured(2), m.captured(3)});
        else if (!flags.isEmpty() && lines[k].startsWith("    ")) flags.back().help += " " + lines[k].trimmed();
    }
    return flags;
}

} // namespace irlens::testing
