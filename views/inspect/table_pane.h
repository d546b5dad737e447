#pragma once
// A pane around any item model: a filter field, a sortable view, Ctrl+C copies the selected rows as
// TSV; activating a row with a link (LinkRole, "node:<name>") follows it.

#include <QWidget>

class QAbstractItemModel;
class QLineEdit;
class QSortFilterProxyModel;
class QTreeView;

namespace irlens::views {

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
    /// Sizes every column but the last to its contents (at most 60 % of the pane each); done on
    /// every reset of the model.
    void fitColumns();
    /// The selected rows (or all, when none) as tab-separated text with a header line.
    QString selectionAsTsv() const;

signals:
    void rowActivated(const QModelIndex& sourceIndex);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    Document* m_doc;
    QAbstractItemModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTreeView* m_view;
    QLineEdit* m_filter;
    int m_firstColumnWidth = 0; // its contents' width, without the spare width given to it
    bool m_fitPending = false;  // the rows changed while the pane was hidden
    void spreadSpareWidth();
};

} // namespace irlens::views
