#include "views/run/step_values_model.h"

#include <QFont>
#include <QPalette>

namespace irlens::views {

void StepValuesModel::reset(std::vector<StepRow> rows) {
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

void StepValuesModel::setRow(int node, StepRow row) {
    if (node < 0 || node >= static_cast<int>(m_rows.size())) return;
    m_rows[static_cast<size_t>(node)] = std::move(row);
    Q_EMIT dataChanged(index(node, 0), index(node, ColumnCount - 1));
}

const StepRow* StepValuesModel::row(int node) const {
    return node >= 0 && node < static_cast<int>(m_rows.size()) ? &m_rows[static_cast<size_t>(node)] : nullptr;
}

int StepValuesModel::rowOfName(const QString& name) const {
    for (size_t k = 0; k < m_rows.size(); ++k)
        if (m_rows[k].name == name) return static_cast<int>(k);
    return -1;
}

int StepValuesModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(m_rows.size()); }

int StepValuesModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QString StepValuesModel::stateText(const StepRow& r) const {
    if (r.next) return tr("▶ next");
    if (!r.executed) return QString();
    if (r.output) return tr("output");
    if (r.live) return tr("live");
    if (!r.freedAfter.isEmpty()) return tr("freed after %1").arg(r.freedAfter);
    return tr("unused");
}

QVariant StepValuesModel::data(const QModelIndex& index, int role) const {
    const StepRow* r = row(index.row());
    if (!r) return {};
    const int col = index.column();
    auto number = [](double v) { return QString::number(v, 'g', 5); };
    if (role == Qt::DisplayRole) {
        switch (col) {
        case Index: return index.row();
        case Node: return r->name;
        case Op: return r->op;
        case State: return stateText(*r);
        case Value: return r->value;
        case Min: return r->hasStats ? number(r->min) : QString();
        case Max: return r->hasStats ? number(r->max) : QString();
        case Mean: return r->hasStats ? number(r->mean) : QString();
        case First: return r->first;
        case Time: return r->ns >= 0 ? QString::number(static_cast<double>(r->ns) / 1e6, 'f', 3) : QString();
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        if (col == State && r->executed && !r->live && !r->output)
            return tr("Freed from the environment after its last user; the value stays inspectable here");
        if (col == Time) return tr("Wall time of the step in ms (one thread, no fusion)");
        return r->tooltip.isEmpty() ? QVariant() : QVariant(r->tooltip);
    }
    if (role == Qt::FontRole && r->next) {
        QFont f;
        f.setBold(true);
        return f;
    }
    if (role == Qt::ForegroundRole && r->executed && !r->live && !r->output) return QPalette().brush(QPalette::Disabled, QPalette::Text);
    if (role == Qt::TextAlignmentRole && (col == Index || col == Min || col == Max || col == Mean || col == Time))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == LinkRole) return QVariant("node:" + r->name);
    return {};
}

QVariant StepValuesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* names[] = {"Node", "Op", "State", "Value", "Min", "Max", "Mean", "First values", "ms", "#"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

} // namespace irlens::views
