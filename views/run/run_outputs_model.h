#pragma once
// The outputs of the last run: per output its kind, dtype, shape and min / max / mean.

#include "views/run/run_snapshot.h"

#include <QAbstractTableModel>

namespace irlens::views {

class Document;

class RunOutputsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name = 0, Kind, Dtype, Shape, Min, Max, Mean, Check, ColumnCount };
    explicit RunOutputsModel(Document* document, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    RunSnapshotPtr m_run;
};

} // namespace irlens::views
