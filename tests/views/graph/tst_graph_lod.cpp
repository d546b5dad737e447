// What makes big graphs cheap changes nothing but the cost. Level of detail: zoomed far out (below
// kPlainLod) boxes, frames and edges are drawn plain, yet every box is still painted in its colour, a
// search hit stays visible in the hit colour, and a click still selects the box under it. Search: the
// index's case-folded scan finds the nodes a case-insensitive match of each field finds, and
// thousands of hits outlined at once (one scene update) are all outlined.
#include "core/ir/example_program.h"
#include "support/gui_test_util.h"
#include "views/graph/graph_navigation.h"
#include "views/graph/graph_pane.h"
#include "views/graph/graph_items.h"
#include "views/graph/graph_scene.h"
#include "views/graph/graph_view.h"

#include <QImage>
#include <QPainter>
#include <QTest>

using namespace irlens;
using namespace irlens::views;

class TstGraphLod : public QObject {
    Q_OBJECT
private slots:
    void plainBoxesStillDrawnAndSelectable();
    void searchHitsUnchanged();
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

void TstGraphLod::plainBoxesStillDrawnAndSelectable() {
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

void TstGraphLod::searchHitsUnchanged() {
    testing::zooDir();
    Document doc;
    GraphPane pane(&doc);
    QVERIFY(testing::openAndWait(doc, testing::fixture("zoo/deep_residual_stack/model.pt2")).isEmpty());
    doc.expandAll();
    QVERIFY(testing::waitForLayout(doc));
    QTRY_VERIFY(!pane.scene()->isBuilding() && pane.scene()->layout() == doc.layout());
    const core::Graph& g = *doc.graph();
    const core::ModuleTree& tree = *doc.scope().tree;
    // each field on its own, case-insensitively: what the search field promises
    auto plainScan = [&](const QString& q) {
        int n = 0;
        for (size_t k = 0; k < g.nodes.size(); ++k) {
            QStringList fields{QString::fromStdString(g.nodes[k].name), QString::fromStdString(g.nodes[k].target.full),
                               QString::fromStdString(g.nodes[k].target.shortName())};
            for (int m = tree.moduleOfNode(static_cast<int>(k)); m > 0; m = tree.module(m).parent)
                fields << QString::fromStdString(tree.module(m).path);
            n += std::any_of(fields.begin(), fields.end(), [&](const QString& f) { return f.contains(q, Qt::CaseInsensitive); });
        }
        return n;
    };
    for (const QString q : {"s", "MM", "Layers.1", "aten.", "relu_1", "nothing like this"}) {
        const int hits = pane.search(q);
        QCOMPARE(hits, plainScan(q));
        int outlined = 0;
        for (auto* item : pane.scene()->nodeItems()) outlined += (item->emphasis() & int(Emphasis::SearchHit)) != 0;
        QCOMPARE(outlined, hits); // expanded: one box per node
    }
    QVERIFY(pane.search("s") > GraphScene::kBulkEmphasis); // the bulk path was taken
}

QTEST_MAIN(TstGraphLod)
#include "tst_graph_lod.moc"
