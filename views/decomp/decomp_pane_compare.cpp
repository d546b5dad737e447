// The Decomposition pane's before / after window: opened from the history (Compare button or a
// double-click) or from a selected node a step made, through its "came from" link.
#include "views/decomp/decomp_pane.h"

#include "views/decomp/decomp_compare.h"
#include "views/decomp/decomp_compare_view.h"
#include "views/document.h"

#include <QDialog>
#include <QTreeView>
#include <QVBoxLayout>

namespace irlens::views {

using namespace irlens::core;

namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }
} // namespace

DecompCompareView* DecompPane::ensureCompare() {
    if (!m_compare) {
        auto* dlg = new QDialog(this, Qt::Window);
        dlg->setObjectName("decompCompareWindow");
        dlg->setWindowTitle(tr("Decomposition: before / after"));
        auto* l = new QVBoxLayout(dlg);
        l->setContentsMargins(4, 4, 4, 4);
        m_compare = new DecompCompareView(dlg);
        l->addWidget(m_compare);
        dlg->resize(1100, 650);
        m_compareWindow = dlg;
    }
    return m_compare;
}

bool DecompPane::compareStep(int row, int rewrite) {
    if (!m_session || m_busy || row < 0 || size_t(row) >= m_session->history().size() || rewrite < 0) return false;
    DecompCompareView* view = ensureCompare();
    if (!view->showStep(*m_session, size_t(row), size_t(rewrite))) {
        m_lastMessage = tr("That step replaced no node: nothing to compare");
        refresh();
        return false;
    }
    m_compareWindow->show();
    m_compareWindow->raise();
    return true;
}

bool DecompPane::compareNode(const QString& node) {
    if (!m_session || m_busy) return false;
    const auto ref = findRewriteOf(*m_session, node.toStdString());
    if (!ref) {
        m_lastMessage = tr("%1 was not made by a decomposition step: nothing to compare").arg(node);
        refresh();
        return false;
    }
    return compareStep(int(ref->step), int(ref->rewrite));
}

bool DecompPane::compareSelection() {
    if (!m_session || m_busy) return false;
    const Graph* g = m_doc->graph();
    const int k = m_doc->selectedNode();
    if (g && k >= 0 && k < int(g->nodes.size()) && findRewriteOf(*m_session, g->nodes[size_t(k)].name))
        return compareNode(qs(g->nodes[size_t(k)].name));
    const QModelIndex row = m_historyView->currentIndex();
    if (row.isValid()) return compareStep(row.row());
    m_lastMessage = tr("Select a node a step made (or a step in the history) to compare");
    refresh();
    return false;
}

} // namespace irlens::views
