#pragma once
// The roofline plot: arithmetic intensity (FLOP/byte) against GFLOP/s on log-log axes, the memory
// roof (intensity x bandwidth) rising to the ridge and the compute roof (the GEMM peak) flat after
// it, each labelled with its measured value; one dot per node that did arithmetic, its area
// proportional to the node's share of the run and its colour its op family (the graph's colours).
// Hover names a dot's node and its numbers, a click selects the node through the Document, and the
// node selected anywhere gets a ring. The axis maths lives apart (RooflineAxes) so it can be checked
// without a widget.

#include "views/run/run_analysis.h"

#include <QRectF>
#include <QWidget>

namespace irlens::views {

class Document;

/// Log10 axes fitted to a roofline: whole decades around every dot and both roofs.
struct RooflineAxes {
    double xMinLog = -1, xMaxLog = 3;   // intensity, decades
    double yMinLog = -1, yMaxLog = 3;   // GFLOP/s, decades
    QRectF plot;                        // the plotting area, in widget pixels
    static RooflineAxes fit(const RooflineSummary& roofline, const QRectF& plot);
    /// Where (intensity, GFLOP/s) lands in the widget.
    QPointF at(double intensity, double gflops) const;
    /// Radius of a dot whose node took `ns` of `totalNs`: its area in proportion, 3 to 22 px.
    static double radius(int64_t ns, int64_t totalNs);
};

class RooflinePlot : public QWidget {
    Q_OBJECT
public:
    explicit RooflinePlot(Document* document, QWidget* parent = nullptr);
    void setRoofline(RooflineSummary roofline);
    const RooflineSummary& roofline() const { return m_roofline; }

    /// Dots drawn: the nodes with FLOPs, bytes moved and a time (RoofPoint::onPlot).
    int dotCount() const { return static_cast<int>(m_dots.size()); }
    /// Centre of node `node`'s dot in widget pixels; an invalid point when it has none.
    QPointF dotCenter(int node) const;
    /// The node whose dot is under `pos` (the smallest when dots overlap), -1 when none.
    int dotAt(const QPointF& pos) const;
    int hoveredNode() const { return m_hovered; }
    /// The node selected in the Document when it has a dot here (ringed), else -1.
    int highlightedNode() const;
    /// What hovering a dot says.
    QString describe(const RoofPoint& point) const;
    RooflineAxes axes() const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    void drawAxes(QPainter& p, const RooflineAxes& a) const;
    void drawRoofs(QPainter& p, const RooflineAxes& a) const;
    void drawDots(QPainter& p, const RooflineAxes& a) const;
    void drawLegend(QPainter& p, const RooflineAxes& a) const;
    const RoofPoint& dot(size_t k) const { return m_roofline.points[m_dots[k]]; }

    Document* m_doc;
    RooflineSummary m_roofline;
    std::vector<size_t> m_dots;  // indices into m_roofline.points on the plot, largest first (drawn in that order)
    int m_hovered = -1;
};

} // namespace irlens::views
