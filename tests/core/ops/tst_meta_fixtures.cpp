// Re-inferred meta agrees with the recorded `val` of every node of every program file (support/zoo_files.h).

#include "core/io/pt2_reader.h"
#include "core/ops/meta.h"
#include "support/shared_fixtures.h"
#include "support/zoo_files.h"

#include <QTest>

#include <filesystem>

using namespace irlens::core;

class TstMetaFixtures : public QObject {
    Q_OBJECT
private slots:
    void recordedMetaAgrees_data() {
        QTest::addColumn<QString>("path");
        for (const auto& rel : irlens::testing::programFixtures())
            QTest::addRow("%s", rel.c_str()) << QString::fromStdString(irlens::testing::fixture(rel).string());
    }
    void recordedMetaAgrees() {
        QFETCH(QString, path);
        LoadOptions options;
        options.loadWeights = false;
        auto program = loadPt2(path.toStdString(), options);
        QVERIFY2(program.isOk(), program.error().c_str());
        auto report = checkRecordedMeta(**program);
        QString details;
        for (size_t i = 0; i < report.mismatches.size() && i < 8; ++i) details += "\n  " + QString::fromStdString(report.mismatches[i].message);
        for (const auto& u : report.unsupported) details += "\n  unsupported: " + QString::fromStdString(u);
        QVERIFY2(report.mismatches.empty(), qPrintable(QString::number(report.mismatches.size()) + " mismatches" + details));
        QVERIFY(report.valuesCompared > 0);
        qInfo("%d nodes checked, %d values compared, %d targets without meta", report.nodesChecked, report.valuesCompared,
              int(report.unsupported.size()));
        // Every op the fixtures use has a meta function (symbolic helpers and HOPs are listed apart).
        for (const auto& u : report.unsupported) {
            Target t = Target::parse(u);
            QVERIFY2(t.kind != Target::Kind::Op, qPrintable("no meta function for " + QString::fromStdString(u)));
        }
    }
};

QTEST_GUILESS_MAIN(TstMetaFixtures)
#include "tst_meta_fixtures.moc"
