#include "views/run/run_outputs_model.h"

#include "views/document.h"

namespace irlens::views {

RunOutputsModel::RunOutputsModel(Document* document, QObject* parent) : QAbstractTableModel(parent) {
    connect(document, &Document::runFinished, this, [this](RunSnapshotPtr run) {
        beginResetModel();
        m_run = std::move(run);
        endResetModel();
    });
    m_run = document->runResult();
}

int RunOutputsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_run ? 0 : static_cast<int>(m_run->outputs.size());
}

int RunOutputsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant RunOutputsModel::data(const QModelIndex& index, int role) const {
    if (!m_run || !index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
    const RunOutput& o = m_run->outputs[static_cast<size_t>(index.row())];
    if (role == Qt::TextAlignmentRole && index.column() >= Min && index.column() <= Mean) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
    const bool tensor = o.text.isEmpty();
    switch (index.column()) {
    case Name: return o.name;
    case Kind: return o.kind;
    case Dtype: return tensor ? o.dtype : QString();
    case Shape: return tensor ? o.shape : o.text;
    case Min: return tensor && o.count > 0 ? QVariant(o.min) : QVariant();
    case Max: return tensor && o.count > 0 ? QVariant(o.max) : QVariant();
    case Mean: return tensor && o.count > 0 ? QVariant(o.mean) : QVariant();
    case Check: return o.check;
    default: return {};
    }
}

QVariant RunOutputsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, orientation, role);
    static const char* names[] = {"Output", "Kind", "Dtype", "Shape / value", "Min", "Max", "Mean", "vs expected"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

} // namespace irlens::views
