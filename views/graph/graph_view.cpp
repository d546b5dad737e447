#include "views/graph/graph_view.h"

#include "views/document.h"
#include "views/graph/graph_items.h"
#include "views/graph/graph_navigation.h"
#include "views/graph/graph_scene.h"
#include "views/graph/overlay_items.h"

#include <QApplication>
#include <QClipboard>
#include <QChildEvent>
#include <QContextMenuEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace irlens::views {

using namespace irlens::core;

GraphView::GraphView(Document* document, GraphScene* scene, QWidget* parent)
    : QGraphicsView(scene, parent), m_doc(document), m_scene(scene) {
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    setOptimizationFlags(QGraphicsView::DontSavePainterState);
    setFocusPolicy(Qt::StrongFocus);
    // a drawing smaller than the canvas sits at its top: the band at the bottom, where an overlay's
    // legend floats, stays free (fitAll)
    setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    m_mini = new MiniMap(this, scene);
    connect(scene, &GraphScene::rebuilt, this, &GraphView::onRebuilt);
    connect(m_doc, &Document::programChanged, this, [this] { m_fitOnNextLayout = true; });
    connect(m_doc, &Document::scopeChanged, this, [this] { m_fitOnNextLayout = true; });
    // a new drawing as a whole: its start, as on open, unless a selected node is to stay in view
    connect(m_doc, &Document::wholeDrawingChanged, this, [this] {
        if (m_doc->selectedNode() < 0) m_fitOnNextLayout = true;
    });
    connect(m_doc, &Document::selectionChanged, this, [this](int node) {
        if (node < 0) return;
        if (auto* item = m_scene->itemForNode(node)) {
            // a node chosen elsewhere (search, Profile, Node pane) is brought into view, at a zoom
            // where it can be read; a click on the canvas leaves the view alone
            if (!m_clickSelecting && zoom() < kLegibleZoom) {
                zoomToNode(node);
                return;
            }
            QRectF visible = mapToScene(viewport()->rect()).boundingRect();
            if (!visible.contains(item->sceneBoundingRect())) centerOn(item);
        }
    });
}

double GraphView::zoom() const { return transform().m11(); }

void GraphView::setZoom(double z) {
    z = std::clamp(z, std::min(kMinZoom, m_fitZoom), kMaxZoom);
    const double f = z / zoom();
    if (std::isfinite(f) && f > 0) scale(f, f);
    placeOverlays();
}

void GraphView::zoomBy(double factor) {
    // clamped, never refused: whatever the zoom is, zooming in (or out) moves it
    setZoom(zoom() * factor);
}

namespace {
/// What a view of the whole scene paints: its boxes, edges and frames.
int sceneItemTotal(const GraphScene& scene) { return scene.nodeItemCount() + scene.edgeItemCount() + scene.clusterItemCount(); }
} // namespace

GraphView::~GraphView() {
    for (QWidget* overlay : canvasOverlays()) overlay->removeEventFilter(this);
}

bool GraphView::event(QEvent* event) {
    // a legend shown or hidden changes the band it takes below the drawing: watch each legend for it (a
    // child is polished, and so fully made, before it is first shown)
    if (event->type() == QEvent::ChildPolished)
        if (auto* legend = dynamic_cast<ScaleLegend*>(static_cast<QChildEvent*>(event)->child())) legend->installEventFilter(this);
    return QGraphicsView::event(event);
}

bool GraphView::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::ShowToParent || event->type() == QEvent::HideToParent) placeOverlays(); // a legend's
    return QGraphicsView::eventFilter(watched, event);
}

std::vector<QWidget*> GraphView::canvasOverlays() const {
    std::vector<QWidget*> out{m_mini};
    for (QWidget* child : findChildren<QWidget*>(Qt::FindDirectChildrenOnly))
        if (dynamic_cast<ScaleLegend*>(child)) out.push_back(child);
    return out;
}

void GraphView::fitAll() {
    if (fitWhole()) return;
    const QRectF r = m_scene->drawingRect();
    Q_EMIT notice(tr("Fit: the whole graph (%1 × %2 points, %3 items) is too big to draw at once; shown at %4 % from its "
                     "top, the minimap holds all of it")
                      .arg(qRound(r.width())).arg(qRound(r.height())).arg(sceneItemTotal(*m_scene)).arg(kMinZoom * 100, 0, 'g', 2));
}

bool GraphView::fitWhole() {
    QRectF r = m_scene->drawingRect();
    if (r.isEmpty()) return true;
    // the whole drawing with fitInView's margin of two pixels a side; a small graph at natural size
    // (blown-up boxes read worse)
    const QRect port = viewport()->rect();
    const double fit = std::min((port.width() - 4) / r.width(), (port.height() - 4) / r.height());
    const bool tooBig = fit < kMinZoom && sceneItemTotal(*m_scene) > m_fitWholeItems;
    m_fitZoom = tooBig ? kMinZoom : std::min(kMinZoom, fit); // the wheel may come back down to the whole graph
    resetTransform();
    setZoom(std::min(1.0, fit));
    centerOn(r.center());
    bool whole = true;
    if (tooBig) {
        // a giant graph (the 100k-node program expanded): every frame would paint all its items; stop
        // at the wheel's floor, on the selection or the top of the graph; the minimap shows the rest
        setZoom(kMinZoom);
        placeOverlays(); // the map's band first: the centring below is in the canvas left beside it
        const NodeItem* sel = m_doc->selectedNode() >= 0 ? m_scene->itemForNode(m_doc->selectedNode()) : nullptr;
        const QRectF visible = mapToScene(viewport()->rect()).boundingRect();
        if (sel) centerOn(sel);
        else centerOn(r.center().x(), r.top() + visible.height() / 2);
        whole = false;
    }
    placeOverlays();
    return whole;
}

void GraphView::zoomToNode(int nodeIndex) {
    NodeItem* item = m_scene->itemForNode(nodeIndex);
    if (!item) return;
    if (zoom() < kLegibleZoom) setZoom(kStartZoom);
    centerOn(item);
}

void GraphView::showStart() {
    fitWhole();
    const QRectF r = m_scene->drawingRect();
    // a big graph fitted whole is unreadable: keep text legible and start at its first box instead
    if (zoom() < kLegibleZoom) {
        resetTransform();
        scale(kStartZoom, kStartZoom);
        QPointF anchor = r.center();
        double top = r.bottom();
        for (NodeItem* node : m_scene->nodeItems()) // not items(): that sorts every item of the scene
            if (node->sceneBoundingRect().top() < top) {
                top = node->sceneBoundingRect().top();
                anchor = node->sceneBoundingRect().center();
            }
        placeOverlays(); // the map's band first: the centring below is in the canvas left beside it
        const QRectF visible = mapToScene(viewport()->rect()).boundingRect();
        centerOn(anchor.x(), anchor.y() + visible.height() / 2 - 40);
    }
    placeOverlays();
}

void GraphView::centerOnNode(int nodeIndex) {
    if (auto* item = m_scene->itemForNode(nodeIndex)) centerOn(item);
}

void GraphView::onRebuilt() {
    if (m_fitOnNextLayout && m_doc->layoutIsIncremental()) {
        // a decomposition step placed on the old drawing: the view stays where the user was looking
        m_fitOnNextLayout = false;
        if (m_doc->selectedNode() >= 0) {
            if (auto* item = m_scene->itemForNode(m_doc->selectedNode())) {
                const QRectF visible = mapToScene(viewport()->rect()).boundingRect();
                if (!visible.contains(item->sceneBoundingRect())) centerOn(item);
            }
        }
    } else if (m_fitOnNextLayout) {
        m_fitOnNextLayout = false;
        showStart();
    } else if (m_doc->selectedNode() >= 0) {
        centerOnNode(m_doc->selectedNode());
    }
    m_mini->refresh();
    placeOverlays();
}

void GraphView::selectAt(const QPointF& scenePos) {
    m_clickSelecting = true;
    selectItemAt(scenePos);
    m_clickSelecting = false;
}

void GraphView::selectItemAt(const QPointF& scenePos) {
    for (QGraphicsItem* it : m_scene->items(scenePos)) {
        if (auto* node = qgraphicsitem_cast<NodeItem*>(it)) {
            const VisibleItem& vi = node->item();
            if (vi.kind == VisibleItem::Kind::Op || vi.subgraph >= 0) {
                m_doc->selectNode(vi.nodeIndex); // a get_attr box stands for the subgraph of its HOP
            } else if (vi.kind == VisibleItem::Kind::Module) {
                // a folded module stands for its nodes: select the first one
                int first = -1;
                for (const auto& kv : m_scene->layout()->graph.itemOfNode)
                    if (kv.second == node->index() && (first < 0 || kv.first < first)) first = kv.first;
                m_doc->selectNode(first);
            } else {
                // a placeholder or the output node: the Node pane shows it in the spec's words
                m_doc->selectItem(QString::fromStdString(vi.id));
            }
            int chip = node->chipAt(scenePos);
            if (chip >= 0) {
                const Chip& c = vi.chips[static_cast<size_t>(chip)];
                if (c.kind == Chip::Kind::FanOut) m_doc->selectNodeByName(QString::fromStdString(c.value));
                // lifted state drawn as a chip is a placeholder of the FX graph
                if (c.kind == Chip::Kind::Parameter || c.kind == Chip::Kind::Buffer || c.kind == Chip::Kind::Constant)
                    m_doc->selectItem("in:" + QString::fromStdString(c.value));
                if (c.kind == Chip::Kind::Subgraph) {
                    // entered after the click is handled: the scene is rebuilt for the subgraph
                    const int n = vi.nodeIndex, sub = c.subgraph;
                    QMetaObject::invokeMethod(m_doc, [doc = m_doc, n, sub] { doc->enterSubgraph(n, sub); }, Qt::QueuedConnection);
                }
            }
            return;
        }
    }
    m_doc->selectNode(-1);
}

bool GraphView::activateAt(const QPointF& scenePos) {
    for (QGraphicsItem* it : m_scene->items(scenePos)) {
        if (auto* node = qgraphicsitem_cast<NodeItem*>(it)) {
            const VisibleItem& vi = node->item();
            if (vi.subgraph >= 0) return m_doc->enterSubgraph(vi.nodeIndex, vi.subgraph); // a get_attr box: its subgraph
            if (vi.kind == VisibleItem::Kind::Module) {
                m_doc->toggleModule(vi.moduleIndex);
                return true;
            }
            if (vi.kind == VisibleItem::Kind::Op && vi.isHop) return m_doc->enterSubgraph(vi.nodeIndex);
            return false;
        }
        if (auto* cluster = qgraphicsitem_cast<ClusterItem*>(it)) {
            m_doc->toggleModule(cluster->module());
            return true;
        }
    }
    return false;
}

void GraphView::wheelEvent(QWheelEvent* event) {
    if (event->modifiers() & Qt::ShiftModifier) {
        QGraphicsView::wheelEvent(event); // shift+wheel scrolls
        return;
    }
    double steps = event->angleDelta().y() / 120.0;
    zoomBy(std::pow(1.15, steps));
    event->accept();
}

void GraphView::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) selectAt(mapToScene(event->position().toPoint()));
    QGraphicsView::mousePressEvent(event);
}

void GraphView::mouseDoubleClickEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton && activateAt(mapToScene(event->position().toPoint()))) {
        event->accept();
        return;
    }
    QGraphicsView::mouseDoubleClickEvent(event);
}

void GraphView::keyPressEvent(QKeyEvent* event) {
    const auto mods = event->modifiers();
    const Graph* g = m_doc->graph();
    if ((mods & Qt::AltModifier) && g && (event->key() == Qt::Key_Up || event->key() == Qt::Key_Down)) {
        int sel = m_doc->selectedNode();
        int next = event->key() == Qt::Key_Up ? producerOf(*g, sel) : firstUserOf(*g, sel);
        if (sel < 0 && !g->nodes.empty()) next = 0;
        if (next >= 0) {
            m_doc->revealNode(next);
            m_doc->selectNode(next);
        }
        event->accept();
        return;
    }
    if (mods & Qt::ControlModifier) {
        if (event->key() == Qt::Key_Equal || event->key() == Qt::Key_Plus) { zoomBy(1.25); return; }
        if (event->key() == Qt::Key_Minus) { zoomBy(0.8); return; }
        if (event->key() == Qt::Key_0) { fitAll(); return; }
    }
    if (event->key() == Qt::Key_Backspace && m_doc->scopes().size() > 1) {
        m_doc->leaveSubgraph();
        return;
    }
    if (event->key() == Qt::Key_Return && m_doc->selectedNode() >= 0) {
        m_doc->enterSubgraph(m_doc->selectedNode());
        return;
    }
    QGraphicsView::keyPressEvent(event);
}

void GraphView::contextMenuEvent(QContextMenuEvent* event) {
    const QPointF pos = mapToScene(event->pos());
    NodeItem* node = nullptr;
    ClusterItem* cluster = nullptr;
    for (QGraphicsItem* it : m_scene->items(pos)) {
        if (!node) node = qgraphicsitem_cast<NodeItem*>(it);
        if (!cluster) cluster = qgraphicsitem_cast<ClusterItem*>(it);
    }
    QMenu menu(this);
    if (node) {
        const VisibleItem vi = node->item();
        if (vi.kind == VisibleItem::Kind::Op) {
            m_doc->selectNode(vi.nodeIndex);
            const int n = vi.nodeIndex;
            menu.addAction(tr("Copy name"), this, [vi] { QApplication::clipboard()->setText(QString::fromStdString(vi.id)); });
            menu.addAction(tr("Show in FX text"), this, [this, n] { Q_EMIT showInFxTextRequested(n); });
            for (const Chip& c : vi.chips)
                if (c.kind == Chip::Kind::Subgraph)
                    menu.addAction(tr("Open %1").arg(QString::fromStdString(c.value)), this, [this, n, sub = c.subgraph] { m_doc->enterSubgraph(n, sub); });
            addNodeActions(menu, n);
        } else if (vi.kind == VisibleItem::Kind::Module) {
            const int m = vi.moduleIndex;
            menu.addAction(tr("Expand %1").arg(QString::fromStdString(vi.title)), this, [this, m] { m_doc->toggleModule(m); });
        }
    }
    if (cluster) {
        const int m = cluster->module();
        menu.addAction(tr("Collapse this group"), this, [this, m] { m_doc->toggleModule(m); });
    }
    if (!menu.isEmpty()) menu.addSeparator();
    menu.addAction(tr("Fit (Ctrl+0)"), this, &GraphView::fitAll);
    // after decomposition steps the drawing keeps its old places; this lays it out afresh
    if (m_doc->layoutIsIncremental()) menu.addAction(tr("Relayout"), this, [this] { m_doc->relayout(); });
    if (m_doc->scopes().size() > 1) menu.addAction(tr("Up from subgraph (Backspace)"), this, [this] { m_doc->leaveSubgraph(); });
    menu.exec(event->globalPos());
}

// The node's neighbours, its source and its decomposition (shared/UI.md's node context menu).
void GraphView::addNodeActions(QMenu& menu, int n) {
    const Graph* g = m_doc->graph();
    if (!g) return;
    const Node& node = g->nodes[static_cast<size_t>(n)];
    QAction* source = menu.addAction(tr("Show source"), this, [this, n] { Q_EMIT showSourceRequested(n); });
    source->setEnabled(!node.meta.frames.empty());
    if (node.meta.frames.empty()) source->setToolTip(tr("The file records no stack trace for this node"));
    QAction* decompose = menu.addAction(tr("Decompose this node"), this, [this, n] { m_doc->decomposeNode(n); });
    decompose->setEnabled(m_doc->canDecomposeNode(n));
    // the stepping interpreter runs the top-level graph (Run › Run to here)
    QAction* runTo = menu.addAction(tr("Run to here"), this, [this, n] { Q_EMIT runToHereRequested(n); });
    runTo->setObjectName("runToHereNodeAction");
    runTo->setEnabled(m_doc->scopes().size() == 1);
    if (!runTo->isEnabled()) runTo->setToolTip(tr("Stepping runs the top-level graph: leave the subgraph first"));
    menu.addSeparator();
    // users and producers become the search hits (outlined; Enter in the search field steps through them)
    const std::vector<int> producers = producersOf(*g, n), users = usersOf(*g, n);
    auto findAll = [this](std::vector<int> nodes) {
        m_doc->setSearchHits(nodes);
        if (!nodes.empty()) {
            m_doc->revealNode(nodes.front());
            m_doc->selectNode(nodes.front());
        }
    };
    menu.addAction(tr("Find producers (%1)").arg(producers.size()), this, [findAll, producers] { findAll(producers); })
        ->setEnabled(!producers.empty());
    menu.addAction(tr("Find users (%1)").arg(users.size()), this, [findAll, users] { findAll(users); })->setEnabled(!users.empty());
    if (!producers.empty())
        menu.addAction(tr("Go to producer (Alt+Up)"), this, [this, p = producers.front()] { m_doc->selectNode(p); });
    if (!users.empty()) menu.addAction(tr("Go to first user (Alt+Down)"), this, [this, u = users.front()] { m_doc->selectNode(u); });
}

void GraphView::resizeEvent(QResizeEvent* event) {
    QGraphicsView::resizeEvent(event);
    placeOverlays();
}

void GraphView::scrollContentsBy(int dx, int dy) {
    QGraphicsView::scrollContentsBy(dx, dy);
    m_mini->viewport()->update(); // the frame of what is in view moved
}

void GraphView::placeOverlays() {
    // the map takes the graph's shape within its corner: a tall graph gets a tall narrow map (in a square
    // one it is a line a few pixels wide in a blank box), never narrower than kMiniMapMinSide
    const QRectF graph = m_scene->drawingRect();
    const QRect area = viewport()->geometry().marginsAdded(viewportMargins()); // the canvas with the map's band
    const int cornerW = std::min(170, area.width() / 5), cornerH = std::min(220, area.height() / 3);
    int w = cornerW, h = cornerH;
    if (!graph.isEmpty()) {
        const double aspect = graph.width() / graph.height();
        if (aspect * h < w) w = std::max(kMiniMapMinSide, static_cast<int>(aspect * h));
        else h = std::max(kMiniMapMinSide, static_cast<int>(w / aspect));
    }
    // the overview helps only when the graph does not fit
    const QRectF visible = mapToScene(viewport()->rect()).boundingRect();
    const bool fits = visible.contains(m_scene->drawingRect().adjusted(20, 20, -20, -20));
    const bool shown = cornerW > 60 && cornerH > 60 && !graph.isEmpty() && !fits;
    // a band of its own beside the drawing, right of a tall map and below a wide one, so that it covers
    // no box wherever the view is scrolled (the drawing never fits when the map shows: the band cannot
    // make it fit again and hide the map)
    const bool tall = h >= w;
    // a wide map's band runs under the whole drawing: a sixth of the canvas's height at most
    if (!tall && !graph.isEmpty() && h > area.height() / 6) {
        h = std::max(kMiniMapMinSide, area.height() / 6);
        w = std::min(cornerW, static_cast<int>(graph.width() / graph.height() * h));
    }
    // a legend (the heatmap's, the numeric overlay's) has a band below the drawing, shared with a wide map
    int legendBand = 0;
    for (const QWidget* overlay : canvasOverlays())
        if (overlay != m_mini && !overlay->isHidden()) legendBand = std::max(legendBand, overlay->height() + 8);
    const QMargins band(0, 0, shown && tall ? w + 16 : 0, std::max(legendBand, shown && !tall ? h + 16 : 0));
    if (band != viewportMargins()) setViewportMargins(band);
    const QRect port = viewport()->geometry();
    if (tall) m_mini->setGeometry(port.right() + 1 + 8, port.bottom() + 1 - h - 8, w, h);
    else m_mini->setGeometry(port.right() + 1 - w - 8, port.bottom() + 1 + 8, w, h);
    m_mini->setVisible(shown);
    m_mini->refresh();
}

// ---------------------------------------------------------------------------- MiniMap

MiniMap::MiniMap(GraphView* main, GraphScene* scene)
    : QGraphicsView(main), m_main(main), m_source(scene) {
    m_standIn.setSceneRect(scene->drawingRect());
    setScene(&m_standIn);
    connect(scene, &QGraphicsScene::sceneRectChanged, this, [this](const QRectF& r) {
        m_standIn.setSceneRect(r);
        m_boxesStale = true;
    });
    // boxes move or change colour only with a new layout (emphasis, new marks and the heatmap are not
    // drawn here): collected again once it is built, and painted once into a pixmap until then
    connect(scene, &GraphScene::rebuilt, this, [this] {
        m_boxesStale = true;
        viewport()->update();
    });
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setInteractive(false);
    setFrameShape(QFrame::Box);
    setRenderHints({});
    setToolTip(tr("Overview: click or drag to move the view"));
    // translucent so the graph underneath stays visible
    QColor bg = palette().color(QPalette::Base);
    bg.setAlpha(200);
    setBackgroundBrush(bg);
    setStyleSheet("background: transparent");
    setCursor(Qt::PointingHandCursor);
}

void MiniMap::refresh() {
    if (m_source->drawingRect().isEmpty()) return;
    m_standIn.setSceneRect(m_source->drawingRect());
    // the map has the graph's shape; clamped at its narrowest side, the graph is stretched to fill it
    fitInView(m_standIn.sceneRect(), Qt::IgnoreAspectRatio);
    viewport()->update();
}

void MiniMap::collectBoxes() {
    m_boxes.clear();
    if (m_source->isBuilding()) return; // collected once every item exists (stale until then)
    // frames first, boxes on top: the frames nest outer before inner in the layout's order
    for (const ClusterItem* it : m_source->clusterItems())
        if (it->isVisible()) m_boxes.push_back({it->sceneBoundingRect(), QColor()});
    for (const NodeItem* it : m_source->nodeItems())
        if (it->isVisible()) m_boxes.push_back({it->sceneBoundingRect(), it->fill()});
    m_boxesStale = false;
}

void MiniMap::drawBackground(QPainter* painter, const QRectF& rect) {
    QGraphicsView::drawBackground(painter, rect);
    if (m_boxesStale) {
        collectBoxes();
        m_picture = QImage();
    }
    // the boxes are painted once per layout and size: a pan repaints the overview at every step, and
    // the 100k-node program has 110,000 boxes and frames
    const qreal dpr = devicePixelRatioF();
    const QSize size = viewport()->size() * dpr;
    if (m_picture.size() != size || m_pictureTransform != viewportTransform()) {
        m_pictureTransform = viewportTransform();
        m_picture = paintBoxes(size, m_pictureTransform * QTransform::fromScale(dpr, dpr));
        m_picture.setDevicePixelRatio(dpr);
    }
    painter->save();
    painter->resetTransform();
    painter->drawImage(0, 0, m_picture);
    painter->restore();
}

// Frames of 3 pixels or more are outlined; a box of under 2 pixels is one pixel set directly (at
// thumbnail size nearly all are: QPainter's per-rectangle cost would make a repaint 0.1 s on the 100k program).
QImage MiniMap::paintBoxes(const QSize& size, const QTransform& toPixels) const {
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter p(&image);
    p.setPen(QPen(palette().color(QPalette::Mid), 0));
    p.setBrush(Qt::NoBrush);
    const QRectF inside(0, 0, size.width(), size.height());
    for (const Box& b : m_boxes) {
        QRectF r = toPixels.mapRect(b.rect);
        if (!r.intersects(inside)) continue;
        // a box thinner than a pixel one way is a pixel thick: on a tall graph the boxes are wide but
        // a fraction of a pixel high, and filling them left nothing to see
        if (b.fill.isValid() && (r.width() >= 2 || r.height() >= 2)) r.setSize(r.size().expandedTo(QSizeF(1, 1)));
        if (!b.fill.isValid()) {
            if (r.width() >= 3 && r.height() >= 3) p.drawRect(r);
        } else if (r.width() < 2 && r.height() < 2) {
            const QPoint c = r.center().toPoint();
            if (image.rect().contains(c)) image.setPixel(c, b.fill.rgba());
        } else {
            p.fillRect(r, b.fill);
        }
    }
    return image;
}

void MiniMap::drawForeground(QPainter* painter, const QRectF&) {
    QRectF visible = m_main->mapToScene(m_main->viewport()->rect()).boundingRect();
    QColor c = palette().color(QPalette::Highlight);
    painter->setPen(QPen(c, 0));
    c.setAlphaF(0.18);
    painter->setBrush(c);
    painter->drawRect(visible);
}

void MiniMap::mousePressEvent(QMouseEvent* event) {
    m_main->centerOn(mapToScene(event->position().toPoint()));
    viewport()->update();
}

void MiniMap::mouseMoveEvent(QMouseEvent* event) {
    if (event->buttons() & Qt::LeftButton) {
        m_main->centerOn(mapToScene(event->position().toPoint()));
        viewport()->update();
    }
}

void MiniMap::wheelEvent(QWheelEvent* event) { event->accept(); }

} // namespace irlens::views
