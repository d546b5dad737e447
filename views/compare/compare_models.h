#pragma once
// Item models of the Compare window: the list of differences (one row per pair that is not the same,
// the first numeric divergence included) and the per-module summary. Kept apart from the window so
// that tests reach them.

#include "core/compare/divergence.h"
#include "core/compare/program_match.h"

#include <QAbstractTableModel>
#include <QColor>

#include <memory>
#include <optional>

namespace irlens::views {

using MatchPtr = std::shared_ptr<const core::ProgramMatch>;

/// The colour a match kind is shown with (graph outlines, legend, list); invalid for `same`.
QColor matchKindColor(core::MatchKind kind);
/// The outline of the first divergent node.
QColor divergenceColor();

class DifferenceModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Kind, Left, Right, Module, Ops, Change, Numeric, ColumnCount };
    enum Role { PairRole = Qt::UserRole + 1 }; // index into ProgramMatch::pairs

    using QAbstractTableModel::QAbstractTableModel;
    void setMatch(MatchPtr match, std::shared_ptr<const core::Divergence> divergence);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    /// The pair a row shows.
    int pairAt(int row) const;
    /// The row of a pair, -1 when the list does not show it.
    int rowOfPair(int pair) const;

private:
    QString cell(const core::NodePair& pair, int column) const;
    MatchPtr m_match;
    std::shared_ptr<const core::Divergence> m_divergence;
    std::vector<int> m_rows; // pair indices
    int m_divergentPair = -1;
};

class ModuleDiffModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Module, Nodes, Ops, Params, ColumnCount };
    using QAbstractTableModel::QAbstractTableModel;
    void setMatch(MatchPtr match);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    MatchPtr m_match;
};

} // namespace irlens::views
