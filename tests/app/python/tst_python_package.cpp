// The irlens Python package (app/python) under /usr/bin/python3: python_package_check.py on a program
// built here (a GPT-shaped one) and on tiny_gpt when ../shared is there, with the built irlens-cli and
// irlens (offscreen). Skips when /usr/bin/python3 is absent.
#include "core/io/pt2_writer.h"
#include "support/gpt_program.h"
#include "support/shared_fixtures.h"

#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

class TstPythonPackage : public QObject {
    Q_OBJECT
private slots:
    void asANotebookUses_data();
    void asANotebookUses();
};

void TstPythonPackage::asANotebookUses_data() {
    QTest::addColumn<QString>("fixture");
    QTest::addColumn<QString>("node");
    QTest::addColumn<QString>("op"); // as the drawing labels the node's box
    QTest::addRow("built") << "" << "softmax_0" << "_softmax";
    QTest::addRow("tiny_gpt") << "generated/tiny_gpt/model.pt2" << "_softmax" << "_softmax";
}

void TstPythonPackage::asANotebookUses() {
    QFETCH(QString, fixture);
    QFETCH(QString, node);
    QFETCH(QString, op);
    if (!QFileInfo::exists("/usr/bin/python3")) QSKIP("/usr/bin/python3 is not there");
    QTemporaryDir dir;
    QString program = dir.path() + "/gpt.pt2";
    if (fixture.isEmpty()) {
        QVERIFY(irlens::core::savePt2(*irlens::testing::makeTinyGptLike(2), program.toStdString()));
    } else {
        if (!irlens::testing::haveShared()) QSKIP("../shared is absent: only the program built here is used");
        program = QString::fromStdString(irlens::testing::fixture(fixture.toStdString()).string());
    }
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("PYTHONPATH", QString(IRLENS_SOURCE_DIR) + "/app/python");
    env.insert("IRLENS_CLI", QString(IRLENS_BINARY_DIR) + "/app/irlens-cli");
    env.insert("IRLENS_GUI", QString(IRLENS_BINARY_DIR) + "/app/irlens");
    env.insert("QT_QPA_PLATFORM", "offscreen");
    env.insert("HOME", dir.path()); // irlens keeps its settings there, not in the user's
    QProcess python;
    python.setProcessEnvironment(env);
    python.setProcessChannelMode(QProcess::MergedChannels);
    python.start("/usr/bin/python3", {QString(IRLENS_SOURCE_DIR) + "/tests/app/python/python_package_check.py", program, node, op});
    QVERIFY(python.waitForStarted(10000));
    QVERIFY(python.waitForFinished(300000));
    const QByteArray out = python.readAll();
    qInfo("%s", out.constData());
    QVERIFY2(python.exitCode() == 0, out.constData());
    QVERIFY(out.contains("ok    python3 -m irlens --version: irlens "));
}

QTEST_GUILESS_MAIN(TstPythonPackage)
#include "tst_python_package.moc"
