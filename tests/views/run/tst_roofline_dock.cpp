// The Roofline dock driven as a user drives it, after a real run: a dot per node that ran and did
// arithmetic (counted from the run's own node records), hovering a dot names its node, a click
// selects it in the Document, a node selected elsewhere gets a ring drawn round its dot, and the
// Profile's "% of roof" column agrees with the dock and says why a node passes 100 %. The axis maths
// and the cell's words on their own, without a widget.
// engine headers (oneTBB) before Qt's
#include "core/exec/engine.h"

#include "core/ir/builder.h"
#include "support/color_distance.h"
#include "support/gui_test_util.h"
#include "views/document.h"
#include "views/main_window.h"
#include "views/run/profile_table_model.h"
#include "views/run/roofline_dock.h"
#include "views/run/roofline_plot.h"
#include "views/run/run_controller.h"

#include <QDockWidget>
#include <QLabel>
#include <QSettings>
#include <QSpinBox>
#include <QTest>
#include <QToolTip>

#include <cmath>

using namespace irlens;
using namespace irlens::views;

namespace {

// x @ w -> relu, plus a transpose (a view) and a sum (a reduction): arithmetic of three families and a view.
core::ProgramPtr builtProgram() {
    core::ProgramBuilder b;
    const core::TensorMeta square = core::makeTensorMeta(core::ScalarType::Float32, std::vector<int64_t>{256, 256});
    b.userInput("x", square);
    b.parameter("p_w", "w", core::makeSeededTensor({256, 256}, 3, 0.1f));
    b.call("torch.ops.aten.mm.default", "mm").arg("self", "x").arg("mat2", "p_w").out(square);
    b.call("torch.ops.aten.relu.default", "relu").arg("self", "mm").out(square);
    b.call("torch.ops.aten.t.default", "t").arg("self", "relu").out(square);
    b.call("torch.ops.aten.sum.dim_IntList", "sum").arg("self", "t").arg("dim", core::Argument::ints({1}))
        .out(core::makeTensorMeta(core::ScalarType::Float32, std::vector<int64_t>{256}));
    b.userOutput("sum");
    auto p = b.build();
    if (!p) qFatal("%s", p.error().c_str());
    return *p;
}

// Opens `fixture` (or the built program when empty), runs it on one thread and waits for the dock.
QString openAndRun(MainWindow& w, const QString& fixture) {
    w.resize(1366, 768);
    if (fixture.isEmpty()) {
        w.document()->setProgram(builtProgram(), "built");
        if (!testing::waitForLayout(*w.document())) return "no layout";
    } else if (QString err = testing::openAndWait(*w.document(), testing::fixture(QString("generated/%1/model.pt2").arg(fixture).toStdString()));
               !err.isEmpty()) {
        return err;
    }
    w.resetLayout();
    w.show();
    if (!QTest::qWaitForWindowExposed(&w)) return "the window did not show";
    w.runController()->threadsBox()->setValue(1);
    w.runController()->run();
    if (!QTest::qWaitFor([&] { return w.document()->runResult() != nullptr; }, 120000)) return "the run did not finish";
    if (!QTest::qWaitFor([&] { return !w.rooflineDock()->plot()->roofline().points.empty(); }, 10000)) return "the dock was not filled";
    QDockWidget* dock = w.rooflineDock()->dock();
    dock->raise();
    w.resizeDocks({dock}, {320}, Qt::Vertical);
    if (!QTest::qWaitFor([&] { return w.rooflineDock()->plot()->isVisible() && w.rooflineDock()->plot()->height() > 150; }, 5000))
        return "the plot did not show";
    return {};
}

// The dot of the node whose ring can be seen whole: no other dot within the ring's reach.
int loneDot(const RooflinePlot& plot) {
    const RooflineSummary& r = plot.roofline();
    for (const RoofPoint& p : r.points) {
        if (!p.onPlot()) continue;
        const QPointF c = plot.dotCenter(p.node);
        const double reach = RooflineAxes::radius(p.ns, r.totalNs) + 8;
        bool alone = plot.rect().adjusted(30, 30, -30, -30).contains(c.toPoint());
        for (const RoofPoint& q : r.points)
            if (alone && q.onPlot() && q.node != p.node) {
                const QPointF d = plot.dotCenter(q.node);
                alone = std::hypot(d.x() - c.x(), d.y() - c.y()) > reach + RooflineAxes::radius(q.ns, r.totalNs) + 4;
            }
        if (alone) return p.node;
    }
    return -1;
}

} // namespace

class TstRooflineDock : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void axesFitEveryDot();
    void drivenByMouse_data();
    void drivenByMouse();
    void roofCellSaysWhyOver100_data();
    void roofCellSaysWhyOver100();
};

void TstRooflineDock::initTestCase() {
    QCoreApplication::setOrganizationName("irlens-tests");
    QCoreApplication::setApplicationName("tst_roofline_dock");
    QSettings().setValue("run/warmup", 1);
    QSettings().setValue("run/repeat", 3);
}

void TstRooflineDock::axesFitEveryDot() {
    RooflineSummary r;
    r.peakGflops = 100;
    r.bandwidthGBs = 10;
    RoofPoint low, high;
    low.node = 0;
    low.flops = 1e3;
    low.bytes = 10000; // 0.1 FLOP/byte
    low.intensity = 0.1;
    low.achievedGflops = 0.5;
    low.ns = 2000;
    high = low;
    high.node = 1;
    high.intensity = 300;
    high.achievedGflops = 90;
    high.ns = 8000;
    r.points = {low, high};
    r.totalNs = 10000;
    const QRectF plot(50, 10, 500, 300);
    const RooflineAxes a = RooflineAxes::fit(r, plot);
    for (const RoofPoint& p : r.points) QVERIFY(plot.contains(a.at(p.intensity, p.achievedGflops)));
    QVERIFY(plot.contains(a.at(r.ridge(), r.peakGflops))); // the knee of the roofs
    // log axes: equal ratios take equal distances
    QCOMPARE(a.at(10, 1).x() - a.at(1, 1).x(), a.at(100, 1).x() - a.at(10, 1).x());
    QVERIFY(a.at(1, 10).y() < a.at(1, 1).y());
    // dot area in proportion to the share of the run (within the bounds)
    const double big = RooflineAxes::radius(8000, 100000), small = RooflineAxes::radius(2000, 100000);
    QCOMPARE(std::round(1000 * big * big / (small * small)), 4000.0);
    QCOMPARE(RooflineAxes::radius(1, 1000000), 3.0);    // the smallest stays visible
    QCOMPARE(RooflineAxes::radius(9000, 10000), 22.0);  // the biggest leaves room for the others
}

void TstRooflineDock::drivenByMouse_data() {
    QTest::addColumn<QString>("fixture");
    QTest::addRow("a built program") << QString();
    QTest::addRow("resnet18") << "resnet18";
}

void TstRooflineDock::drivenByMouse() {
    QFETCH(QString, fixture);
    if (!fixture.isEmpty()) IRLENS_REQUIRE_SHARED();
    MainWindow w;
    QCOMPARE(openAndRun(w, fixture), QString());
    Document* doc = w.document();
    RooflinePlot* plot = w.rooflineDock()->plot();
    const RunSnapshotPtr run = doc->runResult();

    // a dot per node that ran and did arithmetic, counted from the run's node records
    int arithmetic = 0;
    for (const RunNode& n : run->nodes) arithmetic += n.flops > 0 ? 1 : 0;
    QVERIFY(arithmetic > 0);
    QCOMPARE(plot->dotCount(), arithmetic);
    QCOMPARE(plot->roofline().points.size(), run->nodes.size());
    for (const RunNode& n : run->nodes) QCOMPARE(plot->dotCenter(n.node).x() >= 0, n.flops > 0);
    QVERIFY(w.rooflineDock()->caption()->text().contains(QString("%1 of %2 nodes plotted").arg(arithmetic).arg(run->nodes.size())));

    // hover names the node
    const int node = loneDot(*plot);
    QVERIFY2(node >= 0, "every dot has a neighbour too close to see its ring");
    const QString name = QString::fromStdString(doc->program()->graph.nodes[static_cast<size_t>(node)].name);
    const QPoint at = plot->dotCenter(node).toPoint();
    QTest::mouseMove(plot, at);
    QTRY_COMPARE(plot->hoveredNode(), node);
    QTRY_VERIFY2(QToolTip::text().startsWith(name + " ("), qPrintable(QToolTip::text()));
    QTest::mouseMove(plot, QPoint(2, 2));
    QTRY_COMPARE(plot->hoveredNode(), -1);

    // a click selects it
    doc->selectNode(-1);
    QCOMPARE(plot->highlightedNode(), -1);
    QTest::mouseClick(plot, Qt::LeftButton, {}, at);
    QCOMPARE(doc->selectedNode(), node);

    // a selection made elsewhere rings its dot: the highlight colour right of the dot, not before
    doc->selectNode(-1);
    const RoofPoint* p = plot->roofline().find(node);
    const QPoint ring = (plot->dotCenter(node) + QPointF(RooflineAxes::radius(p->ns, plot->roofline().totalNs) + 4, 0)).toPoint();
    const QColor highlight = plot->palette().color(QPalette::Highlight);
    auto distance = [&] { return testing::ciede2000(testing::toLab(plot->grab().toImage().pixelColor(ring)), testing::toLab(highlight)); };
    QVERIFY2(distance() > 10, qPrintable(QString::number(distance())));
    doc->selectNode(node);
    QCOMPARE(plot->highlightedNode(), node);
    QVERIFY2(distance() < 5, qPrintable(QString::number(distance())));
    // a node without a dot (a view) rings nothing
    for (const RunNode& n : run->nodes)
        if (n.flops == 0) {
            doc->selectNode(n.node);
            QCOMPARE(plot->highlightedNode(), -1);
            break;
        }

    // the Profile's % of roof: the dock's share for every node; views have none
    ProfileTableModel* model = w.runController()->profileModel();
    for (int r = 0; r < model->rowCount(); ++r) {
        const int n = model->index(r, 0).data(ProfileTableModel::NodeIndexRole).toInt();
        const RoofPoint* q = plot->roofline().find(n);
        QVERIFY(q);
        const QVariant shown = model->index(r, ProfileTableModel::RoofPct).data();
        if (!q->movesData()) {
            QVERIFY(!shown.isValid());
            continue;
        }
        QCOMPARE(shown.toString(), roofCellText(100.0 * q->share, !q->computeBound));
        const QString tip = model->index(r, ProfileTableModel::RoofPct).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains("in cache") == (q->share > 1.0005 && !q->computeBound), qPrintable(tip));
    }
}

// Over 100 % of the roof a bare number misleads: the cell says which roof it passed and what that means.
void TstRooflineDock::roofCellSaysWhyOver100_data() {
    QTest::addColumn<double>("percent");
    QTest::addColumn<bool>("memoryBound");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("tipSays");
    QTest::addRow("under the roof") << 42.25 << true << "42.3" << "";
    QTest::addRow("at the roof, rounded") << 100.04 << true << "100.0" << "";
    QTest::addRow("memory-bound, in cache") << 250.0 << true << "250.0 · in cache" << "faster than main memory could have fed it";
    QTest::addRow("compute-bound, above") << 130.0 << false << "130.0 · above roof" << "faster than the compute roof allows";
}

void TstRooflineDock::roofCellSaysWhyOver100() {
    QFETCH(double, percent);
    QFETCH(bool, memoryBound);
    QFETCH(QString, text);
    QFETCH(QString, tipSays);
    QCOMPARE(roofCellText(percent, memoryBound), text);
    const QString tip = roofCellTip(percent, memoryBound, 12.5);
    QVERIFY(tip.startsWith(QString("%1 % of the roof").arg(percent, 0, 'f', 1)));
    QVERIFY(tip.contains("12.5 µs"));
    if (tipSays.isEmpty()) QVERIFY(!tip.contains("Over 100 %"));
    else QVERIFY2(tip.contains(tipSays), qPrintable(tip));
}

QTEST_MAIN(TstRooflineDock)
#include "tst_roofline_dock.moc"
