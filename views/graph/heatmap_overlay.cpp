#include "views/graph/heatmap_overlay.h"

#include "views/document.h"
#include "views/graph/graph_items.h"
#include "views/graph/graph_pane.h"
#include "views/graph/graph_scene.h"

#include <QGraphicsRectItem>
#include <QPainter>

#include <algorithm>
#include <array>
#include <cmath>

namespace irlens::views {

using namespace irlens::core;

namespace {
constexpr int kBaseTipKey = 0x48544950; // item data slot holding the box's tooltip before a run

/// The heat box over one graph box: paints the heat colour, the title and the time.
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
        const QColor text = readableTextOn(brush().color());
        p->setPen(text);
        QFont f = p->font();
        p->drawText(rect().adjusted(4, 0, -4, 0), Qt::AlignCenter, m_title);
        f.setPointSizeF(f.pointSizeF() * 0.75);
        f.setBold(true);
        p->setFont(f);
        p->drawText(rect().adjusted(4, 1, -5, -1), Qt::AlignTop | Qt::AlignRight, m_time);
    }

private:
    QString m_title, m_time;
    NodeItem* m_node;
};

QString formatNs(int64_t ns) {
    if (ns >= 1000000) return QString::number(static_cast<double>(ns) / 1e6, 'f', 2) + " ms";
    return QString::number(static_cast<double>(ns) / 1e3, 'f', 1) + " µs";
}
} // namespace

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
    // the scene rebuilds its items on every layout (collapse, scope change): redo the overlay
    connect(m_graph->scene(), &GraphScene::rebuilt, this, [this] {
        m_overlays.clear(); // the scene deleted them with their boxes
        apply();
    });
    m_run = m_doc->runResult();
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

void HeatmapOverlay::apply() {
    clearOverlays();
    m_itemNs.clear();
    GraphScene* scene = m_graph->scene();
    auto layout = scene->layout();
    auto program = m_doc->program();
    // times are of the top-level graph: inside a HOP subgraph there is nothing to colour
    const bool topLevel = program && m_doc->graph() == &program->graph;
    if (m_run && layout && topLevel) {
        for (const auto& n : m_run->nodes) {
            auto it = layout->graph.itemOfNode.find(n.node);
            if (it != layout->graph.itemOfNode.end()) m_itemNs[it->second] += n.selfNs;
        }
    }
    updateTooltips();
    if (!m_enabled || m_itemNs.empty()) return;
    const double total = static_cast<double>(std::max<int64_t>(1, m_run->totalSelfNs()));
    int64_t hottest = 1;
    for (const auto& [item, ns] : m_itemNs) hottest = std::max(hottest, ns);
    for (NodeItem* box : scene->nodeItems()) {
        const auto& vi = box->item();
        if (vi.kind != VisibleItem::Kind::Op && vi.kind != VisibleItem::Kind::Module) continue;
        const int64_t ns = timeOfItem(box->index());
        // the ramp spans 0 .. the hottest box so the differences that exist are visible
        const QColor color = viridis(static_cast<double>(ns) / static_cast<double>(hottest));
        const QString time = QStringLiteral("%1 · %2%").arg(formatNs(ns)).arg(100.0 * static_cast<double>(ns) / total, 0, 'f', 1);
        auto* heat = new HeatItem(box->boundingRect().adjusted(4, 4, -4, -4), color, QString::fromStdString(vi.title), time, box);
        heat->setToolTip(box->toolTip());
        m_overlays[box] = heat;
    }
}

void HeatmapOverlay::updateTooltips() {
    GraphScene* scene = m_graph->scene();
    const double total = m_run ? static_cast<double>(std::max<int64_t>(1, m_run->totalSelfNs())) : 1.0;
    for (NodeItem* box : scene->nodeItems()) {
        QVariant base = box->data(kBaseTipKey);
        if (!base.isValid()) {
            base = box->toolTip();
            box->setData(kBaseTipKey, base);
        }
        QString tip = base.toString();
        auto it = m_itemNs.find(box->index());
        if (it != m_itemNs.end())
            tip += QStringLiteral("\n⏱ %1 self (%2% of the run)").arg(formatNs(it->second)).arg(100.0 * static_cast<double>(it->second) / total, 0, 'f', 1);
        box->setToolTip(tip);
    }
}

} // namespace irlens::views
