#pragma once
// The module flame graph of the last run, drawn as an icicle: the whole run on top, modules of the
// nn_module_stack below, the nodes as the bottom slices in the graph heatmap's colours; each frame's
// width is proportional to its inclusive time. Click a frame: its nodes become the graph's outlined
// set and its hottest node the selection (a leaf selects its node); the selected node's path is
// outlined here. Double-click zooms into a frame; the breadcrumb on top, Esc or Backspace zoom back out.

#include "views/run/flame_graph_model.h"
#include "views/run/run_snapshot.h"

#include <QWidget>

#include <vector>

namespace irlens::views {

class Document;

class FlameGraphWidget : public QWidget {
    Q_OBJECT
public:
    explicit FlameGraphWidget(Document* document, QWidget* parent = nullptr);

    const FlameTree& tree() const { return m_tree; }
    /// Where a frame is drawn (widget coordinates), empty when it is outside the zoomed frame.
    QRectF frameRect(int frame) const;
    /// The frame under `pos`, -1 if none.
    int frameAt(const QPointF& pos) const;
    /// The area the zoomed frame spans (full width of the plot).
    QRectF plotRect() const;
    /// Breadcrumb segment `level` (0 = whole run ... the zoomed frame), empty if absent.
    QRectF breadcrumbRect(int level) const;

    int zoomFrame() const { return m_zoom; }
    void zoomTo(int frame);
    /// One level up (to the zoomed frame's parent).
    void zoomOut();
    /// The clicked module, or the leaf of the selected node; -1 if none.
    int selectedFrame() const { return m_selectedFrame; }
    /// Frames outlined for the selection: the chain from the root to selectedFrame().
    std::vector<int> highlightedPath() const;
    /// The tooltip of a frame: inclusive and self time, share of the run.
    QString tooltipOf(int frame) const;

    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;

private:
    void setRun(RunSnapshotPtr run);
    void activate(int frame);
    void relayout() const;
    /// Lays out again when the width changed (a hidden widget gets no resize event until shown).
    void ensureLayout() const;

    int breadcrumbAt(const QPointF& pos) const;

    Document* m_doc;
    RunSnapshotPtr m_run;
    int64_t m_hottestNs = 0; // the top of the heat scale, found once per run (not per paint)
    FlameTree m_tree;
    mutable std::vector<QRectF> m_rects;   // per frame, empty when not shown
    mutable std::vector<QRectF> m_crumbs;  // per breadcrumb level
    mutable std::vector<QString> m_crumbText;
    mutable int m_layoutWidth = -1;
    int m_zoom = 0;
    int m_selectedFrame = -1;
    bool m_ownHits = false;        // the graph's outlined set is ours (a module click)...
    int m_hitsFrame = 0;           // ...the nodes of this frame
    int m_pressed = -1;
};

} // namespace irlens::views
