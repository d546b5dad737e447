// The module flame graph, driven through the real widget after a real run of a fixture: inclusive
// times add up, widths are proportional to them, clicks select the module's nodes, the selected
// node's path is outlined, double-click zooms and the breadcrumb / Esc zoom back out.
#include "support/gui_test_util.h"
#include "views/run/flame_graph_widget.h"
#include "views/main_window.h"
#include "views/run/run_controller.h"
#include "views/run/run_snapshot.h"

#include <QAction>
#include <QImage>
#include <QSpinBox>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <set>

using namespace irlens;
using namespace irlens::views;

class TstFlameGraph : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void flameOfARun_data();
    void flameOfARun();
    void placeholderBeforeARun();
};

void TstFlameGraph::initTestCase() {
    QCoreApplication::setOrganizationName("irlens-tests");
    QCoreApplication::setApplicationName("tst_flame_graph");
}

void TstFlameGraph::flameOfARun_data() {
    QTest::addColumn<QString>("fixture");
    QTest::addColumn<QString>("deepPath"); // a module three levels down that must be a frame
    QTest::addRow("resnet18") << QString("generated/resnet18/model.pt2") << QString("layer1.0.conv1");
    QTest::addRow("tiny_gpt") << QString("generated/tiny_gpt/model.pt2") << QString("blocks.0.attn.qkv");
}

namespace {
bool near(double a, double b) { return std::abs(a - b) <= 0.01; }

// True when one of the pixels just inside the frame's left border has the accent colour.
bool outlined(const QImage& shot, const QRectF& r, const QColor& accent) {
    for (int dx = 0; dx <= 3; ++dx)
        if (shot.pixelColor(static_cast<int>(r.left()) + dx, static_cast<int>(r.center().y())) == accent) return true;
    return false;
}
} // namespace

void TstFlameGraph::flameOfARun() {
    QFETCH(QString, fixture);
    QFETCH(QString, deepPath);
    IRLENS_REQUIRE_SHARED();
    MainWindow w;
    const QString err = testing::openAndWait(*w.document(), testing::fixture(fixture.toStdString()));
    QVERIFY2(err.isEmpty(), qPrintable(err));
    Document* doc = w.document();
    auto* rc = w.findChild<RunController*>();
    rc->threadsBox()->setValue(1);
    QSignalSpy failed(rc, &RunController::runFailed);
    rc->runAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(doc->runResult() != nullptr || !failed.isEmpty(), 60000);
    QVERIFY(failed.isEmpty());
    RunSnapshotPtr run = doc->runResult();

    FlameGraphWidget* fg = rc->flameGraph();
    QVERIFY(fg);
    fg->resize(1200, fg->minimumHeight());
    const FlameTree& tree = fg->tree();
    QVERIFY(tree.size() > static_cast<int>(run->nodes.size())); // the root and some modules besides the leaves

    // the root is the whole run; every frame is the sum of its children, and of its submodules plus self
    QCOMPARE(tree.frame(0).inclusiveNs, run->totalSelfNs());
    QCOMPARE(tree.frame(0).nodes.size(), run->nodes.size());
    int modules = 0;
    for (int f = 0; f < tree.size(); ++f) {
        const FlameFrame& fr = tree.frame(f);
        if (fr.isLeaf()) {
            QCOMPARE(fr.inclusiveNs, run->nodeNs(fr.node));
            QVERIFY(fr.children.empty());
            // the leaf hangs under its node's innermost module
            const auto it = std::find_if(run->nodes.begin(), run->nodes.end(), [&](const RunNode& n) { return n.node == fr.node; });
            QCOMPARE(tree.frame(fr.parent).path, it->modulePath);
            continue;
        }
        ++modules;
        int64_t children = 0, submodules = 0;
        for (int c : fr.children) {
            children += tree.frame(c).inclusiveNs;
            if (!tree.frame(c).isLeaf()) submodules += tree.frame(c).inclusiveNs;
            QCOMPARE(tree.frame(c).parent, f);
            QCOMPARE(tree.frame(c).depth, fr.depth + 1);
            if (f > 0 && !tree.frame(c).isLeaf()) // nn_module_stack paths nest
                QVERIFY2(tree.frame(c).path.rfind(fr.path + ".", 0) == 0, tree.frame(c).path.c_str());
        }
        QCOMPARE(fr.inclusiveNs, children);
        QCOMPARE(fr.inclusiveNs, submodules + fr.selfNs);
        QVERIFY(fr.hottestNode >= 0);
        QVERIFY(tree.isWithin(tree.leafOfNode(fr.hottestNode), f));
    }
    QVERIFY(modules > 3);
    if (!deepPath.isEmpty()) {
        const int deep = tree.findPath(deepPath.toStdString());
        QVERIFY2(deep > 0, qPrintable(deepPath));
        QCOMPARE(tree.frame(deep).depth, 3);
        QStringList labels;
        for (int f : tree.chain(deep)) labels << tree.frame(f).label;
        // each label is the path below its parent's; a ModuleList that never ran has no frame
        const QStringList want = fixture.contains("resnet18") ? QStringList({"whole run", "layer1", "0", "conv1"})
                                                              : QStringList({"whole run", "blocks.0", "attn", "qkv"});
        QCOMPARE(labels, want);
    }

    // widths proportional to inclusive times, children inside their parent's column, one row per level
    QRectF plot = fg->plotRect();
    const double root = static_cast<double>(tree.frame(0).inclusiveNs);
    QVERIFY(near(fg->frameRect(0).width(), plot.width()));
    for (int f = 1; f < tree.size(); ++f) {
        const QRectF r = fg->frameRect(f), pr = fg->frameRect(tree.frame(f).parent);
        QVERIFY2(near(r.width(), plot.width() * static_cast<double>(tree.frame(f).inclusiveNs) / root), qPrintable(QString::number(f)));
        QVERIFY(r.left() >= pr.left() - 0.01 && r.right() <= pr.right() + 0.01);
        QVERIFY(near(r.top(), pr.bottom()));
    }

    // the hottest top-level module: a click outlines its nodes in the graph and selects its hottest node
    int top = -1;
    for (int c : tree.frame(0).children)
        if (!tree.frame(c).isLeaf() && (top < 0 || tree.frame(c).inclusiveNs > tree.frame(top).inclusiveNs)) top = c;
    QVERIFY(top > 0);
    const FlameFrame& mod = tree.frame(top);
    QCOMPARE(fg->frameAt(fg->frameRect(top).center()), top);
    QTest::mouseClick(fg, Qt::LeftButton, {}, fg->frameRect(top).center().toPoint());
    QCOMPARE(fg->selectedFrame(), top);
    QCOMPARE(std::set<int>(doc->searchHits().begin(), doc->searchHits().end()), std::set<int>(mod.nodes.begin(), mod.nodes.end()));
    QCOMPARE(doc->selectedNode(), mod.hottestNode);
    QCOMPARE(fg->highlightedPath(), tree.chain(top));
    QVERIFY(fg->tooltipOf(top).contains(QString::number(100.0 * static_cast<double>(mod.inclusiveNs) / root, 'f', 1) + " % of the run"));

    // a leaf: selects its node and drops the module's outline
    int leaf = -1;
    for (int f = 0; f < tree.size(); ++f)
        if (tree.frame(f).isLeaf() && (leaf < 0 || tree.frame(f).inclusiveNs > tree.frame(leaf).inclusiveNs)) leaf = f;
    QTest::mouseClick(fg, Qt::LeftButton, {}, fg->frameRect(leaf).center().toPoint());
    QCOMPARE(doc->selectedNode(), tree.frame(leaf).node);
    QVERIFY(doc->searchHits().empty());
    // hits the search set after a module click are the search's: a leaf click leaves them alone
    QTest::mouseClick(fg, Qt::LeftButton, {}, fg->frameRect(top).center().toPoint());
    doc->setSearchHits({tree.frame(leaf).node});
    QTest::mouseClick(fg, Qt::LeftButton, {}, fg->frameRect(leaf).center().toPoint());
    QCOMPARE(doc->searchHits(), std::vector<int>{tree.frame(leaf).node});
    doc->setSearchHits({});

    // a node selected elsewhere: its path is outlined in the accent colour, other frames are not
    const int other = run->nodes.back().node;
    doc->selectNode(other);
    const std::vector<int> path = tree.chain(tree.leafOfNode(other));
    QCOMPARE(fg->highlightedPath(), path);
    const QImage shot = fg->grab().toImage();
    if (qEnvironmentVariableIsSet("IRLENS_SHOT_DIR")) shot.save(qEnvironmentVariable("IRLENS_SHOT_DIR") + "/flame_" + QTest::currentDataTag() + ".png");
    const QColor accent = fg->palette().color(QPalette::Highlight);
    for (int f : path)
        if (fg->frameRect(f).width() > 8) QVERIFY2(outlined(shot, fg->frameRect(f), accent), qPrintable(tree.frame(f).label));
    for (int c : tree.frame(0).children)
        if (std::find(path.begin(), path.end(), c) == path.end() && fg->frameRect(c).width() > 8)
            QVERIFY2(!outlined(shot, fg->frameRect(c), accent), qPrintable(tree.frame(c).label));

    // double-click zooms into the module: it spans the plot, its children scale with it, the rest is gone
    QTest::mouseDClick(fg, Qt::LeftButton, {}, fg->frameRect(top).center().toPoint());
    QCOMPARE(fg->zoomFrame(), top);
    plot = fg->plotRect(); // the widget may have been resized by the grab above
    QVERIFY2(near(fg->frameRect(top).width(), plot.width()), qPrintable(QString("%1 vs %2").arg(fg->frameRect(top).width()).arg(plot.width())));
    QVERIFY(near(fg->frameRect(top).top(), plot.top()));
    for (int c : mod.children)
        QVERIFY(near(fg->frameRect(c).width(), plot.width() * static_cast<double>(tree.frame(c).inclusiveNs) / static_cast<double>(mod.inclusiveNs)));
    for (int c : tree.frame(0).children)
        if (c != top) QVERIFY(fg->frameRect(c).isEmpty());
    QVERIFY(fg->frameRect(0).isEmpty());
    QVERIFY(!fg->breadcrumbRect(1).isEmpty());
    QTest::keyClick(fg, Qt::Key_Escape);
    QCOMPARE(fg->zoomFrame(), 0);
    // two levels down, then the breadcrumb's first segment goes back to the whole run
    int sub = -1;
    for (int c : mod.children) // the widest submodule: a click must land inside it
        if (!tree.frame(c).isLeaf() && (sub < 0 || tree.frame(c).inclusiveNs > tree.frame(sub).inclusiveNs)) sub = c;
    if (sub > 0) {
        fg->zoomTo(top);
        const QRectF sr = fg->frameRect(sub);
        QCOMPARE(fg->frameAt(sr.center()), sub);
        QTest::mouseDClick(fg, Qt::LeftButton, {}, sr.center().toPoint());
        QVERIFY2(fg->zoomFrame() == sub, qPrintable(QString("%1 %2,%3 %4x%5").arg(fg->zoomFrame()).arg(sr.x()).arg(sr.y()).arg(sr.width()).arg(sr.height())));
        QVERIFY(!fg->breadcrumbRect(2).isEmpty());
        QTest::mouseClick(fg, Qt::LeftButton, {}, fg->breadcrumbRect(0).center().toPoint());
        QCOMPARE(fg->zoomFrame(), 0);
    }
}

void TstFlameGraph::placeholderBeforeARun() {
    MainWindow w;
    w.openExample();
    QVERIFY(testing::waitForLayout(*w.document()));
    auto* fg = w.findChild<RunController*>()->flameGraph();
    QVERIFY(fg->tree().empty());
    QCOMPARE(fg->frameAt(QPointF(10, 30)), -1);
    // a run of the example: the root holds every node that ran
    auto* rc = w.findChild<RunController*>();
    rc->run();
    QTRY_VERIFY_WITH_TIMEOUT(w.document()->runResult() != nullptr, 30000);
    QCOMPARE(fg->tree().frame(0).nodes.size(), w.document()->runResult()->nodes.size());
    // a new program clears it
    w.openExample();
    QVERIFY(fg->tree().empty());
}

QTEST_MAIN(TstFlameGraph)
#include "tst_flame_graph.moc"
