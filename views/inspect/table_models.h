#pragma once
// Flat table models of the program: signature, range constraints, diagnostics, weights.
// All observe the Document and reset on programChanged.

#include "views/inspect/tensor_stats.h"

#include <QAbstractTableModel>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace irlens::views {

class Document;

/// Inputs then outputs of the graph signature: Direction, Name, Kind, Target, Value.
class SignatureModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Roles { LinkRole = Qt::UserRole + 1 }; // "in:<placeholder>" for inputs, "node:<name>" for outputs a node makes
    explicit SignatureModel(Document* document, QObject* parent = nullptr);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    struct Row { QString dir, name, kind, target, value, link; };
    void reload();
    Document* m_doc;
    std::vector<Row> m_rows;
};

/// Symbol, Min, Max.
class RangeConstraintsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit RangeConstraintsModel(Document* document, QObject* parent = nullptr);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    struct Row { QString symbol, min, max; };
    Document* m_doc;
    std::vector<Row> m_rows;
};

/// Severity, Rule, Node, Message.
class DiagnosticsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Roles { NodeNameRole = Qt::UserRole + 1 };
    explicit DiagnosticsModel(Document* document, QObject* parent = nullptr);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    Document* m_doc;
};

/// Name, Kind, Shape, DType, Bytes, Min, Max, Mean, Std, First values (statistics computed on first view).
class WeightsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Columns { Name, Kind, Shape, DType, Bytes, Min, Max, Mean, Std, First, ColumnCount };
    enum Roles { SortRole = Qt::UserRole + 1 };
    explicit WeightsModel(Document* document, QObject* parent = nullptr);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    /// Statistics of a row's tensor (computed once, cached).
    const TensorStats* stats(int row) const;
    QString nameAt(int row) const;

private:
    struct Row { std::string name; QString kind; const core::TensorData* tensor = nullptr; };
    void reload();
    Document* m_doc;
    std::vector<Row> m_rows;
    mutable std::map<int, std::optional<TensorStats>> m_stats;
};

} // namespace irlens::views
