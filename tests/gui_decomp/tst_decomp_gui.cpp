// The Decomposition pane: its item models, stepping to a level through the Document, undo / redo,
// new nodes outlined in the graph, the selection following the old -> new map, the reason an op
// stays, saving the decomposed program.
#include "../gui/gui_test_util.h"
#include "core/decomp/rules.h"
#include "core/io/pt2_reader.h"
#include "core/ir/example_program.h"
#include "core/ops/op_registry.h"
#include "views/decomp_models.h"
#include "views/decomp_pane.h"
#include "views/document.h"
#include "views/main_window.h"

#include <QAbstractItemModelTester>
#include <QDockWidget>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

using namespace irlens;
using namespace irlens::views;

namespace {

/// Loads the row's program into the document: "example" or a fixture path under fixtures/.
bool load(Document& doc, const QString& which) {
    if (which == "example") {
        doc.setProgram(core::makeExampleProgram(), "example");
        return testing::waitForLayout(doc);
    }
    return testing::openAndWait(doc, testing::fixture(which.toStdString())).isEmpty();
}

bool waitStep(DecompPane& pane) {
    QElapsedTimer t;
    t.start();
    while (pane.isBusy() && t.elapsed() < 60000) QTest::qWait(10);
    return !pane.isBusy();
}

int countAtLevel(const core::Program& p, core::IrLevel level) {
    int n = 0;
    for (const auto& node : p.graph.nodes)
        if (core::OpRegistry::instance().levelOf(node.target) == level) ++n;
    return n;
}

} // namespace

class TestDecompGui : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void stepAllThenUndoRedo_data();
    void stepAllThenUndoRedo();
    void selectionFollowsMap();
    void blockedOpsShowReason();
    void stepOneNodeAndOneOp();
    void saveAsWritesLoadableProgram();
    void mainWindowHasDock();
};

void TestDecompGui::initTestCase() {
    QCoreApplication::setOrganizationName("irlens-tests");
    QCoreApplication::setApplicationName("tst_decomp_gui");
}

void TestDecompGui::stepAllThenUndoRedo_data() {
    QTest::addColumn<QString>("which");
    QTest::addColumn<int>("startLevel"); // IrLevel
    QTest::addColumn<int>("endLevel");
    QTest::addRow("example core->prims") << "example" << int(core::IrLevel::CoreAten) << int(core::IrLevel::Prims);
    QTest::addRow("tiny_mlp training->core") << "generated/tiny_mlp/model.training.pt2" << int(core::IrLevel::Training)
                                             << int(core::IrLevel::CoreAten);
    QTest::addRow("tiny_gpt training->core") << "generated/tiny_gpt/model.training.pt2" << int(core::IrLevel::Training)
                                             << int(core::IrLevel::CoreAten);
}

void TestDecompGui::stepAllThenUndoRedo() {
    QFETCH(QString, which);
    QFETCH(int, startLevel);
    QFETCH(int, endLevel);
    if (which != "example") IRLENS_REQUIRE_SHARED();
    Document doc;
    DecompPane pane(&doc);
    QAbstractItemModelTester opsTester(pane.opsModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester historyTester(pane.historyModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(load(doc, which));
    const core::ProgramPtr original = doc.program();
    const size_t before = original->graph.nodes.size();
    QCOMPARE(int(pane.currentLevel()), startLevel);
    QVERIFY(pane.opsModel()->candidateCount() > 0);
    QCOMPARE(pane.historyModel()->rowCount(), 0);

    QVERIFY(pane.stepAll());
    QVERIFY(waitStep(pane));
    QVERIFY2(doc.program() != original, qPrintable(pane.statusText()));
    QCOMPARE(doc.program(), pane.session()->current());
    QCOMPARE(int(pane.currentLevel()), endLevel);
    if (startLevel == int(core::IrLevel::Training)) QCOMPARE(countAtLevel(*doc.program(), core::IrLevel::Training), 0);
    const size_t after = doc.program()->graph.nodes.size();
    QVERIFY(after != before);
    // the history has the step with its counts and its rules' teaching text
    QCOMPARE(pane.historyModel()->rowCount(), 1);
    QCOMPARE(pane.historyModel()->index(0, DecompHistoryModel::ColNodes).data().toString(),
             QString("%1 → %2").arg(before).arg(after));
    const QString teaching = pane.historyModel()->index(0, 0).data(DecompHistoryModel::TeachingRole).toString();
    const auto* step = pane.session()->history().front();
    QVERIFY(!step->applied.empty());
    QVERIFY2(teaching.contains(QString::fromStdString(step->applied.front().rule->reference)), qPrintable(teaching));
    // nodes made by the step are outlined (search hits) and are exactly the step's new nodes
    QVERIFY(!pane.newNodes().isEmpty());
    QCOMPARE(int(doc.searchHits().size()), int(pane.newNodes().size()));
    for (int k : doc.searchHits()) {
        const auto& node = doc.graph()->nodes[size_t(k)];
        QVERIFY2(pane.newNodes().contains(QString::fromStdString(node.name)), node.name.c_str());
        QVERIFY2(!node.derivedFrom.empty(), node.name.c_str());
    }
    QVERIFY(pane.isModified());

    QVERIFY(pane.undo());
    QCOMPARE(doc.program(), original);
    QCOMPARE(doc.program()->graph.nodes.size(), before);
    QCOMPARE(int(pane.currentLevel()), startLevel);
    QCOMPARE(pane.historyModel()->rowCount(), 0);
    QVERIFY(!pane.isModified());
    QVERIFY(doc.searchHits().empty());

    QVERIFY(pane.redo());
    QCOMPARE(doc.program()->graph.nodes.size(), after);
    QCOMPARE(pane.historyModel()->rowCount(), 1);
    QCOMPARE(int(pane.currentLevel()), endLevel);
    QVERIFY(!doc.searchHits().empty());
    QVERIFY(testing::waitForLayout(doc));
}

void TestDecompGui::selectionFollowsMap() {
    IRLENS_REQUIRE_SHARED();
    Document doc;
    DecompPane pane(&doc);
    QVERIFY(load(doc, "generated/tiny_mlp/model.training.pt2"));
    QVERIFY(doc.selectNodeByName("linear_1"));
    QVERIFY(pane.stepAll());
    QVERIFY(waitStep(pane));
    const auto map = pane.session()->history().back()->oldToNew();
    const auto it = map.find("linear_1");
    QVERIFY(it != map.end() && !it->second.empty());
    QVERIFY(doc.selectedNode() >= 0);
    const std::string selected = doc.graph()->nodes[size_t(doc.selectedNode())].name;
    QCOMPARE(selected, it->second.back());
    QCOMPARE(doc.graph()->nodes[size_t(doc.selectedNode())].derivedFrom, std::string("linear_1"));
    // undo: back to the node it replaced
    QVERIFY(pane.undo());
    QVERIFY(doc.selectedNode() >= 0);
    QCOMPARE(doc.graph()->nodes[size_t(doc.selectedNode())].name, std::string("linear_1"));
}

void TestDecompGui::blockedOpsShowReason() {
    // the example is core ATen with a convolution, which has no prim reference
    Document doc;
    DecompPane pane(&doc);
    QVERIFY(load(doc, "example"));
    auto reasonRow = [&]() -> QModelIndex {
        auto* m = pane.opsModel();
        for (int r = 0; r < m->rowCount(); ++r) {
            const QModelIndex i = m->index(r, DecompOpsModel::ColRule);
            if (i.data(DecompOpsModel::BlockedRole).toBool() && i.data(DecompOpsModel::TargetRole).toString().contains("convolution"))
                return i;
        }
        return {};
    };
    const core::Target conv = core::Target::parse("torch.ops.aten.convolution.default");
    const auto why = core::whyNoRule(conv, core::DecompStage::ToPrims);
    QVERIFY(why.has_value());
    QModelIndex row = reasonRow();
    QVERIFY(row.isValid());
    QCOMPARE(row.data().toString(), QString("stays: %1").arg(QString::fromStdString(*why)));
    QCOMPARE(pane.opsModel()->rowCount(row.siblingAtColumn(0)), 1); // the one convolution node
    // after stepping everything to prims it still stays, and still says why
    QVERIFY(pane.stepAll());
    QVERIFY(waitStep(pane));
    QCOMPARE(int(pane.currentLevel()), int(core::IrLevel::Prims));
    QCOMPARE(pane.opsModel()->candidateCount(), 0);
    row = reasonRow();
    QVERIFY(row.isValid());
    QVERIFY(row.data().toString().contains(QString::fromStdString(*why)));
    QVERIFY(!pane.stepAll()); // nothing left
}

void TestDecompGui::stepOneNodeAndOneOp() {
    IRLENS_REQUIRE_SHARED();
    Document doc;
    DecompPane pane(&doc);
    QVERIFY(load(doc, "generated/tiny_mlp/model.training.pt2"));
    const size_t before = doc.program()->graph.nodes.size();
    // one node, chosen in the graph
    QVERIFY(doc.selectNodeByName("linear"));
    QVERIFY(pane.stepSelectedNode());
    QVERIFY(waitStep(pane));
    QCOMPARE(pane.session()->history().size(), size_t(1));
    QCOMPARE(pane.session()->history().back()->applied.size(), size_t(1));
    QCOMPARE(pane.session()->history().back()->applied.front().oldNode, std::string("linear"));
    // linear_1 and linear_2 are left under their op (the step's own t node may follow it to core)
    auto opRow = [&](const QString& target) -> QModelIndex {
        for (int r = 0; r < pane.opsModel()->rowCount(); ++r) {
            const QModelIndex i = pane.opsModel()->index(r, 0);
            if (i.data(DecompOpsModel::TargetRole).toString() == target && !i.data(DecompOpsModel::BlockedRole).toBool())
                return i;
        }
        return {};
    };
    QModelIndex op = opRow("aten.linear.default");
    QVERIFY(op.isValid());
    QCOMPARE(pane.opsModel()->rowCount(op), 2);
    QCOMPARE(op.siblingAtColumn(DecompOpsModel::ColCount).data().toInt(), 2);
    QCOMPARE(int(pane.currentLevel()), int(core::IrLevel::Training));
    // every node of an op, chosen in the list
    pane.opsView()->setCurrentIndex(op);
    QVERIFY(pane.stepSelectedOp());
    QVERIFY(waitStep(pane));
    QCOMPARE(pane.historyModel()->rowCount(), 2);
    QCOMPARE(pane.session()->history().back()->applied.size(), size_t(2));
    QVERIFY(!opRow("aten.linear.default").isValid());
    // and the rest to core ATen
    if (pane.currentLevel() == core::IrLevel::Training) {
        QVERIFY(pane.stepAll());
        QVERIFY(waitStep(pane));
    }
    QCOMPARE(int(pane.currentLevel()), int(core::IrLevel::CoreAten));
    QCOMPARE(countAtLevel(*doc.program(), core::IrLevel::Training), 0);
    QVERIFY(doc.program()->graph.nodes.size() > before);
}

void TestDecompGui::saveAsWritesLoadableProgram() {
    IRLENS_REQUIRE_SHARED();
    Document doc;
    DecompPane pane(&doc);
    QVERIFY(load(doc, "generated/tiny_mlp/model.training.pt2"));
    QVERIFY(pane.stepToLevel(core::IrLevel::CoreAten));
    QVERIFY(waitStep(pane));
    QVERIFY(pane.isModified());
    QTemporaryDir dir;
    const QString path = dir.filePath("core.pt2");
    QCOMPARE(pane.saveAs(path), QString());
    QVERIFY(!pane.isModified());
    auto back = core::loadPt2(path.toStdString());
    QVERIFY2(back.isOk(), back.error().c_str());
    QCOMPARE((*back)->graph.nodes.size(), doc.program()->graph.nodes.size());
    QCOMPARE(countAtLevel(**back, core::IrLevel::Training), 0);
    // an unwritable place reports the writer's error
    QVERIFY(!pane.saveAs(dir.filePath("no/such/dir/x.pt2")).isEmpty());
}

void TestDecompGui::mainWindowHasDock() {
    MainWindow w;
    w.openExample();
    QVERIFY(testing::waitForLayout(*w.document()));
    auto* dock = w.findChild<QDockWidget*>("decomposition");
    QVERIFY(dock);
    auto* pane = qobject_cast<DecompPane*>(dock->widget());
    QVERIFY(pane);
    QCOMPARE(int(pane->currentLevel()), int(core::IrLevel::CoreAten));
    QVERIFY(pane->opsModel()->candidateCount() > 0);
}

QTEST_MAIN(TestDecompGui)
#include "tst_decomp_gui.moc"
