// The guided tour, walked as a learner does it: every stop's task done with real clicks and keys on
// the real panes (graph boxes, chips, the search field, Signature and Diagnostics rows, the
// Decomposition pane's buttons, the card's answer field), after a wrong attempt that must not let the
// learner go on. Then skipping, going back, leaving and resuming (also in a new window).
#include "teach_gui_util.h"

#include "core/teach/tour.h"
#include "views/decomp/decomp_pane.h"
#include "views/inspect/table_pane.h"
#include "views/settings_writer.h"
#include "views/teach/learn_launcher.h"
#include "views/teach/spec_reference.h"
#include "views/teach/tour_controller.h"
#include "views/teach/tour_overlay.h"

#include <QAbstractButton>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QPushButton>
#include <QSettings>
#include <QTreeView>

using namespace irlens;
using namespace irlens::views;

namespace {

QTreeView* tableOf(MainWindow& w, const char* dock) {
    auto* pane = qobject_cast<TablePane*>(w.dockNamed(dock)->widget());
    return pane ? pane->view() : nullptr;
}

void typeAnswer(TourController* tour, const QString& text) {
    QLineEdit* field = tour->card()->answer();
    QTest::mouseClick(field, Qt::LeftButton);
    field->selectAll();
    QTest::keyClick(field, Qt::Key_Backspace);
    QTest::keyClicks(field, text);
    QTest::keyClick(field, Qt::Key_Return);
}

// A wrong attempt: the task stays undone, Next stays disabled and a click on it does not move on.
void checkRefused(TourController* tour, bool expectFeedback) {
    const int at = tour->current();
    // the attempt is judged once the click is handled
    if (expectFeedback) QTRY_VERIFY2(tour->card()->tone() == TourCard::Tone::Wrong, tour->stop()->id);
    else QTest::qWait(50);
    QVERIFY2(!tour->isDone(), tour->stop()->id);
    QVERIFY(!tour->card()->nextButton()->isEnabled());
    QTest::mouseClick(tour->card()->nextButton(), Qt::LeftButton);
    QCOMPARE(tour->current(), at);
    if (expectFeedback)
        QVERIFY2(tour->card()->feedback()->text().contains(QString::fromUtf8(tour->stop()->hint)),
                 qPrintable(tour->card()->feedback()->text()));
}

QString nodeWithTarget(MainWindow& w, const std::string& key) {
    for (const auto& n : w.document()->program()->graph.nodes)
        if (n.target.key() == key) return QString::fromStdString(n.name);
    return {};
}

QAbstractButton* buttonLabelled(QWidget* parent, const QString& text) {
    for (auto* b : parent->findChildren<QAbstractButton*>())
        if (b->text().remove('&') == text) return b;
    return nullptr;
}

} // namespace

class TstTourGui : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void walkTheWholeTour();
    void skipBackLeaveResume();

private:
    void doWrong(MainWindow& w, TourController* tour);
    void doRight(MainWindow& w, TourController* tour);
};

void TstTourGui::initTestCase() {
    QCoreApplication::setOrganizationName("irlens-tests");
    QCoreApplication::setApplicationName("tst_tour_gui");
    QSettings().clear();
}

void TstTourGui::doWrong(MainWindow& w, TourController* tour) {
    const std::string id = tour->stop()->id;
    bool feedback = true;
    if (id == "exported_program") typeAnswer(tour, "TRAINING");
    else if (id == "graph") QVERIFY(testing::clickNode(w, "relu"));
    else if (id == "opcodes") QVERIFY(testing::clickNode(w, "convolution"));
    else if (id == "targets") QVERIFY(testing::clickNode(w, "mul"));
    else if (id == "args_kwargs") QVERIFY(testing::clickNode(w, "relu"));
    else if (id == "meta_val") typeAnswer(tour, "float32");
    else if (id == "provenance") QVERIFY(testing::clickNode(w, "convolution"));
    else if (id == "signature") typeAnswer(tour, "17");
    else if (id == "lifted_state") QVERIFY(testing::clickPlaceholder(w, "in:p_stem_bn_weight"));
    else if (id == "symbolic") QVERIFY(testing::clickPlaceholder(w, "in:p_fc1_weight"));
    else if (id == "ranges") typeAnswer(tour, "2");
    else if (id == "functional") QVERIFY(testing::clickNode(w, "linear"));
    else if (id == "buffer_mutation") QVERIFY(testing::clickNode(w, "add")); // written back to steps, not running_mean
    else if (id == "prims") QVERIFY(testing::clickNode(w, "mean"));
    else feedback = false; // a step, a subgraph, a rule: nothing done yet
    if (!QTest::currentTestFailed()) checkRefused(tour, feedback);
}

void TstTourGui::doRight(MainWindow& w, TourController* tour) {
    const std::string id = tour->stop()->id;
    Document* doc = w.document();
    if (id == "exported_program") {
        typeAnswer(tour, "ATEN");
    } else if (id == "graph") {
        QVERIFY(testing::clickNode(w, "convolution"));
    } else if (id == "opcodes") {
        QVERIFY(testing::clickPlaceholder(w, "in:x"));
    } else if (id == "targets") {
        QVERIFY(testing::clickNode(w, "add"));
    } else if (id == "args_kwargs") {
        // Ctrl+F, type, Enter: the search selects the first hit
        QTest::keyClick(&w, Qt::Key_F, Qt::ControlModifier);
        QLineEdit* search = w.graphPane()->searchField();
        QTRY_VERIFY(search->hasFocus());
        QTest::keyClicks(search, "clone");
        QTest::keyClick(search, Qt::Key_Return);
    } else if (id == "meta_val") {
        typeAnswer(tour, "int64");
    } else if (id == "provenance") {
        QVERIFY(testing::clickNode(w, "addmm_4"));
    } else if (id == "signature") {
        typeAnswer(tour, "18");
    } else if (id == "lifted_state") {
        QVERIFY(testing::clickPlaceholder(w, "in:b_stem_bn_running_var"));
    } else if (id == "symbolic") {
        QVERIFY(testing::clickNode(w, "linear_1"));
    } else if (id == "ranges") {
        typeAnswer(tour, "64");
    } else if (id == "functional") {
        QVERIFY(testing::clickNode(w, "relu_"));
    } else if (id == "verifier") {
        QTreeView* diagnostics = tableOf(w, "diagnostics");
        QTRY_COMPARE(diagnostics->model()->rowCount(), 1);
        QTRY_VERIFY(diagnostics->isVisible());
        QVERIFY(testing::clickRow(diagnostics, 1, "EIR-D001", true));
        QVERIFY(w.specReference() && w.specReference()->isVisible());
        QCOMPARE(w.specReference()->currentRule(), QString("EIR-D001"));
    } else if (id == "to_core") {
        QVERIFY(testing::clickNode(w, "linear"));
        auto* decomp = qobject_cast<DecompPane*>(w.dockNamed("decomposition")->widget());
        QTRY_VERIFY(decomp->stepButton()->isEnabled());
        QTest::mouseClick(decomp->stepButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!decomp->isBusy() && doc->nodeIndexOf("linear") < 0, 30000);
    } else if (id == "buffer_mutation") {
        // the Signature pane's BUFFER_MUTATION row of running_mean leads to the node
        QVERIFY(testing::clickRow(tableOf(w, "signature"), 1, "BUFFER_MUTATION", false, 2, "running_mean"));
    } else if (id == "prims") {
        auto* decomp = qobject_cast<DecompPane*>(w.dockNamed("decomposition")->widget());
        QAbstractButton* prims = buttonLabelled(decomp, "Prims");
        QVERIFY(prims);
        QTest::mouseClick(prims, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!decomp->isBusy() && !nodeWithTarget(w, "prims::convert_element_type.default").isEmpty(), 30000);
        QVERIFY(testing::clickNode(w, nodeWithTarget(w, "prims::convert_element_type.default")));
    } else if (id == "hop_cond") {
        QVERIFY(testing::clickNode(w, "cond", true));
        QTRY_COMPARE(doc->scopes().size(), size_t(2));
    } else {
        QFAIL(id.c_str());
    }
    QTRY_VERIFY2(tour->isDone(), tour->stop()->id);
    QCOMPARE(tour->card()->tone(), TourCard::Tone::Done);
    QVERIFY(tour->card()->nextButton()->isEnabled());
}

void TstTourGui::walkTheWholeTour() {
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    // Help › Tour of the Export IR, from the menu
    w.learn()->tourAction()->trigger();
    TourController* tour = w.learn()->tour();
    QVERIFY(tour && tour->isActive() && tour->card()->isVisible() && tour->overlay()->isVisible());
    QCOMPARE(tour->current(), 0);
    const auto& stops = core::teach::tourStops();
    for (size_t k = 0; k < stops.size(); ++k) {
        QCOMPARE(tour->current(), static_cast<int>(k));
        QVERIFY(testing::waitForScene(w));
        QCOMPARE(QString::fromStdString(w.document()->program()->modelName).section('_', 0, 0), QString::fromUtf8(stops[k].program));
        // the card names the stop and the overlay outlines its pane
        QVERIFY(tour->card()->heading()->text().contains(QString("Stop %1 of %2").arg(k + 1).arg(stops.size())));
        QVERIFY(tour->card()->text()->text().contains("<b>"));
        QTRY_VERIFY(!tour->overlay()->paneRect().isEmpty());
        if (*stops[k].focus && !QString::fromUtf8(stops[k].focus).startsWith("in:"))
            QTRY_VERIFY2(!tour->overlay()->focusRect().isEmpty(), stops[k].id);
        doWrong(w, tour);
        if (QTest::currentTestFailed()) return;
        doRight(w, tour);
        if (QTest::currentTestFailed()) return;
        QTest::mouseClick(tour->card()->nextButton(), Qt::LeftButton);
    }
    QVERIFY(tour->isFinished());
    QVERIFY(tour->card()->heading()->text().contains("The tour is done"));
    QCOMPARE(tour->doneStops().size(), static_cast<qsizetype>(stops.size()));
    QTest::mouseClick(tour->card()->nextButton(), Qt::LeftButton); // Close
    QVERIFY(!tour->isActive() && !tour->card()->isVisible() && !tour->overlay()->isVisible());
}

void TstTourGui::skipBackLeaveResume() {
    QSettings().clear();
    {
        MainWindow w;
        w.resize(1366, 768);
        w.show();
        w.learn()->startTour();
        TourController* tour = w.learn()->tour();
        QCOMPARE(tour->current(), 0);
        QTest::mouseClick(tour->card()->skipButton(), Qt::LeftButton);
        QTest::mouseClick(tour->card()->skipButton(), Qt::LeftButton);
        QCOMPARE(tour->current(), 2);
        QVERIFY(!tour->isDone());
        QTest::mouseClick(tour->card()->backButton(), Qt::LeftButton);
        QCOMPARE(tour->current(), 1);
        QTest::mouseClick(tour->card()->leaveButton(), Qt::LeftButton);
        QVERIFY(!tour->isActive() && !tour->card()->isVisible());
        // resumed where it was left, in the same window
        w.learn()->tourAction()->trigger();
        QVERIFY(tour->isActive());
        QCOMPARE(tour->current(), 1);
        QTest::mouseClick(tour->card()->skipButton(), Qt::LeftButton);
        QTest::mouseClick(tour->card()->leaveButton(), Qt::LeftButton);
        waitForSettingWrites();
    }
    // and in a new one, from the settings
    MainWindow w;
    w.show();
    w.learn()->startTour();
    QCOMPARE(w.learn()->tour()->current(), 2);
    QCOMPARE(QString::fromUtf8(w.learn()->tour()->stop()->id), QString("opcodes"));
    QVERIFY(testing::waitForScene(w));
    QCOMPARE(w.document()->program()->modelName, std::string("example"));
}

QTEST_MAIN(TstTourGui)
#include "tst_tour_gui.moc"
