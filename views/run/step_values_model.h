#pragma once
// The Values pane of Run › Step node: one row per top-level node in graph order, with what stepping
// has produced so far (state, value, min / max / mean, the first values). Plain data pushed by the
// StepController; no engine headers here (this header sits next to Qt's).

#include <QAbstractTableModel>
#include <QString>

#include <vector>

namespace irlens::views {

/// What one node's row shows. A node that has not run has only its name and op.
struct StepRow {
    QString name;
    QString op;
    bool executed = false;
    bool next = false;       // the node the next step runs
    bool live = false;       // its value is still in the environment
    QString freedAfter;      // the node after which its value was freed ("" while live)
    bool output = false;     // a graph output (never freed)
    QString value;           // "f32[2, 8]", "3", "2 outputs: f32[2, 8], i64[2]"
    bool hasStats = false;
    double min = 0, max = 0, mean = 0;
    QString first;           // "0.12, -0.5, 1.3, …"
    QString tooltip;         // every output, one per line
    qint64 ns = -1;          // the step's wall time
};

class StepValuesModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Node, Op, State, Value, Min, Max, Mean, First, Time, Index, ColumnCount }; // the node's name first: it gets the spare width
    enum Role { LinkRole = Qt::UserRole + 1 };

    using QAbstractTableModel::QAbstractTableModel;

    /// A fresh table: every node not run yet.
    void reset(std::vector<StepRow> rows);
    /// Replaces row `node` (and repaints it).
    void setRow(int node, StepRow row);
    const StepRow* row(int node) const;
    int rowOfName(const QString& name) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QString stateText(const StepRow& r) const;
    std::vector<StepRow> m_rows;
};

} // namespace irlens::views
