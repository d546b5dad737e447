#pragma once
// The per-thread timeline of the last run: one lane per worker thread, one bar per executed node
// (coloured by op family) over a time axis in ms. Clicking a bar selects its node; the selected
// node's bar is outlined. Wheel zooms the time axis around the cursor, drag pans.

#include "views/run/run_snapshot.h"

#include <QWidget>

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
    void setRun(RunSnapshotPtr run);
    double xOf(int64_t ns) const;
    QRectF laneRect(int lane) const;

    Document* m_doc;
    RunSnapshotPtr m_run;
    std::vector<Bar> m_bars;
    std::vector<int> m_lanes;  // thread id per lane
    int64_t m_spanNs = 1;
    double m_zoom = 1.0;       // 1 = the whole run fits
    double m_offsetNs = 0;     // time at the left edge of the plot
    int m_selected = -1;
    QPointF m_dragFrom;
    double m_dragOffset = 0;
    bool m_dragging = false;
};

} // namespace irlens::views
