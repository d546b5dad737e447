#include "views/run/roofline_plot.h"

#include "views/document.h"
#include "views/graph/graph_items.h"

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <set>

namespace irlens::views {

namespace {

// Room around the plotting area for the tick labels, the axis titles and, right, the legend.
constexpr double kLeft = 58, kRight = 150, kTop = 10, kBottom = 42;
// Dot radius: its area in proportion to the node's share of the run, within these bounds.
constexpr double kMinRadius = 3, kMaxRadius = 22, kRadiusPerRootShare = 40;

QString decadeLabel(double exponent) { return QString::number(std::pow(10.0, exponent), 'g', 6); }

QString percent(double share) { return QString::number(100.0 * share, 'f', 1) + " %"; }

} // namespace

RooflineAxes RooflineAxes::fit(const RooflineSummary& r, const QRectF& plot) {
    RooflineAxes a;
    a.plot = plot;
    const double ridge = r.ridge() > 0 ? r.ridge() : 1.0;
    double xLo = ridge, xHi = ridge, yLo = r.peakGflops > 0 ? r.peakGflops : 1.0, yHi = yLo;
    for (const RoofPoint& p : r.points) {
        if (!p.onPlot()) continue;
        xLo = std::min(xLo, p.intensity);
        xHi = std::max(xHi, p.intensity);
        yLo = std::min(yLo, p.achievedGflops);
        yHi = std::max(yHi, p.achievedGflops);
    }
    // some air around the outermost dots (the biggest are 22 px across) and the peak
    a.xMinLog = std::log10(xLo) - 0.3;
    a.xMaxLog = std::log10(xHi) + 0.3;
    a.yMinLog = std::log10(yLo) - 0.3;
    a.yMaxLog = std::log10(yHi) + 0.35;
    // at least two decades each way, so a program of one kind of node still shows both roofs
    const double xMid = (a.xMinLog + a.xMaxLog) / 2, yMid = (a.yMinLog + a.yMaxLog) / 2;
    if (a.xMaxLog - a.xMinLog < 2) { a.xMinLog = xMid - 1; a.xMaxLog = xMid + 1; }
    if (a.yMaxLog - a.yMinLog < 2) { a.yMinLog = yMid - 1; a.yMaxLog = yMid + 1; }
    return a;
}

QPointF RooflineAxes::at(double intensity, double gflops) const {
    const double fx = (std::log10(intensity) - xMinLog) / (xMaxLog - xMinLog);
    const double fy = (std::log10(gflops) - yMinLog) / (yMaxLog - yMinLog);
    return {plot.left() + fx * plot.width(), plot.bottom() - fy * plot.height()};
}

double RooflineAxes::radius(int64_t ns, int64_t totalNs) {
    const double share = totalNs > 0 ? static_cast<double>(ns) / static_cast<double>(totalNs) : 0.0;
    return std::clamp(std::sqrt(share) * kRadiusPerRootShare, kMinRadius, kMaxRadius);
}

RooflinePlot::RooflinePlot(Document* document, QWidget* parent) : QWidget(parent), m_doc(document) {
    setObjectName("rooflinePlot");
    setMouseTracking(true);
    setMinimumSize(360, 150);
    connect(m_doc, &Document::selectionChanged, this, [this] { update(); });
}

void RooflinePlot::setRoofline(RooflineSummary roofline) {
    m_roofline = std::move(roofline);
    m_dots.clear();
    for (size_t k = 0; k < m_roofline.points.size(); ++k)
        if (m_roofline.points[k].onPlot()) m_dots.push_back(k);
    // the big dots first, so that the small ones stay visible on top of them
    std::stable_sort(m_dots.begin(), m_dots.end(), [this](size_t a, size_t b) { return m_roofline.points[a].ns > m_roofline.points[b].ns; });
    m_hovered = -1;
    update();
}

RooflineAxes RooflinePlot::axes() const {
    const QRectF plot(kLeft, kTop, std::max(10.0, width() - kLeft - kRight), std::max(10.0, height() - kTop - kBottom));
    return RooflineAxes::fit(m_roofline, plot);
}

QPointF RooflinePlot::dotCenter(int node) const {
    const RooflineAxes a = axes();
    for (size_t k = 0; k < m_dots.size(); ++k)
        if (dot(k).node == node) return a.at(dot(k).intensity, dot(k).achievedGflops);
    return QPointF(-1, -1);
}

int RooflinePlot::dotAt(const QPointF& pos) const {
    const RooflineAxes a = axes();
    for (size_t k = m_dots.size(); k-- > 0;) { // the top-most (drawn last) first
        const RoofPoint& p = dot(k);
        const QPointF c = a.at(p.intensity, p.achievedGflops);
        if (std::hypot(pos.x() - c.x(), pos.y() - c.y()) <= RooflineAxes::radius(p.ns, m_roofline.totalNs) + 2) return p.node;
    }
    return -1;
}

int RooflinePlot::highlightedNode() const {
    const int selected = m_doc->selectedNode();
    const RoofPoint* p = selected >= 0 ? m_roofline.find(selected) : nullptr;
    return p && p->onPlot() ? selected : -1;
}

QString RooflinePlot::describe(const RoofPoint& p) const {
    const double share = m_roofline.totalNs > 0 ? static_cast<double>(p.ns) / static_cast<double>(m_roofline.totalNs) : 0.0;
    return tr("%1 (%2, %3)\n%4 ms, %5 of the run\n%6 MFLOP over %7 KiB moved: %8 FLOP/byte, %9-bound\n"
              "achieved %10 GFLOP/s of %11 attainable: %12 of the roof")
        .arg(p.name, p.op, QString::fromUtf8(core::opFamilyName(p.family)))
        .arg(static_cast<double>(p.ns) / 1e6, 0, 'f', 3)
        .arg(percent(share))
        .arg(p.flops / 1e6, 0, 'f', 3)
        .arg(static_cast<double>(p.bytes) / 1024.0, 0, 'f', 1)
        .arg(p.intensity, 0, 'g', 3)
        .arg(p.computeBound ? tr("compute") : tr("memory"))
        .arg(p.achievedGflops, 0, 'f', 2)
        .arg(p.attainableGflops, 0, 'f', 2)
        .arg(percent(p.share));
}

void RooflinePlot::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    if (m_roofline.peakGflops <= 0 || m_roofline.bandwidthGBs <= 0) {
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
                   m_roofline.error.isEmpty() ? tr("Run the program (F5) to see each node against this machine's roofs")
                                              : tr("No roofs: %1").arg(m_roofline.error));
        return;
    }
    const RooflineAxes a = axes();
    drawAxes(p, a);
    p.save();
    p.setClipRect(a.plot);
    drawRoofs(p, a);
    p.restore();
    drawLegend(p, a);
    drawDots(p, a); // unclipped: a big dot at the edge stays whole
}

void RooflinePlot::drawAxes(QPainter& p, const RooflineAxes& a) const {
    const QColor text = palette().color(QPalette::WindowText);
    QColor grid = text;
    grid.setAlpha(40);
    p.setPen(grid);
    for (double e = std::ceil(a.xMinLog); e <= a.xMaxLog; ++e) {
        const double x = a.at(std::pow(10.0, e), 1).x();
        p.drawLine(QPointF(x, a.plot.top()), QPointF(x, a.plot.bottom()));
    }
    for (double e = std::ceil(a.yMinLog); e <= a.yMaxLog; ++e) {
        const double y = a.at(1, std::pow(10.0, e)).y();
        p.drawLine(QPointF(a.plot.left(), y), QPointF(a.plot.right(), y));
    }
    p.setPen(text);
    p.drawRect(a.plot);
    for (double e = std::ceil(a.xMinLog); e <= a.xMaxLog; ++e) {
        const double x = a.at(std::pow(10.0, e), 1).x();
        p.drawText(QRectF(x - 40, a.plot.bottom() + 2, 80, 16), Qt::AlignHCenter | Qt::AlignTop, decadeLabel(e));
    }
    for (double e = std::ceil(a.yMinLog); e <= a.yMaxLog; ++e) {
        const double y = a.at(1, std::pow(10.0, e)).y();
        p.drawText(QRectF(0, y - 8, a.plot.left() - 6, 16), Qt::AlignRight | Qt::AlignVCenter, decadeLabel(e));
    }
    p.drawText(QRectF(a.plot.left(), a.plot.bottom() + 20, a.plot.width(), 20), Qt::AlignHCenter | Qt::AlignTop,
               tr("arithmetic intensity (FLOP per byte moved)"));
    p.save();
    p.translate(12, a.plot.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-80, -10, 160, 20), Qt::AlignCenter, tr("GFLOP/s"));
    p.restore();
}

void RooflinePlot::drawRoofs(QPainter& p, const RooflineAxes& a) const {
    const double peak = m_roofline.peakGflops, bandwidth = m_roofline.bandwidthGBs, ridge = m_roofline.ridge();
    const double xLo = std::pow(10.0, a.xMinLog), xHi = std::pow(10.0, a.xMaxLog);
    const QColor roof = palette().color(QPalette::WindowText);
    const QPointF left = a.at(xLo, xLo * bandwidth), knee = a.at(ridge, peak), right = a.at(xHi, peak);
    p.setPen(QPen(roof, 2.5));
    p.drawLine(left, knee);
    p.drawLine(knee, right);
    QColor dim = roof;
    dim.setAlpha(110);
    p.setPen(QPen(dim, 1, Qt::DashLine));
    p.drawLine(knee, QPointF(knee.x(), a.plot.bottom()));
    p.setPen(roof);
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    // the peak's label left of the knee, level with its line: above the memory roof, where no node can
    // be (the nodes near the peak crowd the line right of the knee)
    const QString compute = tr("peak %1 GFLOP/s (GEMM, %2 thread%3)").arg(peak, 0, 'f', 1).arg(m_roofline.threads).arg(m_roofline.threads > 1 ? "s" : "");
    QRectF peakLabel;
    p.drawText(QRectF(a.plot.left(), knee.y() - 9, knee.x() - a.plot.left() - 8, 18), Qt::AlignRight | Qt::AlignVCenter, compute, &peakLabel);
    // the memory roof's label along its line, above it, where it covers the fewest dots
    const double enterX = std::max(xLo, std::pow(10.0, a.yMinLog) / bandwidth);
    const QPointF from = a.at(enterX, enterX * bandwidth);
    const QString memory = tr("memory %1 GB/s").arg(bandwidth, 0, 'f', 1);
    const double angle = std::atan2(knee.y() - from.y(), knee.x() - from.x());
    const double length = std::hypot(knee.x() - from.x(), knee.y() - from.y());
    const double textWidth = p.fontMetrics().horizontalAdvance(memory);
    const QPointF along(std::cos(angle), std::sin(angle)), up(std::sin(angle), -std::cos(angle));
    const double textTop = p.fontMetrics().ascent() + 7, textBottom = 7 - p.fontMetrics().descent(); // above the line
    // distance from `c` to the label's box when the label starts `start` px along the line
    auto distanceToLabel = [&](const QPointF& c, double start) {
        const QPointF d = c - from;
        const double u = d.x() * along.x() + d.y() * along.y() - start, v = d.x() * up.x() + d.y() * up.y();
        return std::hypot(std::max({-u, 0.0, u - textWidth}), std::max({textBottom - v, 0.0, v - textTop}));
    };
    double bestT = 0.1, bestClearance = -1e9;
    for (double t = 0.05; t * length + textWidth <= length; t += 0.05) {
        double clearance = 1e9;
        for (size_t k = 0; k < m_dots.size(); ++k)
            clearance = std::min(clearance, distanceToLabel(a.at(dot(k).intensity, dot(k).achievedGflops), t * length) -
                                                RooflineAxes::radius(dot(k).ns, m_roofline.totalNs));
        const QPointF start = from + along * (t * length);
        const QPolygonF box({start + up * textBottom, start + up * textBottom + along * textWidth, start + up * textTop + along * textWidth,
                             start + up * textTop});
        if (box.intersects(QPolygonF(peakLabel.adjusted(-4, -4, 4, 4)))) continue; // never over the peak's label
        if (clearance > bestClearance + 1) {
            bestClearance = clearance;
            bestT = t;
        }
    }
    p.save();
    p.translate(from + along * (bestT * length));
    p.rotate(angle * 180.0 / M_PI);
    p.drawText(QPointF(0, -7), memory);
    p.restore();
    p.setFont(font());
    p.drawText(QRectF(knee.x() + 4, a.plot.bottom() - 18, 200, 16), Qt::AlignLeft | Qt::AlignVCenter,
               tr("ridge %1 FLOP/byte").arg(ridge, 0, 'f', 2));
}

void RooflinePlot::drawDots(QPainter& p, const RooflineAxes& a) const {
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    const QColor edge = palette().color(QPalette::WindowText);
    for (size_t k = 0; k < m_dots.size(); ++k) {
        const RoofPoint& d = dot(k);
        const double r = RooflineAxes::radius(d.ns, m_roofline.totalNs);
        QColor fill = themedFill(core::opFamilyColor(d.family), dark);
        fill.setAlpha(d.node == m_hovered ? 255 : 210);
        p.setPen(QPen(edge, d.node == m_hovered ? 2.0 : 0.8));
        p.setBrush(fill);
        p.drawEllipse(a.at(d.intensity, d.achievedGflops), r, r);
    }
    if (const int selected = highlightedNode(); selected >= 0) {
        const RoofPoint& d = *m_roofline.find(selected);
        const double r = RooflineAxes::radius(d.ns, m_roofline.totalNs) + 4;
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(palette().color(QPalette::Highlight), 3));
        p.drawEllipse(a.at(d.intensity, d.achievedGflops), r, r);
    }
}

void RooflinePlot::drawLegend(QPainter& p, const RooflineAxes& a) const {
    // the families on the plot, in a column right of it
    std::set<core::OpFamily> families;
    for (size_t k = 0; k < m_dots.size(); ++k) families.insert(dot(k).family);
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    const double x = a.plot.right() + 12;
    double y = a.plot.top();
    p.setPen(palette().color(QPalette::WindowText));
    for (core::OpFamily f : families) {
        p.setBrush(themedFill(core::opFamilyColor(f), dark));
        p.drawEllipse(QPointF(x + 6, y + 8), 5, 5);
        p.drawText(QPointF(x + 16, y + 12), QString::fromUtf8(core::opFamilyName(f)));
        y += 17;
    }
    p.drawText(QRectF(x, y + 2, kRight - 16, 40), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, tr("dot area: share of the run"));
}

void RooflinePlot::mouseMoveEvent(QMouseEvent* event) {
    const int node = dotAt(event->position());
    if (node != m_hovered) {
        m_hovered = node;
        update();
    }
    if (node < 0) return QToolTip::hideText();
    QToolTip::showText(event->globalPosition().toPoint(), describe(*m_roofline.find(node)), this);
}

void RooflinePlot::leaveEvent(QEvent*) {
    if (m_hovered < 0) return;
    m_hovered = -1;
    update();
}

void RooflinePlot::mousePressEvent(QMouseEvent* event) {
    const int node = dotAt(event->position());
    if (node < 0) return;
    m_doc->revealNode(node);
    m_doc->selectNode(node);
}

} // namespace irlens::views
