#include "views/decomp/decomp_compare_view.h"
#include "views/qstring_util.h"

#include "core/layout/collapse_state.h"
#include "core/layout/graph_layout.h"
#include "core/layout/module_tree.h"
#include "core/ops/op_family.h"
#include "core/ops/op_registry.h"
#include "views/count_text.h"
#include "views/compare/compare_window.h"
#include "views/graph/graph_items.h"

#include <QApplication>
#include <QComboBox>
#include <QEvent>
#include <QFontDatabase>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QPushButton>
#include <QHBoxLayout>
#include <QLabel>
#include <QPalette>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace irlens::views {

using namespace irlens::core;

namespace {


Result<LayoutPtr> layoutSide(const Graph& g) {
    const ModuleTree tree = ModuleTree::build(g);
    return layoutGraph(g, nullptr, tree, CollapseState::allExpanded(tree));
}

struct SidePanel {
    QLabel* label;
    QGraphicsScene* scene;
    QGraphicsView* view;
    QPlainTextEdit* text;
};

SidePanel makeSide(QSplitter* split, const QString& name) {
    auto* box = new QWidget(split);
    auto* v = new QVBoxLayout(box);
    v->setContentsMargins(2, 2, 2, 2);
    auto* label = new QLabel(box);
    label->setObjectName(name + "Label");
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* inner = new QSplitter(Qt::Vertical, box);
    auto* scene = new QGraphicsScene(box);
    auto* view = new QGraphicsView(scene, inner);
    view->setObjectName(name + "View");
    view->setRenderHint(QPainter::Antialiasing, true);
    view->setDragMode(QGraphicsView::ScrollHandDrag);
    auto* text = new QPlainTextEdit(inner);
    text->setObjectName(name + "Fx");
    text->setReadOnly(true);
    // wrapped: the two sides share the width, and a long call line is the interesting part
    text->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    inner->setStretchFactor(0, 3);
    inner->setStretchFactor(1, 1);
    inner->setSizes({420, 160});
    v->addWidget(label);
    v->addWidget(inner, 1);
    return {label, scene, view, text};
}

} // namespace

DecompCompareView::DecompCompareView(QWidget* parent) : QWidget(parent) {
    setObjectName("decompCompare");
    auto* layout = new QVBoxLayout(this);
    m_head = new QLabel(this);
    m_head->setWordWrap(true);
    m_head->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_head);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Rewrite:"), this));
    m_rewrites = new QComboBox(this);
    m_rewrites->setObjectName("compareRewrites");
    m_rewrites->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_rewrites->setMinimumContentsLength(30);
    row->addWidget(m_rewrites, 1);
    auto* whole = new QPushButton(tr("Whole program…"), this);
    whole->setObjectName("compareWholeProgram");
    whole->setToolTip(tr("The programs before and after this step side by side in the Compare window, matched "
                         "through the step (same / changed / added), opened on this rewrite"));
    row->addWidget(whole);
    layout->addLayout(row);
    connect(whole, &QPushButton::clicked, this, &DecompCompareView::compareWholeProgram);
    auto* split = new QSplitter(Qt::Horizontal, this);
    const SidePanel b = makeSide(split, "before");
    const SidePanel a = makeSide(split, "after");
    m_beforeLabel = b.label;
    m_beforeScene = b.scene;
    m_beforeView = b.view;
    m_beforeText = b.text;
    m_afterLabel = a.label;
    m_afterScene = a.scene;
    m_afterView = a.view;
    m_afterText = a.text;
    layout->addWidget(split, 1);
    m_beforeView->viewport()->installEventFilter(this);
    m_afterView->viewport()->installEventFilter(this);
    connect(m_rewrites, &QComboBox::activated, this, [this](int i) { showRewrite(i); });
    connect(&m_watcher, &QFutureWatcher<CompareLayouts>::finished, this, &DecompCompareView::onLayoutDone);
}

DecompCompareView::~DecompCompareView() { m_watcher.waitForFinished(); }

bool DecompCompareView::showStep(const DecompSession& session, size_t step, size_t rewrite) {
    const auto steps = session.history();
    if (step >= steps.size() || steps[step]->applied.empty()) return false;
    m_before = session.snapshot(step);
    m_after = session.snapshot(step + 1);
    m_applied = steps[step]->applied;
    m_oldToNew = steps[step]->oldToNew();
    m_step = static_cast<int>(step) + 1;
    m_rewrites->clear();
    for (const auto& a : m_applied) {
        QStringList made;
        for (const auto& n : a.newNodes) made << q(n);
        m_rewrites->addItem(tr("%1 (%2) → %3").arg(q(a.oldNode), q(a.oldTarget),
                                                 made.isEmpty() ? tr("nothing") : made.join(", ")));
    }
    return showRewrite(static_cast<int>(std::min(rewrite, m_applied.size() - 1)));
}

void DecompCompareView::compareWholeProgram() {
    if (!m_before || !m_after) return;
    if (!m_programCompare) m_programCompare = new CompareWindow(this);
    m_programCompare->setWindowTitle(tr("Step %1: before and after").arg(m_step));
    m_programCompare->compareStep(m_before, m_after, m_oldToNew, m_comparison ? m_comparison->oldNode : QString());
    m_programCompare->show();
    m_programCompare->raise();
}

bool DecompCompareView::showRewrite(int index) {
    if (index < 0 || static_cast<size_t>(index) >= m_applied.size() || !m_before || !m_after) return false;
    m_rewrites->setCurrentIndex(index);
    m_comparison = compareRewrite(*m_before, *m_after, m_applied, static_cast<size_t>(index), m_step);
    m_beforeScene->clear();
    m_afterScene->clear();
    if (!m_comparison) {
        m_head->setText(tr("The replaced node is not in the program before step %1").arg(m_step));
        m_beforeText->clear();
        m_afterText->clear();
        Q_EMIT laidOut();
        return false;
    }
    const DecompComparison& c = *m_comparison;
    m_head->setText(headline());
    m_head->setToolTip(c.teaching);
    m_beforeLabel->setText(tr("<b>Before</b> (program before step %1): %2 · %3<br><small>%4</small>")
                               .arg(c.step)
                               .arg(c.oldNode.toHtmlEscaped(), c.oldTarget.toHtmlEscaped(), c.schema.toHtmlEscaped()));
    m_afterLabel->setText(tr("<b>After</b>: %1: %2<br><small>same inputs (%3) and outputs read after it (%4)</small>")
                              .arg(nodesText(static_cast<qint64>(c.after.nodes.size())), c.after.ops.join(", ").toHtmlEscaped(), c.after.inputs.join(", ").toHtmlEscaped(),
                                   c.after.outputs.join(", ").toHtmlEscaped()));
    m_beforeText->setPlainText(c.before.fxText);
    m_afterText->setPlainText(c.after.fxText);
    startLayout();
    return true;
}

QString DecompCompareView::headline() const {
    if (!m_comparison) return {};
    const DecompComparison& c = *m_comparison;
    return tr("Step %1: %2 (%3) → %4 node(s) · %5 [%6]")
        .arg(c.step)
        .arg(c.oldNode, c.oldTarget)
        .arg(c.after.nodes.size())
        .arg(c.rule, c.reference);
}

void DecompCompareView::startLayout() {
    // Graphviz takes a process-wide lock that a big graph's layout may hold for a while: never here
    m_pending = true;
    const quint64 generation = ++m_generation;
    if (m_watcher.isRunning()) return; // onLayoutDone starts the newest one
    m_runningGeneration = generation;
    Graph before = m_comparison->before.graph, after = m_comparison->after.graph;
    m_watcher.setFuture(QtConcurrent::run([before = std::move(before), after = std::move(after)] {
        CompareLayouts out;
        auto b = layoutSide(before);
        auto a = layoutSide(after);
        if (b) out.before = *b;
        else out.error = QString::fromStdString(b.error());
        if (a) out.after = *a;
        else out.error = QString::fromStdString(a.error());
        return out;
    }));
}

void DecompCompareView::onLayoutDone() {
    const CompareLayouts out = m_watcher.result();
    if (m_runningGeneration != m_generation) { // superseded meanwhile: lay out the newest pair
        m_pending = false;
        if (m_comparison) startLayout();
        return;
    }
    m_pending = false;
    if (!m_comparison) return;
    fill(m_beforeScene, m_beforeView, out.before, m_comparison->before.graph, false);
    fill(m_afterScene, m_afterView, out.after, m_comparison->after.graph, true);
    if (!out.error.isEmpty()) m_head->setText(headline() + "\n" + tr("Layout failed: %1").arg(out.error));
    Q_EMIT laidOut();
}

void DecompCompareView::fill(QGraphicsScene* scene, QGraphicsView* view, const LayoutPtr& layout, const Graph& graph,
                             bool markNew) {
    scene->clear();
    if (!layout) return;
    const bool dark = QApplication::palette().color(QPalette::Window).lightness() < 128;
    for (size_t k = 0; k < layout->graph.items.size(); ++k) {
        const VisibleItem& vi = layout->graph.items[k];
        unsigned rgb = vi.kind == VisibleItem::Kind::Input ? 0xc7e9c0 : vi.kind == VisibleItem::Kind::Output ? 0xfcc5c0 : 0xf2f2f2;
        char badge = 0;
        const bool op = vi.kind == VisibleItem::Kind::Op && vi.nodeIndex >= 0 && vi.nodeIndex < int(graph.nodes.size());
        if (op) {
            const Target& t = graph.nodes[static_cast<size_t>(vi.nodeIndex)].target;
            rgb = opFamilyColor(opFamilyOf(t));
            badge = opLevelBadge(OpRegistry::instance().levelOf(t));
        }
        auto* item = new NodeItem(*layout, static_cast<int>(k), themedFill(rgb, dark), badge);
        if (op && markNew && m_comparison)
            item->setNewMark(m_comparison->step, tr("added by step %1: %2").arg(m_comparison->step).arg(m_comparison->rule));
        scene->addItem(item);
    }
    for (size_t k = 0; k < layout->edges.size(); ++k) scene->addItem(new EdgeItem(*layout, static_cast<int>(k)));
    const LRect& b = layout->bounds;
    scene->setSceneRect(QRectF(b.x, b.y, b.w, b.h).adjusted(-20, -20, 20, 20));
    fitView(view);
}

void DecompCompareView::fitView(QGraphicsView* view) {
    // the whole side in view, never enlarged past 100 %
    view->resetTransform();
    const QRectF r = view->scene()->sceneRect();
    const QSizeF vp = view->viewport()->size();
    const double s = std::min({1.0, vp.width() / std::max(1.0, r.width()), vp.height() / std::max(1.0, r.height())});
    view->scale(s, s);
    view->centerOn(r.center());
}

bool DecompCompareView::eventFilter(QObject* watched, QEvent* event) {
    // refit when the window or the splitters resize a side
    if (event->type() == QEvent::Resize) {
        if (watched == m_beforeView->viewport()) fitView(m_beforeView);
        else if (watched == m_afterView->viewport()) fitView(m_afterView);
    }
    return QWidget::eventFilter(watched, event);
}

std::vector<NodeItem*> DecompCompareView::opItems(bool after) const {
    std::vector<NodeItem*> out;
    for (QGraphicsItem* it : (after ? m_afterScene : m_beforeScene)->items(Qt::AscendingOrder))
        if (auto* n = qgraphicsitem_cast<NodeItem*>(it); n && n->item().kind == VisibleItem::Kind::Op) out.push_back(n);
    return out;
}

} // namespace irlens::views
