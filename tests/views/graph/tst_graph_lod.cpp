// Level of detail: zoomed far out (below kPlainLod) boxes, frames and edges are drawn plain, and
// that changes nothing but the drawing: every box is still painted in its colour, a search hit stays
// visible in the hit colour, and a click still selects the box under it.
#include "core/ir/example_program.h"
#include "support/gui_test_util.h"
#include "views/graph/graph_items.h"
#include "views/graph/graph_scene.h"
#include "views/graph/graph_view.h"

#include <QImage>
#include <QPainter>
#include <QTest>

using namespace irlens;
using namespace irlens::views;

class TestGraphLod : public QObject {
    Q_OBJECT
private slots:
    void plainBoxesStillDrawnAndSelectable();
};

namespace {

/// The scene around `box` painted at `zoom` into an image, and where the box lands in it.
QImage paintAt(GraphScene& scene, const QRectF& box, double zoom, QRect* boxPixels) {
    const QRectF source = box.adjusted(-box.width(), -box.height(), box.width(), box.height());
    QImage image((source.size() * zoom).toSize().expandedTo(QSize(4, 4)), QImage::Format_ARGB32);
    image.fill(Qt::white);
    QPainter p(&image);
    scene.render(&p, QRectF(QPointF(0, 0), image.size()), source);
    p.end();
    const QRectF inImage((box.topLeft() - source.topLeft()) * zoom, box.size() * zoom);
    *boxPixels = inImage.toAlignedRect().intersected(image.rect());
    return image;
}

bool hasColour(const QImage& image, const QRect& area, const QColor& c) {
    for (int y = area.top(); y <= area.bottom(); ++y)
        for (int x = area.left(); x <= area.right(); ++x)
            if (image.pixelColor(x, y).rgb() == c.rgb()) return true;
    return false;
}

} // namespace

void TestGraphLod::plainBoxesStillDrawnAndSelectable() {
    Document doc;
    GraphScene scene(&doc);
    GraphView view(&doc, &scene);
    view.resize(800, 600);
    doc.setProgram(core::makeExampleProgram(), "example");
    QVERIFY(testing::waitForLayout(doc));
    QTRY_VERIFY(!scene.isBuilding());
    NodeItem* box = nullptr;
    for (NodeItem* n : scene.nodeItems())
        if (n->item().kind == core::VisibleItem::Kind::Op && !box) box = n;
    QVERIFY(box);
    const QRectF rect = box->sceneBoundingRect().adjusted(6, 8, -4, -4); // the box without its tag margin
    QRect pixels;
    const double plain = kPlainLod / 2;
    QImage image = paintAt(scene, rect, plain, &pixels);
    QVERIFY2(hasColour(image, pixels, box->fill()), "a plain box is filled with its family colour");
    // a search hit drawn plain keeps the hit colour
    doc.setSearchHits({box->item().nodeIndex});
    QCOMPARE(box->emphasis(), int(Emphasis::SearchHit));
    image = paintAt(scene, rect, plain, &pixels);
    QVERIFY2(hasColour(image, pixels, QColor(0xe6, 0xab, 0x02)), "a search hit is painted in the hit colour");
    // zoomed out, a click on the box still selects its node
    view.setZoom(plain);
    view.centerOn(box);
    view.selectAt(rect.center());
    QCOMPARE(doc.selectedNode(), box->item().nodeIndex);
}

QTEST_MAIN(TestGraphLod)
#include "tst_graph_lod.moc"
