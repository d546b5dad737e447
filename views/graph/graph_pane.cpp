#include "views/graph/graph_pane.h"

#include "views/document.h"
#include "views/graph/fold_bar.h"
#include "views/graph/graph_navigation.h"
#include "views/graph/graph_items.h"
#include "views/graph/graph_scene.h"
#include "views/graph/graph_view.h"
#include "views/graph/new_node_marker.h"

#include <QCheckBox>
#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QThreadPool>
#include <QToolButton>
#include <QVBoxLayout>

namespace irlens::views {

GraphPane::GraphPane(Document* document, QWidget* parent) : QWidget(parent), m_doc(document) {
    m_scene = new GraphScene(document, this);
    m_view = new GraphView(document, m_scene, this);

    auto* top = new QHBoxLayout;
    top->setContentsMargins(4, 2, 4, 2);
    m_crumbs = new QHBoxLayout;
    m_crumbs->setSpacing(2);
    top->addLayout(m_crumbs);
    top->addStretch(1);
    m_newNodes = new QLabel(this);
    m_newNodes->setObjectName(QStringLiteral("newNodesNote"));
    m_newNodes->setTextFormat(Qt::RichText);
    // a line of its own under the bar, wrapped: a long note must not widen the canvas's pane and
    // squeeze the docks beside it
    m_newNodes->setContentsMargins(6, 0, 6, 2);
    m_newNodes->setWordWrap(true);
    m_newNodes->hide();
    m_search = new QLineEdit(this);
    m_search->setPlaceholderText(tr("Search name, op, module path…"));
    m_search->setClearButtonEnabled(true);
    m_search->setMinimumWidth(220);
    m_search->installEventFilter(this);
    m_regex = new QCheckBox(tr("Regex"), this);
    auto* prev = new QToolButton(this);
    prev->setText(QStringLiteral("▲"));
    prev->setToolTip(tr("Previous hit (Shift+Enter)"));
    auto* next = new QToolButton(this);
    next->setText(QStringLiteral("▼"));
    next->setToolTip(tr("Next hit (Enter)"));
    m_count = new QLabel(this);
    m_count->setMinimumWidth(70);
    top->addWidget(m_search);
    top->addWidget(m_regex);
    top->addWidget(prev);
    top->addWidget(next);
    top->addWidget(m_count);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(top);
    // a row of its own, shown only while a run is folded: beside the breadcrumb and the search field it
    // would take the width of the docks at 1366 pixels
    m_folds = new FoldBar(document, this);
    layout->addWidget(m_folds);
    layout->addWidget(m_newNodes);
    layout->addWidget(m_view, 1);

    connect(m_search, &QLineEdit::textChanged, this, [this](const QString& t) { search(t, m_regex->isChecked()); });
    connect(m_regex, &QCheckBox::toggled, this, [this](bool on) { search(m_search->text(), on); });
    connect(prev, &QToolButton::clicked, this, [this] { nextHit(true); });
    connect(next, &QToolButton::clicked, this, [this] { nextHit(false); });
    // a new program may reuse the old graph's address: never search a stale index
    connect(m_doc, &Document::programChanged, this, [this] {
        // the old index is freed on a worker: deep_stack's takes 6-31 ms to free
        QThreadPool::globalInstance()->start([old = std::make_shared<NodeSearchIndex>(std::move(m_index))] {});
        m_index = NodeSearchIndex();
        ++m_indexGeneration;
    });
    connect(m_doc, &Document::layoutReady, this, &GraphPane::prepareIndex);
    connect(m_scene->newNodeMarker(), &NewNodeMarker::applied, this, [this] {
        const QString summary = m_scene->newNodeMarker()->summary();
        m_newNodes->setText(QStringLiteral("<span style='color:%1'>&#9700;</span> ").arg(newNodeColor().name()) +
                            tr("new: %1").arg(summary.toHtmlEscaped()));
        m_newNodes->setVisible(!summary.isEmpty());
        m_newNodes->setToolTip(tr("New: %1. Boxes with the notch in their top-left corner are new; hover one for the step "
                                  "and rule that made it").arg(summary));
    });
    connect(m_doc, &Document::scopeChanged, this, &GraphPane::rebuildBreadcrumb);
    connect(m_doc, &Document::scopeChanged, this, [this] {
        if (!m_search->text().isEmpty()) search(m_search->text(), m_regex->isChecked());
    });
    rebuildBreadcrumb();
}

void GraphPane::focusSearch() {
    m_search->setFocus(Qt::ShortcutFocusReason);
    m_search->selectAll();
}

bool GraphPane::focusInstance() { return m_folds->focusInstance(); }

// The search index of the graph on screen is built on a worker once its first layout is shown (0.1-0.4
// s for 100,000 nodes), so that the first key typed only queries it; typed sooner, search() builds it.
void GraphPane::prepareIndex() {
    const core::Graph* g = m_doc->graph();
    if (!g || m_doc->scopes().empty()) return;
    std::shared_ptr<const core::ModuleTree> tree = m_doc->scope().tree;
    if ((m_index.graph() == g && m_index.tree() == tree.get()) || m_indexPending == tree.get()) return;
    m_indexPending = tree.get();
    const quint64 generation = m_indexGeneration;
    auto* watcher = new QFutureWatcher<std::shared_ptr<NodeSearchIndex>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, tree] {
        watcher->deleteLater();
        if (m_indexPending == tree.get()) m_indexPending = nullptr;
        auto built = watcher->result();
        // adopted only for the graph still on screen (the program keeps its address across a reload)
        if (generation == m_indexGeneration && m_doc->graph() == built->graph() && m_doc->scope().tree == tree)
            m_index = std::move(*built);
    });
    // the program and the tree are held by the job: the graph lives in the program
    watcher->setFuture(QtConcurrent::run(Document::workerPool(), [program = m_doc->program(), g, tree] {
        return std::make_shared<NodeSearchIndex>(*g, *tree);
    }));
}

int GraphPane::search(const QString& text, bool regex) {
    std::vector<int> hits;
    if (const auto* g = m_doc->graph(); g && !m_doc->scopes().empty()) {
        const core::ModuleTree* tree = m_doc->scope().tree.get();
        if (m_index.graph() != g || m_index.tree() != tree) m_index = NodeSearchIndex(*g, *tree);
        hits = m_index.search(text, regex);
    }
    m_current = -1;
    m_doc->setSearchHits(hits);
    updateCount();
    return static_cast<int>(hits.size());
}

int GraphPane::nextHit(bool backwards) {
    const auto& hits = m_doc->searchHits();
    if (hits.empty()) return -1;
    const int n = static_cast<int>(hits.size());
    m_current = m_current < 0 ? (backwards ? n - 1 : 0) : (m_current + (backwards ? n - 1 : 1)) % n;
    const int node = hits[static_cast<size_t>(m_current)];
    m_doc->revealNode(node);
    m_doc->selectNode(node);
    m_view->zoomToNode(node);
    updateCount();
    return node;
}

void GraphPane::updateCount() {
    const int n = static_cast<int>(m_doc->searchHits().size());
    if (m_search->text().isEmpty()) m_count->clear();
    else if (n == 0) m_count->setText(tr("no match"));
    else if (m_current < 0) m_count->setText(n == 1 ? tr("1 hit") : tr("%1 hits").arg(n));
    else m_count->setText(tr("%1 of %2").arg(m_current + 1).arg(n));
    // a hit in a folded run: the run now shows the hit's instance, and says so here
    if (m_current >= 0 && m_current < n && !m_doc->scopes().empty())
        if (const int instance = m_doc->foldedInstanceOf(m_doc->searchHits()[static_cast<size_t>(m_current)]); instance >= 0)
            m_count->setText(tr("%1 · showing %2").arg(m_count->text(), QString::fromStdString(m_doc->scope().tree->module(instance).label())));
}

QString GraphPane::searchCountText() const { return m_count->text(); }

bool GraphPane::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_search && event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            nextHit(key->modifiers() & Qt::ShiftModifier);
            return true;
        }
        if (key->key() == Qt::Key_Escape) {
            m_search->clear();
            m_view->setFocus();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void GraphPane::rebuildBreadcrumb() {
    while (auto* item = m_crumbs->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    const auto& scopes = m_doc->scopes();
    for (size_t k = 0; k + 1 < scopes.size(); ++k) {
        auto* b = new QToolButton(this);
        b->setText(scopes[k].label);
        b->setAutoRaise(true);
        b->setToolTip(tr("Back to this graph (Backspace goes up one level)"));
        connect(b, &QToolButton::clicked, this, [this, k] { m_doc->leaveSubgraph(static_cast<int>(k)); }, Qt::QueuedConnection);
        m_crumbs->addWidget(b);
        m_crumbs->addWidget(new QLabel(QStringLiteral("›"), this));
    }
    if (scopes.empty()) return;
    // where the user is: plain text in the window's text colour, not a greyed-out button
    auto* here = new QLabel(QStringLiteral("<b>%1</b>").arg(scopes.back().label.toHtmlEscaped()), this);
    here->setObjectName(QStringLiteral("breadcrumbHere"));
    here->setContentsMargins(4, 0, 4, 0);
    m_crumbs->addWidget(here);
    addSiblingSubgraphs();
}

void GraphPane::addSiblingSubgraphs() {
    // inside one branch of a cond (or any HOP with several subgraphs): the others, one click away
    const auto& scopes = m_doc->scopes();
    if (scopes.size() < 2 || scopes.back().node < 0) return;
    const Scope& here = scopes.back();
    const core::Graph* parent = scopes[scopes.size() - 2].graph;
    if (!parent || here.node >= static_cast<int>(parent->nodes.size())) return;
    const core::Node& hop = parent->nodes[static_cast<size_t>(here.node)];
    int sub = 0;
    for (const auto& in : hop.inputs) {
        if (in.arg.kind != core::ArgKind::Graph) continue;
        const int index = sub++;
        if (index == here.subgraph) continue;
        auto* b = new QToolButton(this);
        b->setObjectName(QStringLiteral("siblingSubgraph"));
        b->setText(QStringLiteral("⇄ %1").arg(QString::fromStdString(in.arg.s)));
        b->setAutoRaise(true);
        b->setToolTip(tr("Switch to %1, the other subgraph of %2").arg(QString::fromStdString(in.arg.s), QString::fromStdString(hop.name)));
        connect(b, &QToolButton::clicked, this, [this, node = here.node, index] {
            const int depth = static_cast<int>(m_doc->scopes().size()) - 2;
            m_doc->leaveSubgraph(depth);
            m_doc->enterSubgraph(node, index);
        }, Qt::QueuedConnection); // the scope change deletes this button
        m_crumbs->addWidget(b);
    }
}

} // namespace irlens::views
