#include "views/run/profile_table_model.h"

#include "views/document.h"

#include <cmath>
#include <map>

namespace irlens::views {

ProfileTableModel::ProfileTableModel(Document* document, QObject* parent) : QAbstractTableModel(parent), m_doc(document) {
    connect(m_doc, &Document::runFinished, this, [this](RunSnapshotPtr run) {
        m_run = std::move(run);
        rebuild();
    });
    m_run = m_doc->runResult();
    rebuild();
}

void ProfileTableModel::setGrouping(Grouping grouping) {
    if (grouping == m_grouping) return;
    m_grouping = grouping;
    rebuild();
}

void ProfileTableModel::rebuild() {
    beginResetModel();
    m_rows.clear();
    m_total = m_run ? m_run->totalSelfNs() : 0;
    if (m_run) {
        if (m_grouping == Grouping::ByNode) {
            for (const auto& n : m_run->nodes) {
                Row r;
                r.name = QString::fromStdString(n.name);
                r.detail = QString::fromStdString(n.op);
                r.selfNs = n.selfNs;
                r.calls = n.calls;
                r.flops = n.flops;
                r.bytes = n.bytes;
                r.node = n.node;
                r.nodeName = r.name;
                m_rows.push_back(std::move(r));
            }
        } else {
            // groups are summed here from the node rows so every row also knows its hottest node
            std::map<std::string, Row> groups;
            std::map<std::string, int64_t> hottest;
            std::map<std::string, int> members;
            for (const auto& n : m_run->nodes) {
                const std::string& key = m_grouping == Grouping::ByOp ? n.op : n.modulePath;
                Row& g = groups[key];
                g.name = key.empty() ? tr("(outside any module)") : QString::fromStdString(key);
                g.selfNs += n.selfNs;
                g.calls += 1;
                g.flops += n.flops;
                g.bytes += n.bytes;
                ++members[key];
                if (g.node < 0 || n.selfNs > hottest[key]) {
                    hottest[key] = n.selfNs;
                    g.node = n.node;
                    g.nodeName = QString::fromStdString(n.name);
                }
            }
            for (auto& [key, g] : groups) {
                g.detail = tr("%n node(s)", nullptr, members[key]);
                m_rows.push_back(std::move(g));
            }
        }
    }
    endResetModel();
}

int ProfileTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(m_rows.size()); }

int ProfileTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ProfileTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= static_cast<int>(m_rows.size()) || index.column() >= ColumnCount) return {};
    const Row& r = m_rows[static_cast<size_t>(index.row())];
    auto round3 = [](double v) { return std::round(v * 1000.0) / 1000.0; };
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        switch (index.column()) {
        case Name: return r.name;
        case Detail: return r.detail;
        case SelfMs: return round3(static_cast<double>(r.selfNs) / 1e6);
        case Share: return m_total > 0 ? std::round(1000.0 * static_cast<double>(r.selfNs) / static_cast<double>(m_total)) / 10.0 : 0.0;
        case Calls: return r.calls;
        case Gflops: return r.selfNs > 0 ? round3(r.flops / static_cast<double>(r.selfNs)) : 0.0;
        case Bytes: return static_cast<qlonglong>(r.bytes);
        default: return {};
        }
    case Qt::TextAlignmentRole:
        return index.column() >= SelfMs ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case Qt::ToolTipRole:
        return tr("%1\n%2 µs self · %3 GFLOP estimated").arg(r.name).arg(static_cast<double>(r.selfNs) / 1e3, 0, 'f', 1).arg(r.flops / 1e9, 0, 'g', 3);
    case LinkRole: return r.nodeName.isEmpty() ? QVariant() : QVariant("node:" + r.nodeName);
    case NodeIndexRole: return r.node;
    case SelfNsRole: return static_cast<qlonglong>(r.selfNs);
    default: return {};
    }
}

QVariant ProfileTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Name: return m_grouping == Grouping::ByNode ? tr("Node") : m_grouping == Grouping::ByOp ? tr("Op") : tr("Module");
    case Detail: return m_grouping == Grouping::ByNode ? tr("Op") : tr("Members");
    case SelfMs: return tr("Self (ms)");
    case Share: return tr("Share %");
    case Calls: return tr("Calls");
    case Gflops: return tr("GFLOP/s");
    case Bytes: return tr("Bytes");
    default: return {};
    }
}

} // namespace irlens::views
