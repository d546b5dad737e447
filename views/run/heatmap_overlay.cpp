#include "views/run/heatmap_overlay.h"

#include "views/document.h"
#include "views/graph/graph_items.h"
#include "views/graph/graph_pane.h"
#include "views/graph/graph_scene.h"
#include "views/graph/graph_view.h"
#include "views/graph/overlay_items.h"
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
    m_legend = new ScaleLegend("heatLegend", 270, m_graph->view());
    m_legend->hide();
}

QWidget* HeatmapOverlay::legend() const { return m_legend; }

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
    // a tick per decade below the top, labelled by what that fraction of the top stands for
    auto scale = [](std::function<QString(double)> label) {
        std::vector<ScaleLegend::Tick> ticks;
        for (int d = 0; d <= static_cast<int>(kHeatDecades); ++d)
            ticks.push_back({1.0 - d / kHeatDecades, (d == static_cast<int>(kHeatDecades) ? QStringLiteral("≤") : QString()) + label(std::pow(10.0, -d))});
        return ticks;
    };
    if (memory)
        m_legend->setScale(tr("Bytes live at the peak, by producer (log)"),
                           scale([largest](double f) { return bytesText(static_cast<double>(largest) * f); }));
    else
        m_legend->setScale(tr("Self time, share of the run (log)"),
                           scale([top = 100.0 * static_cast<double>(hottestNs) / totalNs](double f) { return shareText(top * f); }));
    m_legend->place();
    m_legend->raise();
    for (NodeItem* box : m_graph->scene()->nodeItems()) {
        const auto& vi = box->item();
        if (vi.kind != VisibleItem::Kind::Op && vi.kind != VisibleItem::Kind::Module) continue;
        const int64_t v = memory ? bytesOfItem(box->index()) : timeOfItem(box->index());
        const double share = 100.0 * static_cast<double>(v) / (memory ? static_cast<double>(peak) : totalNs);
        // most boxes hold nothing at the peak: say so, rather than a size and a share of zero
        const QString text = memory && v == 0 ? tr("nothing live at the peak")
                                              : QStringLiteral("%1 · %2%").arg(memory ? bytesText(static_cast<double>(v)) : formatNs(v)).arg(share, 0, 'f', 1);
        auto* heat = new OverlayBox(box->boxRect(), heatColor(v, memory ? largest : hottestNs),
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
                                             : tr("self time %1 (%2% of the run)")
                                                   .arg(formatNs(it->second))
                                                   .arg(100.0 * static_cast<double>(it->second) / total, 0, 'f', 1));
    }
}

} // namespace irlens::views
