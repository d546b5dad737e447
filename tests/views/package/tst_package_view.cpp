// Opening an AOTInductor package in the main window: no error box, the program on screen stays, and a
// read-only window says what the package holds (the same description `irlens-cli info` prints).
#include "core/io/aoti_package.h"
#include "views/document.h"
#include "views/main_window.h"
#include "views/package/package_view.h"

#include "support/gui_test_util.h"

#include <QApplication>
#include <QClipboard>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QSignalSpy>
#include <QTest>

using namespace irlens;

namespace {

views::PackageView* openPackageWindow() {
    for (QWidget* w : QApplication::topLevelWidgets())
        if (auto* v = qobject_cast<views::PackageView*>(w); v && v->isVisible()) return v;
    return nullptr;
}

// The row whose first column is `what`, anywhere below `parent` (depth first).
QTreeWidgetItem* row(QTreeWidgetItem* parent, const QString& what) {
    for (int k = 0; k < parent->childCount(); ++k) {
        if (parent->child(k)->text(0) == what) return parent->child(k);
        if (auto* found = row(parent->child(k), what)) return found;
    }
    return nullptr;
}

} // namespace

class TstPackageView : public QObject {
    Q_OBJECT
private slots:
    void openingAPackageDescribesIt() {
        IRLENS_REQUIRE_SHARED();
        views::MainWindow w;
        w.show();
        w.openExample();
        QVERIFY(testing::waitForLayout(*w.document()));
        const auto programBefore = w.document()->program();
        QSignalSpy failed(w.document(), &views::Document::loadFailed);
        QSignalSpy opened(w.document(), &views::Document::packageOpened);
        const auto path = testing::fixture("packages/executorch-preprocess-aoti/preprocess.pt2");
        w.openFile(QString::fromStdString(path.string()));
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 30000);
        QCOMPARE(failed.count(), 0);
        QCOMPARE(w.document()->program(), programBefore); // the example stays on screen
        views::PackageView* view = nullptr;
        QTRY_VERIFY((view = openPackageWindow()) != nullptr);
        QCOMPARE(view->windowTitle(), QString("preprocess.pt2 — AOTInductor package"));
        QCOMPARE(view->summaryLabel()->text(),
                 QString("AOTInductor package (layout 0, cpu): compiled code for model 'model', no exported program"));

        QTreeWidgetItem* root = view->tree()->invisibleRootItem();
        QTreeWidgetItem* ops = row(root, "Custom ops (proxy executor)");
        QVERIFY(ops);
        QCOMPARE(ops->text(1), QString("1"));
        QCOMPARE(ops->child(0)->text(0), QString("preprocess::tile_crop"));
        QCOMPARE(ops->child(0)->text(1), QString("buf17 = preprocess::tile_crop(input=buf15, tile_size=224)"));
        QCOMPARE(row(root, "Device")->text(1), QString("cpu"));
        QCOMPARE(row(root, "Built with")->text(1), QString("clang++ for CPU_CAPABILITY_NEON"));
        QCOMPARE(row(root, "arg0_1")->text(1), QString("float32[3, 2..4000, 2..4000]"));
        QCOMPARE(row(root, "Call (args, kwargs)")->text(1), QString("((arg0_1, arg1_1, arg2_1), {})"));
        QTreeWidgetItem* files = row(root, "Compiled files");
        QCOMPARE(files->childCount(), 6);
        QTreeWidgetItem* lib = row(files, "cladi4j36ypubbvpz6huauq37i6kp74kzyvtgpvujebtpsvsci63.wrapper.so");
        QVERIFY(lib);
        QCOMPARE(lib->text(1), QString("shared library · 227.2 KiB"));
        QCOMPARE(lib->text(2), QString("Mach-O 64-bit arm64 shared library (built on macOS)"));

        // Copy as text gives exactly what the CLI prints
        auto described = core::readAotiPackage(path.string());
        QVERIFY(described.isOk());
        QString expected;
        for (const auto& l : core::describeAotiPackage(*described)) expected += QString::fromStdString(l) + '\n';
        QCOMPARE(view->text(), expected);
        QPushButton* copy = nullptr;
        for (auto* b : view->findChildren<QPushButton*>())
            if (b->text() == "Copy as text") copy = b;
        QVERIFY(copy);
        QTest::mouseClick(copy, Qt::LeftButton);
        QCOMPARE(QApplication::clipboard()->text(), expected);
        view->close();
        QTRY_VERIFY(openPackageWindow() == nullptr);
    }
};

QTEST_MAIN(TstPackageView)
#include "tst_package_view.moc"
