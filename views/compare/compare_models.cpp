#include "views/compare/compare_models.h"

#include <QBrush>

namespace irlens::views {

using core::MatchKind;

QColor matchKindColor(MatchKind kind) {
    // Okabe-Ito green and vermillion with a violet: none is the search-hit amber or the selection blue.
    switch (kind) {
    case MatchKind::Changed: return QColor(0x7E, 0x3F, 0xC8); // violet: apart from the selection blue
    case MatchKind::Added: return QColor(0x00, 0x9E, 0x73);
    case MatchKind::Removed: return QColor(0xD5, 0x5E, 0x00);
    case MatchKind::Same: break;
    }
    return {};
}

QColor divergenceColor() { return QColor(0xE0, 0x1E, 0x6E); }

namespace {

QString moduleOf(const core::Node& n) {
    return n.meta.moduleStack && !n.meta.moduleStack->empty() ? QString::fromStdString(n.meta.moduleStack->back().path) : QString();
}

QString sci(double v) { return QString::number(v, 'e', 2); }

} // namespace

void DifferenceModel::setMatch(MatchPtr match, std::shared_ptr<const core::Divergence> divergence) {
    beginResetModel();
    m_match = std::move(match);
    m_divergence = std::move(divergence);
    m_rows.clear();
    m_divergentPair = -1;
    if (m_divergence && m_divergence->firstDivergent()) m_divergentPair = m_divergence->firstDivergent()->pair;
    if (m_match) {
        for (size_t k = 0; k < m_match->pairs.size(); ++k)
            if (m_match->pairs[k].kind != MatchKind::Same || static_cast<int>(k) == m_divergentPair)
                m_rows.push_back(static_cast<int>(k));
    }
    endResetModel();
}

int DifferenceModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(m_rows.size()); }
int DifferenceModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }
int DifferenceModel::pairAt(int row) const { return row >= 0 && row < rowCount() ? m_rows[static_cast<size_t>(row)] : -1; }

int DifferenceModel::rowOfPair(int pair) const {
    for (size_t k = 0; k < m_rows.size(); ++k)
        if (m_rows[k] == pair) return static_cast<int>(k);
    return -1;
}

QString DifferenceModel::cell(const core::NodePair& p, int column) const {
    const core::ProgramMatch& m = *m_match;
    const core::Node& subject = p.left >= 0 ? m.left->graph.nodes[static_cast<size_t>(p.left)]
                                            : m.right->graph.nodes[static_cast<size_t>(p.right.at(0))];
    switch (column) {
    case Kind: return QString::fromLatin1(core::matchKindName(p.kind));
    case Left: return QString::fromStdString(m.leftName(p));
    case Right: return QString::fromStdString(m.rightNames(p));
    case Module: return moduleOf(subject);
    case Ops: {
        QString right;
        for (int r : p.right) right += (right.isEmpty() ? "" : " + ") + QString::fromStdString(m.right->graph.nodes[static_cast<size_t>(r)].target.shortName());
        const QString left = p.left >= 0 ? QString::fromStdString(subject.target.shortName()) : QString();
        return left.isEmpty() ? right : right.isEmpty() ? left : left == right ? left : left + " → " + right;
    }
    case Change: return QString::fromStdString(p.detail);
    default: return {};
    }
}

QVariant DifferenceModel::data(const QModelIndex& index, int role) const {
    if (!m_match || !index.isValid()) return {};
    const int pi = pairAt(index.row());
    const core::NodePair& p = m_match->pairs[static_cast<size_t>(pi)];
    if (role == PairRole) return pi;
    if (role == Qt::DecorationRole && index.column() == Kind) {
        return pi == m_divergentPair && p.kind == MatchKind::Same ? divergenceColor() : matchKindColor(p.kind);
    }
    if (role == Qt::ForegroundRole && index.column() == Numeric && pi == m_divergentPair) return QBrush(divergenceColor());
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
    if (index.column() == Numeric) {
        if (pi != m_divergentPair) return {};
        const auto* d = m_divergence->firstDivergent();
        return tr("first divergence: max abs %1, rel %2").arg(sci(d->maxAbs), sci(d->relative));
    }
    return cell(p, index.column());
}

QVariant DifferenceModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* names[] = {"Kind", "Left", "Right", "Module", "Op", "What changed", "Values"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

// ---------------------------------------------------------------- modules

void ModuleDiffModel::setMatch(MatchPtr match) {
    beginResetModel();
    m_match = std::move(match);
    endResetModel();
}

int ModuleDiffModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_match ? 0 : static_cast<int>(m_match->modules.size());
}
int ModuleDiffModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ModuleDiffModel::data(const QModelIndex& index, int role) const {
    if (!m_match || !index.isValid() || (role != Qt::DisplayRole && role != Qt::ToolTipRole)) return {};
    const core::ModuleDiff& d = m_match->modules[static_cast<size_t>(index.row())];
    switch (index.column()) {
    case Module: {
        QString path = d.path.empty() ? tr("(root)") : QString::fromStdString(d.path);
        return !d.onLeft ? path + tr(" (added)") : !d.onRight ? path + tr(" (removed)") : path;
    }
    case Nodes: return QStringLiteral("%1 → %2").arg(d.leftNodes).arg(d.rightNodes);
    case Ops: {
        QStringList parts;
        for (const auto& [op, c] : d.opCounts) parts << QStringLiteral("%1 %2→%3").arg(QString::fromStdString(op)).arg(c.first).arg(c.second);
        return parts.join(", ");
    }
    case Params: {
        QStringList parts;
        for (const auto& p : d.params)
            parts << QStringLiteral("%1: %2 → %3").arg(QString::fromStdString(p.fqn), p.left.empty() ? "—" : QString::fromStdString(p.left),
                                                      p.right.empty() ? "—" : QString::fromStdString(p.right));
        return parts.join("; ");
    }
    default: return {};
    }
}

QVariant ModuleDiffModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* names[] = {"Module", "Nodes", "Ops that differ", "Parameters that differ"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

} // namespace irlens::views
