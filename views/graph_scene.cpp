#include "views/graph_scene.h"

#include "core/layout/op_family.h"
#include "core/ops/op_registry.h"
#include "views/document.h"
#include "views/graph_items.h"

#include <QApplication>
#include <QPalette>
#include <QRegularExpression>

namespace irlens::views {

using namespace irlens::core;

GraphScene::GraphScene(Document* document, QObject* parent) : QGraphicsScene(parent), m_doc(document) {
    setItemIndexMethod(QGraphicsScene::BspTreeIndex);
    connect(m_doc, &Document::layoutReady, this, &GraphScene::rebuild);
    connect(m_doc, &Document::programChanged, this, [this] {
        clear();
        m_nodes.clear();
        m_edges.clear();
        m_clusters.clear();
        m_layout.reset();
    });
    connect(m_doc, &Document::selectionChanged, this, &GraphScene::refreshEmphasis);
    connect(m_doc, &Document::searchHitsChanged, this, &GraphScene::refreshEmphasis);
    connect(m_doc, &Document::symbolHighlightChanged, this, &GraphScene::refreshEmphasis);
}

int GraphScene::opItemCount() const {
    int n = 0;
    for (auto* item : m_nodes) n += item->item().kind == VisibleItem::Kind::Op;
    return n;
}

NodeItem* GraphScene::itemForNode(int nodeIndex) const {
    if (!m_layout) return nullptr;
    auto it = m_layout->graph.itemOfNode.find(nodeIndex);
    if (it == m_layout->graph.itemOfNode.end()) return nullptr;
    return m_nodes[static_cast<size_t>(it->second)];
}

void GraphScene::rebuild(LayoutPtr layout) {
    clear();
    m_nodes.clear();
    m_edges.clear();
    m_clusters.clear();
    m_layout = layout;
    if (!layout) return;
    const Graph* g = m_doc->graph();
    const bool dark = QApplication::palette().color(QPalette::Window).lightness() < 128;
    const auto& registry = OpRegistry::instance();
    for (const auto& c : layout->clusters) {
        auto* item = new ClusterItem(c);
        addItem(item);
        m_clusters.push_back(item);
    }
    m_nodes.reserve(layout->graph.items.size());
    for (size_t k = 0; k < layout->graph.items.size(); ++k) {
        const VisibleItem& vi = layout->graph.items[k];
        unsigned rgb = 0xf0f0f0;
        char badge = 0;
        switch (vi.kind) {
        case VisibleItem::Kind::Input: rgb = 0xc7e9c0; break;
        case VisibleItem::Kind::Output: rgb = 0xfcc5c0; break;
        case VisibleItem::Kind::Module: rgb = 0xf2f2f2; break;
        case VisibleItem::Kind::Op:
            if (g && vi.nodeIndex >= 0 && vi.nodeIndex < static_cast<int>(g->nodes.size())) {
                const Target& t = g->nodes[static_cast<size_t>(vi.nodeIndex)].target;
                rgb = opFamilyColor(opFamilyOf(t));
                badge = irLevelBadge(registry.levelOf(t));
            }
            break;
        }
        auto* item = new NodeItem(*layout, static_cast<int>(k), themedFill(rgb, dark), badge);
        addItem(item);
        m_nodes.push_back(item);
    }
    for (size_t k = 0; k < layout->edges.size(); ++k) {
        auto* item = new EdgeItem(*layout, static_cast<int>(k));
        addItem(item);
        m_edges.push_back(item);
    }
    const LRect& b = layout->bounds;
    setSceneRect(QRectF(b.x, b.y, b.w, b.h).adjusted(-40, -40, 40, 40));
    refreshEmphasis();
    emit rebuilt();
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
                if (s.isExpr && word.match(QString::fromStdString(s.toString())).hasMatch()) uses = true;
        }
        if (uses) out.push_back(static_cast<int>(k));
    }
    return out;
}

void GraphScene::refreshEmphasis() {
    if (!m_layout) return;
    std::vector<int> flags(m_nodes.size(), 0);
    auto mark = [&](int nodeIndex, Emphasis e) {
        auto it = m_layout->graph.itemOfNode.find(nodeIndex);
        if (it != m_layout->graph.itemOfNode.end()) flags[static_cast<size_t>(it->second)] |= int(e);
    };
    for (int n : m_doc->searchHits()) mark(n, Emphasis::SearchHit);
    if (const Graph* g = m_doc->graph(); g && !m_doc->highlightSymbol().isEmpty())
        for (int n : nodesUsingSymbol(*g, m_doc->highlightSymbol())) mark(n, Emphasis::Symbol);
    int selectedItem = -1;
    if (m_doc->selectedNode() >= 0) {
        auto it = m_layout->graph.itemOfNode.find(m_doc->selectedNode());
        if (it != m_layout->graph.itemOfNode.end()) selectedItem = it->second;
    }
    for (size_t k = 0; k < m_edges.size(); ++k) {
        const VisibleEdge& e = m_layout->graph.edges[k];
        bool touches = selectedItem >= 0 && (e.from == selectedItem || e.to == selectedItem);
        m_edges[k]->setHighlighted(touches);
        if (touches) flags[static_cast<size_t>(e.from == selectedItem ? e.to : e.from)] |= int(Emphasis::Neighbour);
    }
    if (selectedItem >= 0) flags[static_cast<size_t>(selectedItem)] |= int(Emphasis::Selected);
    for (size_t k = 0; k < m_nodes.size(); ++k) m_nodes[k]->setEmphasis(flags[k]);
}

} // namespace irlens::views
