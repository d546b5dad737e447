// The UI never freezes: the main window is driven over the biggest fixtures (open, expand all,
// collapse, search, step through hits, enter a HOP subgraph) while a 10 ms timer measures the gaps
// between its ticks. Any gap over 100 ms means the event loop was blocked; the step causing the
// longest gap is named in the failure.
#include "support/shared_fixtures.h"

#include "views/document.h"
#include "views/graph_pane.h"
#include "views/main_window.h"

#include <QElapsedTimer>
#include <QTimer>
#include <QtTest>

using namespace irlens::testing;
using irlens::views::Document;
using irlens::views::MainWindow;

namespace {

constexpr qint64 kMaxGapMs = 100;

/// Ticks every 10 ms and remembers the longest gap, and which step was running when it happened.
class Watchdog : public QObject {
public:
    Watchdog() {
        m_timer.setInterval(10);
        m_timer.setTimerType(Qt::PreciseTimer);
        QObject::connect(&m_timer, &QTimer::timeout, this, [this] { tick(); });
        m_clock.start();
        m_last = 0;
        m_timer.start();
    }
    void setStep(const QString& step) {
        tick();
        m_step = step;
    }
    qint64 worstGap() const { return m_worst; }
    QString worstStep() const { return m_worstStep; }
    QStringList report() const { return m_report; }

private:
    void tick() {
        const qint64 now = m_clock.elapsed();
        const qint64 gap = now - m_last;
        m_last = now;
        if (gap > kMaxGapMs) m_report << QString("%1: %2 ms").arg(m_step).arg(gap);
        if (gap > m_worst) {
            m_worst = gap;
            m_worstStep = m_step;
        }
    }
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0;
    qint64 m_worst = 0;
    QString m_step = "start";
    QString m_worstStep;
    QStringList m_report;
};

// Waits for the step's background work; on a loaded machine big layouts can take minutes, which is not
// a freeze (the event loop keeps ticking), so a step that does not settle is cancelled and noted.
QStringList g_unsettled;

bool settle(Document& doc, const QString& step, int timeoutMs = 20000) {
    QElapsedTimer t;
    t.start();
    QTest::qWait(20);
    while (t.elapsed() < timeoutMs) {
        if (doc.program() && doc.layout() && !doc.isBusy()) return true;
        QTest::qWait(10);
    }
    g_unsettled << step;
    doc.cancel();
    QTest::qWait(50);
    return false;
}

} // namespace

class TestUiResponsive : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void biggestFixtures_data();
    void biggestFixtures();
};

void TestUiResponsive::initTestCase() {
    QCoreApplication::setOrganizationName("irlens-tests");
    QCoreApplication::setApplicationName("tst_ui_responsive");
}

void TestUiResponsive::biggestFixtures_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("query");
    // deep_stack last: its expanded layout cannot be cancelled inside Graphviz and would hold the
    // layout lock for the rows after it.
    QTest::addRow("resnet18") << "generated/resnet18/model.pt2" << "conv";
    QTest::addRow("tiny_gpt") << "generated/tiny_gpt/model.pt2" << "softmax";
    QTest::addRow("cond_branch") << "generated/cond_branch/model.pt2" << "cond";
    QTest::addRow("deep_stack") << "generated/deep_stack/model.pt2" << "addmm";
}

void TestUiResponsive::biggestFixtures() {
    IRLENS_REQUIRE_SHARED();
    QFETCH(QString, file);
    QFETCH(QString, query);
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    Document& doc = *window.document();
    Watchdog dog;

    dog.setStep("open " + file);
    window.openFile(QString::fromStdString(fixture(file.toStdString()).string()));
    if (!settle(doc, "open")) {
        qInfo("%s: worst event-loop gap %lld ms while loading (not finished in 20 s)", qPrintable(file), dog.worstGap());
        QVERIFY2(dog.worstGap() <= kMaxGapMs, qPrintable("event loop blocked: " + dog.report().join("; ")));
        QSKIP("the file did not finish loading in 20 s on this machine; the steps after opening were not driven");
    }

    dog.setStep("expand all");
    doc.expandAll();
    settle(doc, "expand all");

    dog.setStep("search '" + query + "'");
    const int hits = window.graphPane()->search(query);
    QVERIFY(hits > 0);
    QTest::qWait(50);
    dog.setStep("next hit x10");
    for (int i = 0; i < 10; ++i) {
        window.graphPane()->nextHit();
        QTest::qWait(5);
    }

    dog.setStep("select every 50th node");
    const int n = int(doc.graph()->nodes.size());
    for (int i = 0; i < n; i += std::max(1, n / 20)) {
        doc.selectNode(i);
        QTest::qWait(5);
    }

    dog.setStep("collapse all");
    doc.collapseAll();
    settle(doc, "collapse all");

    for (int i = 0; i < n; ++i) {
        if (doc.graph()->nodes[size_t(i)].target.kind != irlens::core::Target::Kind::HigherOrder) continue;
        dog.setStep("enter subgraph");
        if (doc.enterSubgraph(i)) {
            settle(doc, "enter subgraph");
            dog.setStep("leave subgraph");
            doc.leaveSubgraph();
            settle(doc, "leave subgraph");
        }
        break;
    }
    dog.setStep("idle");
    QTest::qWait(100);

    qInfo("%s: worst event-loop gap %lld ms during '%s'%s", qPrintable(file), dog.worstGap(), qPrintable(dog.worstStep()),
          g_unsettled.isEmpty() ? "" : qPrintable("; not settled in time: " + g_unsettled.join(", ")));
    g_unsettled.clear();
    // Measured alone on an idle 2-core machine: worst gaps 14-61 ms (deep_stack's search the worst).
    // On a machine saturated by other builds the same steps reached 100-500 ms, hence RUN_SERIAL in CTest.
    QVERIFY2(dog.worstGap() <= kMaxGapMs, qPrintable("event loop blocked: " + dog.report().join("; ")));
}

QTEST_MAIN(TestUiResponsive)
#include "tst_ui_responsive.moc"
