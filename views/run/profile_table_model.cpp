#include "views/run/profile_table_model.h"

#include <QLocale>

#include "views/count_text.h"
#include "views/document.h"
#include "views/qstring_util.h"
#include "views/run/run_analysis.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace irlens::views {

QString roofCellText(double percent, bool memoryBound) {
    const QString number = QString::number(percent, 'f', 1);
    if (percent <= 100.05) return number; // 100.0 as shown
    return number + (memoryBound ? ProfileTableModel::tr(" · in cache") : ProfileTableModel::tr(" · above roof"));
}

QString roofCellTip(double percent, bool memoryBound, double roofUs) {
    QString tip = ProfileTableModel::tr("%1 % of the roof: this machine's roofs allow %2 µs for its FLOPs and bytes")
                      .arg(percent, 0, 'f', 1)
                      .arg(roofUs, 0, 'f', 1);
    if (percent <= 100.05) return tip;
    if (memoryBound)
        return tip + ProfileTableModel::tr(". Over 100 %: it ran faster than main memory could have fed it, so its data "
                                           "stayed in cache (the memory roof is main memory's bandwidth)");
    return tip + ProfileTableModel::tr(". Over 100 %: it ran faster than the compute roof allows, which was measured "
                                       "lower than this machine reaches (roofs measured while it was busy are low)");
}

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
    const RooflineSummary roofs = m_run && m_run->analysis ? rooflineOf(*m_run->analysis) : RooflineSummary();
    auto addRoof = [&roofs](Row& r, int node) {
        const RoofPoint* p = roofs.find(node);
        if (!p || !p->movesData()) return;
        r.roofNs += p->roofNs;
        r.roofOfNs += p->ns;
        if (!p->computeBound) r.memoryRoofNs += p->roofNs;
    };
    if (m_run) {
        if (m_grouping == Grouping::ByNode) {
            for (const auto& n : m_run->nodes) {
                Row r;
                r.name = QString::fromStdString(n.name);
                r.detail = QString::fromStdString(n.op);
                r.selfNs = n.selfNs;
                r.minNs = n.minNs;
                r.maxNs = n.maxNs;
                r.coldNs = n.coldNs;
                r.calls = n.calls;
                r.flops = n.flops;
                r.bytes = n.bytes;
                r.node = n.node;
                r.nodeName = r.name;
                r.fusedInto = QString::fromStdString(n.fusedInto);
                addRoof(r, n.node);
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
                g.minNs += n.minNs;
                g.maxNs += n.maxNs;
                if (n.coldNs >= 0) g.coldNs = std::max<int64_t>(g.coldNs, 0) + n.coldNs;
                g.calls += 1;
                g.flops += n.flops;
                g.bytes += n.bytes;
                addRoof(g, n.node);
                ++members[key];
                if (g.node < 0 || n.selfNs > hottest[key]) {
                    hottest[key] = n.selfNs;
                    g.node = n.node;
                    g.nodeName = QString::fromStdString(n.name);
                }
            }
            for (auto& [key, g] : groups) {
                g.detail = nodesText(members[key]);
                m_rows.push_back(std::move(g));
            }
        }
    }
    endResetModel();
}

QVariant ProfileTableModel::roofPercent(const Row& r) const {
    return r.roofOfNs > 0 ? QVariant(100.0 * r.roofNs / static_cast<double>(r.roofOfNs)) : QVariant();
}

int ProfileTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(m_rows.size()); }

int ProfileTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ProfileTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= static_cast<int>(m_rows.size()) || index.column() >= ColumnCount) return {};
    const Row& r = m_rows[static_cast<size_t>(index.row())];
    const double share = m_total > 0 ? 100.0 * static_cast<double>(r.selfNs) / static_cast<double>(m_total) : 0.0;
    const double gflops = r.selfNs > 0 ? r.flops / static_cast<double>(r.selfNs) : 0.0;
    auto ms = [](int64_t ns) { return QString::number(static_cast<double>(ns) / 1e6, 'f', 3); };
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        // the same unit and digits down each column: ms with 3 decimals, % with 1, GFLOP/s with 2
        switch (index.column()) {
        case Name: return r.name;
        case Detail: return r.detail;
        case SelfMs: return ms(r.selfNs);
        case RangeMs: return QStringLiteral("%1–%2").arg(ms(r.minNs), ms(r.maxNs));
        case ColdMs: return r.coldNs >= 0 ? QVariant(ms(r.coldNs)) : QVariant();
        case Share: return QString::number(share, 'f', 1);
        case Calls: return QString::number(r.calls);
        case Gflops: return QString::number(gflops, 'f', 2);
        case RoofPct: return r.roofOfNs > 0 ? QVariant(roofCellText(roofPercent(r).toDouble(), memoryBound(r))) : QVariant();
        case Bytes: return QLocale().toString(static_cast<qlonglong>(r.bytes));
        default: return {};
        }
    case SortRole:
        switch (index.column()) {
        case Name: return r.name;
        case Detail: return r.detail;
        case SelfMs: return static_cast<qlonglong>(r.selfNs);
        case RangeMs: return static_cast<qlonglong>(r.maxNs - r.minNs);
        case ColdMs: return static_cast<qlonglong>(r.coldNs);
        case Share: return share;
        case Calls: return r.calls;
        case Gflops: return gflops;
        case RoofPct: return r.roofOfNs > 0 ? roofPercent(r) : QVariant(-1.0);
        case Bytes: return static_cast<qlonglong>(r.bytes);
        default: return {};
        }
    case Qt::TextAlignmentRole:
        return index.column() >= SelfMs ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case Qt::ToolTipRole: {
        QString tip = tr("%1\n%2 µs self (median; fastest %3, slowest %4) · %5 GFLOP estimated")
                          .arg(r.name)
                          .arg(static_cast<double>(r.selfNs) / 1e3, 0, 'f', 1)
                          .arg(static_cast<double>(r.minNs) / 1e3, 0, 'f', 1)
                          .arg(static_cast<double>(r.maxNs) / 1e3, 0, 'f', 1)
                          .arg(r.flops / 1e9, 0, 'g', 3);
        if (!r.fusedInto.isEmpty())
            tip += tr("\nfolded into %1: that node's kernel does this one's work, so its time and bytes are counted there").arg(r.fusedInto);
        if (r.coldNs >= 0) tip += tr("\ncold start %1 µs (the first run of all)").arg(static_cast<double>(r.coldNs) / 1e3, 0, 'f', 1);
        if (r.roofOfNs > 0) tip += "\n" + roofCellTip(roofPercent(r).toDouble(), memoryBound(r), r.roofNs / 1e3);
        return wrappedTip(tip);
    }
    case LinkRole: return r.nodeName.isEmpty() ? QVariant() : QVariant("node:" + r.nodeName);
    case NodeIndexRole: return r.node;
    case SelfNsRole: return static_cast<qlonglong>(r.selfNs);
    default: return {};
    }
}

QVariant ProfileTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    // the first click on a time, share, count or size column sorts it largest first (QHeaderView asks this)
    if (orientation == Qt::Horizontal && role == Qt::InitialSortOrderRole)
        return static_cast<int>(section >= SelfMs ? Qt::DescendingOrder : Qt::AscendingOrder);
    const bool byNode = m_grouping == Grouping::ByNode;
    // the count column counts runs of one node, or the nodes of a group: named and explained apart
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == Calls)
        return byNode ? tr("Runs: the measured runs that executed this node") : tr("Nodes: the nodes in this group that ran");
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Name: return m_grouping == Grouping::ByNode ? tr("Node") : m_grouping == Grouping::ByOp ? tr("Op") : tr("Module");
    case Detail: return m_grouping == Grouping::ByNode ? tr("Op") : tr("Members");
    case SelfMs: return tr("Median (ms)");
    case RangeMs: return tr("Range (ms)");
    case ColdMs: return tr("Cold start (ms)");
    case Share: return tr("Share %");
    case Calls: return byNode ? tr("Runs") : tr("Nodes");
    case Gflops: return tr("GFLOP/s");
    case RoofPct: return tr("% of roof");
    case Bytes: return tr("Bytes");
    default: return {};
    }
}

} // namespace irlens::views
