// The HTML report in a real browser: irlens-cli report writes it, headless Chromium opens it and
// browser_check.py uses it over the DevTools protocol (real clicks and keys): it loads without a
// console error, a click on a box shows that node's target, search finds softmax, a block module
// opens, the profile and heatmap are there. On a GPT-shaped program built here, and on tiny_gpt and
// llama_deep (12,174 nodes, which must stay responsive) when ../shared is there. Skips without Chromium.
#include "core/io/pt2_writer.h"
#include "support/cli_runner.h"
#include "support/gpt_program.h"
#include "support/shared_fixtures.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

namespace {

QString chromium() {
    const QString chosen = qEnvironmentVariable("IRLENS_CHROMIUM");
    if (!chosen.isEmpty()) return chosen;
    for (const char* name : {"chromium", "chromium-browser", "google-chrome"}) {
        const QString found = QStandardPaths::findExecutable(name);
        if (!found.isEmpty()) return found;
    }
    return {};
}

} // namespace

class TstReportBrowser : public QObject {
    Q_OBJECT
private slots:
    void usedInTheBrowser_data();
    void usedInTheBrowser();
};

void TstReportBrowser::usedInTheBrowser_data() {
    QTest::addColumn<QString>("fixture"); // "" builds the program here
    QTest::addColumn<QString>("module");
    QTest::addColumn<double>("renderLimitMs");
    QTest::addRow("built tiny GPT") << "" << "blocks.0" << 2000.0;
    QTest::addRow("tiny_gpt") << "generated/tiny_gpt/model.pt2" << "blocks.0" << 2000.0;
    QTest::addRow("llama_deep") << "generated/llama_deep/model.pt2" << "layers.0" << 2000.0;
}

void TstReportBrowser::usedInTheBrowser() {
    QFETCH(QString, fixture);
    QFETCH(QString, module);
    QFETCH(double, renderLimitMs);
    const QString browser = chromium();
    if (browser.isEmpty()) QSKIP("Chromium is not installed (apt-get install chromium): the report is not opened in a browser");
    QTemporaryDir dir;
    QString program;
    if (fixture.isEmpty()) {
        program = dir.path() + "/tiny_gpt_like.pt2";
        QVERIFY(irlens::core::savePt2(*irlens::testing::makeTinyGptLike(3), program.toStdString()));
    } else {
        if (!irlens::testing::haveShared()) QSKIP("../shared is absent: only the program built here is opened");
        program = QString::fromStdString(irlens::testing::fixture(fixture.toStdString()).string());
    }
    const QString report = dir.path() + "/report.html";
    const auto made = irlens::testing::runCli({"report", program, "-o", report, "--run", "--repeat", "2"}, 600000);
    QVERIFY2(made.code == 0, qPrintable(made.out + made.err));

    QProcess check;
    QStringList args = {QString(IRLENS_SOURCE_DIR) + "/tests/app/report/browser_check.py", browser, report, "--module", module,
                        "--search", "softmax"};
    const QString shots = qEnvironmentVariable("IRLENS_REPORT_SCREENSHOT_DIR"); // where to keep a screenshot (docs)
    if (!shots.isEmpty()) args << "--screenshot" << shots + "/report-" + QFileInfo(program).dir().dirName() + ".png";
    check.start("/usr/bin/python3", args);
    QVERIFY(check.waitForStarted(10000));
    QVERIFY(check.waitForFinished(600000));
    const QByteArray out = check.readAllStandardOutput();
    QVERIFY2(check.exitCode() != 2, out.constData()); // the browser could not be driven
    const QJsonObject result = QJsonDocument::fromJson(out).object();
    QVERIFY2(!result.isEmpty(), out.constData());
    QVERIFY2(result["console errors"].toArray().isEmpty(), out.constData());
    const QJsonObject checks = result["checks"].toObject();
    for (const char* name : {"data read back", "drawn", "click shows the target", "search", "module opens", "profile and heatmap"}) {
        QVERIFY2(checks.contains(name), name);
        QVERIFY2(checks[name].toObject()["ok"].toBool(), qPrintable(QString(name) + ": " + out));
    }
    // responsive: the first drawing and the drawing with the module open each take well under a frame budget of 2 s
    QVERIFY2(checks["drawn"].toObject()["render ms"].toDouble() < renderLimitMs, out.constData());
    QVERIFY2(checks["module opens"].toObject()["render ms"].toDouble() < renderLimitMs, out.constData());
    QCOMPARE(check.exitCode(), 0);
    qInfo("%s: %s", qPrintable(QTest::currentDataTag()), QJsonDocument(checks).toJson(QJsonDocument::Compact).constData());
}

QTEST_GUILESS_MAIN(TstReportBrowser)
#include "tst_report_browser.moc"
