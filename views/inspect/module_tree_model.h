#pragma once
// The module hierarchy of the graph on screen (Module, Class, Nodes), mirroring the graph's groups.

#include "core/layout/module_tree.h"

#include <QAbstractItemModel>

#include <memory>

namespace irlens::views {

class Document;

class ModuleTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Roles { ModuleIndexRole = Qt::UserRole + 1, ExpandedRole };
    explicit ModuleTreeModel(Document* document, QObject* parent = nullptr);

    /// The model index of a module (by ModuleTree index).
    QModelIndex indexOfModule(int module) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    void reload();
    int moduleOf(const QModelIndex& index) const;

    Document* m_doc;
    std::shared_ptr<const core::ModuleTree> m_tree;
};

} // namespace irlens::views
