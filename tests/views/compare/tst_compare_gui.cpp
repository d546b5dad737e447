// The Compare window driven as a user would: File › Compare with… (the file dialog answered), the
// differences list clicked, both graph views checked for the matched selection, the colour marks and
// the first divergence; selection, module expansion and decomposition levels mirrored.

#include "core/io/pt2_reader.h"
#include "support/gui_test_util.h"
#include "views/compare/compare_models.h"
#include "views/compare/compare_window.h"
#include "views/compare/diff_overlay.h"
#include "views/graph/graph_items.h"
#include "views/graph/graph_scene.h"
#include "views/graph/graph_view.h"
#include "views/main_window.h"

#include <QAbstractItemModelTester>
#include <QFileDialog>
#include <QLineEdit>
#include <QMenuBar>
#include <QTableView>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace irlens;
using namespace irlens::views;

namespace {

QAction* findAction(QMenu* menu, const QString& text) {
    for (QAction* a : menu->actions()) {
        if (a->text().remove('&') == text) return a;
        if (a->menu())
            if (QAction* inner = findAction(a->menu(), text)) return inner;
    }
    return nullptr;
}

QMenu* fileMenu(MainWindow& w) {
    for (QAction* a : w.menuBar()->actions())
        if (a->text().remove('&') == "File") return a->menu();
    return nullptr;
}

bool waitCompared(CompareWindow* w, int timeoutMs = 60000) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs) {
        if (w->match() && !w->isBusy() && w->leftDocument()->layout() && w->rightDocument()->layout() &&
            !w->leftScene()->isBuilding() && !w->rightScene()->isBuilding())
            return true;
        QTest::qWait(20);
    }
    return false;
}

int nodeNamed(const core::Program& p, const std::string& module, const std::string& op) {
    for (size_t k = 0; k < p.graph.nodes.size(); ++k) {
        const auto& n = p.graph.nodes[k];
        if (n.target.op() == op && n.meta.moduleStack && n.meta.moduleStack->back().path == module) return static_cast<int>(k);
    }
    return -1;
}

} // namespace

class TstCompareGui : public QObject {
    Q_OBJECT
private slots:
    void compareWithFileSelectsBothSides() {
        IRLENS_REQUIRE_SHARED();
        MainWindow mw;
        mw.show();
        QCOMPARE(testing::openAndWait(*mw.document(), testing::fixture("generated/tiny_gpt/model.pt2")), QString());
        QAction* compare = findAction(fileMenu(mw), "Compare with…");
        QVERIFY(compare);
        testing::answerFileDialog(QString::fromStdString(testing::fixture("generated/tiny_gpt_edit/model.pt2").string()));
        compare->trigger();
        auto* cw = mw.findChild<CompareWindow*>();
        QVERIFY(cw);
        QVERIFY(cw->isVisible());
        QVERIFY(waitCompared(cw));
        QAbstractItemModelTester tester(cw->differenceModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(cw->differenceModel()->rowCount(), 51); // the swapped activation + the fifth block's 50 nodes

        const int gelu = nodeNamed(*cw->match()->left, "blocks.2.act", "gelu");
        const int silu = nodeNamed(*cw->match()->right, "blocks.2.act", "silu");
        QVERIFY(gelu >= 0 && silu >= 0);
        // click the changed row in the list: both views select the matched nodes
        const int row = cw->differenceModel()->rowOfPair(cw->match()->leftPair[static_cast<size_t>(gelu)]);
        QVERIFY(row >= 0);
        QTableView* list = cw->differenceView();
        list->scrollTo(cw->differenceModel()->index(row, 0));
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {},
                          list->visualRect(cw->differenceModel()->index(row, DifferenceModel::Left)).center());
        QCOMPARE(cw->leftDocument()->selectedNode(), gelu);
        QCOMPARE(cw->rightDocument()->selectedNode(), silu);
        // the boxes carry the marks: changed on both sides, added in blocks.4 on the right
        QCOMPARE(cw->leftOverlay()->markOf(cw->leftScene()->itemForNode(gelu)), int(core::MatchKind::Changed));
        QCOMPARE(cw->rightOverlay()->markOf(cw->rightScene()->itemForNode(silu)), int(core::MatchKind::Changed));
        const int added = nodeNamed(*cw->match()->right, "blocks.4.act", "gelu");
        QCOMPARE(cw->rightOverlay()->markOf(cw->rightScene()->itemForNode(added)), int(core::MatchKind::Added));
        QCOMPARE(cw->leftOverlay()->markOf(cw->leftScene()->itemForNode(0)), -1);

        // the values: the numeric job marks the activation as the first divergence
        QSignalSpy numeric(cw, &CompareWindow::divergenceReady);
        QVERIFY(cw->divergence() || numeric.wait(60000));
        QVERIFY(cw->divergence() && cw->divergence()->firstDivergent());
        QTRY_VERIFY(cw->leftOverlay()->isDivergent(cw->leftScene()->itemForNode(gelu)));
        QVERIFY(cw->rightOverlay()->isDivergent(cw->rightScene()->itemForNode(silu)));
    }

    void selectionAndModulesFollow() {
        IRLENS_REQUIRE_SHARED();
        CompareWindow cw;
        cw.show();
        auto left = core::loadPt2(testing::fixture("generated/tiny_gpt/model.pt2").string());
        auto right = core::loadPt2(testing::fixture("generated/tiny_gpt_edit/model.pt2").string());
        QVERIFY(left && right);
        cw.comparePrograms(*left, *right);
        QVERIFY(waitCompared(&cw));
        // click a box in the left view: the right view selects its match (a node of another name)
        const int ln2 = nodeNamed(**left, "blocks.3.ln2", "native_layer_norm");
        NodeItem* box = cw.leftScene()->itemForNode(ln2);
        QVERIFY(box);
        cw.leftView()->centerOn(box);
        QTest::mouseClick(cw.leftView()->viewport(), Qt::LeftButton, {},
                          cw.leftView()->mapFromScene(box->sceneBoundingRect().center()));
        QCOMPARE(cw.leftDocument()->selectedNode(), ln2);
        QCOMPARE(cw.rightDocument()->selectedNode(), nodeNamed(**right, "blocks.3.ln2", "native_layer_norm"));
        // collapsing blocks.1 on the right collapses it on the left
        const int leftModule = cw.leftDocument()->scope().tree->find("blocks.1");
        const int rightModule = cw.rightDocument()->scope().tree->find("blocks.1");
        QVERIFY(cw.leftDocument()->scope().collapse.isExpanded(leftModule));
        cw.rightDocument()->setModuleExpanded(rightModule, false);
        QTRY_VERIFY_WITH_TIMEOUT(!cw.leftDocument()->scope().collapse.isExpanded(leftModule), 20000);
        // the folded box on the left carries the mark of nothing changed inside it
        QVERIFY(waitCompared(&cw));
        QCOMPARE(cw.leftOverlay()->markOf(cw.leftScene()->itemForNode(nodeNamed(**left, "blocks.1.act", "gelu"))), -1);
    }

    void compareWithPrimsLevel() {
        testing::zooDir();
        MainWindow mw;
        mw.show();
        QCOMPARE(testing::openAndWait(*mw.document(), testing::fixture("zoo/mlp_training/model.pt2")), QString());
        QAction* prims = findAction(fileMenu(mw), "Prims");
        QVERIFY(prims);
        prims->trigger();
        auto* cw = mw.findChild<CompareWindow*>();
        QVERIFY(cw && waitCompared(cw));
        QCOMPARE(cw->match()->method, core::ProgramMatch::Method::Decomposition);
        QCOMPARE(cw->match()->count(core::MatchKind::Added), size_t(0));
        // every linear was replaced: selecting it selects the first of its replacements on the right
        const int linear = 0;
        cw->leftDocument()->selectNode(linear);
        const auto& pair = cw->match()->pairs[static_cast<size_t>(cw->match()->leftPair[linear])];
        QVERIFY(pair.right.size() > 1);
        QCOMPARE(cw->rightDocument()->selectedNode(), pair.right.front());
        QSignalSpy numeric(cw, &CompareWindow::divergenceReady);
        QVERIFY(cw->divergence() || numeric.wait(60000));
        QVERIFY2(cw->divergence() && !cw->divergence()->firstDivergent(), "a decomposition must not change the values");
    }
};

QTEST_MAIN(TstCompareGui)
#include "tst_compare_gui.moc"
