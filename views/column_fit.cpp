#include "views/column_fit.h"

#include <QEvent>
#include <QHeaderView>
#include <QScrollBar>
#include <QStyle>
#include <QTreeView>

#include <algorithm>
#include <numeric>

namespace irlens::views {

std::vector<int> shareColumnWidths(const std::vector<int>& needs, const std::vector<int>& floors, int available, int stretch) {
    std::vector<int> widths = needs;
    if (widths.empty()) return widths;
    for (size_t c = 0; c < widths.size(); ++c) widths[c] = std::max(widths[c], floors[c]);
    const int total = std::accumulate(widths.begin(), widths.end(), 0);
    if (total <= available) {
        if (stretch >= 0 && stretch < static_cast<int>(widths.size())) widths[static_cast<size_t>(stretch)] += available - total;
        return widths;
    }
    // the largest common cap whose widths still fit: a binary search over the cap
    auto widthsAt = [&](int cap) {
        int sum = 0;
        for (size_t c = 0; c < needs.size(); ++c) sum += std::max(floors[c], std::min(std::max(needs[c], floors[c]), cap));
        return sum;
    };
    int lo = 0, hi = *std::max_element(widths.begin(), widths.end());
    while (lo < hi) {
        const int mid = (lo + hi + 1) / 2;
        if (widthsAt(mid) <= available) lo = mid;
        else hi = mid - 1;
    }
    for (size_t c = 0; c < widths.size(); ++c) widths[c] = std::max(floors[c], std::min(widths[c], lo));
    // the pixels the integer cap leaves go to the columns still cut, first to last
    int left = available - std::accumulate(widths.begin(), widths.end(), 0);
    for (size_t c = 0; c < widths.size() && left > 0; ++c)
        if (widths[c] < std::max(needs[c], floors[c])) {
            ++widths[c];
            --left;
        }
    return widths;
}

std::vector<int> measureColumns(QTreeView* view, std::vector<int>* headerNeeds) {
    const int columns = view->model() ? view->model()->columnCount(view->rootIndex()) : 0;
    std::vector<int> needs(static_cast<size_t>(columns), 0);
    if (headerNeeds) headerNeeds->assign(static_cast<size_t>(columns), 0);
    QHeaderView* header = view->header();
    for (int c = 0; c < columns; ++c) {
        if (header->isSectionHidden(c)) continue;
        const int title = header->isHidden() ? 0 : header->sectionSizeHint(c);
        // the rows on screen (and the indentation of the tree's column), without the header
        needs[static_cast<size_t>(c)] = std::max(static_cast<QAbstractItemView*>(view)->sizeHintForColumn(c), title);
        if (headerNeeds) (*headerNeeds)[static_cast<size_t>(c)] = title;
    }
    return needs;
}

void applyColumnWidths(QTreeView* view, const std::vector<int>& needs, const std::vector<int>& floors, int stretch) {
    // room for a vertical scroll bar that the rows may still bring
    const int bar = view->verticalScrollBar()->isVisible() ? 0 : view->style()->pixelMetric(QStyle::PM_ScrollBarExtent);
    const std::vector<int> widths = shareColumnWidths(needs, floors, view->viewport()->width() - bar, stretch);
    for (size_t c = 0; c < widths.size(); ++c)
        if (!view->header()->isSectionHidden(static_cast<int>(c))) view->setColumnWidth(static_cast<int>(c), widths[c]);
}

ColumnFitter::ColumnFitter(QTreeView* view, int stretch) : QObject(view), m_view(view), m_stretch(stretch) {
    view->header()->setStretchLastSection(false);
    view->header()->setResizeContentsPrecision(0); // what is on screen decides a column's width
    // the viewport, not the view: the view's Resize comes before it lays out its viewport anew
    view->viewport()->installEventFilter(this);
    view->installEventFilter(this);
    if (QAbstractItemModel* model = view->model()) {
        // whatever changes the rows (a reset, new rows, cells filled in later), one fit after it
        connect(model, &QAbstractItemModel::modelReset, this, &ColumnFitter::fitLater);
        connect(model, &QAbstractItemModel::layoutChanged, this, &ColumnFitter::fitLater);
        connect(model, &QAbstractItemModel::rowsInserted, this, &ColumnFitter::fitLater);
        connect(model, &QAbstractItemModel::dataChanged, this, &ColumnFitter::fitLater);
    }
    // scrolled: other rows on screen, maybe with a longer cell than any measured
    connect(view->verticalScrollBar(), &QScrollBar::valueChanged, this, &ColumnFitter::fitLater);
}

void ColumnFitter::fitLater() {
    if (m_fitQueued) return;
    m_fitQueued = true;
    QMetaObject::invokeMethod(this, &ColumnFitter::fit, Qt::QueuedConnection);
}

void ColumnFitter::fit() {
    m_fitQueued = false;
    // sized from the rows on screen only: asking every row of a big table (the weights compute their
    // statistics on demand) blocked the window for a quarter of a second on each program change
    if (!m_view->isVisible()) {
        m_fitPending = true;
        return;
    }
    m_fitPending = false;
    m_view->doItemsLayout(); // the rows after a reset are laid out lazily: measure the rows as shown
    m_needs = measureColumns(m_view, &m_headerNeeds);
    spread();
}

void ColumnFitter::setStretchColumn(int column) {
    m_stretch = column;
    spread();
}

void ColumnFitter::spread() {
    if (m_needs.empty() || !m_view->model() || m_needs.size() != static_cast<size_t>(m_view->model()->columnCount(m_view->rootIndex())))
        return;
    applyColumnWidths(m_view, m_needs, m_headerNeeds, m_stretch);
}

bool ColumnFitter::eventFilter(QObject* watched, QEvent* event) {
    // resized: other rows come into view, measured again
    if (watched == m_view->viewport() && event->type() == QEvent::Resize) fitLater();
    else if (watched == m_view && event->type() == QEvent::Show && m_fitPending)
        QMetaObject::invokeMethod(this, &ColumnFitter::fit, Qt::QueuedConnection);
    return QObject::eventFilter(watched, event);
}

} // namespace irlens::views
