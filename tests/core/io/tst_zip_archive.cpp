// ZipArchive: in-place views, the PyTorchFileWriter quirks, ZIP64, deflate, and hostile archives
// (each refused with its exact message, never a crash or hang).
#include "core/io/zip_archive.h"
#include "support/shared_fixtures.h"
#include "support/zoo_files.h"
#include "zip_builder.h"

#include <QTest>

using namespace irlens::core;
using namespace irlens::testing;

namespace {

std::string text(const Storage& s) { return std::string(reinterpret_cast<const char*>(s.data), s.size); }

std::string twoRecords() { return ZipBuilder().add("a.txt", "alpha").add("b.txt", "beta").build(); }

} // namespace

class TstZipArchive : public QObject {
    Q_OBJECT
private slots:
    void quirksAccepted_data() {
        QTest::addColumn<bool>("descriptor");
        QTest::addColumn<bool>("zip64");
        QTest::addColumn<bool>("zip64End");
        QTest::addColumn<unsigned>("align");
        QTest::addRow("plain zipfile style") << false << false << false << 0u;
        QTest::addRow("PyTorchFileWriter: descriptor, zero dates, 64-byte aligned") << true << false << false << 64u;
        QTest::addRow("zip64 entries") << false << true << false << 0u;
        QTest::addRow("zip64 entries and end record, descriptors") << true << true << true << 64u;
    }
    void quirksAccepted() {
        QFETCH(bool, descriptor);
        QFETCH(bool, zip64);
        QFETCH(bool, zip64End);
        QFETCH(unsigned, align);
        ZipBuilder b;
        b.add(ZipItem{"root/archive_format", "pt2", false, descriptor, zip64, align});
        b.add(ZipItem{"root/data/weights/weight_0", std::string(1000, 'w'), false, descriptor, zip64, align});
        b.add(ZipItem{"root\\models\\model.json", "{}", false, descriptor, zip64, align});
        b.add(ZipItem{"root/data/weights/weight_1", std::string(20000, 'v'), false, descriptor, zip64, align}); // > one read window
        b.add(ZipItem{"root/version", "1", false, descriptor, zip64, align});
        const std::string archive = b.build(zip64End);
        auto buf = archiveStorage(archive);
        auto zip = ZipArchive::openStorage(buf, "t.zip");
        QVERIFY2(zip.isOk(), zip.error().c_str());
        QCOMPARE((*zip)->entries().size(), size_t(5));
        // A file's local headers are read with pread rather than from memory: same entries either way.
        QTemporaryDir dir;
        const QString path = dir.filePath("t.zip");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(archive.data(), qint64(archive.size()));
        f.close();
        auto fromFile = ZipArchive::openFile(path.toStdString());
        QVERIFY2(fromFile.isOk(), fromFile.error().c_str());
        QCOMPARE((*fromFile)->entries().size(), (*zip)->entries().size());
        for (size_t k = 0; k < (*zip)->entries().size(); ++k) {
            const ZipEntry& m = (*zip)->entries()[k];
            const ZipEntry& e = (*fromFile)->entries()[k];
            QCOMPARE(e.name, m.name);
            QCOMPARE(e.dataOffset, m.dataOffset);
            QCOMPARE(e.size, m.size);
            QCOMPARE(e.crc, m.crc);
            QVERIFY((*fromFile)->verifyCrc(e.name).isOk());
        }
        QVERIFY((*zip)->contains("root/models/model.json")); // '\' normalised
        auto w = (*zip)->read("root/data/weights/weight_0");
        QVERIFY2(w.isOk(), w.error().c_str());
        QCOMPARE(text(**w), std::string(1000, 'w'));
        // Viewed in place: the storage points into the archive buffer, no copy.
        QVERIFY((*w)->data >= buf->data && (*w)->data + (*w)->size <= buf->data + buf->size);
        if (align) QCOMPARE(size_t((*w)->data - buf->data) % align, size_t(0));
        auto fmt = (*zip)->readText("root/archive_format", 16);
        QVERIFY2(fmt.isOk(), fmt.error().c_str());
        QCOMPARE(*fmt, std::string("pt2"));
    }

    void deflateInflated() {
        std::string payload;
        for (int k = 0; k < 5000; ++k) payload += "weight " + std::to_string(k) + "\n";
        auto buf = archiveStorage(ZipBuilder().add(ZipItem{"d.txt", payload, true, true}).build());
        auto zip = ZipArchive::openStorage(buf, "t.zip");
        QVERIFY2(zip.isOk(), zip.error().c_str());
        QVERIFY((*zip)->entries()[0].compressedSize < payload.size() / 3);
        auto d = (*zip)->read("d.txt");
        QVERIFY2(d.isOk(), d.error().c_str());
        QCOMPARE(text(**d), payload);
        QVERIFY((*d)->data < buf->data || (*d)->data >= buf->data + buf->size); // owned bytes
    }

    void viewOutlivesArchive() {
        IRLENS_REQUIRE_SHARED();
        std::shared_ptr<const Storage> fmt;
        {
            auto zip = ZipArchive::openFile(fixture("real/executorch-linear-pt2archive/linear.pt2").string());
            QVERIFY2(zip.isOk(), zip.error().c_str());
            QCOMPARE((*zip)->entries().size(), size_t(11));
            for (const auto& e : (*zip)->entries()) {
                QCOMPARE(e.flags, uint16_t(0x0808));
                QCOMPARE(e.dataOffset % 64, uint64_t(0));
            }
            auto r = (*zip)->read("linear_3/archive_format");
            QVERIFY(r.isOk());
            fmt = *r;
        }
        QCOMPARE(text(*fmt), std::string("pt2")); // the mapping is still alive through Storage::owner
    }

    void refusedAtOpen_data() {
        QTest::addColumn<QByteArray>("archive");
        QTest::addColumn<QString>("error");
        const std::string good = twoRecords();
        auto row = [](const char* name, const std::string& bytes, const char* err) {
            QTest::addRow("%s", name) << QByteArray(bytes.data(), qsizetype(bytes.size())) << QString(err);
        };
        row("truncated tail", good.substr(0, good.size() - 10),
            "t.zip: no end-of-central-directory record (truncated file, or not a ZIP archive)");
        row("truncated half", good.substr(0, good.size() / 2),
            "t.zip: no end-of-central-directory record (truncated file, or not a ZIP archive)");
        row("not a zip", std::string(200, 'x'), "t.zip: no end-of-central-directory record (truncated file, or not a ZIP archive)");
        row("tiny", "PK", "t.zip: not a ZIP archive (only 2 bytes; truncated?)");
        row("dot-dot name", ZipBuilder().add("ok.txt", "1").add("../evil.txt", "x").build(),
            "t.zip: record '../evil.txt': unsafe name (absolute path or '..' component); refusing the archive");
        row("nested dot-dot", ZipBuilder().add("a/../../evil", "x").build(),
            "t.zip: record 'a/../../evil': unsafe name (absolute path or '..' component); refusing the archive");
        row("backslash dot-dot", ZipBuilder().add("..\\evil.txt", "x").build(),
            "t.zip: record '../evil.txt': unsafe name (absolute path or '..' component); refusing the archive");
        row("absolute name", ZipBuilder().add("/etc/passwd", "x").build(),
            "t.zip: record '/etc/passwd': unsafe name (absolute path or '..' component); refusing the archive");
        row("duplicate name", ZipBuilder().add("a.txt", "1").add("a.txt", "2").build(),
            "t.zip: record 'a.txt': appears twice in the central directory; refusing the archive");
        {
            std::string bad = good;
            bad[0] = 'X'; // first local header signature destroyed
            row("damaged local header", bad, "t.zip: record 'a.txt': local header missing or damaged (truncated or corrupted archive)");
        }
        {
            std::string bad = good;
            size_t eocd = bad.size() - 22;
            bad[eocd + 16] = char(0xF0); // central directory offset points past the end
            row("directory outside file", bad, "t.zip: central directory lies outside the file (truncated or damaged archive)");
        }
        {
            // The directory claims more data than the file holds.
            std::string bad = good;
            size_t cd = 2 * 30 + 5 + 5 + 5 + 4; // two local headers with names and data
            bad[cd + 20] = bad[cd + 24] = char(0xFF);
            bad[cd + 21] = bad[cd + 25] = char(0xFF);
            bad[cd + 22] = bad[cd + 26] = char(0x00);
            row("record data past end", bad, "t.zip: record 'a.txt': data runs past the end of the file (truncated archive?)");
        }
        // Local header vs central entry (what libzip's ZIP_CHECKCONS compared before the reader did it).
        // twoRecords(): a.txt's local header at 0 (data at 35), b.txt's at 40 (data at 75), directory at 79.
        {
            std::string bad = good;
            bad[30] = 'x'; // the local header's copy of the name
            row("local name differs", bad, "t.zip: record 'a.txt': local header names a different record (corrupted archive)");
        }
        {
            std::string bad = good;
            bad[8] = 8; // local method: deflate
            row("local method differs", bad,
                "t.zip: record 'a.txt': local and central headers disagree on the compression method (corrupted archive)");
        }
        {
            std::string bad = good;
            bad[40 + 14] ^= 0x01;
            row("local CRC differs", bad, "t.zip: record 'b.txt': local and central headers disagree on the CRC (corrupted archive)");
        }
        {
            std::string bad = good;
            bad[18] = bad[22] = 4; // a.txt's local sizes say 4, the directory 5
            row("local sizes differ", bad, "t.zip: record 'a.txt': local and central headers disagree on the sizes (corrupted archive)");
        }
        {
            // Both headers agree that b.txt holds 10 bytes: its data would run into the directory.
            std::string bad = good;
            const size_t bCentral = 79 + 46 + 5;
            for (size_t at : {size_t(40 + 18), size_t(40 + 22), bCentral + 20, bCentral + 24}) bad[at] = 10;
            row("data overlaps the directory", bad, "t.zip: record 'b.txt': data overlaps the central directory (damaged archive)");
        }
        {
            std::string bad = good;
            bad[bad.size() - 22 + 12] += 1; // directory size one byte too long
            row("directory overlaps the end record", bad,
                "t.zip: central directory overlaps the end-of-central-directory record (damaged archive)");
        }
    }
    void refusedAtOpen() {
        QFETCH(QByteArray, archive);
        QFETCH(QString, error);
        auto zip = ZipArchive::openStorage(archiveStorage(archive.toStdString()), "t.zip");
        QVERIFY(!zip.isOk());
        QCOMPARE(QString::fromStdString(zip.error()), error);
        // The same bytes as a file (mapped, local headers read with pread): the same refusal.
        QTemporaryDir dir;
        const QString path = dir.filePath("t.zip");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(archive);
        f.close();
        auto fromFile = ZipArchive::openFile(path.toStdString());
        QVERIFY(!fromFile.isOk());
        QCOMPARE(QString::fromStdString(fromFile.error()).replace(path, "t.zip"), error);
    }

    void refusedAtRead_data() {
        QTest::addColumn<QByteArray>("archive");
        QTest::addColumn<QString>("record");
        QTest::addColumn<QString>("error");
        auto row = [](const char* name, const std::string& bytes, const char* record, const char* err) {
            QTest::addRow("%s", name) << QByteArray(bytes.data(), qsizetype(bytes.size())) << QString(record) << QString(err);
        };
        // 64 MiB of zeros deflate to ~64 KiB; the directory claims 1000 bytes.
        row("deflate bomb (size lie)", ZipBuilder().add(ZipItem{"bomb.bin", std::string(64 << 20, '\0'), true, false, false, 0, 1000}).build(),
            "bomb.bin", "t.zip: record 'bomb.bin': inflates to more than its declared 1000 bytes (deflate bomb?)");
        row("deflate over the limit", ZipBuilder().add(ZipItem{"big.bin", std::string(2 << 20, '\0'), true}).build(), "big.bin",
            "t.zip: record 'big.bin': declares 2097152 bytes uncompressed, more than the limit of 1048576 (deflate bomb? "
            "IRLENS_MAX_INFLATED_MIB=<MiB> raises the limit)");
        {
            // Two names for the same compressed blob: each is within the per-record limit, together they are not.
            ZipBuilder twice;
            twice.add(ZipItem{"a.bin", std::string(700 << 10, '\0'), true}).add(ZipItem{"b.bin", std::string(700 << 10, '\0'), true});
            row("overlapping deflate total", twice.build(), "b.bin",
                "t.zip: record 'b.bin': inflating it would take the archive past 1048576 inflated bytes in total (overlapping deflate records?)");
        }
        row("crc mismatch", ZipBuilder().add(ZipItem{"a.txt", "alpha", false, false, false, 0, std::nullopt, 1234u}).build(), "a.txt",
            "t.zip: record 'a.txt': CRC mismatch (corrupted archive)");
        row("missing record", twoRecords(), "c.txt", "t.zip: no record 'c.txt'");
        {
            std::string payload;
            for (int k = 0; k < 500; ++k) payload += "line " + std::to_string(k) + "\n";
            row("deflate crc mismatch", ZipBuilder().add(ZipItem{"d.txt", payload, true, false, false, 0, std::nullopt, 1234u}).build(),
                "d.txt", "t.zip: record 'd.txt': CRC mismatch (corrupted archive)");
            row("deflate shorter than declared", ZipBuilder().add(ZipItem{"s.txt", "hello hello hello", true, false, false, 0, 100}).build(),
                "s.txt", "t.zip: record 's.txt': inflates to 17 bytes, less than its declared 100");
            std::string bad = ZipBuilder().add(ZipItem{"d.txt", payload, true}).build();
            bad[30 + 5] = char(0x07); // first block header: final block of the reserved type 3
            row("deflate stream damaged", bad, "d.txt", "t.zip: record 'd.txt': cannot be inflated (zlib: invalid block type)");
            std::string cut = ZipBuilder().add(ZipItem{"d.txt", payload, true}).build();
            const size_t csize = uint8_t(cut[18]) | size_t(uint8_t(cut[19])) << 8;
            // Both headers claim only the first 10 compressed bytes: the stream stops mid-block.
            for (size_t at : {size_t(18), cut.size() - 22 - 5 - 46 + 20}) { cut[at] = 10; cut[at + 1] = 0; }
            QVERIFY(csize > 10);
            row("deflate stream cut short", cut, "d.txt",
                "t.zip: record 'd.txt': cannot be inflated (compressed data ends early; truncated or corrupted archive)");
        }
    }
    void refusedAtRead() {
        QFETCH(QByteArray, archive);
        QFETCH(QString, record);
        QFETCH(QString, error);
        ZipLimits lim;
        lim.maxInflatedBytes = 1 << 20;
        lim.maxInflatedTotal = 1 << 20;
        auto zip = ZipArchive::openStorage(archiveStorage(archive.toStdString()), "t.zip", lim);
        QVERIFY2(zip.isOk(), zip.error().c_str());
        if (record == "b.bin") QVERIFY((*zip)->read("a.bin").isOk()); // the first one fits
        auto r = (*zip)->readText(record.toStdString(), uint64_t(1) << 30);
        QVERIFY(!r.isOk());
        QCOMPARE(QString::fromStdString(r.error()), error);
    }

    // Weights are views: a STORED binary record with a bad CRC still reads (nothing hashes 45 MB at
    // load), and verifyCrc names it when asked.
    void storedCrcCheckedOnRequest() {
        auto buf = archiveStorage(ZipBuilder()
                               .add(ZipItem{"w.bin", std::string(4096, 'w'), false, true, false, 64, std::nullopt, 99u})
                               .add(ZipItem{"ok.bin", std::string(4096, 'o'), false, true, false, 64})
                               .build());
        auto zip = ZipArchive::openStorage(buf, "t.zip");
        QVERIFY2(zip.isOk(), zip.error().c_str());
        QVERIFY((*zip)->read("w.bin").isOk());
        QCOMPARE(QString::fromStdString((*zip)->verifyCrc("w.bin").message()),
                 QString("t.zip: record 'w.bin': CRC mismatch (corrupted archive)"));
        QVERIFY((*zip)->verifyCrc("ok.bin").isOk());
        QCOMPARE(QString::fromStdString((*zip)->verifyCrc("no.bin").message()), QString("t.zip: no record 'no.bin'"));
    }

    // Every record of every program fixture (and of the torch.save archives nested in them) passes the
    // open-time header checks and its CRC: the reader's own validation accepts what PyTorch writes.
    void fixtureRecordsVerify_data() {
        QTest::addColumn<QString>("file");
        for (const std::string& rel : programFixtures()) QTest::addRow("%s", rel.c_str()) << QString::fromStdString(rel);
    }
    void fixtureRecordsVerify() {
        QFETCH(QString, file);
        auto zip = ZipArchive::openFile(fixture(file.toStdString()).string());
        QVERIFY2(zip.isOk(), zip.error().c_str());
        int nested = 0;
        for (const auto& e : (*zip)->entries()) {
            Status st = (*zip)->verifyCrc(e.name);
            QVERIFY2(st.isOk(), st.message().c_str());
            if (e.name.size() < 3 || e.name.compare(e.name.size() - 3, 3, ".pt") != 0 || e.size == 0) continue;
            auto inner = ZipArchive::openStorage(*(*zip)->read(e.name), e.name, (*zip)->limits());
            QVERIFY2(inner.isOk(), inner.error().c_str());
            for (const auto& ie : (*inner)->entries()) {
                Status ist = (*inner)->verifyCrc(ie.name);
                QVERIFY2(ist.isOk(), ist.message().c_str());
            }
            ++nested;
        }
        QVERIFY((*zip)->entries().size() >= 3);
        if (file.startsWith("generated/") && file.endsWith("/model.pt2")) QVERIFY(nested >= 1); // sample inputs
    }

    void nestedArchivesShareTheBudget() {
        // A .pt2 and the torch.save files inside it are opened with the same limits: one budget.
        ZipLimits lim;
        lim.maxInflatedTotal = 1 << 20;
        auto blob = ZipBuilder().add(ZipItem{"x.bin", std::string(700 << 10, '\0'), true}).build();
        auto outer = ZipArchive::openStorage(archiveStorage(blob), "outer.zip", lim);
        QVERIFY(outer.isOk());
        auto inner = ZipArchive::openStorage(archiveStorage(blob), "inner.zip", (*outer)->limits());
        QVERIFY(inner.isOk());
        QVERIFY((*outer)->read("x.bin").isOk());
        QCOMPARE(QString::fromStdString((*inner)->read("x.bin").error()),
                 QString("inner.zip: record 'x.bin': inflating it would take the archive past 1048576 inflated bytes in total "
                         "(overlapping deflate records?)"));
        auto separate = ZipArchive::openStorage(archiveStorage(blob), "other.zip", lim); // no shared counter given: its own
        QVERIFY((*separate)->read("x.bin").isOk());
    }

    void emptyAndMissingFiles() {
        QTemporaryDir dir;
        QString empty = dir.filePath("empty.pt2");
        QFile f(empty);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        auto z = ZipArchive::openFile(empty.toStdString());
        QCOMPARE(QString::fromStdString(z.error()), empty + ": file is empty (0 bytes), not a ZIP archive");
        auto m = ZipArchive::openFile(dir.filePath("nope.pt2").toStdString());
        QCOMPARE(QString::fromStdString(m.error()), "cannot open '" + dir.filePath("nope.pt2") + "': No such file or directory");
    }
};

QTEST_GUILESS_MAIN(TstZipArchive)
#include "tst_zip_archive.moc"
