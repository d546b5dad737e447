#include "views/graph/graph_pane.h"

#include "views/document.h"
#include "views/graph/graph_navigation.h"
#include "views/graph/graph_scene.h"
#include "views/graph/graph_view.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
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
    layout->addWidget(m_view, 1);

    connect(m_search, &QLineEdit::textChanged, this, [this](const QString& t) { search(t, m_regex->isChecked()); });
    connect(m_regex, &QCheckBox::toggled, this, [this](bool on) { search(m_search->text(), on); });
    connect(prev, &QToolButton::clicked, this, [this] { nextHit(true); });
    connect(next, &QToolButton::clicked, this, [this] { nextHit(false); });
    // a new program may reuse the old graph's address: never search a stale index
    connect(m_doc, &Document::programChanged, this, [this] { m_index = NodeSearchIndex(); });
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
}

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
    for (size_t k = 0; k < scopes.size(); ++k) {
        if (k) m_crumbs->addWidget(new QLabel(QStringLiteral("›"), this));
        auto* b = new QToolButton(this);
        b->setText(scopes[k].label);
        b->setAutoRaise(true);
        b->setEnabled(k + 1 < scopes.size());
        b->setToolTip(k + 1 < scopes.size() ? tr("Back to this graph (Backspace goes up one level)") : QString());
        connect(b, &QToolButton::clicked, this, [this, k] { m_doc->leaveSubgraph(static_cast<int>(k)); });
        m_crumbs->addWidget(b);
    }
}

} // namespace irlens::views
