#include "views/graph/graph_scene.h"

#include "core/ops/op_family.h"
#include "core/ops/op_registry.h"
#include "views/document.h"
#include "views/graph/graph_items.h"
#include "views/graph/new_node_marker.h"
#include "views/graph/step_marker.h"

#include <QApplication>
#include <QGraphicsSceneHelpEvent>
#include <QPalette>
#include <QToolTip>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace irlens::views {

using namespace irlens::core;

GraphScene::GraphScene(Document* document, QObject* parent) : QGraphicsScene(parent), m_doc(document) {
    setItemIndexMethod(QGraphicsScene::BspTreeIndex);
    m_buildTimer.setSingleShot(true);
    m_buildTimer.setInterval(0);
    connect(&m_buildTimer, &QTimer::timeout, this, [this] {
        if (!m_building) return;
        const bool done = buildSome(kSliceMs);
        // a query indexes the items made so far: a slice's items each turn, instead of all 200,000 of a
        // big layout at its first repaint (150-670 ms in one event)
        (void)items(QRectF(sceneRect().topLeft(), QSizeF(1, 1)));
        if (done) {
            m_building = false;
            refreshEmphasis();
            Q_EMIT rebuilt();
        } else {
            m_buildTimer.start();
        }
    });
    m_retireTimer.setSingleShot(true);
    m_retireTimer.setInterval(0);
    connect(&m_retireTimer, &QTimer::timeout, this, [this] {
        if (!deleteSomeRetired(kSliceMs)) m_retireTimer.start();
    });
    connect(m_doc, &Document::layoutReady, this, &GraphScene::rebuild);
    connect(m_doc, &Document::layoutPreview, this, &GraphScene::rebuild); // drawn until the full one arrives
    connect(m_doc, &Document::programChanged, this, [this] {
        clearItems();
        m_layout.reset();
        m_symbolGraph = nullptr;
    });
    connect(m_doc, &Document::selectionChanged, this, &GraphScene::refreshEmphasis);
    connect(m_doc, &Document::searchHitsChanged, this, &GraphScene::refreshEmphasis);
    connect(m_doc, &Document::symbolHighlightChanged, this, &GraphScene::refreshEmphasis);
    m_newNodeMarker = new NewNodeMarker(this); // the nodes the last decomposition step made
    new StepMarker(this);                      // the nodes Run › Step node has run, and the next one
}

int GraphScene::opItemCount() const {
    int n = 0;
    for (auto* item : m_nodes) n += item->item().kind == VisibleItem::Kind::Op;
    return n;
}

NodeItem* GraphScene::itemForNode(int nodeIndex) const {
    if (!m_layout) return nullptr;
    auto it = m_layout->graph.itemOfNode.find(nodeIndex);
    if (it == m_layout->graph.itemOfNode.end() || it->second < 0 || static_cast<size_t>(it->second) >= m_nodes.size())
        return nullptr; // not created yet (a big layout being built in slices)
    return m_nodes[static_cast<size_t>(it->second)];
}

void GraphScene::clearItems() {
    m_buildTimer.stop();
    m_building = false;
    m_pendingRect = QRectF();
    Q_EMIT aboutToClear();
    // Hidden now (a hidden item is neither drawn nor found under the mouse), deleted a slice per
    // turn: taking 27,000 items out of the scene at once costs over 100 ms, hiding them a few. Hiding
    // a frame hides what it holds without scheduling a repaint of each.
    // Deleted in the reverse of the order they were made, so that a frame's items go before the frame
    // (deleting a frame deletes all it holds in one go) and each is the last of its parent's children.
    m_retired.reserve(m_retired.size() + m_clusters.size() + m_nodes.size() + m_edges.size());
    auto retire = [this](const auto& items) {
        for (auto it = items.rbegin(); it != items.rend(); ++it) {
            if (!(*it)->parentItem()) (*it)->setVisible(false);
            m_retired.push_back(*it);
        }
    };
    retire(m_edges);
    retire(m_nodes);
    retire(m_clusters);
    m_nodes.clear();
    m_edges.clear();
    m_clusters.clear();
    m_frameItem.clear();
    m_clusterOrder.clear();
    m_reach.clear();
    m_labelCells.clear();
    if (m_retiredDone < m_retired.size()) m_retireTimer.start();
}

bool GraphScene::deleteSomeRetired(int budgetMs) {
    QElapsedTimer clock;
    clock.start();
    while (m_retiredDone < m_retired.size()) {
        delete m_retired[m_retiredDone++];
        if ((m_retiredDone & 63) == 0 && clock.elapsed() >= budgetMs) return false;
    }
    m_retired.clear();
    m_retiredDone = 0;
    if (!m_pendingRect.isNull()) {
        setSceneRect(m_pendingRect); // the layout's own rect, now that only its items are indexed
        m_pendingRect = QRectF();
    }
    return true;
}

void GraphScene::rebuild(LayoutPtr layout) {
    clearItems();
    m_layout = layout;
    if (!layout) return;
    m_dark = QApplication::palette().color(QPalette::Window).lightness() < 128;
    const size_t n = layout->graph.items.size();
    m_nodes.reserve(n);
    m_edges.reserve(layout->edges.size());
    m_clusters.reserve(layout->clusters.size());
    planFrames(*layout);
    const LRect& b = layout->bounds;
    // A new scene rect makes the BSP index insert every item in the scene again, the hidden ones of
    // the last layout too: collapsing the expanded 100k program held the GUI thread 400-520 ms for
    // its 293,757 hidden items. A rect that shrinks waits until they are deleted.
    const QRectF rect = QRectF(b.x, b.y, b.w, b.h).adjusted(-40, -40, 40, 40);
    if (m_retired.size() - m_retiredDone > kDeferRectItems && sceneRect().contains(rect))
        m_pendingRect = rect; // clearItems() emptied it otherwise
    else
        setSceneRect(rect);
    const size_t total = n + layout->edges.size() + layout->clusters.size();
    // The BSP index's depth from the number of items it holds (about 16 a leaf): the top-level ones,
    // all of them when nothing nests. Qt fixes it from the item count the first time it indexes, which
    // can be the 4 boxes of the collapsed program: the 200,000 items of the expanded 100k program
    // would then share 32 leaves and a repaint take 50-70 ms. It only grows: a new depth re-indexes every
    // top-level item in the scene, the hidden ones still waiting to be deleted too.
    size_t indexed = total;
    if (!m_frameItem.empty()) {
        indexed = static_cast<size_t>(std::count(layout->itemFrame.begin(), layout->itemFrame.end(), -1) +
                                      std::count(layout->edgeFrame.begin(), layout->edgeFrame.end(), -1));
        for (const auto& c : layout->clusters) indexed += c.parent < 0;
    }
    const int depth = std::max(5, static_cast<int>(std::ceil(std::log2(static_cast<double>(indexed) / 16 + 1))));
    if (depth > bspTreeDepth()) setBspTreeDepth(depth);
    if (buildSome(total <= static_cast<size_t>(kSyncItems) ? 0 : kSliceMs)) {
        refreshEmphasis();
        Q_EMIT rebuilt();
        return;
    }
    m_building = true;
    m_buildTimer.start();
}

// A box's fill (its op family, themed) and IR level badge: worked out as its item is made, in the
// build's time slices (100,000 registry look-ups up front held the GUI thread for tens of ms).
std::pair<QColor, char> GraphScene::lookOf(const VisibleItem& vi) const {
    unsigned rgb = 0xf0f0f0;
    char badge = 0;
    const Graph* g = m_doc->graph();
    switch (vi.kind) {
    case VisibleItem::Kind::Input: rgb = vi.subgraph >= 0 ? 0xdadaeb : 0xc7e9c0; break; // get_attr / placeholder
    case VisibleItem::Kind::Output: rgb = 0xfcc5c0; break;
    case VisibleItem::Kind::Module: rgb = 0xf2f2f2; break;
    case VisibleItem::Kind::Op:
        if (g && vi.nodeIndex >= 0 && vi.nodeIndex < static_cast<int>(g->nodes.size())) {
            const Target& t = g->nodes[static_cast<size_t>(vi.nodeIndex)].target;
            rgb = opFamilyColor(opFamilyOf(t));
            badge = opLevelBadge(OpRegistry::instance().levelOf(t));
        }
        break;
    }
    return {themedFill(rgb, m_dark), badge};
}

bool GraphScene::buildSome(int budgetMs) {
    QElapsedTimer clock;
    clock.start();
    const LayoutResult& layout = *m_layout;
    int sinceCheck = 0, made = 0;
    auto spent = [&] {
        if (budgetMs > 0 && ++made >= m_maxSliceItems) return true;
        // the clock is read every few items: reading it costs more than creating a small item
        if (++sinceCheck < 16) return false;
        sinceCheck = 0;
        return budgetMs > 0 && clock.elapsed() >= budgetMs;
    };
    const bool nested = !m_frameItem.empty(); // planFrames found what nests
    while (m_clusters.size() < layout.clusters.size()) {
        const size_t c = nested ? static_cast<size_t>(m_clusterOrder[m_clusters.size()]) : m_clusters.size();
        auto* item = new ClusterItem(layout.clusters[c], nested ? m_reach[c] : QRectF());
        if (nested) m_frameItem[c] = item;
        claimLabelRoom(item->titleRect());
        takeBorderRoom(item->frameRect());
        place(item, nested ? layout.clusters[c].parent : -1);
        m_clusters.push_back(item);
        if (spent()) return false;
    }
    while (m_nodes.size() < layout.graph.items.size()) {
        const size_t k = m_nodes.size();
        const auto [fill, badge] = lookOf(layout.graph.items[k]);
        auto* item = new NodeItem(layout, static_cast<int>(k), fill, badge);
        place(item, nested ? layout.itemFrame[k] : -1);
        m_nodes.push_back(item);
        if (spent()) return false;
    }
    while (m_edges.size() < layout.edges.size()) {
        const size_t k = m_edges.size();
        auto* item = new EdgeItem(layout, static_cast<int>(k));
        if (!item->labelRect().isEmpty() && !claimLabelRoom(item->labelRect())) item->setLabelShown(false);
        place(item, nested ? layout.edgeFrame[static_cast<size_t>(layout.edges[k].edge)] : -1);
        m_edges.push_back(item);
        if (spent()) return false;
    }
    return true;
}

namespace {
qint64 labelCellKey(int x, int y) { return (static_cast<qint64>(x) << 32) ^ static_cast<quint32>(y); }
} // namespace

template <typename Visit>
void GraphScene::forLabelCells(const QRectF& r, Visit visit) {
    const int x0 = static_cast<int>(std::floor(r.left() / kLabelCell)), x1 = static_cast<int>(std::floor(r.right() / kLabelCell));
    const int y0 = static_cast<int>(std::floor(r.top() / kLabelCell)), y1 = static_cast<int>(std::floor(r.bottom() / kLabelCell));
    for (int x = x0; x <= x1; ++x)
        for (int y = y0; y <= y1; ++y) visit(labelCellKey(x, y));
}

bool GraphScene::claimLabelRoom(const QRectF& r) {
    const QRectF inner = r.adjusted(0.5, 0.5, -0.5, -0.5);
    bool free = true;
    forLabelCells(r, [&](qint64 key) {
        if (auto it = m_labelCells.find(key); free && it != m_labelCells.end())
            for (const QRectF& taken : it->second)
                // one value to several users: the same label in the same place reads as one
                if (inner.intersects(taken) && taken.toRect() != r.toRect()) free = false;
    });
    if (free) forLabelCells(r, [&](qint64 key) { m_labelCells[key].push_back(r); });
    return free;
}

void GraphScene::takeBorderRoom(const QRectF& frame) {
    // a line a unit wide along each side: a label across it is half in the frame and half out
    for (const QRectF& side : {QRectF(frame.left() - 0.5, frame.top(), 1, frame.height()), QRectF(frame.right() - 0.5, frame.top(), 1, frame.height()),
                               QRectF(frame.left(), frame.top() - 0.5, frame.width(), 1), QRectF(frame.left(), frame.bottom() - 0.5, frame.width(), 1)})
        forLabelCells(side, [&](qint64 key) { m_labelCells[key].push_back(side); });
}

void GraphScene::place(QGraphicsItem* item, int cluster) {
    // frames are made enclosing ones first, so a frame exists before what it holds
    if (cluster >= 0 && m_frameItem[static_cast<size_t>(cluster)]) item->setParentItem(m_frameItem[static_cast<size_t>(cluster)]);
    else addItem(item);
}

void GraphScene::planFrames(const LayoutResult& layout) {
    const size_t nc = layout.clusters.size();
    if (nc == 0 || layout.itemFrame.size() != layout.graph.items.size() || layout.edgeFrame.size() != layout.graph.edges.size())
        return; // made without linkFrames: every item at the top level
    m_reach.assign(nc, QRectF());
    for (size_t k = 0; k < layout.graph.items.size(); ++k)
        if (const int f = layout.itemFrame[k]; f >= 0) m_reach[static_cast<size_t>(f)] |= NodeItem::reachOf(layout.boxes[k]);
    for (size_t k = 0; k < layout.edges.size(); ++k)
        if (const int f = layout.edgeFrame[static_cast<size_t>(layout.edges[k].edge)]; f >= 0)
            m_reach[static_cast<size_t>(f)] |= EdgeItem::reachOf(layout, static_cast<int>(k));
    m_clusterOrder.resize(nc);
    for (size_t c = 0; c < nc; ++c) m_clusterOrder[c] = static_cast<int>(c);
    std::stable_sort(m_clusterOrder.begin(), m_clusterOrder.end(),
                     [&](int a, int b) { return layout.clusters[static_cast<size_t>(a)].depth < layout.clusters[static_cast<size_t>(b)].depth; });
    // a frame reaches as far as the frames inside it: deepest first
    for (auto it = m_clusterOrder.rbegin(); it != m_clusterOrder.rend(); ++it) {
        const LayoutCluster& c = layout.clusters[static_cast<size_t>(*it)];
        m_reach[static_cast<size_t>(*it)] |= QRectF(c.box.x, c.box.y, c.box.w, c.box.h).adjusted(-2, -2, 2, 2);
        if (c.parent >= 0) m_reach[static_cast<size_t>(c.parent)] |= m_reach[static_cast<size_t>(*it)];
    }
    m_frameItem.assign(nc, nullptr);
}

void GraphScene::helpEvent(QGraphicsSceneHelpEvent* event) {
    for (QGraphicsItem* under : items(event->scenePos())) { // topmost first
        QGraphicsItem* box = under;
        while (box && box->type() != NodeItem::Type) box = box->parentItem(); // a box's overlays show its tip
        if (box) {
            QToolTip::showText(event->screenPos(), static_cast<NodeItem*>(box)->toolTipText(), event->widget());
            event->setAccepted(true);
            return;
        }
        if (!under->toolTip().isEmpty()) break; // an edge or a frame on top: its own tooltip
    }
    QGraphicsScene::helpEvent(event);
}

std::vector<int> GraphScene::nodesUsingSymbol(const Graph& graph, const QString& symbol) {
    std::vector<int> out;
    if (symbol.isEmpty()) return out;
    QRegularExpression word("\\b" + QRegularExpression::escape(symbol) + "\\b");
    for (size_t k = 0; k < graph.nodes.size(); ++k) {
        bool uses = false;
        for (const auto& name : graph.nodes[k].outputNames()) {
            const TensorMeta* m = graph.tensorMeta(name);
            if (!m) continue;
            for (const auto& s : m->sizes)
                if (s.isExpr() && word.match(QString::fromStdString(s.toString())).hasMatch()) uses = true;
        }
        if (uses) out.push_back(static_cast<int>(k));
    }
    return out;
}

void GraphScene::refreshEmphasis() {
    if (!m_layout || m_building) return; // applied once every item exists
    std::vector<int> flags(m_nodes.size(), 0);
    auto mark = [&](int nodeIndex, Emphasis e) {
        auto it = m_layout->graph.itemOfNode.find(nodeIndex);
        if (it != m_layout->graph.itemOfNode.end()) flags[static_cast<size_t>(it->second)] |= int(e);
    };
    for (int n : m_doc->searchHits()) mark(n, Emphasis::SearchHit);
    if (const Graph* g = m_doc->graph(); g && !m_doc->highlightSymbol().isEmpty()) {
        if (g != m_symbolGraph || m_doc->highlightSymbol() != m_symbolKey) {
            m_symbolGraph = g;
            m_symbolKey = m_doc->highlightSymbol();
            m_symbolNodes = nodesUsingSymbol(*g, m_symbolKey);
        }
        for (int n : m_symbolNodes) mark(n, Emphasis::Symbol);
    }
    int selectedItem = -1;
    if (m_doc->selectedNode() >= 0) {
        auto it = m_layout->graph.itemOfNode.find(m_doc->selectedNode());
        if (it != m_layout->graph.itemOfNode.end()) selectedItem = it->second;
    } else if (!m_doc->selectedItem().isEmpty()) {
        const std::string id = m_doc->selectedItem().toStdString();
        for (size_t k = 0; k < m_layout->graph.items.size() && selectedItem < 0; ++k)
            if (m_layout->graph.items[k].id == id) selectedItem = static_cast<int>(k);
    }
    for (size_t k = 0; k < m_edges.size(); ++k) {
        const VisibleEdge& e = m_layout->graph.edges[k];
        bool touches = selectedItem >= 0 && (e.from == selectedItem || e.to == selectedItem);
        m_edges[k]->setHighlighted(touches);
        if (touches) flags[static_cast<size_t>(e.from == selectedItem ? e.to : e.from)] |= int(Emphasis::Neighbour);
    }
    if (selectedItem >= 0) flags[static_cast<size_t>(selectedItem)] |= int(Emphasis::Selected);
    // a one-letter search outlines thousands of boxes: one update of the scene instead of one per box
    // (each item update is queued, merged and mapped to every view: 0.25 s for 100,000 boxes)
    int changed = 0;
    for (size_t k = 0; k < m_nodes.size(); ++k)
        if (m_nodes[k]->emphasis() != flags[k]) ++changed;
    const bool bulk = changed > kBulkEmphasis;
    for (size_t k = 0; k < m_nodes.size(); ++k) m_nodes[k]->setEmphasis(flags[k], !bulk);
    if (bulk) update();
}

} // namespace irlens::views
