#include "views/inspect/module_tree_model.h"

#include "views/document.h"

namespace irlens::views {

using namespace irlens::core;

ModuleTreeModel::ModuleTreeModel(Document* document, QObject* parent) : QAbstractItemModel(parent), m_doc(document) {
    connect(m_doc, &Document::scopeChanged, this, &ModuleTreeModel::reload);
    connect(m_doc, &Document::layoutReady, this, [this] {
        // collapse state may have changed: refresh the Expanded column
        if (m_tree && m_tree->size() > 1) Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, 2), {ExpandedRole, Qt::DisplayRole});
    });
    reload();
}

void ModuleTreeModel::reload() {
    beginResetModel();
    m_tree = m_doc->scopes().empty() ? nullptr : m_doc->scope().tree;
    endResetModel();
}

int ModuleTreeModel::moduleOf(const QModelIndex& index) const {
    return index.isValid() ? static_cast<int>(index.internalId()) : 0;
}

QModelIndex ModuleTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (!m_tree || row < 0 || column < 0 || column >= 3 || (parent.isValid() && parent.column() != 0)) return {};
    const auto& children = m_tree->module(moduleOf(parent)).children;
    if (static_cast<size_t>(row) >= children.size()) return {};
    return createIndex(row, column, static_cast<quintptr>(children[static_cast<size_t>(row)]));
}

QModelIndex ModuleTreeModel::parent(const QModelIndex& child) const {
    if (!m_tree || !child.isValid()) return {};
    int p = m_tree->module(moduleOf(child)).parent;
    if (p <= 0) return {};
    int gp = m_tree->module(p).parent;
    const auto& siblings = m_tree->module(gp).children;
    auto it = std::find(siblings.begin(), siblings.end(), p);
    return createIndex(static_cast<int>(it - siblings.begin()), 0, static_cast<quintptr>(p));
}

int ModuleTreeModel::rowCount(const QModelIndex& parent) const {
    if (!m_tree || (parent.isValid() && parent.column() != 0)) return 0;
    return static_cast<int>(m_tree->module(moduleOf(parent)).children.size());
}

int ModuleTreeModel::columnCount(const QModelIndex&) const { return 3; }

QModelIndex ModuleTreeModel::indexOfModule(int module) const {
    if (!m_tree || module <= 0 || module >= m_tree->size()) return {};
    int p = m_tree->module(module).parent;
    const auto& siblings = m_tree->module(p).children;
    auto it = std::find(siblings.begin(), siblings.end(), module);
    return createIndex(static_cast<int>(it - siblings.begin()), 0, static_cast<quintptr>(module));
}

QVariant ModuleTreeModel::data(const QModelIndex& index, int role) const {
    if (!m_tree || !index.isValid()) return {};
    const int m = moduleOf(index);
    const ModuleInfo& info = m_tree->module(m);
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == 0) return QString::fromStdString(m_tree->nameInParent(m));
        if (index.column() == 1) return QString::fromStdString(info.shortType());
        return info.totalNodes;
    case Qt::ToolTipRole:
        return QString::fromStdString(info.path + "\n" + info.type);
    case ModuleIndexRole:
        return m;
    case ExpandedRole:
        return m_doc->scopes().empty() ? false : m_doc->scope().collapse.isExpanded(m);
    case Qt::TextAlignmentRole:
        return index.column() == 2 ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    default:
        return {};
    }
}

QVariant ModuleTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case 0: return tr("Module");
    case 1: return tr("Class");
    default: return tr("Nodes");
    }
}

} // namespace irlens::views
