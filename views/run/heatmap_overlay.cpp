#include "views/run/heatmap_overlay.h"

#include "views/document.h"
#include "views/graph/graph_items.h"
#include "views/graph/graph_pane.h"
#include "views/graph/graph_scene.h"
#include "views/graph/graph_view.h"
#include "views/run/run_analysis.h"

#include <QGraphicsRectItem>
#include <QEvent>
#include <QPainter>
#include <QWidget>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>

namespace irlens::views {

using namespace irlens::core;

namespace {

/// The heat box over one graph box: paints the heat colour, the title and, under it, the time and
/// share at the title's size (a corner label is too small to read at the zoom a graph is read at).
class HeatItem : public QGraphicsRectItem {
public:
    HeatItem(const QRectF& rect, QColor color, QString title, QString time, NodeItem* parent)
        : QGraphicsRectItem(rect, parent), m_title(std::move(title)), m_time(std::move(time)), m_node(parent) {
        setBrush(color);
        setPen(QPen(color.darker(150), 1.2));
        setAcceptedMouseButtons(Qt::NoButton); // clicks fall through to the box underneath
        setAcceptHoverEvents(false);
    }
    void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override {
        p->setRenderHint(QPainter::Antialiasing);
        const bool selected = m_node->emphasis() & static_cast<int>(Emphasis::Selected);
        p->setPen(selected ? QPen(QColor(0xff, 0x3d, 0x00), 3.0) : pen());
        p->setBrush(brush());
        p->drawRoundedRect(rect(), 6, 6);
        p->setPen(readableTextOn(brush().color()));
        const QRectF text = rect().adjusted(4, 1, -4, -1);
        const QRectF top(text.left(), text.top(), text.width(), text.height() / 2);
        const QRectF bottom(text.left(), text.center().y(), text.width(), text.height() / 2);
        p->drawText(top, Qt::AlignHCenter | Qt::AlignBottom, m_title);
        QFont f = p->font();
        f.setBold(true);
        p->setFont(f);
        p->drawText(bottom, Qt::AlignHCenter | Qt::AlignTop, m_time);
    }

private:
    QString m_title, m_time;
    NodeItem* m_node;
};

/// The legend: the viridis bar with what its ends and decades stand for (`label(fraction of the top)`).
class HeatLegend : public QWidget {
public:
    explicit HeatLegend(QWidget* parent) : QWidget(parent) {
        setObjectName("heatLegend");
        setAttribute(Qt::WA_TransparentForMouseEvents);
        resize(270, 58);
    }
    void setScale(QString title, std::function<QString(double)> label) {
        m_title = std::move(title);
        m_label = std::move(label);
        update();
    }
    QString title() const { return m_title; }
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(palette().color(QPalette::Mid));
        QColor back = palette().color(QPalette::Base);
        back.setAlpha(230);
        p.setBrush(back);
        p.drawRoundedRect(rect().adjusted(0, 0, -1, -1), 5, 5);
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRect(8, 3, width() - 16, 16), Qt::AlignLeft | Qt::AlignVCenter, m_title);
        const QRect bar(10, 21, width() - 20, 12);
        for (int x = 0; x < bar.width(); ++x) {
            p.setPen(viridis(static_cast<double>(x) / std::max(1, bar.width() - 1)));
            p.drawLine(bar.left() + x, bar.top(), bar.left() + x, bar.bottom());
        }
        p.setPen(palette().color(QPalette::Text));
        QFont f = font();
        f.setPointSizeF(f.pointSizeF() * 0.85);
        p.setFont(f);
        for (int d = 0; d <= static_cast<int>(kHeatDecades) && m_label; ++d) {
            const int x = bar.left() + static_cast<int>(std::lround(bar.width() * (1.0 - d / kHeatDecades)));
            p.drawLine(x, bar.bottom() + 1, x, bar.bottom() + 3);
            const QString label = (d == static_cast<int>(kHeatDecades) ? QStringLiteral("≤") : QString()) + m_label(std::pow(10.0, -d));
            const int w = QFontMetrics(f).horizontalAdvance(label);
            p.drawText(std::clamp(x - w / 2, 2, width() - w - 2), bar.bottom() + 16, label);
        }
    }

private:
    QString m_title;
    std::function<QString(double)> m_label;
};

QString shareText(double percent) { return QString::number(percent, 'g', percent >= 1 ? 2 : 1) + "%"; }
QString bytesText(double bytes) {
    if (bytes >= 1024.0 * 1024.0) return QString::number(bytes / (1024.0 * 1024.0), 'g', 3) + " MiB";
    return QString::number(bytes / 1024.0, 'g', 3) + " KiB";
}

QString formatNs(int64_t ns) {
    if (ns >= 1000000) return QString::number(static_cast<double>(ns) / 1e6, 'f', 2) + " ms";
    return QString::number(static_cast<double>(ns) / 1e3, 'f', 1) + " µs";
}
} // namespace

double heatPosition(int64_t ns, int64_t hottestNs) {
    if (ns <= 0 || hottestNs <= 0) return 0.0;
    const double decades = std::log10(static_cast<double>(ns) / static_cast<double>(hottestNs)); // <= 0
    return std::clamp(1.0 + decades / kHeatDecades, 0.0, 1.0);
}

QColor viridis(double t) {
    // a few samples of matplotlib's viridis, linearly interpolated
    static constexpr std::array<std::array<double, 3>, 9> stops{{{68, 1, 84},
                                                                  {71, 44, 122},
                                                                  {59, 81, 139},
                                                                  {44, 113, 142},
                                                                  {33, 144, 141},
                                                                  {39, 173, 129},
                                                                  {92, 200, 99},
                                                                  {170, 220, 50},
                                                                  {253, 231, 37}}};
    t = std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0) * (stops.size() - 1);
    const size_t i = std::min(static_cast<size_t>(t), stops.size() - 2);
    const double f = t - static_cast<double>(i);
    auto mix = [&](int c) { return static_cast<int>(std::lround(stops[i][c] * (1 - f) + stops[i + 1][c] * f)); };
    return QColor(mix(0), mix(1), mix(2));
}

HeatmapOverlay::HeatmapOverlay(Document* document, GraphPane* graph, QObject* parent)
    : QObject(parent), m_doc(document), m_graph(graph) {
    connect(m_doc, &Document::runFinished, this, [this](RunSnapshotPtr run) {
        m_run = std::move(run);
        apply();
    });
    // the scene deletes the overlays with their boxes (a new program, every layout): forget them
    // first, so that nothing deletes them twice, then redo the overlay on the new items
    connect(m_graph->scene(), &GraphScene::aboutToClear, this, [this] { m_overlays.clear(); });
    connect(m_graph->scene(), &GraphScene::rebuilt, this, &HeatmapOverlay::apply);
    m_run = m_doc->runResult();
    m_legend = new HeatLegend(m_graph->view()->viewport());
    m_legend->hide();
    m_graph->view()->viewport()->installEventFilter(this);
}

bool HeatmapOverlay::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Resize) placeLegend();
    return QObject::eventFilter(watched, event);
}

void HeatmapOverlay::placeLegend() {
    const QWidget* viewport = m_legend->parentWidget();
    m_legend->move(8, viewport->height() - m_legend->height() - 8);
}

void HeatmapOverlay::setEnabled(bool on) {
    if (on == m_enabled) return;
    m_enabled = on;
    apply();
}

void HeatmapOverlay::clearOverlays() {
    for (auto& [item, overlay] : m_overlays) delete overlay;
    m_overlays.clear();
}

int64_t HeatmapOverlay::timeOfItem(int layoutItem) const {
    auto it = m_itemNs.find(layoutItem);
    return it == m_itemNs.end() ? 0 : it->second;
}

QGraphicsItem* HeatmapOverlay::overlayOf(const NodeItem* item) const {
    auto it = m_overlays.find(item);
    return it == m_overlays.end() ? nullptr : it->second;
}

QColor HeatmapOverlay::heatColorOf(const NodeItem* item) const {
    auto* o = dynamic_cast<QGraphicsRectItem*>(overlayOf(item));
    return o ? o->brush().color() : QColor();
}

void HeatmapOverlay::setMemoryMode(bool on) {
    if (on == m_memoryMode) return;
    m_memoryMode = on;
    apply();
}

int64_t HeatmapOverlay::bytesOfItem(int layoutItem) const {
    auto it = m_itemBytes.find(layoutItem);
    return it == m_itemBytes.end() ? 0 : it->second;
}

// Times are of the top-level graph: inside a HOP subgraph there is nothing to colour.
void HeatmapOverlay::collectTimes() {
    m_itemNs.clear();
    auto layout = m_graph->scene()->layout();
    auto program = m_doc->program();
    if (!m_run || !layout || !program || m_doc->graph() != &program->graph) return;
    for (const auto& n : m_run->nodes) {
        auto it = layout->graph.itemOfNode.find(n.node);
        if (it != layout->graph.itemOfNode.end()) m_itemNs[it->second] += n.selfNs;
    }
}

void HeatmapOverlay::collectBytes() {
    m_itemBytes.clear();
    auto layout = m_graph->scene()->layout();
    auto program = m_doc->program();
    if (!m_run || !m_run->analysis || !layout || !program || m_doc->graph() != &program->graph) return;
    for (const LiveBlock& b : memoryOf(*m_run->analysis).liveAtPeak) {
        auto it = layout->graph.itemOfNode.find(m_doc->nodeIndexOf(b.producer));
        if (!b.producer.isEmpty() && it != layout->graph.itemOfNode.end()) m_itemBytes[it->second] += b.bytes;
    }
}

void HeatmapOverlay::apply() {
    clearOverlays();
    collectTimes();
    if (m_memoryMode) collectBytes();
    else m_itemBytes.clear();
    updateTooltips();
    const bool memory = m_memoryMode && m_run && m_run->analysis;
    const bool shown = memory || (m_enabled && !m_itemNs.empty());
    m_legend->setVisible(shown);
    if (!shown) return;
    const double totalNs = static_cast<double>(std::max<int64_t>(1, m_run->totalSelfNs()));
    // the scale's top is the hottest node (a collapsed module summing more is at the top colour), the
    // same scale as the flame graph's slices
    const int64_t hottestNs = std::max<int64_t>(1, m_run->hottestNodeNs());
    int64_t largest = 1, peak = 1;
    if (memory) {
        for (const auto& [item, bytes] : m_itemBytes) largest = std::max(largest, bytes);
        peak = std::max<int64_t>(1, memoryOf(*m_run->analysis).peakBytes);
    }
    auto* legend = static_cast<HeatLegend*>(m_legend);
    if (memory)
        legend->setScale(tr("Bytes live at the peak, by producer (log)"), [largest](double f) { return bytesText(static_cast<double>(largest) * f); });
    else
        legend->setScale(tr("Self time, share of the run (log)"), [top = 100.0 * static_cast<double>(hottestNs) / totalNs](double f) { return shareText(top * f); });
    placeLegend();
    m_legend->raise();
    for (NodeItem* box : m_graph->scene()->nodeItems()) {
        const auto& vi = box->item();
        if (vi.kind != VisibleItem::Kind::Op && vi.kind != VisibleItem::Kind::Module) continue;
        const int64_t v = memory ? bytesOfItem(box->index()) : timeOfItem(box->index());
        const double share = 100.0 * static_cast<double>(v) / (memory ? static_cast<double>(peak) : totalNs);
        const QString text = QStringLiteral("%1 · %2%").arg(memory ? bytesText(static_cast<double>(v)) : formatNs(v)).arg(share, 0, 'f', 1);
        auto* heat = new HeatItem(box->boundingRect().adjusted(4, 4, -4, -4), heatColor(v, memory ? largest : hottestNs),
                                  QString::fromStdString(vi.title), text, box);
        m_overlays[box] = heat;
    }
}

void HeatmapOverlay::updateTooltips() {
    GraphScene* scene = m_graph->scene();
    const double total = m_run ? static_cast<double>(std::max<int64_t>(1, m_run->totalSelfNs())) : 1.0;
    for (NodeItem* box : scene->nodeItems()) {
        auto it = m_itemNs.find(box->index());
        box->setTimeNote(it == m_itemNs.end() ? QString()
                                             : QStringLiteral("⏱ %1 self (%2% of the run)")
                                                   .arg(formatNs(it->second))
                                                   .arg(100.0 * static_cast<double>(it->second) / total, 0, 'f', 1));
    }
}

} // namespace irlens::views
