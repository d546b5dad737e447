// The Decomposition pane's before / after window: opened from the history (Compare button or a
// double-click) or from a selected node a step made, through its "came from" link.
#include "views/decomp/decomp_pane.h"
#include "views/qstring_util.h"

#include "views/decomp/decomp_compare.h"
#include "views/decomp/decomp_compare_view.h"
#include "views/decomp/decomposition.h"
#include "views/document.h"

#include <QDialog>
#include <QTreeView>
#include <QVBoxLayout>

namespace irlens::views {

using namespace irlens::core;

namespace {
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
    const DecompSession* session = m_decomp->session();
    if (!session || isBusy() || row < 0 || size_t(row) >= session->history().size() || rewrite < 0) return false;
    DecompCompareView* view = ensureCompare();
    if (!view->showStep(*session, size_t(row), size_t(rewrite))) {
        m_decomp->setMessage(tr("That step replaced no node: nothing to compare"));
        return false;
    }
    m_compareWindow->show();
    m_compareWindow->raise();
    return true;
}

bool DecompPane::compareNode(const QString& node) {
    const DecompSession* session = m_decomp->session();
    if (!session || isBusy()) return false;
    const auto ref = findRewriteOf(*session, node.toStdString());
    if (!ref) {
        m_decomp->setMessage(tr("%1 was not made by a decomposition step: nothing to compare").arg(node));
        return false;
    }
    return compareStep(int(ref->step), int(ref->rewrite));
}

bool DecompPane::compareSelection() {
    const DecompSession* session = m_decomp->session();
    if (!session || isBusy()) return false;
    const Graph* g = m_doc->graph();
    const int k = m_doc->selectedNode();
    if (g && k >= 0 && k < int(g->nodes.size()) && findRewriteOf(*session, g->nodes[size_t(k)].name))
        return compareNode(q(g->nodes[size_t(k)].name));
    const QModelIndex row = m_historyView->currentIndex();
    if (row.isValid()) return compareStep(row.row());
    m_decomp->setMessage(tr("Select a node a step made (or a step in the history) to compare"));
    return false;
}

} // namespace irlens::views
