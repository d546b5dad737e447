#pragma once
// The Numerics dock's table: every tensor value of the last run in execution order, with what became
// of it against the reference values (agree, differ, shape, dtype, missing) and the five measures
// (core/compare/measures.h), its NaN and infinity counts; then the names only the reference holds.
// The first divergent value is the highlighted row. Numbers are returned as numbers (SortRole) so
// the TablePane's proxy sorts them numerically; an absent measure sorts first.

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace irlens::core {
struct NumericRun;
struct Program;
}

namespace irlens::views {

class Document;

class NumericsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Value = 0, Order, Op, Shape, Check, MaxAbs, MaxRel, NormRel, Cosine, Sqnr, NonFinite, ColumnCount };
    enum Roles {
        LinkRole = Qt::UserRole + 1, // "node:<name>": the node that made the value
        SortRole,                    // the number a column sorts by
        FirstDivergenceRole,         // true on the first divergent value's row
    };

    explicit NumericsModel(Document* document, QObject* parent = nullptr);

    /// The row of value `name` (-1 when none).
    int rowOfValue(const QString& name) const;
    /// The row of the first divergent value (-1 when none).
    int firstDivergentRow() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void rebuild();
    QVariant measure(int row, int column, bool forSort) const;

    Document* m_doc;
    std::shared_ptr<const core::NumericRun> m_run;
    std::shared_ptr<const core::Program> m_program;
    int m_values = 0; // rows before the reference-only names
};

} // namespace irlens::views
