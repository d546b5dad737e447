// libzip as a second opinion on ZipArchive's own parser: both must agree on every record of every
// program file (support/zoo_files.h; nested torch.save archives included) and of the writer-quirk archives, and a record whose
// bytes no longer match its CRC is named.
#include "core/io/zip_archive.h"
#include "core/io/zip_crosscheck.h"
#include "support/shared_fixtures.h"
#include "support/zoo_files.h"
#include "zip_builder.h"

#include <QTest>

using namespace irlens::core;
using namespace irlens::testing;

namespace {

bool looksLikeZip(const Storage& s) {
    return s.size >= 4 && std::memcmp(s.data, "PK\x03\x04", 4) == 0;
}

} // namespace

class TstZipCrossCheck : public QObject {
    Q_OBJECT
private slots:
    void fixturesAgree_data() {
        QTest::addColumn<QString>("rel");
        for (const auto& rel : programFixtures()) QTest::addRow("%s", rel.c_str()) << QString::fromStdString(rel);
    }
    void fixturesAgree() {
        QFETCH(QString, rel);
        auto zip = ZipArchive::openFile(fixture(rel.toStdString()).string());
        QVERIFY2(zip.isOk(), zip.error().c_str());
        auto outer = crossCheckWithLibzip(**zip);
        QVERIFY2(outer.isOk(), outer.error().c_str());
        QCOMPARE(outer->records, uint64_t((*zip)->entries().size()));
        // torch.save archives stored as records (sample inputs, legacy constants) get the same check.
        for (const auto& e : (*zip)->entries()) {
            auto bytes = (*zip)->read(e.name);
            QVERIFY2(bytes.isOk(), bytes.error().c_str());
            if (!looksLikeZip(**bytes)) continue;
            auto nested = ZipArchive::openStorage(*bytes, e.name, (*zip)->limits());
            if (!nested) continue; // not every PK-prefixed blob is an archive the reader opens; that is tested elsewhere
            auto inner = crossCheckWithLibzip(**nested);
            QVERIFY2(inner.isOk(), inner.error().c_str());
        }
    }

    void writerQuirksAgree_data() {
        QTest::addColumn<bool>("descriptor");
        QTest::addColumn<bool>("zip64");
        QTest::addColumn<bool>("zip64End");
        QTest::addColumn<bool>("deflate");
        QTest::addRow("plain") << false << false << false << false;
        QTest::addRow("descriptors, 64-byte aligned") << true << false << false << false;
        QTest::addRow("zip64 entries and end record") << true << true << true << false;
        QTest::addRow("deflate") << false << false << false << true;
    }
    void writerQuirksAgree() {
        QFETCH(bool, descriptor);
        QFETCH(bool, zip64);
        QFETCH(bool, zip64End);
        QFETCH(bool, deflate);
        ZipBuilder b;
        b.add(ZipItem{"root/archive_format", "pt2", deflate, descriptor, zip64, 64});
        b.add(ZipItem{"root\\data\\weights\\w0", std::string(5000, 'w'), deflate, descriptor, zip64, 64});
        b.add(ZipItem{"root/version", "1", deflate, descriptor, zip64, 64});
        auto zip = ZipArchive::openStorage(archiveStorage(b.build(zip64End)), "q.zip");
        QVERIFY2(zip.isOk(), zip.error().c_str());
        auto check = crossCheckWithLibzip(**zip);
        QVERIFY2(check.isOk(), check.error().c_str());
        QCOMPARE(check->records, uint64_t(3));
        QCOMPARE(check->bytesChecked, uint64_t(3 + 5000 + 1));
    }

    void damagedRecordIsNamed() {
        // The reader opens STORED records without reading them, so flipping a weight byte passes open;
        // the cross-check recomputes the CRC and names the record.
        std::string archive = ZipBuilder().add("root/version", "1").add("root/data/weights/w0", std::string(100, 'a')).build();
        auto pos = archive.find(std::string(100, 'a'));
        QVERIFY(pos != std::string::npos);
        archive[pos + 50] = 'b';
        auto zip = ZipArchive::openStorage(archiveStorage(archive), "bad.zip");
        QVERIFY2(zip.isOk(), zip.error().c_str());
        auto check = crossCheckWithLibzip(**zip);
        QVERIFY(!check.isOk());
        QCOMPARE(QString::fromStdString(check.error()), QString("bad.zip: record 'root/data/weights/w0': CRC mismatch (corrupted archive)"));
    }
};

QTEST_GUILESS_MAIN(TstZipCrossCheck)
#include "tst_zip_crosscheck.moc"
