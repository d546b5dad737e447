// Nothing lost: savePt2 writes a temporary beside the target and renames it, so a save that fails for
// any reason leaves the previous file byte for byte and no temporary behind.
#include "support/shared_fixtures.h"
#include "support/zoo_programs.h"

#include "core/io/pt2_reader.h"
#include "core/io/pt2_writer.h"

#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <filesystem>
#include <fstream>

#include <sys/resource.h>
#include <unistd.h>

using namespace irlens::core;
using namespace irlens::testing;
namespace fs = std::filesystem;

namespace {

const std::string kOld = "the previous archive, which must survive\n";

QStringList listDir(const fs::path& dir) {
    QStringList out;
    for (const auto& e : fs::directory_iterator(dir)) out << QString::fromStdString(e.path().filename().string());
    out.sort();
    return out;
}

ProgramPtr tinyMlp() { return irlens::testing::zoo::mlp(); }

} // namespace

class TstSaveAtomic : public QObject {
    Q_OBJECT
private slots:
    void savesAndReplaces();
    void missingDirectory();
    void targetIsADirectory();
    void writeFailsHalfway();
    void readOnlyDirectory();
};

void TstSaveAtomic::savesAndReplaces() {
    auto program = tinyMlp();
    QVERIFY(program);
    QTemporaryDir dir;
    const fs::path target = fs::path(dir.path().toStdString()) / "model.pt2";
    std::ofstream(target) << kOld;
    Status s = savePt2(*program, target.string());
    QVERIFY2(s.isOk(), s.message().c_str());
    QCOMPARE(listDir(target.parent_path()), QStringList{"model.pt2"});
    auto back = loadPt2(target.string());
    QVERIFY2(back, back.error().c_str());
    QCOMPARE((*back)->graph.nodes.size(), program->graph.nodes.size());
}

void TstSaveAtomic::missingDirectory() {
    auto program = tinyMlp();
    QTemporaryDir dir;
    const fs::path target = fs::path(dir.path().toStdString()) / "no-such-folder" / "model.pt2";
    Status s = savePt2(*program, target.string());
    QVERIFY(!s.isOk());
    QCOMPARE(QString::fromStdString(s.message()),
             QString::fromStdString(target.string() + ": cannot create a temporary file in " + target.parent_path().string() +
                                    " (No such file or directory)"));
    QCOMPARE(listDir(dir.path().toStdString()), QStringList{});
}

void TstSaveAtomic::targetIsADirectory() {
    auto program = tinyMlp();
    QTemporaryDir dir;
    const fs::path target = fs::path(dir.path().toStdString()) / "model.pt2";
    fs::create_directory(target);
    std::ofstream(target / "keep.txt") << kOld;
    Status s = savePt2(*program, target.string());
    QVERIFY(!s.isOk());
    qInfo("%s", s.message().c_str());
    QVERIFY2(s.message().rfind(target.string() + ": ", 0) == 0, s.message().c_str());
    QCOMPARE(readFile(target / "keep.txt"), kOld);
    QCOMPARE(listDir(dir.path().toStdString()), QStringList{"model.pt2"}); // no temporary left behind
}

// The file size limit (RLIMIT_FSIZE) makes a write fail part-way, as a full disk would, even as root.
void TstSaveAtomic::writeFailsHalfway() {
    auto program = tinyMlp();
    QTemporaryDir dir;
    const fs::path target = fs::path(dir.path().toStdString()) / "model.pt2";
    std::ofstream(target) << kOld;

    std::signal(SIGXFSZ, SIG_IGN); // a write past the limit then fails with EFBIG instead of killing us
    rlimit old{};
    getrlimit(RLIMIT_FSIZE, &old);
    rlimit small = old;
    small.rlim_cur = 16 * 1024;
    QCOMPARE(setrlimit(RLIMIT_FSIZE, &small), 0);
    Status s = savePt2(*program, target.string());
    setrlimit(RLIMIT_FSIZE, &old);

    QVERIFY(!s.isOk());
    qInfo("%s", s.message().c_str());
    QVERIFY2(s.message().find("File too large") != std::string::npos, s.message().c_str());
    QCOMPARE(readFile(target), kOld);
    QCOMPARE(listDir(target.parent_path()), QStringList{"model.pt2"});
}

void TstSaveAtomic::readOnlyDirectory() {
    if (geteuid() == 0) QSKIP("running as root: permissions do not stop root from writing (writeFailsHalfway covers failures)");
    auto program = tinyMlp();
    QTemporaryDir dir;
    const fs::path folder = fs::path(dir.path().toStdString()) / "ro";
    fs::create_directory(folder);
    const fs::path target = folder / "model.pt2";
    std::ofstream(target) << kOld;
    fs::permissions(folder, fs::perms::owner_read | fs::perms::owner_exec);
    Status s = savePt2(*program, target.string());
    fs::permissions(folder, fs::perms::owner_all);
    QVERIFY(!s.isOk());
    QCOMPARE(QString::fromStdString(s.message()),
             QString::fromStdString(target.string() + ": cannot create a temporary file in " + folder.string() +
                                    " (Permission denied)"));
    QCOMPARE(readFile(target), kOld);
}

QTEST_GUILESS_MAIN(TstSaveAtomic)
#include "tst_save_atomic.moc"
