#pragma once
// The QGraphicsScene of the graph on screen: rebuilt from each LayoutResult the Document delivers,
// re-emphasised (selection, neighbours, search hits, symbol matches) without relayout; the nodes the
// last decomposition step made carry a "new" mark (NewNodeMarker).
// A big layout (thousands of boxes and edges) is turned into items in time slices of a few
// milliseconds, so the event loop keeps running; `rebuilt` is emitted once every item exists.

#include "core/layout/layout_result.h"

#include <QElapsedTimer>
#include <QGraphicsScene>
#include <QTimer>

#include <algorithm>
#include <unordered_map>
#include <vector>

namespace irlens::views {

class Document;
class NodeItem;
class EdgeItem;
class ClusterItem;
class NewNodeMarker;

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
    const std::vector<ClusterItem*>& clusterItems() const { return m_clusters; }
    /// The marks of the nodes the last decomposition step made.
    NewNodeMarker* newNodeMarker() const { return m_newNodeMarker; }
    /// The box showing a graph node (its own, or its collapsed module's); nullptr if none.
    NodeItem* itemForNode(int nodeIndex) const;
    /// Graph nodes whose output shape mentions `symbol` as a whole word.
    static std::vector<int> nodesUsingSymbol(const core::Graph& graph, const QString& symbol);
    /// The rect of the drawing now shown: the scene rect, or a smaller one the scene will take once the
    /// hidden items of an earlier layout are deleted (kDeferRectItems). Fit and the minimap use this.
    QRectF drawingRect() const { return m_pendingRect.isNull() ? sceneRect() : m_pendingRect; }
    /// True while the items of the last layout are still being created (time-sliced).
    bool isBuilding() const { return m_building; }
    /// Layouts with more items than this are built in slices; smaller ones at once.
    static constexpr int kSyncItems = 600;
    /// Longest stretch of item creation before the event loop gets a turn.
    static constexpr int kSliceMs = 8;
    /// With more hidden items of earlier layouts than this still to delete, a smaller scene rect waits
    /// until they are gone (a new rect re-indexes every item in the scene).
    static constexpr size_t kDeferRectItems = 20000;
    /// When more boxes than this change emphasis at once, the scene is repainted as a whole.
    static constexpr int kBulkEmphasis = 200;
    /// Also ends a slice after this many items (tests make slices small to see them).
    void setMaxItemsPerSlice(int items) { m_maxSliceItems = std::max(1, items); }

signals:
    void rebuilt();
    /// Every item is about to be deleted (a new program or layout): whoever holds items or their
    /// children (overlays) drops its pointers; the scene hides them at once and deletes them over the
    /// next turns of the event loop.
    void aboutToClear();

protected:
    /// A box's tooltip is composed when the user hovers it (NodeItem::toolTipText()); edges and
    /// frames keep Qt's stored tooltips.
    void helpEvent(QGraphicsSceneHelpEvent* event) override;

private:
    void rebuild(core::LayoutPtr layout);
    /// Creates items until the slice budget is spent; true when every item exists.
    bool buildSome(int budgetMs);
    void clearItems();
    /// Deletes hidden items of earlier layouts until the slice budget is spent; true when none is left.
    bool deleteSomeRetired(int budgetMs);
    std::pair<QColor, char> lookOf(const core::VisibleItem& item) const;
    /// The frame order and reach of a layout's clusters (empty when it does not say what nests).
    void planFrames(const core::LayoutResult& layout);
    /// Adds an item to the scene, in its frame `cluster` (-1: at the top level).
    void place(QGraphicsItem* item, int cluster);
    void refreshEmphasis();

    Document* m_doc;
    NewNodeMarker* m_newNodeMarker = nullptr;
    core::LayoutPtr m_layout;
    std::vector<NodeItem*> m_nodes;
    std::vector<EdgeItem*> m_edges;
    std::vector<ClusterItem*> m_clusters;    // in the order made: enclosing frames first
    // Nesting (when the layout has LayoutResult::itemFrame): items are children of their frames, so
    // the scene's index holds only the top-level items; adding, removing or re-indexing them does not
    // touch the hundreds of thousands inside (with every item top-level, collapsing the expanded 100k
    // program would purge 293,757 entries from the index in one 104 ms step).
    std::vector<int> m_clusterOrder;         // cluster indices, enclosing ones first
    std::vector<ClusterItem*> m_frameItem;   // per cluster index, once made (empty: nothing nests)
    std::vector<QRectF> m_reach;             // per cluster index: a rect holding everything inside
    // Where labels are drawn (module titles, edge labels) and frames' borders run, by cells of
    // kLabelCell: an edge label that would lie on one of them is left off (the edge's tooltip keeps it).
    static constexpr double kLabelCell = 160;
    std::unordered_map<qint64, std::vector<QRectF>> m_labelCells;
    /// True (and `r` taken) when no label drawn so far overlaps `r`.
    bool claimLabelRoom(const QRectF& r);
    /// Takes the border of a module's frame: an edge label across it is left off.
    void takeBorderRoom(const QRectF& frame);
    template <typename Visit>
    static void forLabelCells(const QRectF& r, Visit visit);
    bool m_dark = false; // the palette the items are being made for
    bool m_building = false;
    int m_maxSliceItems = 1 << 30;
    QTimer m_buildTimer;
    // items of earlier layouts: hidden at once, deleted in slices (deleting the 27,000 items of an
    // expanded llama_deep in one go held the GUI thread for over 100 ms)
    std::vector<QGraphicsItem*> m_retired;
    size_t m_retiredDone = 0;
    QRectF m_pendingRect; // the current layout's rect, set once the hidden items are deleted (kDeferRectItems)
    QTimer m_retireTimer;
    // symbol matches depend only on the graph and the symbol: not recomputed on every selection
    const core::Graph* m_symbolGraph = nullptr;
    QString m_symbolKey;
    std::vector<int> m_symbolNodes;
};

} // namespace irlens::views
