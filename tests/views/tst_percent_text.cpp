// Percentages in the panes never print a signed zero, and a change carries its sign.

#include "views/percent_text.h"

#include <QTest>

using irlens::views::percentText;
using irlens::views::signedPercentText;

class TstPercentText : public QObject {
    Q_OBJECT
private slots:
    void formats_data() {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("plain");
        QTest::addColumn<QString>("signedText");
        QTest::addRow("negative zero") << -0.0 << "0.0" << "0.0";
        QTest::addRow("a small loss rounds to zero") << -0.04 << "0.0" << "0.0";
        QTest::addRow("a small gain rounds to zero") << 0.04 << "0.0" << "0.0";
        QTest::addRow("a loss") << -5.94 << "-5.9" << "-5.9";
        QTest::addRow("a gain") << 1.25 << "1.3" << "+1.3";
        QTest::addRow("a share") << 88.2 << "88.2" << "+88.2";
    }
    void formats() {
        QFETCH(double, value);
        QFETCH(QString, plain);
        QFETCH(QString, signedText);
        QCOMPARE(percentText(value), plain);
        QCOMPARE(signedPercentText(value), signedText);
    }
};

QTEST_APPLESS_MAIN(TstPercentText)
#include "tst_percent_text.moc"
