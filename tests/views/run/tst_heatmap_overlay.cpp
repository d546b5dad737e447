// The graph's overlays after a real run of a program built here (a stack of blocks, each a module):
// the heat boxes write the box's title and shape line in the box's own fonts and their note at the
// shape line's size whatever font the painter arrives with; every character the overlays and the boxes'
// tooltips write is in its font; the tooltips wrap; the legend stays in the canvas's corner through
// zooms, scrolls, minimap clicks and selections made elsewhere.
// engine headers (oneTBB) before Qt's
#include "core/exec/engine.h"

#include "core/ir/builder.h"
#include "support/gui_test_util.h"
#include "support/readable_checks.h"
#include "views/graph/graph_items.h"
#include "views/graph/graph_pane.h"
#include "views/graph/graph_scene.h"
#include "views/graph/graph_view.h"
#include "views/graph/overlay_items.h"
#include "views/main_window.h"
#include "views/run/heatmap_overlay.h"
#include "views/run/run_controller.h"

#include <QPainter>
#include <QScrollBar>
#include <QSettings>
#include <QStyleOptionGraphicsItem>
#include <QTest>
#include <QToolTip>

using namespace irlens;
using namespace irlens::views;

namespace {

constexpr int kBlocks = 10;
const std::string kLongWeight = "p_head_projection_of_the_residual_stream_after_every_block_onto_the_output_weight";
const std::string kLongTarget =
    "head.projection of the residual stream after every block of the stack onto the logits of the output vocabulary.weight";

// x -> kBlocks blocks (mm with the block's weight, relu, add of the block's input), each under its
// module, then a head whose weight has a name so long that its box's tooltip is wider than a line can
// be read.
core::ProgramPtr blockProgram() {
    core::ProgramBuilder b;
    const core::TensorMeta row = core::makeTensorMeta(core::ScalarType::Float32, std::vector<int64_t>{4, 64});
    b.userInput("x", row);
    std::string prev = "x";
    for (int k = 0; k < kBlocks; ++k) {
        const std::string n = std::to_string(k), w = "p_layers_" + n + "_fc_weight";
        b.parameter(w, "layers." + n + ".fc.weight", core::makeSeededTensor({64, 64}, static_cast<uint64_t>(k + 1), 0.1f));
        auto inBlock = [&](core::NodeBuilder node) {
            node.module("L__self__layers_" + n, "layers." + n, "models.Block").out(row);
        };
        inBlock(b.call("torch.ops.aten.mm.default", "mm_" + n).arg("self", prev).arg("mat2", w));
        inBlock(b.call("torch.ops.aten.relu.default", "relu_" + n).arg("self", "mm_" + n));
        inBlock(b.call("torch.ops.aten.add.Tensor", "add_" + n).arg("self", "relu_" + n).arg("other", prev));
        prev = "add_" + n;
    }
    b.parameter(kLongWeight, kLongTarget,
                core::makeSeededTensor({64, 64}, 99, 0.1f));
    b.call("torch.ops.aten.mm.default", "head").arg("self", prev).arg("mat2", kLongWeight).out(row);
    b.userOutput("head");
    auto p = b.build();
    if (!p) qFatal("%s", p.error().c_str());
    return *p;
}

QString openAndRun(MainWindow& w) {
    w.resize(1366, 768);
    w.document()->setProgram(blockProgram(), "blocks");
    if (!testing::waitForLayout(*w.document())) return "no layout";
    w.show();
    if (!QTest::qWaitForWindowExposed(&w)) return "the window did not show";
    w.runController()->run();
    if (!QTest::qWaitFor([&] { return w.document()->runResult() != nullptr && !w.runController()->isRunning(); }, 120000))
        return "the run did not finish";
    if (!w.runController()->heatmapAction()->isChecked()) w.runController()->heatmapAction()->trigger();
    return {};
}

/// The heat boxes of the scene.
std::vector<OverlayBox*> heatBoxes(const GraphScene& scene) {
    std::vector<OverlayBox*> out;
    for (QGraphicsItem* item : scene.items())
        if (auto* box = dynamic_cast<OverlayBox*>(item)) out.push_back(box);
    return out;
}

/// `box` painted at zoom 1 into an image, the painter arriving with `font` (as the view leaves it
/// from the item painted before: DontSavePainterState).
QImage paintedWith(OverlayBox* box, const QFont& font) {
    const QRectF r = box->boundingRect();
    QImage image(r.size().toSize() + QSize(2, 2), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter p(&image);
    p.translate(-r.topLeft() + QPointF(1, 1));
    p.setFont(font);
    QStyleOptionGraphicsItem option;
    box->paint(&p, &option, nullptr);
    return image;
}

} // namespace

class TstHeatmapOverlay : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void boxTextAsTheBoxWritesIt();
    void everyCharacterDrawableAndTipsWrapped();
    void legendStaysInTheCorner();
};

void TstHeatmapOverlay::initTestCase() {
    QCoreApplication::setOrganizationName("irlens-tests");
    QCoreApplication::setApplicationName("tst_heatmap_overlay");
    QSettings().clear();
    QSettings().setValue("run/warmup", 1);
    QSettings().setValue("run/repeat", 3);
}

// Each heat box: exactly over its box, the box's title in the box's title font, its shape line in the
// box's subtitle font, the note in bold at that size, one under the other inside it; and the same pixels
// whatever font the painter had (a 6.5-point chip font left by the item before wrote it 7 pixels high).
void TstHeatmapOverlay::boxTextAsTheBoxWritesIt() {
    MainWindow w;
    const QString error = openAndRun(w);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    GraphScene* scene = w.graphPane()->scene();
    const std::vector<OverlayBox*> boxes = heatBoxes(*scene);
    QCOMPARE(static_cast<int>(boxes.size()), scene->opItemCount());
    for (OverlayBox* heat : boxes) {
        auto* node = static_cast<NodeItem*>(heat->parentItem());
        const auto lines = heat->lines();
        QCOMPARE(lines.size(), size_t(3));
        QCOMPARE(lines[0].text, QString::fromStdString(node->item().title));
        QCOMPARE(lines[0].font, node->titleFont());
        QCOMPARE(lines[1].text, QString::fromStdString(node->item().subtitle)); // the op's shape, f32[4, 64]
        QVERIFY(lines[1].text.contains("[4, 64]"));
        QCOMPARE(lines[1].font, NodeItem::subtitleFont());
        QVERIFY(lines[2].text.contains("%"));
        QVERIFY(lines[2].font.bold());
        QCOMPARE(lines[2].font.pointSizeF(), NodeItem::subtitleFont().pointSizeF());
        QCOMPARE(heat->rect(), node->boxRect()); // over the box, not over the labels around it
        for (size_t k = 0; k < lines.size(); ++k) {
            QVERIFY2(heat->rect().contains(lines[k].rect), qPrintable(lines[k].text));
            if (k > 0) QVERIFY(lines[k].rect.top() >= lines[k - 1].rect.bottom() - 0.01);
        }
    }
    QFont tiny = QApplication::font(), large = QApplication::font();
    tiny.setPointSizeF(4);
    large.setPointSizeF(16);
    QCOMPARE(paintedWith(boxes.front(), tiny), paintedWith(boxes.front(), large));
}

// The heatmap's and the memory overlay's boxes and legends, and every box's tooltip with the run's
// time in it: no character the font lacks (a stopwatch sign drew as a box before "5.8 µs self"), no
// tooltip over 600 pixels wide (the node with the long name).
void TstHeatmapOverlay::everyCharacterDrawableAndTipsWrapped() {
    MainWindow w;
    const QString error = openAndRun(w);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    GraphView* view = w.graphPane()->view();
    GraphScene* scene = w.graphPane()->scene();
    bool timed = false;
    for (const NodeItem* box : scene->nodeItems()) timed = timed || box->toolTipText().contains("self time");
    QVERIFY(timed);
    QStringList problems = testing::checkSceneTooltips(*scene) + testing::checkOverlayText(*view);
    QTRY_VERIFY(w.document()->runResult()->analysis != nullptr);
    w.runController()->heatmap()->setMemoryMode(true);
    problems << testing::checkOverlayText(*view);
    w.runController()->heatmap()->setMemoryMode(false);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
    // the head's tooltip is wrapped, not cut: the weight's long state-dict name is all there
    const NodeItem* head = scene->itemForNode(w.document()->nodeIndexOf("head"));
    QVERIFY(head);
    const QString tip = head->toolTipText();
    QVERIFY2(testing::tipText(tip).contains(QString::fromStdString(kLongTarget)), qPrintable(tip));
    QVERIFY(QFontMetrics(QToolTip::font()).horizontalAdvance(tip.section('\n', 2, 2)) > testing::kMaxTipWidth);
    QVERIFY2(testing::tipWidth(tip) <= testing::kMaxTipWidth, qPrintable(tip));
}

// The legend in the viewport's bottom-left corner after every way the view moves: a zoom, the scroll
// bars, a click on the minimap (the view scrolls its viewport's children with the drawing), a node
// selected elsewhere (a Critical path row) and a resize.
void TstHeatmapOverlay::legendStaysInTheCorner() {
    MainWindow w;
    const QString error = openAndRun(w);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    GraphView* view = w.graphPane()->view();
    auto* legend = static_cast<ScaleLegend*>(w.runController()->heatmap()->legend());
    QVERIFY(legend->isVisible());
    auto inCorner = [&](const char* after) {
        QStringList problems = testing::checkOverlaysInside(*view);
        if (legend->pos() != legend->corner())
            problems << QString("the legend is at %1,%2, not in its corner").arg(legend->x()).arg(legend->y());
        if (!legend->isVisible()) problems << "the legend is hidden";
        return problems.isEmpty() ? QString() : QString(after) + ": " + problems.join("; ");
    };
    view->fitAll();
    QCOMPARE(inCorner("Fit"), QString());
    QCOMPARE(testing::checkCanvasOverlays(*view), QStringList()); // after Fit it covers no box
    view->setZoom(2.0);
    QCOMPARE(inCorner("zoom 2"), QString());
    view->verticalScrollBar()->setValue(view->verticalScrollBar()->maximum());
    QCOMPARE(inCorner("scrolled to the bottom"), QString());
    MiniMap* mini = view->miniMap();
    QTRY_VERIFY(mini->isVisible());
    const QPoint top(mini->viewport()->width() / 2, 3);
    QTest::mouseClick(mini->viewport(), Qt::LeftButton, {}, top);
    QVERIFY(view->verticalScrollBar()->value() < view->verticalScrollBar()->maximum()); // the click moved the view
    QCOMPARE(inCorner("a click on the minimap"), QString());
    // the map and the legend lie in bands of their own beside the drawing: at zoom 2, scrolled anywhere,
    // they cover no box
    for (const QWidget* overlay : {static_cast<const QWidget*>(mini), static_cast<const QWidget*>(legend)})
        QVERIFY2(!overlay->geometry().intersects(view->viewport()->geometry()),
                 qPrintable(QString("the %1 at %2,%3 %4x%5 lies over the canvas")
                                .arg(overlay->objectName()).arg(overlay->x()).arg(overlay->y()).arg(overlay->width()).arg(overlay->height())));
    // without the heatmap its band goes and the drawing takes the height back
    const int withLegend = view->viewport()->height();
    legend->hide();
    QVERIFY2(view->viewport()->height() > withLegend, qPrintable(QString("%1 px tall with the legend, %2 without").arg(withLegend).arg(view->viewport()->height())));
    legend->show();
    QCOMPARE(view->viewport()->height(), withLegend);
    const core::Graph& g = w.document()->program()->graph;
    w.document()->selectNode(static_cast<int>(g.nodes.size()) - 1); // the last node, out of view
    QCOMPARE(inCorner("a node selected elsewhere"), QString());
    w.resize(1000, 700);
    QTest::qWait(50);
    QCOMPARE(inCorner("a resize"), QString());
}

QTEST_MAIN(TstHeatmapOverlay)
#include "tst_heatmap_overlay.moc"
