#pragma once
// A pane around any item model: a filter field, a sortable view, Ctrl+C copies the selected rows as
// TSV; activating a row with a link (LinkRole, "node:<name>") follows it.

#include <QWidget>

class QAbstractItemModel;
class QLineEdit;
class QSortFilterProxyModel;
class QTreeView;

namespace irlens::views {

class ColumnFitter;
class Document;

class TablePane : public QWidget {
    Q_OBJECT
public:
    /// `linkRole` is the model's role holding links (0 = none); `linkPrefix` turns a plain value
    /// into a link (e.g. "node:" for the diagnostics' node-name role).
    TablePane(Document* document, QAbstractItemModel* model, int linkRole, QWidget* parent = nullptr,
              const QString& linkPrefix = {});
    QTreeView* view() const { return m_view; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }
    /// Sizes the columns to their header and the rows on screen (views/column_fit.h): whole when the
    /// pane has the room, else the widest give way first; done on every reset of the model.
    void fitColumns();
    /// The column that takes the width left over (default 0, the names; a message column where there is one).
    void setStretchColumn(int column);
    /// The selected rows (or all, when none) as tab-separated text with a header line.
    QString selectionAsTsv() const;

signals:
    void rowActivated(const QModelIndex& sourceIndex);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    Document* m_doc;
    QAbstractItemModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTreeView* m_view;
    QLineEdit* m_filter;
    ColumnFitter* m_fitter;
};

} // namespace irlens::views
