#pragma once
// Item models of the Decomposition pane: the decomposable nodes grouped by op (with the ops that
// stay at this stage and why), and the history of steps with their re-check results.

#include "core/decomp/decomp_session.h"

#include <QAbstractItemModel>

#include <string>
#include <vector>

namespace irlens::views {

/// Two levels: op rows ("aten.linear.default", count, rule or reason) and their node rows.
/// Ops that can be stepped come first; ops that stay (no rule, no prim reference) follow, greyed,
/// with the session's reason.
class DecompOpsModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { ColOp, ColCount, ColRule, ColumnCount };
    enum Role { TargetRole = Qt::UserRole + 1, NodeNameRole, BlockedRole, LinkRole };

    explicit DecompOpsModel(QObject* parent = nullptr);
    void setEntries(const std::vector<core::DecompCandidate>& candidates, const std::vector<core::DecompBlocked>& blocked);
    int candidateCount() const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    struct Group {
        QString target;
        QString text;      // rule title, or the reason the op stays
        QString teaching;  // the rule's reference and teaching text (tooltip)
        bool blocked = false;
        std::vector<QString> nodes;
        std::vector<QString> nodeReasons; // blocked: per node reason
    };
    std::vector<Group> m_groups;
};

/// One row per step of the session's history (up to the current position).
class DecompHistoryModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { ColStep, ColNodes, ColVerifier, ColNumeric, ColumnCount };
    enum Role { FlaggedRole = Qt::UserRole + 1, TeachingRole };

    explicit DecompHistoryModel(QObject* parent = nullptr);
    void setSteps(std::vector<const core::DecompStep*> steps);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    /// The full text of a step: title, counts, re-check results, every rule's teaching text.
    static QString describe(const core::DecompStep& step);

private:
    std::vector<const core::DecompStep*> m_steps; // owned by the session; replaced on every change
};

} // namespace irlens::views
