#include "views/run/flame_graph_widget.h"

#include "core/ir/program.h"
#include "views/document.h"
#include "views/graph/graph_items.h"
#include "views/run/heatmap_overlay.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace irlens::views {

namespace {
constexpr double kMargin = 4;
constexpr double kCrumb = 22; // breadcrumb strip at the top
constexpr double kRow = 20;
const QString kSeparator = QStringLiteral("  ›  ");

QString msLabel(int64_t ns) { return QString::number(static_cast<double>(ns) / 1e6, 'f', ns < 10'000'000 ? 3 : 2) + " ms"; }
} // namespace

FlameGraphWidget::FlameGraphWidget(Document* document, QWidget* parent) : QWidget(parent), m_doc(document) {
    setObjectName("flameGraph");
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    connect(m_doc, &Document::runFinished, this, &FlameGraphWidget::setRun);
    connect(m_doc, &Document::selectionChanged, this, [this](int node) {
        // a module click selects its hottest node: keep showing the module while the node is in it
        const int leaf = m_tree.leafOfNode(node);
        if (!(m_selectedFrame >= 0 && leaf >= 0 && !m_tree.frame(m_selectedFrame).isLeaf() && m_tree.isWithin(leaf, m_selectedFrame)))
            m_selectedFrame = leaf;
        update();
    });
    setRun(m_doc->runResult());
}

QSize FlameGraphWidget::sizeHint() const { return {800, static_cast<int>(kCrumb + kRow * (m_tree.maxDepth() + 1) + 2 * kMargin)}; }

void FlameGraphWidget::setRun(RunSnapshotPtr run) {
    m_run = std::move(run);
    m_hottestNs = m_run ? m_run->hottestNodeNs() : 0;
    m_tree = FlameTree();
    auto program = m_doc->program();
    if (m_run && program) m_tree = FlameTree::build(*m_run, program->graph);
    m_zoom = 0;
    m_selectedFrame = m_tree.leafOfNode(m_doc->selectedNode());
    m_ownHits = false;
    setMinimumHeight(sizeHint().height());
    relayout();
    update();
}

QRectF FlameGraphWidget::plotRect() const {
    return {kMargin, kCrumb + kMargin, std::max(10.0, width() - 2 * kMargin), kRow * (m_tree.maxDepth() + 1)};
}

void FlameGraphWidget::ensureLayout() const {
    if (m_layoutWidth != width()) relayout();
}

void FlameGraphWidget::relayout() const {
    m_layoutWidth = width();
    m_rects.assign(static_cast<size_t>(m_tree.size()), QRectF());
    m_crumbs.clear();
    m_crumbText.clear();
    if (m_tree.empty()) return;
    const QRectF plot = plotRect();
    const FlameFrame& z = m_tree.frame(m_zoom);
    // every width is a share of the zoomed frame, so widths stay proportional to inclusive times
    const double scale = plot.width() / static_cast<double>(std::max<int64_t>(1, z.inclusiveNs));
    std::vector<std::pair<int, double>> todo{{m_zoom, plot.left()}};
    while (!todo.empty()) {
        auto [f, x] = todo.back();
        todo.pop_back();
        const FlameFrame& fr = m_tree.frame(f);
        const double w = f == m_zoom ? plot.width() : static_cast<double>(fr.inclusiveNs) * scale;
        m_rects[static_cast<size_t>(f)] = QRectF(x, plot.top() + (fr.depth - z.depth) * kRow, w, kRow);
        double cx = x;
        for (int c : fr.children) {
            todo.push_back({c, cx});
            cx += static_cast<double>(m_tree.frame(c).inclusiveNs) * scale;
        }
    }
    const QFontMetricsF fm(font());
    double x = kMargin;
    for (int f : m_tree.chain(m_zoom)) {
        if (!m_crumbText.empty()) x += fm.horizontalAdvance(kSeparator);
        const QString text = m_tree.frame(f).label;
        const double w = fm.horizontalAdvance(text) + 4;
        m_crumbs.emplace_back(x, 2, w, kCrumb - 4);
        m_crumbText.push_back(text);
        x += w;
    }
}

QRectF FlameGraphWidget::frameRect(int frame) const {
    ensureLayout();
    if (frame < 0 || static_cast<size_t>(frame) >= m_rects.size()) return {};
    return m_rects[static_cast<size_t>(frame)];
}

int FlameGraphWidget::frameAt(const QPointF& pos) const {
    ensureLayout();
    // deepest first: a frame's children lie inside its column
    int best = -1;
    for (size_t f = 0; f < m_rects.size(); ++f)
        if (m_rects[f].width() > 0 && m_rects[f].contains(pos) && (best < 0 || m_tree.frame(static_cast<int>(f)).depth > m_tree.frame(best).depth))
            best = static_cast<int>(f);
    return best;
}

QRectF FlameGraphWidget::breadcrumbRect(int level) const {
    ensureLayout();
    return level >= 0 && static_cast<size_t>(level) < m_crumbs.size() ? m_crumbs[static_cast<size_t>(level)] : QRectF();
}

int FlameGraphWidget::breadcrumbAt(const QPointF& pos) const {
    ensureLayout();
    for (size_t k = 0; k < m_crumbs.size(); ++k)
        if (m_crumbs[k].contains(pos)) return static_cast<int>(k);
    return -1;
}

void FlameGraphWidget::zoomTo(int frame) {
    if (frame < 0 || frame >= m_tree.size() || m_tree.frame(frame).isLeaf() || frame == m_zoom) return;
    m_zoom = frame;
    relayout();
    update();
}

void FlameGraphWidget::zoomOut() {
    if (m_zoom > 0) zoomTo(m_tree.frame(m_zoom).parent);
}

std::vector<int> FlameGraphWidget::highlightedPath() const { return m_selectedFrame >= 0 ? m_tree.chain(m_selectedFrame) : std::vector<int>(); }

void FlameGraphWidget::activate(int frame) {
    const FlameFrame& f = m_tree.frame(frame);
    m_selectedFrame = frame;
    if (f.isLeaf()) {
        // drop the module's outline, unless the search (or another pane) has replaced it since
        if (m_ownHits && m_doc->searchHits() == m_tree.frame(m_hitsFrame).nodes) m_doc->setSearchHits({});
        m_ownHits = false;
        m_doc->revealNode(f.node);
        m_doc->selectNode(f.node);
    } else {
        // the module's nodes outlined in the graph, its hottest node selected (as the profile's module rows do)
        m_doc->setSearchHits(frame == 0 ? std::vector<int>() : f.nodes);
        m_ownHits = frame != 0;
        m_hitsFrame = frame;
        if (f.hottestNode >= 0) m_doc->selectNode(f.hottestNode);
    }
    update();
}

void FlameGraphWidget::paintEvent(QPaintEvent*) {
    ensureLayout();
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    if (m_tree.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No run yet: Run › Run (F5) fills the module flame graph"));
        return;
    }
    const QFontMetricsF fm(font());
    // breadcrumb: the zoomed frame's ancestors, clickable; the run's total on the right
    for (size_t k = 0; k < m_crumbs.size(); ++k) {
        const bool last = k + 1 == m_crumbs.size();
        p.setPen(last ? palette().color(QPalette::Text) : palette().color(QPalette::Link));
        if (k > 0) p.drawText(QPointF(m_crumbs[k].left() - fm.horizontalAdvance(kSeparator), m_crumbs[k].center().y() + fm.ascent() / 2 - 1), kSeparator);
        p.drawText(m_crumbs[k], Qt::AlignVCenter | Qt::AlignLeft, m_crumbText[k]);
    }
    // right of the breadcrumb, as much of the summary as fits
    p.setPen(palette().color(QPalette::PlaceholderText));
    const FlameFrame& root = m_tree.frame(0);
    const double room = width() - kMargin - (m_crumbs.empty() ? kMargin : m_crumbs.back().right()) - 16;
    const QString total = tr("%1 summed over %2 nodes · %3 threads").arg(msLabel(root.inclusiveNs)).arg(root.nodes.size()).arg(m_run ? m_run->threads : 1);
    for (const QString& summary : {total + tr(" · double-click: zoom · Esc: out"), total, msLabel(root.inclusiveNs)})
        if (fm.horizontalAdvance(summary) <= room) {
            p.drawText(QRectF(kMargin, 0, width() - 2 * kMargin, kCrumb), Qt::AlignVCenter | Qt::AlignRight, summary);
            break;
        }

    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    const QColor moduleFill = palette().color(QPalette::Button);
    const QRectF plot = plotRect();
    p.setClipRect(plot);
    for (int f = 0; f < m_tree.size(); ++f) {
        const QRectF r = m_rects[static_cast<size_t>(f)];
        if (r.width() < 0.5) continue;
        const FlameFrame& fr = m_tree.frame(f);
        // leaves on the graph heatmap's scale (so a slice and its box have one colour); modules
        // neutral, alternating by depth
        const QColor fill = fr.isLeaf() ? heatColor(fr.selfNs, m_hottestNs) : (fr.depth % 2 ? moduleFill : moduleFill.darker(dark ? 80 : 108));
        const QRectF box = r.width() > 2 ? r.adjusted(0, 0, -1, -1) : r; // 1 px gap between neighbours
        p.fillRect(box, fill);
        if (box.width() < 18) continue;
        const QString full = fr.label + QStringLiteral(" · ") + msLabel(fr.inclusiveNs);
        const QString text = fm.horizontalAdvance(full) <= box.width() - 6 ? full : fm.elidedText(fr.label, Qt::ElideRight, box.width() - 6);
        p.setPen(readableTextOn(fill));
        p.drawText(box.adjusted(3, 0, -3, 0), Qt::AlignVCenter | Qt::AlignLeft, text);
    }
    // the selection's path: one accent colour, as the graph's selection
    const QColor accent = palette().color(QPalette::Highlight);
    for (int f : highlightedPath()) {
        const QRectF r = m_rects[static_cast<size_t>(f)];
        if (r.width() <= 0) continue;
        p.setPen(QPen(accent, f == m_selectedFrame ? 3 : 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(r.adjusted(1, 1, -2, -2));
    }
}

QString FlameGraphWidget::tooltipOf(int frame) const {
    const FlameFrame& f = m_tree.frame(frame);
    const double total = static_cast<double>(std::max<int64_t>(1, m_tree.frame(0).inclusiveNs));
    const QString title = frame == 0 ? tr("whole run") : f.isLeaf() ? f.label + " · " + f.type : QString::fromStdString(f.path) + (f.type.isEmpty() ? QString() : " (" + f.type + ")");
    QString text = tr("%1\ninclusive %2 · %3 % of the run").arg(title, msLabel(f.inclusiveNs)).arg(100.0 * static_cast<double>(f.inclusiveNs) / total, 0, 'f', 1);
    if (!f.isLeaf())
        text += tr("\nself %1 (nodes directly in it) · %2 nodes below").arg(msLabel(f.selfNs)).arg(f.nodes.size());
    return text;
}

void FlameGraphWidget::mousePressEvent(QMouseEvent* event) { m_pressed = frameAt(event->position()); }

void FlameGraphWidget::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return;
    if (const int crumb = breadcrumbAt(event->position()); crumb >= 0) {
        zoomTo(m_tree.chain(m_zoom)[static_cast<size_t>(crumb)]);
        return;
    }
    const int f = frameAt(event->position());
    if (f >= 0 && f == m_pressed) activate(f);
}

void FlameGraphWidget::mouseDoubleClickEvent(QMouseEvent* event) {
    const int f = frameAt(event->position());
    if (f < 0) return;
    if (f == m_zoom) zoomOut();
    else if (!m_tree.frame(f).isLeaf()) zoomTo(f);
}

void FlameGraphWidget::keyPressEvent(QKeyEvent* event) {
    if ((event->key() == Qt::Key_Escape || event->key() == Qt::Key_Backspace) && m_zoom > 0) {
        zoomOut();
        event->accept();
        return;
    }
    QWidget::keyPressEvent(event);
}

void FlameGraphWidget::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    relayout();
}

bool FlameGraphWidget::event(QEvent* event) {
    if (event->type() == QEvent::ShortcutOverride) {
        // Esc is also the window's cancel key: while zoomed in here, it zooms out instead
        auto* key = static_cast<QKeyEvent*>(event);
        if ((key->key() == Qt::Key_Escape || key->key() == Qt::Key_Backspace) && m_zoom > 0) {
            event->accept();
            return true;
        }
    }
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int f = frameAt(help->pos());
        if (f >= 0) QToolTip::showText(help->globalPos(), tooltipOf(f), this);
        else QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

} // namespace irlens::views
