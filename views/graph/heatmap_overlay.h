#pragma once
// The heatmap overlay of the graph after a run: each op box (and each collapsed module box, with the
// sum of the nodes folded inside) is recoloured by its share of the run's summed self time on a
// viridis ramp, with the time in its top-right corner. Toggling it off restores the op colours.
// Tooltips of the graph's boxes carry the time once a run exists, overlay on or off.

#include "views/run/run_snapshot.h"

#include <QColor>
#include <QObject>

#include <unordered_map>

class QGraphicsItem;

namespace irlens::views {

class Document;
class GraphPane;
class NodeItem;

/// Viridis at t in [0, 1] (0 = dark purple, 1 = yellow).
QColor viridis(double t);

class HeatmapOverlay : public QObject {
    Q_OBJECT
public:
    HeatmapOverlay(Document* document, GraphPane* graph, QObject* parent = nullptr);

    bool isEnabled() const { return m_enabled; }
    void setEnabled(bool on);
    /// The overlay drawn over a box (nullptr when off, before a run, or for inputs/outputs).
    QGraphicsItem* overlayOf(const NodeItem* item) const;
    /// The brush a box is shown with: the heat colour when the overlay covers it, else invalid.
    QColor heatColorOf(const NodeItem* item) const;
    /// Summed self time of the graph nodes a scene box stands for.
    int64_t timeOfItem(int layoutItem) const;

private:
    void apply();
    void clearOverlays();
    void updateTooltips();

    Document* m_doc;
    GraphPane* m_graph;
    RunSnapshotPtr m_run;
    bool m_enabled = false;
    std::unordered_map<const NodeItem*, QGraphicsItem*> m_overlays;
    std::unordered_map<int, int64_t> m_itemNs; // layout item -> summed node self time
};

} // namespace irlens::views
