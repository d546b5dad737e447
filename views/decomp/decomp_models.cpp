#include "views/decomp/decomp_models.h"
#include "views/qstring_util.h"

#include "views/count_text.h"

#include <QApplication>
#include <QBrush>
#include <QPalette>

#include <map>

namespace irlens::views {

using namespace irlens::core;

namespace {
// internal id of an op row; node rows carry their group's index + 1
constexpr quintptr kGroupId = 0;
} // namespace

// ---------------------------------------------------------------- DecompOpsModel

DecompOpsModel::DecompOpsModel(QObject* parent) : QAbstractItemModel(parent) {}

void DecompOpsModel::setEntries(const std::vector<DecompCandidate>& candidates, const std::vector<DecompBlocked>& blocked) {
    beginResetModel();
    m_groups.clear();
    // group in first-appearance order (graph order), which keeps related ops together
    std::map<std::string, size_t> at;
    for (const auto& c : candidates) {
        auto [it, fresh] = at.emplace(c.target, m_groups.size());
        if (fresh) {
            Group g;
            g.target = q(c.target);
            if (c.rule) {
                g.text = q(c.rule->title);
                g.teaching = q(c.rule->reference) + "\n\n" + q(c.rule->teaching);
            }
            m_groups.push_back(std::move(g));
        }
        m_groups[it->second].nodes.push_back(q(c.node));
    }
    std::map<std::string, size_t> blockedAt;
    for (const auto& b : blocked) {
        auto [it, fresh] = blockedAt.emplace(b.target, m_groups.size());
        if (fresh) {
            Group g;
            g.target = q(b.target);
            g.text = q(b.reason);
            g.teaching = g.text;
            g.blocked = true;
            m_groups.push_back(std::move(g));
        }
        m_groups[it->second].nodes.push_back(q(b.node));
        m_groups[it->second].nodeReasons.push_back(q(b.reason));
    }
    endResetModel();
}

int DecompOpsModel::candidateCount() const {
    int n = 0;
    for (const auto& g : m_groups)
        if (!g.blocked) n += static_cast<int>(g.nodes.size());
    return n;
}

QModelIndex DecompOpsModel::index(int row, int column, const QModelIndex& parent) const {
    if (row < 0 || column < 0 || column >= ColumnCount) return {};
    if (!parent.isValid()) {
        if (row >= static_cast<int>(m_groups.size())) return {};
        return createIndex(row, column, kGroupId);
    }
    if (parent.internalId() != kGroupId || parent.column() != 0) return {};
    const auto& g = m_groups[static_cast<size_t>(parent.row())];
    if (row >= static_cast<int>(g.nodes.size())) return {};
    return createIndex(row, column, static_cast<quintptr>(parent.row()) + 1);
}

QModelIndex DecompOpsModel::parent(const QModelIndex& child) const {
    if (!child.isValid() || child.internalId() == kGroupId) return {};
    return createIndex(static_cast<int>(child.internalId() - 1), 0, kGroupId);
}

int DecompOpsModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid()) return static_cast<int>(m_groups.size());
    if (parent.internalId() != kGroupId || parent.column() != 0) return 0;
    return static_cast<int>(m_groups[static_cast<size_t>(parent.row())].nodes.size());
}

int DecompOpsModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant DecompOpsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    const bool isGroup = index.internalId() == kGroupId;
    const size_t gi = isGroup ? static_cast<size_t>(index.row()) : static_cast<size_t>(index.internalId() - 1);
    if (gi >= m_groups.size()) return {};
    const Group& g = m_groups[gi];
    const size_t ni = static_cast<size_t>(index.row());
    if (!isGroup && ni >= g.nodes.size()) return {};
    switch (role) {
    case Qt::DisplayRole:
        if (isGroup) {
            if (index.column() == ColOp) return g.target;
            if (index.column() == ColCount) return static_cast<int>(g.nodes.size());
            return g.blocked ? tr("stays: %1").arg(g.text) : g.text;
        }
        if (index.column() == ColOp) return g.nodes[ni];
        if (index.column() == ColRule && g.blocked) return g.nodeReasons[ni];
        return {};
    case Qt::ToolTipRole: return g.blocked && !isGroup ? g.nodeReasons[ni] : g.teaching;
    case Qt::ForegroundRole:
        if (g.blocked) return QApplication::palette().brush(QPalette::Disabled, QPalette::Text);
        return {};
    case TargetRole: return g.target;
    case NodeNameRole: return isGroup ? QVariant() : QVariant(g.nodes[ni]);
    case LinkRole: return isGroup ? QVariant() : QVariant(QStringLiteral("node:") + g.nodes[ni]);
    case BlockedRole: return g.blocked;
    default: return {};
    }
}

QVariant DecompOpsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case ColOp: return tr("Op / node");
    case ColCount: return tr("Count");
    case ColRule: return tr("Rule (or why it stays)");
    default: return {};
    }
}

// ---------------------------------------------------------------- DecompHistoryModel

DecompHistoryModel::DecompHistoryModel(QObject* parent) : QAbstractTableModel(parent) {}

void DecompHistoryModel::setSteps(std::vector<const DecompStep*> steps) {
    beginResetModel();
    m_steps = std::move(steps);
    endResetModel();
}

int DecompHistoryModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_steps.size());
}

int DecompHistoryModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QString DecompHistoryModel::describe(const DecompStep& s) {
    QString out = QStringLiteral("%1 (%2)\n").arg(q(s.title), QString::fromUtf8(decompStageName(s.stage)));
    out += tr("%1 replaced · nodes %2 → %3 · %4 ms\n")
               .arg(nodesText(static_cast<qint64>(s.applied.size()))).arg(s.nodesBefore).arg(s.nodesAfter).arg(s.millis, 0, 'f', 1);
    out += tr("verifier: %1 errors, %2 warnings · meta mismatches: %3\n")
               .arg(s.verifyErrors).arg(s.verifyWarnings).arg(s.metaMismatches);
    for (const auto& d : s.diagnostics) out += QStringLiteral("  %1\n").arg(q(formatDiagnostic(d)));
    if (s.numeric)
        out += tr("numeric check: %1%2\n").arg(q(s.numeric->summary()), s.flagged() ? tr(" — ABOVE TOLERANCE") : QString());
    else if (!s.numericNote.empty())
        out += tr("numeric check not run: %1\n").arg(q(s.numericNote));
    for (const auto& k : s.skipped) out += tr("stayed: %1 (%2): %3\n").arg(q(k.node), q(k.target), q(k.reason));
    out += "\n" + q(s.teaching());
    return out;
}

QVariant DecompHistoryModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= static_cast<int>(m_steps.size())) return {};
    const DecompStep& s = *m_steps[static_cast<size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case ColStep: return QStringLiteral("%1. %2").arg(index.row() + 1).arg(q(s.title));
        case ColNodes: return QStringLiteral("%1 → %2").arg(s.nodesBefore).arg(s.nodesAfter);
        case ColVerifier:
            return s.verifyErrors + s.verifyWarnings + s.metaMismatches == 0
                       ? tr("clean")
                       : tr("%1 err, %2 warn, %3 meta").arg(s.verifyErrors).arg(s.verifyWarnings).arg(s.metaMismatches);
        case ColNumeric:
            if (!s.numeric) return tr("not run");
            return tr("abs %1 · rel %2%3")
                .arg(s.numeric->maxAbs, 0, 'g', 2)
                .arg(s.numeric->maxRel, 0, 'g', 2)
                .arg(s.flagged() ? tr(" ⚠ above tolerance") : QString());
        }
        return {};
    case Qt::ToolTipRole:
    case TeachingRole: return describe(s);
    case Qt::ForegroundRole:
        if ((index.column() == ColNumeric && s.flagged()) || (index.column() == ColVerifier && s.verifyErrors > 0))
            return QBrush(QColor(0xc6, 0x28, 0x28));
        return {};
    case FlaggedRole: return s.flagged();
    default: return {};
    }
}

QVariant DecompHistoryModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case ColStep: return tr("Step");
    case ColNodes: return tr("Nodes");
    case ColVerifier: return tr("Verifier");
    case ColNumeric: return tr("Numeric check");
    default: return {};
    }
}

} // namespace irlens::views
