#pragma once
// Column widths that keep text whole: every column as wide as what it shows when the view has the room;
// when it has not, the widest columns give way first, down to a common width, so that no column is
// cut while another keeps room to spare, and no header is cut while the view has width for it.

#include <QObject>

#include <vector>

class QTreeView;

namespace irlens::views {

/// Widths for columns needing `needs` pixels (never below `floors`, their headers) in `available`:
/// all of `needs` with the rest added to `stretch` when they fit, else each column at most a common
/// width chosen to fill `available`.
std::vector<int> shareColumnWidths(const std::vector<int>& needs, const std::vector<int>& floors, int available, int stretch);

/// What each column of `view` needs: its header and the rows on screen (the header's contents precision).
std::vector<int> measureColumns(QTreeView* view, std::vector<int>* headerNeeds);

/// Sets `view`'s columns from `needs` and `floors` to its viewport's width (shareColumnWidths).
void applyColumnWidths(QTreeView* view, const std::vector<int>& needs, const std::vector<int>& floors, int stretch);

/// Keeps a tree view's columns fitted: measured again when the model resets or lays out anew or the
/// rows are scrolled (later, when the view is hidden then), spread again when the view is resized.
class ColumnFitter : public QObject {
    Q_OBJECT
public:
    /// `stretch`: the column that takes the width left over.
    ColumnFitter(QTreeView* view, int stretch);
    /// Measures the header and the rows on screen, then spreads the width.
    void fit();
    /// fit() once the event loop turns (many changes in a row fit once).
    void fitLater();
    void setStretchColumn(int column);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void spread();
    QTreeView* m_view;
    int m_stretch;
    std::vector<int> m_needs;       // what each column's header and rows on screen need
    std::vector<int> m_headerNeeds; // the headers alone: no column gets less
    bool m_fitPending = false;      // the rows changed while the view was hidden
    bool m_fitQueued = false;
};

} // namespace irlens::views
