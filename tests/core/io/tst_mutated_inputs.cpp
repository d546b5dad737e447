// Deterministic mutation runs over real files: damaged archives and pickles must come back as values
// (a loaded program or an error naming the file/record), never a crash, a hang or an empty message.
// The same harness ran for ~10^5 cases under ASan/UBSan while the reader was written; this keeps a
// fast, seeded slice of it in the suite.
#include "core/io/pt2_reader.h"
#include "core/io/unpickler.h"
#include "core/io/zip_archive.h"
#include "support/shared_fixtures.h"

#include <QTest>

#include <fstream>
#include <random>

using namespace irlens::core;
using namespace irlens::testing;

namespace {

// Overwrites, deletes, duplicates or truncates a few bytes; half the edits land in the last
// `tailBias` bytes (the central directory) when given.
std::string mutate(std::string s, std::mt19937& rng, size_t tailBias) {
    const int edits = 1 + int(rng() % 4);
    for (int m = 0; m < edits && !s.empty(); ++m) {
        size_t pos = (tailBias && s.size() > tailBias && rng() % 2) ? s.size() - 1 - rng() % tailBias : rng() % s.size();
        switch (rng() % 5) {
        case 0: s[pos] = char(rng()); break;
        case 1: s.erase(pos, 1 + rng() % 4); break;
        case 2: s.insert(pos, 1, char(rng())); break;
        case 3: { size_t a = rng() % s.size(); s.insert(pos, s.substr(a, std::min<size_t>(rng() % 64, s.size() - a))); break; }
        case 4: s.resize(pos + 1); break;
        }
    }
    return s.empty() ? std::string(".") : s;
}

} // namespace

class TstMutatedInputs : public QObject {
    Q_OBJECT
private slots:
    void archives_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("cases");
        QTest::addRow("executorch linear (PT2 archive)") << "real/executorch-linear-pt2archive/linear.pt2" << 300;
        QTest::addRow("tensorrt 7.4 (legacy, empty record)") << "real/tensorrt-add-legacy-schema7/trt-schema7.4.ep" << 200;
        QTest::addRow("tiny_mlp legacy (nested pickles)") << "generated/tiny_mlp/model.legacy.pt2" << 100;
    }
    void archives() {
        IRLENS_REQUIRE_SHARED();
        QFETCH(QString, file);
        QFETCH(int, cases);
        const std::string original = readFile(fixture(file.toStdString()));
        QVERIFY(!original.empty());
        QTemporaryDir dir;
        const std::string path = dir.filePath("case.pt2").toStdString();
        std::mt19937 rng(20261130);
        int loaded = 0, refused = 0;
        for (int k = 0; k < cases; ++k) {
            {
                std::ofstream out(path, std::ios::binary | std::ios::trunc);
                const std::string m = mutate(original, rng, 1200);
                out.write(m.data(), std::streamsize(m.size()));
            }
            auto p = loadPt2(path);
            if (p) { ++loaded; continue; }
            ++refused;
            QVERIFY2(p.error().size() > 10, p.error().c_str());
        }
        QCOMPARE(loaded + refused, cases);
        QVERIFY(refused > cases / 2); // the mutations do reach the parsers
    }

    void hadesPickle() {
        IRLENS_REQUIRE_SHARED();
        auto outer = ZipArchive::openFile(fixture("real/hades-pid-dann-legacy-schema2/exported_program.pt2").string());
        QVERIFY(outer.isOk());
        auto nested = (*outer)->read("serialized_state_dict.json");
        QVERIFY(nested.isOk());
        auto inner = ZipArchive::openStorage(*nested, "serialized_state_dict.json");
        QVERIFY2(inner.isOk(), inner.error().c_str());
        auto pkl = (*inner)->readText("archive/data.pkl", 1 << 20);
        QVERIFY(pkl.isOk());
        StorageLoader loader = [&](const std::string& key) -> Result<std::shared_ptr<const Storage>> {
            if (!(*inner)->contains("archive/data/" + key)) return Status::error("no storage " + key);
            return (*inner)->read("archive/data/" + key);
        };
        // The untouched pickle rebuilds its 30 tensors.
        auto clean = unpickle(reinterpret_cast<const std::byte*>(pkl->data()), pkl->size(), "data.pkl", loader);
        QVERIFY2(clean.isOk(), clean.error().c_str());
        QCOMPARE((*clean)->dict.size(), size_t(30));
        std::mt19937 rng(7);
        int refused = 0;
        for (int k = 0; k < 3000; ++k) {
            const std::string m = mutate(*pkl, rng, 0);
            auto r = unpickle(reinterpret_cast<const std::byte*>(m.data()), m.size(), "data.pkl", loader);
            if (r) continue;
            ++refused;
            QVERIFY2(r.error().rfind("data.pkl: ", 0) == 0, r.error().c_str());
        }
        QVERIFY(refused > 1500);
    }
};

QTEST_GUILESS_MAIN(TstMutatedInputs)
#include "tst_mutated_inputs.moc"
