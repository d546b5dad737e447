#include "views/inspect/table_pane.h"

#include "views/column_fit.h"
#include "views/qstring_util.h"
#include "views/inspect/node_inspector_model.h"

#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLineEdit>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QStyle>
#include <QToolTip>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>
#include <set>

namespace irlens::views {

TablePane::TablePane(Document* document, QAbstractItemModel* model, int linkRole, QWidget* parent, const QString& linkPrefix)
    : QWidget(parent), m_doc(document), m_model(model) {
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(model);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setRecursiveFilteringEnabled(true);
    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("Filter"));
    m_filter->setClearButtonEnabled(true);
    m_view = new QTreeView(this);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(-1, Qt::AscendingOrder);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    // names differ at their ends ("p_layer1_0_conv1_weight" vs "p_layer1_1_conv2_weight"): cut the middle
    m_view->setTextElideMode(Qt::ElideMiddle);
    m_view->installEventFilter(this);
    m_view->viewport()->installEventFilter(this);
    // columns sized to what they hold whenever the rows change; the spare width goes to the first
    // column (the names), not to the last: a right-aligned number column stretched across the pane
    // ended up far from the row it belongs to
    m_fitter = new ColumnFitter(m_view, 0);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_filter);
    layout->addWidget(m_view, 1);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    auto follow = [this, linkRole, linkPrefix](const QModelIndex& proxyIndex) {
        QModelIndex src = m_proxy->mapToSource(proxyIndex);
        Q_EMIT rowActivated(src);
        if (!linkRole) return;
        QString link = src.siblingAtColumn(0).data(linkRole).toString();
        if (link.isEmpty()) link = src.data(linkRole).toString();
        if (!link.isEmpty()) followLink(m_doc, linkPrefix + link);
    };
    connect(m_view, &QTreeView::activated, this, follow);
    connect(m_view, &QTreeView::clicked, this, follow);
}

QString TablePane::selectionAsTsv() const {
    QStringList lines;
    QStringList header;
    const int cols = m_proxy->columnCount();
    for (int c = 0; c < cols; ++c) header << m_proxy->headerData(c, Qt::Horizontal).toString();
    lines << header.join('\t');
    std::set<std::pair<int, QModelIndex>> rows;
    QModelIndexList sel = m_view->selectionModel() ? m_view->selectionModel()->selectedRows() : QModelIndexList{};
    auto rowText = [&](const QModelIndex& idx) {
        QStringList cells;
        for (int c = 0; c < cols; ++c) cells << idx.siblingAtColumn(c).data().toString().replace('\t', ' ').replace('\n', ' ');
        return cells.join('\t');
    };
    if (sel.isEmpty())
        for (int r = 0; r < m_proxy->rowCount(); ++r) lines << rowText(m_proxy->index(r, 0));
    else
        for (const auto& idx : sel) lines << rowText(idx);
    return lines.join('\n') + '\n';
}

void TablePane::fitColumns() { m_fitter->fit(); }

void TablePane::setStretchColumn(int column) { m_fitter->setStretchColumn(column); }

bool TablePane::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_view->viewport() && event->type() == QEvent::ToolTip) {
        // the model's tooltip, else the whole text of a cell that is cut
        auto* help = static_cast<QHelpEvent*>(event);
        const QModelIndex index = m_view->indexAt(help->pos());
        QString tip = index.data(Qt::ToolTipRole).toString();
        if (tip.isEmpty() && index.isValid()) {
            const QString text = index.data().toString();
            const int room = m_view->visualRect(index).width() - 8;
            if (m_view->fontMetrics().horizontalAdvance(text) > room) tip = text;
        }
        if (tip.isEmpty()) QToolTip::hideText();
        else QToolTip::showText(help->globalPos(), wrappedTip(tip), m_view->viewport());
        return true;
    }
    if (watched == m_view && event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        if (key->matches(QKeySequence::Copy)) {
            QApplication::clipboard()->setText(selectionAsTsv());
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace irlens::views
