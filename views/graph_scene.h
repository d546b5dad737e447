#pragma once
// The QGraphicsScene of the graph on screen: rebuilt from each LayoutResult the Document delivers,
// re-emphasised (selection, neighbours, search hits, symbol matches) without relayout.

#include "core/layout/layout_result.h"

#include <QGraphicsScene>

#include <vector>

namespace irlens::views {

class Document;
class NodeItem;
class EdgeItem;
class ClusterItem;

class GraphScene : public QGraphicsScene {
    Q_OBJECT
public:
    explicit GraphScene(Document* document, QObject* parent = nullptr);

    Document* document() const { return m_doc; }
    core::LayoutPtr layout() const { return m_layout; }
    /// Items for ops, user inputs, the output and collapsed modules (one per visible box).
    int nodeItemCount() const { return static_cast<int>(m_nodes.size()); }
    int opItemCount() const;
    int edgeItemCount() const { return static_cast<int>(m_edges.size()); }
    int clusterItemCount() const { return static_cast<int>(m_clusters.size()); }
    const std::vector<NodeItem*>& nodeItems() const { return m_nodes; }
    /// The box showing a graph node (its own, or its collapsed module's); nullptr if none.
    NodeItem* itemForNode(int nodeIndex) const;
    /// Graph nodes whose output shape mentions `symbol` as a whole word.
    static std::vector<int> nodesUsingSymbol(const core::Graph& graph, const QString& symbol);

signals:
    void rebuilt();

private:
    void rebuild(core::LayoutPtr layout);
    void refreshEmphasis();

    Document* m_doc;
    core::LayoutPtr m_layout;
    std::vector<NodeItem*> m_nodes;
    std::vector<EdgeItem*> m_edges;
    std::vector<ClusterItem*> m_clusters;
};

} // namespace irlens::views
