// Help › Exercises solved one by one with real clicks (a wrong mark first, refused with the exercise's
// hint; then the place the verifier found, which shows the rule and its spec passage), the scoreboard;
// Help › Explain this program with its links; the Ops page sorted; the Node pane's long tooltips wrapped.
#include "teach_gui_util.h"

#include "core/teach/exercises.h"
#include "core/teach/lesson_programs.h"
#include "core/verify/verifier.h"
#include "views/inspect/node_inspector_model.h"
#include "views/inspect/table_pane.h"
#include "views/settings_writer.h"
#include "views/teach/exercises_dialog.h"
#include "views/teach/explain_dialog.h"
#include "views/teach/learn_launcher.h"
#include "views/teach/spec_reference.h"

#include <QApplication>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QToolTip>
#include <QTreeView>
#include <QTreeWidget>

using namespace irlens;
using namespace irlens::views;
using core::teach::Mark;

namespace {

bool clickMark(MainWindow& w, const Mark& m) {
    switch (m.kind) {
    case Mark::Kind::Node: return testing::clickNode(w, QString::fromStdString(m.name));
    case Mark::Kind::Input: return testing::clickPlaceholder(w, "in:" + QString::fromStdString(m.name));
    case Mark::Kind::Output: return testing::clickPlaceholder(w, "out");
    }
    return false;
}

// A place that is not the fault, of another kind when the program has one.
Mark wrongMarkFor(const core::Program& p, const Mark& fault) {
    if (fault.kind != Mark::Kind::Output) return {Mark::Kind::Output, ""};
    return {Mark::Kind::Node, p.graph.nodes.front().name};
}

// Qt's tooltip label for `tip` shown over `over`: whether it wraps its text, and its width.
std::pair<bool, int> shownTip(const QString& tip, QWidget* over) {
    QToolTip::showText(over->mapToGlobal(QPoint(10, 10)), tip, over);
    QTest::qWait(20);
    QLabel* label = nullptr;
    for (QWidget* top : QApplication::topLevelWidgets())
        if (top->inherits("QTipLabel") && top->isVisible()) label = qobject_cast<QLabel*>(top);
    const std::pair<bool, int> shown{label && label->wordWrap(), label ? label->width() : -1};
    QToolTip::hideText();
    QElapsedTimer t;
    t.start();
    while (QToolTip::isVisible() && t.elapsed() < 5000) QTest::qWait(10);
    return shown;
}

} // namespace

class TstLearnGui : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void solveEveryExercise();
    void explainThisProgram();
    void explainSharedFixture();
    void opsPageSorted();
    void nodePaneTooltipsWrap();
};

void TstLearnGui::initTestCase() {
    QCoreApplication::setOrganizationName("irlens-tests");
    QCoreApplication::setApplicationName("tst_learn_gui");
    QSettings().clear();
}

void TstLearnGui::solveEveryExercise() {
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    w.openExample();
    QVERIFY(testing::waitForScene(w));
    w.learn()->exercisesAction()->trigger();
    ExercisesDialog* d = w.learn()->exercises();
    QVERIFY(d && d->isVisible());
    const auto& all = core::teach::exercises();
    QCOMPARE(d->list()->topLevelItemCount(), static_cast<int>(all.size()));
    QVERIFY(d->scoreText().startsWith(QString("Solved 0 of %1").arg(all.size())));
    for (size_t k = 0; k < all.size(); ++k) {
        const core::teach::Exercise& e = all[k];
        // open it from the list (the first from the list page, the others back through "All exercises")
        if (k > 0) {
            QCOMPARE(d->pages()->currentIndex(), 1);
            QTest::mouseClick(d->backButton(), Qt::LeftButton);
        }
        QCOMPARE(d->pages()->currentIndex(), 0);
        QTreeWidgetItem* row = d->list()->topLevelItem(static_cast<int>(k));
        d->list()->scrollToItem(row);
        testing::click(d->list()->viewport(), d->list()->visualItemRect(row).center(), true);
        QCOMPARE(d->current(), static_cast<int>(k));
        QCOMPARE(d->pages()->currentIndex(), 1);
        QVERIFY(testing::waitForScene(w));
        // the findings are held back while the learner looks for the fault
        QTRY_VERIFY(!w.document()->verifierSummary().contains("verifying"));
        QVERIFY2(w.document()->diagnostics().empty(), e.id.c_str());
        QVERIFY(w.document()->verifierSummary().contains("hidden"));
        const core::Program& p = *w.document()->program();
        const auto findings = core::verify(p);
        const core::Diagnostic* finding = core::teach::findingFor(e, findings);
        QVERIFY2(finding, e.id.c_str());
        const Mark fault = core::teach::markOf(p, *finding);
        // a wrong mark is refused with the hint; the score counts it, nothing is solved
        const Mark wrong = wrongMarkFor(p, fault);
        QVERIFY2(clickMark(w, wrong), (e.id + " " + wrong.describe()).c_str());
        QTRY_VERIFY(d->markLabel()->text().contains(QString::fromStdString(wrong.describe())));
        QTest::mouseClick(d->markButton(), Qt::LeftButton);
        const QString refused = d->resultText()->toPlainText();
        QVERIFY2(refused.startsWith("✗") && refused.contains(QString::fromStdString(e.hint)), qPrintable(refused));
        QCOMPARE(d->score(QString::fromStdString(e.id)).marks, 1);
        QVERIFY(d->score(QString::fromStdString(e.id)).result.isEmpty());
        QVERIFY(w.document()->diagnostics().empty());
        // the place the verifier found: right, and the rule with its passage
        QVERIFY2(clickMark(w, fault), (e.id + " " + fault.describe()).c_str());
        QTRY_VERIFY(d->markLabel()->text().contains(QString::fromStdString(fault.describe())));
        QTest::mouseClick(d->markButton(), Qt::LeftButton);
        const QString right = d->resultText()->toPlainText();
        const core::RuleInfo* rule = core::findRule(e.ruleId);
        QVERIFY2(right.startsWith("✓ Right") && right.contains(QString::fromUtf8(rule->passage)), qPrintable(right));
        QVERIFY(!d->markButton()->isEnabled());
        QVERIFY2(!w.document()->diagnostics().empty(), e.id.c_str()); // released
        QCOMPARE(d->score(QString::fromStdString(e.id)).result, QString("solved"));
        QVERIFY(!d->score(QString::fromStdString(e.id)).firstMark);
    }
    QVERIFY2(d->scoreLabel()->text().startsWith(QString("Solved %1 of %1 · 0 at the first mark").arg(all.size())),
             qPrintable(d->scoreLabel()->text()));
    // the scores are remembered
    waitForSettingWrites();
    ExercisesDialog again(&w);
    QCOMPARE(again.scoreText(), d->scoreText());
    // Show the answer selects the fault and counts as shown
    d->resetScores();
    d->openExercise(0);
    QVERIFY(testing::waitForScene(w));
    QTest::mouseClick(d->answerButton(), Qt::LeftButton);
    QCOMPARE(w.document()->selectedNode(), w.document()->nodeIndexOf("relu_"));
    QVERIFY(d->scoreText().contains("1 answers shown") || d->scoreText().contains("1 answer"));
    // Next exercise opens the one after
    QTest::mouseClick(d->nextButton(), Qt::LeftButton);
    QCOMPARE(d->current(), 1);
    QVERIFY(testing::waitForScene(w));
    // closed before the answer: the exercise ends and the findings are shown again
    QTRY_VERIFY(!w.document()->verifierSummary().contains("verifying"));
    QVERIFY(w.document()->diagnosticsWithheld());
    d->hide();
    QVERIFY(!w.document()->diagnosticsWithheld() && !w.document()->diagnostics().empty());
    QCOMPARE(d->current(), -1);
    d->show();
    d->openExercise(1);
    QVERIFY(testing::waitForScene(w));
    // another program: nothing to mark
    w.openExample();
    QVERIFY(!d->markButton()->isEnabled());
    QCOMPARE(d->current(), -1);
}

void TstLearnGui::explainThisProgram() {
    MainWindow w;
    w.show();
    w.document()->setProgram(core::teach::makeCondLesson(), "cond lesson");
    QVERIFY(testing::waitForScene(w));
    w.learn()->explainAction()->trigger();
    ExplainDialog* d = w.learn()->explanation();
    QVERIFY(d && d->isVisible());
    QTRY_VERIFY(!d->sentences().empty());
    const QString text = d->text()->toPlainText();
    QVERIFY2(text.contains("Higher-order ops") && text.contains("true_graph_0 (relu, mul)") && text.contains("false_graph_0 (tanh, sub)"),
             qPrintable(text));
    // a sentence's link selects its node; "show all" outlines every node it names
    QVERIFY(testing::clickAnchor(d->text(), "node:gt"));
    QCOMPARE(w.document()->selectedNode(), w.document()->nodeIndexOf("gt"));
    QVERIFY(testing::clickAnchor(d->text(), "in:x"));
    QCOMPARE(w.document()->selectedItem(), QString("in:x"));
    QVERIFY(testing::clickAnchor(d->text(), "nodes:cond,gt,addmm"));
    QCOMPARE(w.document()->searchHits().size(), size_t(3));
    // a new program is explained anew
    w.document()->setProgram(core::teach::makeDynamicLesson(), "dynamic lesson");
    QTRY_VERIFY(d->text()->toPlainText().contains("2 ≤ s0 ≤ 64"));
    QVERIFY(testing::clickAnchor(d->text(), "sym:s0"));
    QCOMPARE(w.document()->highlightSymbol(), QString("s0"));
}

void TstLearnGui::explainSharedFixture() {
    testing::zooDir();
    MainWindow w;
    w.show();
    QVERIFY(testing::openAndWait(*w.document(), testing::fixture("zoo/buffer_mutation/model.pt2")).isEmpty());
    w.learn()->showExplanation();
    ExplainDialog* d = w.learn()->explanation();
    QTRY_VERIFY(d->text()->toPlainText().contains("add_1 becomes buffer average (b_average, BUFFER_MUTATION)"));
    QVERIFY(testing::clickAnchor(d->text(), "node:add_1"));
    QCOMPARE(w.document()->selectedNode(), w.document()->nodeIndexOf("add_1"));
}

// The Ops page lists the overloads sorted by op (the registry's order put native_dropout first and
// logical_* between bitwise_not and bmm).
void TstLearnGui::opsPageSorted() {
    MainWindow w;
    w.show();
    w.showSpecReference();
    SpecReferenceDialog* d = w.specReference();
    d->showPage(SpecReferenceDialog::Ops);
    auto* pane = d->findChild<TablePane*>();
    QTreeView* ops = nullptr;
    for (auto* p : d->findChildren<TablePane*>())
        if (p->proxy()->sourceModel() == d->opsModel()) ops = p->view();
    QVERIFY(pane && ops);
    QStringList keys;
    for (int r = 0; r < ops->model()->rowCount(); ++r) keys << ops->model()->index(r, 0).data().toString();
    QCOMPARE(keys.size(), d->opsModel()->rowCount());
    QStringList sorted = keys;
    std::sort(sorted.begin(), sorted.end());
    QCOMPARE(keys, sorted);
    QVERIFY(keys.indexOf("aten::native_dropout.default") > keys.indexOf("aten::mul.Tensor"));
    const auto bmm = keys.indexOf("aten::bmm.default");
    QCOMPARE(keys.indexOf("aten::bitwise_xor.Tensor") + 1, bmm);
    QVERIFY(keys.indexOf("aten::logical_and.default") > bmm);
}

// The Node pane's teaching tips are sentences. Qt's tooltip wraps rich text only (plain text only when it
// is wider than the screen), so a long plain tip was one line of about 1,000 px.
void TstLearnGui::nodePaneTooltipsWrap() {
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    w.openExample();
    QVERIFY(testing::waitForLayout(*w.document()));
    w.document()->selectNode(0);
    NodeInspectorModel* m = w.inspectorModel();
    const QModelIndex opcode = m->findRow(QString(), "opcode");
    QVERIFY(opcode.isValid());
    const QString tip = opcode.data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.startsWith("<qt>") && tip.size() > 120, qPrintable(tip));
    QString plain = tip;
    plain.remove("<qt>").remove("</qt>");
    QWidget* over = w.dockNamed("inspector")->widget();
    QVERIFY(over->fontMetrics().horizontalAdvance(plain) > 800);
    const auto [wraps, width] = shownTip(tip, over);
    QVERIFY(wraps);
    QVERIFY2(width > 0 && width <= 600, qPrintable(QString::number(width)));
    // a short value with no tip of its own stays plain text
    const QModelIndex family = m->findRow(QString(), "family");
    QVERIFY(family.isValid());
    QCOMPARE(family.siblingAtColumn(1).data(Qt::ToolTipRole).toString(), family.siblingAtColumn(1).data().toString());
}

QTEST_MAIN(TstLearnGui)
#include "tst_learn_gui.moc"
