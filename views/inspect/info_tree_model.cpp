#include "views/inspect/info_tree_model.h"
#include "views/qstring_util.h"

#include <QFont>
#include <QFontDatabase>
#include <QTextDocument>

namespace irlens::views {

InfoRow* InfoRow::add(QString k, QString v, QString l) {
    auto row = std::make_unique<InfoRow>();
    row->key = std::move(k);
    row->value = std::move(v);
    row->link = std::move(l);
    row->parent = this;
    children.push_back(std::move(row));
    return children.back().get();
}

InfoTreeModel::InfoTreeModel(QObject* parent) : QAbstractItemModel(parent), m_root(std::make_unique<InfoRow>()) {}

void InfoTreeModel::setRoot(std::unique_ptr<InfoRow> root) {
    beginResetModel();
    m_root = root ? std::move(root) : std::make_unique<InfoRow>();
    endResetModel();
}

const InfoRow* InfoTreeModel::rowOf(const QModelIndex& index) const {
    return index.isValid() ? static_cast<const InfoRow*>(index.internalPointer()) : m_root.get();
}

QModelIndex InfoTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (row < 0 || column < 0 || column >= 2 || (parent.isValid() && parent.column() != 0)) return {};
    const InfoRow* p = rowOf(parent);
    if (static_cast<size_t>(row) >= p->children.size()) return {};
    return createIndex(row, column, p->children[static_cast<size_t>(row)].get());
}

QModelIndex InfoTreeModel::parent(const QModelIndex& child) const {
    if (!child.isValid()) return {};
    const InfoRow* r = rowOf(child);
    const InfoRow* p = r->parent;
    if (!p || p == m_root.get()) return {};
    const InfoRow* gp = p->parent;
    for (size_t k = 0; k < gp->children.size(); ++k)
        if (gp->children[k].get() == p) return createIndex(static_cast<int>(k), 0, const_cast<InfoRow*>(p));
    return {};
}

int InfoTreeModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() && parent.column() != 0) return 0;
    return static_cast<int>(rowOf(parent)->children.size());
}

int InfoTreeModel::columnCount(const QModelIndex&) const { return 2; }


QVariant InfoTreeModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    const InfoRow* r = rowOf(index);
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        return index.column() == 0 ? r->key : r->value;
    case Qt::ToolTipRole:
        return r->tip.isEmpty() ? (index.column() == 1 ? QVariant(wrappedTip(r->value)) : QVariant()) : QVariant(wrappedTip(r->tip));
    case LinkRole:
        return r->link.isEmpty() ? QVariant() : QVariant(r->link);
    case Qt::FontRole: {
        QFont f = r->monospace && index.column() == 1 ? QFontDatabase::systemFont(QFontDatabase::FixedFont) : QFont();
        if (!r->link.isEmpty() && index.column() == 1) f.setUnderline(true);
        if (r->parent && !r->parent->parent && !r->children.empty() && index.column() == 0) f.setBold(true);
        return f;
    }
    default:
        return {};
    }
}

QVariant InfoTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    return section == 0 ? tr("Property") : tr("Value");
}

QModelIndex InfoTreeModel::findRow(const QString& section, const QString& key) const {
    for (size_t s = 0; s < m_root->children.size(); ++s) {
        const InfoRow* sec = m_root->children[s].get();
        if (!section.isEmpty() && sec->key != section) continue;
        // depth-first under this section
        std::vector<std::pair<const InfoRow*, QModelIndex>> stack{{sec, createIndex(static_cast<int>(s), 0, const_cast<InfoRow*>(sec))}};
        while (!stack.empty()) {
            auto [row, idx] = stack.back();
            stack.pop_back();
            if (row->key == key) return idx;
            for (size_t k = row->children.size(); k-- > 0;)
                stack.push_back({row->children[k].get(), createIndex(static_cast<int>(k), 0, row->children[k].get())});
        }
    }
    return {};
}

} // namespace irlens::views
