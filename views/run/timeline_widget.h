#pragma once
// The per-thread timeline of the last run: one lane per worker thread, one bar per executed node
// (coloured by op family) over a time axis in ms. Clicking a bar selects its node; the selected
// node's bar is outlined. Wheel zooms the time axis around the cursor, drag pans. Under the lanes, a
// band labelled "activations" draws the bytes the engine allocates over the same time axis
// (activations + workspace from the Memory dock's curve, each node's point held from the node's
// measured start to the next node's), from 0 to its peak: what the Profile's peak counts. The
// weights and inputs, held throughout, are left out (its tooltip says how much they are).

#include "views/run/run_snapshot.h"

#include <QWidget>

class QPainter;

#include <vector>

namespace irlens::views {

class Document;

class TimelineWidget : public QWidget {
    Q_OBJECT
public:
    explicit TimelineWidget(Document* document, QWidget* parent = nullptr);

    int barCount() const { return static_cast<int>(m_bars.size()); }
    int laneCount() const { return static_cast<int>(m_lanes.size()); }
    /// Where the node's bar is drawn (widget coordinates), empty if it has none.
    QRectF barRect(int node) const;
    /// The node whose bar is under `pos`, -1 if none.
    int nodeAt(const QPointF& pos) const;
    int highlightedNode() const { return m_selected; }
    /// The memory band: where it is drawn, its highest value and the bytes it shows at time `ns`.
    QRectF memoryBand() const;
    int64_t memoryPeakBytes() const { return m_memoryPeak; }
    int64_t memoryAt(int64_t ns) const;
    QSize sizeHint() const override { return {800, 160}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct Bar {
        int node = -1;
        int lane = 0;
        int64_t startNs = 0, endNs = 0;
        QColor color;
        QString label;
    };
    struct MemoryStep {
        int64_t fromNs = 0, toNs = 0, bytes = 0;
    };
    void setRun(RunSnapshotPtr run);
    void setMemory();
    void paintMemory(QPainter& p);
    double xOf(int64_t ns) const;
    QRectF laneRect(int lane) const;

    Document* m_doc;
    RunSnapshotPtr m_run;
    std::vector<Bar> m_bars;
    std::vector<int> m_lanes;  // thread id per lane
    std::vector<MemoryStep> m_memory; // in time order
    int64_t m_memoryPeak = 0;
    int64_t m_heldBytes = 0;   // weights + inputs: live the whole run, not in the band
    int64_t m_spanNs = 1;
    double m_zoom = 1.0;       // 1 = the whole run fits
    double m_offsetNs = 0;     // time at the left edge of the plot
    int m_selected = -1;
    QPointF m_dragFrom;
    double m_dragOffset = 0;
    bool m_dragging = false;
};

} // namespace irlens::views
