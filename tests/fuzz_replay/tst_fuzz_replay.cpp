// Replays every input of tests/fuzz/regressions/<target>/ through the fuzz target's own body (the
// function its LLVMFuzzerTestOneInput calls) and compares the outcome with the one recorded in
// tests/fuzz/regressions/expected.txt. An input that once crashed, hung or leaked under the fuzzer must
// now return the expected outcome (usually the reader's error message) within a second.
#include "fuzz_targets.h"

#include <QElapsedTimer>
#include <QTest>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

namespace fs = std::filesystem;

namespace {

const fs::path kRoot = fs::path(IRLENS_SOURCE_DIR) / "tests/fuzz/regressions";
constexpr const char* kTargets[] = {"zip", "json", "pickle", "load"};

// expected.txt: "<target>/<file><TAB><outcome>" per line; '#' starts a comment.
std::map<std::string, std::string> expectedOutcomes() {
    std::map<std::string, std::string> out;
    std::ifstream in(kRoot / "expected.txt");
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        const size_t tab = line.find('\t');
        if (tab != std::string::npos) out[line.substr(0, tab)] = line.substr(tab + 1);
    }
    return out;
}

std::string run(const std::string& target, const std::string& bytes) {
    const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
    if (target == "zip") return irlens::fuzz::zipInput(data, bytes.size());
    if (target == "json") return irlens::fuzz::jsonInput(data, bytes.size());
    if (target == "pickle") return irlens::fuzz::pickleInput(data, bytes.size());
    return irlens::fuzz::loadInput(data, bytes.size());
}

} // namespace

class TstFuzzReplay : public QObject {
    Q_OBJECT
private slots:
    void everyInputHasAnOutcome();
    void replay_data();
    void replay();
};

// A regression input without a recorded outcome would only be checked for not crashing; an outcome
// without its input is a stale line.
void TstFuzzReplay::everyInputHasAnOutcome() {
    auto expected = expectedOutcomes();
    QVERIFY2(!expected.empty(), "tests/fuzz/regressions/expected.txt is missing or empty");
    int inputs = 0;
    for (const char* target : kTargets) {
        for (const auto& entry : fs::directory_iterator(kRoot / target)) {
            const std::string name = entry.path().filename().string();
            if (!entry.is_regular_file() || name.front() == '.') continue;
            const std::string key = std::string(target) + "/" + name;
            QVERIFY2(expected.count(key), qPrintable("no outcome in expected.txt for " + QString::fromStdString(key)));
            expected.erase(key);
            ++inputs;
        }
    }
    QVERIFY2(expected.empty(), qPrintable("expected.txt names a missing input: " +
                                          QString::fromStdString(expected.empty() ? "" : expected.begin()->first)));
    QVERIFY(inputs >= 4);
}

void TstFuzzReplay::replay_data() {
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("expected");
    const auto expected = expectedOutcomes();
    for (const char* target : kTargets) {
        std::vector<fs::path> files;
        for (const auto& entry : fs::directory_iterator(kRoot / target))
            if (entry.is_regular_file() && entry.path().filename().string().front() != '.') files.push_back(entry.path());
        std::sort(files.begin(), files.end());
        for (const fs::path& p : files) {
            const std::string key = std::string(target) + "/" + p.filename().string();
            const auto it = expected.find(key);
            QTest::addRow("%s", key.c_str()) << QString(target) << QString::fromStdString(p.string())
                                             << QString::fromStdString(it == expected.end() ? "" : it->second);
        }
    }
}

void TstFuzzReplay::replay() {
    QFETCH(QString, target);
    QFETCH(QString, file);
    QFETCH(QString, expected);
    std::ifstream in(file.toStdString(), std::ios::binary);
    QVERIFY(in);
    const std::string bytes((std::istreambuf_iterator<char>(in)), {});
    QElapsedTimer timer;
    timer.start();
    const std::string outcome = run(target.toStdString(), bytes);
    const qint64 ms = timer.elapsed();
    QCOMPARE(QString::fromStdString(outcome), expected);
    // The fuzzer calls an input over 1 s a hang (ASan build); a plain build on a loaded machine gets 2 s.
    QVERIFY2(ms < 2000, qPrintable(QString("took %1 ms").arg(ms)));
}

QTEST_GUILESS_MAIN(TstFuzzReplay)
#include "tst_fuzz_replay.moc"
