#pragma once
// Weights: the table (shape, dtype, bytes, min/max/mean/std, first values) and a histogram of the
// selected tensor.

#include "views/inspect/tensor_stats.h"

#include <QWidget>

namespace irlens::views {

class Document;
class TablePane;
class WeightsModel;

class HistogramWidget : public QWidget {
    Q_OBJECT
public:
    explicit HistogramWidget(QWidget* parent = nullptr);
    void setStats(const QString& title, const TensorStats* stats);
    QSize sizeHint() const override { return {260, 140}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QString m_title;
    TensorStats m_stats;
    bool m_has = false;
};

class WeightsPane : public QWidget {
    Q_OBJECT
public:
    explicit WeightsPane(Document* document, QWidget* parent = nullptr);
    WeightsModel* model() const { return m_model; }
    HistogramWidget* histogram() const { return m_hist; }

private:
    WeightsModel* m_model;
    TablePane* m_table;
    HistogramWidget* m_hist;
};

} // namespace irlens::views
