#pragma once
// Runs the built irlens-cli from a test: exit code, standard output and standard error.

#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace irlens::testing {

struct CliRun {
    int code = -1; // -1: did not finish in time (killed), -2: crashed
    QString out;
    QString err;
};

inline QString cliPath() { return QString(IRLENS_BINARY_DIR) + "/app/irlens-cli"; }

/// Runs `program` with `args` in `env`: its exit code and output; killed after `timeoutMs`.
inline CliRun runProgram(const QString& program, const QStringList& args, const QProcessEnvironment& env, int timeoutMs = 120000) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    CliRun r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished(5000);
        r.err = "timed out";
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

inline CliRun runCli(const QStringList& args, int timeoutMs = 120000) {
    return runProgram(cliPath(), args, QProcessEnvironment::systemEnvironment(), timeoutMs);
}

/// Writes `bytes` to `path` (a file that is no .pt2, for the error paths); false when it cannot.
inline bool writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return false;
    return f.write(bytes) == bytes.size();
}

} // namespace irlens::testing
