#include "views/run/timeline_widget.h"

#include "core/ops/op_family.h"
#include "views/document.h"
#include "views/graph/graph_items.h"
#include "views/run/run_analysis.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace irlens::views {

namespace {
constexpr double kLeft = 70;   // lane labels
constexpr double kRight = 10;
constexpr double kAxis = 22;   // time axis strip at the top
constexpr double kLane = 26;
constexpr double kBand = 44;   // the memory band under the lanes
QString mib(int64_t bytes) { return QString::number(static_cast<double>(bytes) / (1024.0 * 1024.0), 'f', 2) + " MiB"; }
} // namespace

TimelineWidget::TimelineWidget(Document* document, QWidget* parent) : QWidget(parent), m_doc(document) {
    setMouseTracking(true);
    setMinimumHeight(80);
    connect(m_doc, &Document::runFinished, this, &TimelineWidget::setRun);
    connect(m_doc, &Document::selectionChanged, this, [this](int node) {
        m_selected = node;
        update();
    });
    setRun(m_doc->runResult());
}

void TimelineWidget::setRun(RunSnapshotPtr run) {
    m_run = std::move(run);
    m_bars.clear();
    m_lanes.clear();
    m_zoom = 1.0;
    m_offsetNs = 0;
    m_spanNs = 1;
    if (m_run) {
        auto program = m_doc->program();
        for (const auto& t : m_run->timings) {
            if (std::find(m_lanes.begin(), m_lanes.end(), t.thread) == m_lanes.end()) m_lanes.push_back(t.thread);
            m_spanNs = std::max(m_spanNs, t.endNs);
        }
        std::sort(m_lanes.begin(), m_lanes.end());
        const bool dark = palette().color(QPalette::Window).lightness() < 128;
        for (const auto& t : m_run->timings) {
            Bar b;
            b.node = t.node;
            b.lane = static_cast<int>(std::find(m_lanes.begin(), m_lanes.end(), t.thread) - m_lanes.begin());
            b.startNs = t.startNs;
            b.endNs = std::max(t.endNs, t.startNs);
            unsigned rgb = core::opFamilyColor(core::OpFamily::Other);
            if (program && t.node >= 0 && t.node < static_cast<int>(program->graph.nodes.size())) {
                const auto& n = program->graph.nodes[static_cast<size_t>(t.node)];
                rgb = core::opFamilyColor(core::opFamilyOf(n.target));
                b.label = QString::fromStdString(n.name);
            }
            b.color = themedFill(rgb, dark);
            m_bars.push_back(std::move(b));
        }
    }
    setMemory();
    setMinimumHeight(static_cast<int>(kAxis + kLane * std::max<size_t>(1, m_lanes.size()) + (m_memory.empty() ? 6 : kBand + 12)));
    update();
}

// Each point of the memory curve holds from its node's measured start to the next point's start
// (the last to its node's end).
void TimelineWidget::setMemory() {
    m_memory.clear();
    m_memoryPeak = 0;
    m_heldBytes = 0;
    if (!m_run || !m_run->analysis) return;
    std::unordered_map<int, std::pair<int64_t, int64_t>> when;
    for (const auto& t : m_run->timings) when.try_emplace(t.node, t.startNs, std::max(t.startNs, t.endNs));
    for (const MemoryPoint& pt : memoryOf(*m_run->analysis).curve) {
        auto it = when.find(pt.node);
        if (it == when.end()) continue;
        // what the engine allocates; the weights and inputs, held throughout, would only raise the floor
        const int64_t allocated = pt.activations + pt.workspace;
        m_memory.push_back({it->second.first, it->second.second, allocated});
        m_memoryPeak = std::max(m_memoryPeak, allocated);
        m_heldBytes = pt.weights + pt.inputs;
    }
    std::stable_sort(m_memory.begin(), m_memory.end(), [](const MemoryStep& a, const MemoryStep& b) { return a.fromNs < b.fromNs; });
    for (size_t k = 0; k + 1 < m_memory.size(); ++k) m_memory[k].toNs = m_memory[k + 1].fromNs;
}

QRectF TimelineWidget::memoryBand() const {
    if (m_memory.empty()) return {};
    return {kLeft, kAxis + kLane * static_cast<double>(std::max<size_t>(1, m_lanes.size())) + 8, width() - kLeft - kRight, kBand};
}

int64_t TimelineWidget::memoryAt(int64_t ns) const {
    for (const auto& m : m_memory)
        if (ns >= m.fromNs && ns < std::max(m.toNs, m.fromNs + 1)) return m.bytes;
    return 0;
}

void TimelineWidget::paintMemory(QPainter& p) {
    const QRectF band = memoryBand();
    if (band.isEmpty() || m_memoryPeak <= 0) return;
    p.setPen(palette().color(QPalette::Text));
    p.drawText(QRectF(4, band.top() - 2, kLeft - 8, band.height() / 3), Qt::AlignLeft | Qt::AlignTop, mib(m_memoryPeak));
    p.drawText(QRectF(4, band.top() + band.height() / 3, kLeft - 8, band.height() / 3), Qt::AlignLeft | Qt::AlignVCenter, tr("activations"));
    p.drawText(QRectF(4, band.bottom() - band.height() / 3 + 2, kLeft - 8, band.height() / 3), Qt::AlignLeft | Qt::AlignBottom, QStringLiteral("0"));
    p.save();
    p.setClipRect(band.adjusted(0, -1, 0, 1));
    p.setPen(QPen(palette().color(QPalette::Mid), 0.5));
    p.drawLine(band.topLeft(), band.topRight()); // the peak's level
    p.drawLine(band.bottomLeft(), band.bottomRight());
    const double range = static_cast<double>(std::max<int64_t>(1, m_memoryPeak));
    auto y = [&](int64_t v) { return band.bottom() - band.height() * static_cast<double>(v) / range; };
    QPainterPath area;
    area.moveTo(xOf(m_memory.front().fromNs), band.bottom());
    for (const auto& m : m_memory) {
        area.lineTo(xOf(m.fromNs), y(m.bytes));
        area.lineTo(xOf(m.toNs), y(m.bytes));
    }
    area.lineTo(xOf(m_memory.back().toNs), band.bottom());
    area.closeSubpath();
    const QColor fill(0xfc, 0x8d, 0x62); // the Memory dock's activations colour
    p.fillPath(area, QColor(fill.red(), fill.green(), fill.blue(), 150));
    p.setPen(QPen(fill.darker(150), 1.0));
    p.drawPath(area);
    p.restore();
}

double TimelineWidget::xOf(int64_t ns) const {
    const double plot = std::max(10.0, width() - kLeft - kRight);
    return kLeft + (static_cast<double>(ns) - m_offsetNs) * plot * m_zoom / static_cast<double>(m_spanNs);
}

QRectF TimelineWidget::laneRect(int lane) const { return {kLeft, kAxis + lane * kLane, width() - kLeft - kRight, kLane}; }

QRectF TimelineWidget::barRect(int node) const {
    for (const auto& b : m_bars) {
        if (b.node != node) continue;
        const QRectF lane = laneRect(b.lane);
        const double x0 = xOf(b.startNs), x1 = std::max(xOf(b.endNs), x0 + 2.0); // every node stays visible
        return {x0, lane.top() + 3, x1 - x0, lane.height() - 6};
    }
    return {};
}

int TimelineWidget::nodeAt(const QPointF& pos) const {
    // the last bar drawn wins; a 2 px slop makes hairline bars clickable
    for (auto it = m_bars.rbegin(); it != m_bars.rend(); ++it)
        if (barRect(it->node).adjusted(-1, 0, 1, 0).contains(pos)) return it->node;
    return -1;
}

void TimelineWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    if (!m_run) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No run yet: Run › Run (F5) fills the per-thread timeline"));
        return;
    }
    // time axis: about one tick per 90 px at a round step
    const double plot = std::max(10.0, width() - kLeft - kRight);
    const double visibleNs = static_cast<double>(m_spanNs) / m_zoom;
    double step = std::pow(10.0, std::floor(std::log10(std::max(1.0, visibleNs * 90.0 / plot))));
    while (visibleNs / step > plot / 90.0) step *= (std::fmod(std::log10(step), 1.0) == 0.0 ? 2.0 : 2.5);
    p.setPen(palette().color(QPalette::Text));
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    p.setFont(small);
    for (double t = std::ceil(m_offsetNs / step) * step; t <= m_offsetNs + visibleNs; t += step) {
        const double x = xOf(static_cast<int64_t>(t));
        p.setPen(palette().color(QPalette::Mid));
        p.drawLine(QPointF(x, kAxis - 4), QPointF(x, height()));
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QPointF(x + 2, kAxis - 8), QString::number(t / 1e6, 'g', 4) + " ms");
    }
    // the thread count the run used (lanes show only threads that ran something)
    p.setPen(palette().color(QPalette::Text));
    p.drawText(QRectF(4, 0, kLeft - 8, kAxis), Qt::AlignVCenter | Qt::AlignLeft, m_run->threads == 1 ? tr("1 thread") : tr("%1 threads").arg(m_run->threads));
    for (int l = 0; l < laneCount(); ++l) {
        const QRectF lr = laneRect(l);
        if (l % 2) p.fillRect(QRectF(0, lr.top(), width(), lr.height()), palette().color(QPalette::AlternateBase));
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRectF(4, lr.top(), kLeft - 8, lr.height()), Qt::AlignVCenter | Qt::AlignLeft, tr("thread %1").arg(m_lanes[static_cast<size_t>(l)]));
    }
    paintMemory(p);
    p.setClipRect(QRectF(kLeft, kAxis, plot, height() - kAxis));
    const QColor accent = palette().color(QPalette::Highlight);
    for (const auto& b : m_bars) {
        const QRectF r = barRect(b.node);
        if (r.right() < kLeft || r.left() > width()) continue;
        p.fillRect(r, b.color);
        p.setPen(QPen(b.color.darker(140), 0.5));
        p.drawRect(r);
        if (r.width() > 40) {
            p.setPen(readableTextOn(b.color));
            p.drawText(r.adjusted(3, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft, b.label);
        }
    }
    if (m_selected >= 0) {
        const QRectF r = barRect(m_selected);
        if (!r.isEmpty()) {
            p.setPen(QPen(accent, 2.5));
            p.setBrush(Qt::NoBrush);
            p.drawRect(r.adjusted(-2, -2, 2, 2));
        }
    }
}

void TimelineWidget::mousePressEvent(QMouseEvent* event) {
    m_dragFrom = event->position();
    m_dragOffset = m_offsetNs;
    m_dragging = false;
}

void TimelineWidget::mouseMoveEvent(QMouseEvent* event) {
    if (!(event->buttons() & Qt::LeftButton)) return;
    const double dx = event->position().x() - m_dragFrom.x();
    if (std::abs(dx) > 3) m_dragging = true;
    if (!m_dragging) return;
    const double plot = std::max(10.0, width() - kLeft - kRight);
    m_offsetNs = std::max(0.0, m_dragOffset - dx * static_cast<double>(m_spanNs) / (plot * m_zoom));
    update();
}

void TimelineWidget::mouseReleaseEvent(QMouseEvent* event) {
    if (m_dragging) return;
    const int node = nodeAt(event->position());
    if (node >= 0) {
        m_doc->revealNode(node);
        m_doc->selectNode(node);
    }
}

void TimelineWidget::wheelEvent(QWheelEvent* event) {
    const double plot = std::max(10.0, width() - kLeft - kRight);
    const double atNs = m_offsetNs + (event->position().x() - kLeft) * static_cast<double>(m_spanNs) / (plot * m_zoom);
    m_zoom = std::clamp(m_zoom * (event->angleDelta().y() > 0 ? 1.25 : 0.8), 1.0, 10000.0);
    m_offsetNs = std::max(0.0, atNs - (event->position().x() - kLeft) * static_cast<double>(m_spanNs) / (plot * m_zoom));
    update();
}

bool TimelineWidget::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int node = nodeAt(help->pos());
        for (const auto& b : m_bars)
            if (b.node == node) {
                QToolTip::showText(help->globalPos(), tr("%1\n%2 µs (%3 → %4 ms)")
                                                          .arg(b.label)
                                                          .arg(static_cast<double>(b.endNs - b.startNs) / 1e3, 0, 'f', 1)
                                                          .arg(static_cast<double>(b.startNs) / 1e6, 0, 'f', 3)
                                                          .arg(static_cast<double>(b.endNs) / 1e6, 0, 'f', 3),
                                   this);
                return true;
            }
        if (memoryBand().contains(help->pos())) {
            const double plot = std::max(10.0, width() - kLeft - kRight);
            const auto atNs = static_cast<int64_t>(m_offsetNs + (help->pos().x() - kLeft) * static_cast<double>(m_spanNs) / (plot * m_zoom));
            QToolTip::showText(help->globalPos(), tr("activations + workspace live: %1 (peak %2)\nthe engine's allocations, as the "
                                                     "Profile's peak counts them; the weights and inputs (%3), held throughout, are not in it")
                                                      .arg(mib(memoryAt(atNs)), mib(m_memoryPeak), mib(m_heldBytes)),
                               this);
            return true;
        }
        QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

} // namespace irlens::views
