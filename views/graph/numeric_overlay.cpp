// engine headers (oneTBB) before Qt's: see views/run/run_snapshot.h
#include "core/compare/numeric_run.h"

#include "views/graph/numeric_overlay.h"

#include "views/document.h"
#include "views/graph/graph_items.h"
#include "views/graph/graph_pane.h"
#include "views/graph/graph_scene.h"
#include "views/graph/graph_view.h"
#include "views/graph/overlay_items.h"

#include <QEvent>
#include <QGraphicsRectItem>
#include <QPainter>
#include <QWidget>

#include <algorithm>
#include <cmath>
#include <limits>

namespace irlens::views {

using namespace irlens::core;

namespace {

const QColor kNonFiniteRed(0xd3, 0x2f, 0x2f);

/// The red outline and tag on the box of the node that makes the first NaN or infinity.
class NonFiniteMarker : public QGraphicsItem {
public:
    NonFiniteMarker(const QRectF& box, QString tag, NodeItem* parent) : QGraphicsItem(parent), m_box(box), m_tag(std::move(tag)) {
        setAcceptedMouseButtons(Qt::NoButton);
        setZValue(10); // over an error or heat box
    }
    QRectF boundingRect() const override { return m_box.adjusted(-4, -14, 4, 4); }
    void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override {
        p->setRenderHint(QPainter::Antialiasing);
        p->setPen(QPen(kNonFiniteRed, 3.5));
        p->setBrush(Qt::NoBrush);
        p->drawRoundedRect(m_box.adjusted(-1, -1, 1, 1), 7, 7);
        QFont f = p->font();
        f.setBold(true);
        p->setFont(f);
        const int w = QFontMetrics(f).horizontalAdvance(m_tag) + 10;
        const QRectF tag(m_box.right() - w - 6, m_box.top() - 12, w, 18);
        p->setPen(Qt::NoPen);
        p->setBrush(kNonFiniteRed);
        p->drawRoundedRect(tag, 4, 4);
        p->setPen(Qt::white);
        p->drawText(tag, Qt::AlignCenter, m_tag);
    }

private:
    QRectF m_box;
    QString m_tag;
};

// The error a box shows: the worst over its values (a shape or dtype mismatch is the worst there is).
double errorOf(const ValueRecord& v) {
    if (v.check == ValueCheck::ShapeMismatch || v.check == ValueCheck::DtypeMismatch) return std::numeric_limits<double>::infinity();
    return v.error.normRel;
}

bool colourable(const ValueRecord& v) {
    return v.check == ValueCheck::Agree || v.check == ValueCheck::Differ || v.check == ValueCheck::ShapeMismatch ||
           v.check == ValueCheck::DtypeMismatch;
}

} // namespace

double errorPosition(double normRel) {
    if (std::isnan(normRel) || normRel >= 1) return 1.0;
    if (normRel <= 0) return 0.0;
    return std::clamp(1.0 + std::log10(normRel) / kErrorDecades, 0.0, 1.0);
}

NumericOverlay::NumericOverlay(Document* document, GraphPane* graph, QObject* parent)
    : QObject(parent), m_doc(document), m_graph(graph) {
    connect(m_doc, &Document::numericsChanged, this, &NumericOverlay::apply);
    connect(m_doc, &Document::programChanged, this, &NumericOverlay::apply);
    // the scene deletes the items with their boxes (a new program, every layout): forget them first
    connect(m_graph->scene(), &GraphScene::aboutToClear, this, [this] {
        m_overlays.clear();
        m_marker = nullptr;
        m_markedNode = -1;
    });
    connect(m_graph->scene(), &GraphScene::rebuilt, this, &NumericOverlay::apply);
    m_legend = new ScaleLegend("numericLegend", 320, m_graph->view());
    m_legend->hide();
}

QWidget* NumericOverlay::legend() const { return m_legend; }

void NumericOverlay::setEnabled(bool on) {
    if (on == m_enabled) return;
    m_enabled = on;
    apply();
}

QColor NumericOverlay::colorOfNode(int node) const {
    auto layout = m_graph->scene()->layout();
    if (!layout) return {};
    auto it = layout->graph.itemOfNode.find(node);
    if (it == layout->graph.itemOfNode.end()) return {};
    for (const auto& [box, overlay] : m_overlays)
        if (box->index() == it->second) return static_cast<QGraphicsRectItem*>(overlay)->brush().color();
    return {};
}

void NumericOverlay::clearItems() {
    for (auto& [box, overlay] : m_overlays) delete overlay;
    m_overlays.clear();
    delete m_marker;
    m_marker = nullptr;
    m_markedNode = -1;
}

// Values are of the top-level graph: inside a HOP subgraph there is nothing to draw.
void NumericOverlay::apply() {
    clearItems();
    auto numerics = m_doc->numerics();
    auto program = m_doc->program();
    const bool topLevel = program && m_doc->graph() == &program->graph && m_graph->scene()->layout();
    const bool colour = m_enabled && topLevel && numerics && numerics->compared;
    m_legend->setVisible(colour);
    if (!topLevel || !numerics) return;
    if (colour) colourBoxes(*numerics);
    markNonFinite(*numerics);
}

void NumericOverlay::colourBoxes(const NumericRun& run) {
    const auto& itemOfNode = m_graph->scene()->layout()->graph.itemOfNode;
    std::unordered_map<int, double> worst; // layout item -> the worst error of the values its nodes made
    for (const ValueRecord& v : run.values) {
        if (!colourable(v)) continue;
        auto it = itemOfNode.find(v.node);
        if (it == itemOfNode.end()) continue;
        auto [w, fresh] = worst.emplace(it->second, errorOf(v));
        if (!fresh) w->second = std::max(w->second, errorOf(v));
    }
    std::vector<ScaleLegend::Tick> ticks; // every other decade from 1e-8 to 1
    for (int d = 0; d <= static_cast<int>(kErrorDecades); d += 2)
        ticks.push_back({d / kErrorDecades, d == 0 ? QStringLiteral("≤1e-8") : d == static_cast<int>(kErrorDecades) ? QStringLiteral("≥1")
                                                                         : QStringLiteral("1e-%1").arg(kErrorDecades - d)});
    m_legend->setScale(tr("Normwise relative error (log); notch: tolerance"), std::move(ticks), errorPosition(run.tolerance.normRel));
    m_legend->place();
    m_legend->raise();
    for (NodeItem* box : m_graph->scene()->nodeItems()) {
        auto it = worst.find(box->index());
        if (it == worst.end()) continue;
        const double e = it->second;
        const QString text = std::isinf(e) ? tr("shape/dtype differs") : QString::fromStdString(formatMeasure(e));
        auto* item = new OverlayBox(box->boxRect(), viridis(errorPosition(e)),
                                   QString::fromStdString(box->item().title), text, box);
        item->setZValue(1);
        m_overlays[box] = item;
    }
}

void NumericOverlay::markNonFinite(const NumericRun& run) {
    const int first = run.nonFinite.first();
    if (first < 0) return;
    const ValueRecord& v = run.values[static_cast<size_t>(first)];
    const auto& itemOfNode = m_graph->scene()->layout()->graph.itemOfNode;
    auto it = itemOfNode.find(v.node);
    if (it == itemOfNode.end()) return;
    for (NodeItem* box : m_graph->scene()->nodeItems()) {
        if (box->index() != it->second) continue;
        const QString tag = v.finite.nan > 0 ? QStringLiteral("NaN") : QStringLiteral("inf");
        m_marker = new NonFiniteMarker(box->boundingRect().adjusted(4, 4, -4, -4), tag, box);
        m_marker->setToolTip(tr("%1 makes the first %2 of the run from finite inputs: %3 NaN, %4 +inf, %5 −inf of its elements")
                                 .arg(QString::fromStdString(v.name), tag)
                                 .arg(v.finite.nan)
                                 .arg(v.finite.posInf)
                                 .arg(v.finite.negInf));
        m_markedNode = v.node;
        return;
    }
}

} // namespace irlens::views
