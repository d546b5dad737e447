#pragma once
// A read-only tree of (key, value) rows with an optional link ("node:<name>", "sym:<symbol>",
// "file:<path>:<line>"): the shape of the node inspector and other property panes.

#include <QAbstractItemModel>
#include <QString>

#include <memory>
#include <vector>

namespace irlens::views {

struct InfoRow {
    QString key;
    QString value;
    QString link;
    QString tip;
    bool monospace = false;
    std::vector<std::unique_ptr<InfoRow>> children;
    InfoRow* parent = nullptr;

    InfoRow* add(QString k, QString v = {}, QString l = {});
};

class InfoTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Roles { LinkRole = Qt::UserRole + 1 };
    explicit InfoTreeModel(QObject* parent = nullptr);

    /// Replaces the content (resets the model).
    void setRoot(std::unique_ptr<InfoRow> root);
    const InfoRow* root() const { return m_root.get(); }
    /// The first row (depth first) whose key equals `key`, under a top-level section named `section` ("" = any).
    QModelIndex findRow(const QString& section, const QString& key) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    const InfoRow* rowOf(const QModelIndex& index) const;
    std::unique_ptr<InfoRow> m_root;
};

} // namespace irlens::views
