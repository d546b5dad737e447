#pragma once
// The heatmap overlay of the graph after a run: each op box (and each collapsed module box, with the
// sum of the nodes folded inside) is recoloured by its self time on viridis over a log scale of
// three decades below the hottest box (heatPosition), so that the few boxes that matter stand apart
// from the many that do not; the box shows its time and share under its title, and a legend in the
// canvas's corner reads the colours back as shares of the run. Toggling it off restores the op
// colours. Tooltips of the graph's boxes carry the time once a run exists, overlay on or off.
// In memory mode (the Memory dock's toggle) the same boxes, scale and legend show instead the bytes
// live at the run's peak that each node produced (its outputs still held there, and the workspace of
// the node running at the peak), on the same log scale below the largest; memory mode wins over the
// time heatmap while it is on.

#include "views/graph/overlay_items.h"
#include "views/run/run_snapshot.h"

#include <QColor>
#include <QObject>

#include <unordered_map>

class QGraphicsItem;
class QWidget;

namespace irlens::views {

class Document;
class GraphPane;
class NodeItem;
class ScaleLegend;

/// Decades of time below the hottest that the heat scale spans; anything faster is its coolest colour.
constexpr double kHeatDecades = 3.0;
/// Where `ns` sits on the heat scale whose top is `hottestNs`: 1 for the hottest, falling by
/// 1 / kHeatDecades for every tenfold less time, 0 at and below hottest / 10^kHeatDecades.
double heatPosition(int64_t ns, int64_t hottestNs);
/// The heat colour of `ns` (viridis at heatPosition), shared by the graph and the flame graph.
inline QColor heatColor(int64_t ns, int64_t hottestNs) { return viridis(heatPosition(ns, hottestNs)); }

class HeatmapOverlay : public QObject {
    Q_OBJECT
public:
    HeatmapOverlay(Document* document, GraphPane* graph, QObject* parent = nullptr);

    bool isEnabled() const { return m_enabled; }
    void setEnabled(bool on);
    bool isMemoryMode() const { return m_memoryMode; }
    /// Colours the boxes by the bytes live at the peak instead (shown even with the heatmap off).
    void setMemoryMode(bool on);
    /// Bytes live at the peak produced by the graph nodes a scene box stands for.
    int64_t bytesOfItem(int layoutItem) const;
    /// The overlay drawn over a box (nullptr when off, before a run, or for inputs/outputs).
    QGraphicsItem* overlayOf(const NodeItem* item) const;
    /// The brush a box is shown with: the heat colour when the overlay covers it, else invalid.
    QColor heatColorOf(const NodeItem* item) const;
    /// Summed self time of the graph nodes a scene box stands for.
    int64_t timeOfItem(int layoutItem) const;
    /// The scale's legend in the canvas's bottom-left corner (shown while the overlay colours boxes).
    QWidget* legend() const;

private:
    void apply();
    void clearOverlays();
    void updateTooltips();
    void collectTimes();
    void collectBytes();

    Document* m_doc;
    GraphPane* m_graph;
    RunSnapshotPtr m_run;
    bool m_enabled = false;
    bool m_memoryMode = false;
    std::unordered_map<const NodeItem*, QGraphicsItem*> m_overlays;
    std::unordered_map<int, int64_t> m_itemNs; // layout item -> summed node self time
    std::unordered_map<int, int64_t> m_itemBytes; // layout item -> bytes live at the peak its nodes made
    ScaleLegend* m_legend = nullptr;
};

} // namespace irlens::views
