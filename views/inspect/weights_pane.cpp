#include "views/inspect/weights_pane.h"

#include "views/document.h"
#include "views/empty_note.h"
#include "views/inspect/table_models.h"
#include "views/inspect/table_pane.h"

#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QPainter>
#include <QSortFilterProxyModel>
#include <QTreeView>

#include <algorithm>

namespace irlens::views {

HistogramWidget::HistogramWidget(QWidget* parent) : QWidget(parent) { setMinimumSize(200, 100); }

void HistogramWidget::setStats(const QString& title, const TensorStats* stats) {
    m_title = title;
    m_has = stats != nullptr;
    if (stats) m_stats = *stats;
    update();
}

void HistogramWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const QPalette pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    p.setPen(pal.color(QPalette::Text));
    if (!m_has || m_stats.histogram.empty()) {
        p.drawText(rect(), Qt::AlignCenter, m_title.isEmpty() ? tr("Select a tensor") : tr("No data for %1").arg(m_title));
        return;
    }
    const QRectF area = QRectF(rect()).adjusted(8, 22, -8, -20);
    p.drawText(QRectF(8, 2, width() - 16, 18), Qt::AlignLeft | Qt::AlignVCenter, m_title);
    const int64_t peak = std::max<int64_t>(1, *std::max_element(m_stats.histogram.begin(), m_stats.histogram.end()));
    const double bw = area.width() / static_cast<double>(m_stats.histogram.size());
    p.setPen(Qt::NoPen);
    p.setBrush(pal.color(QPalette::Highlight));
    for (size_t k = 0; k < m_stats.histogram.size(); ++k) {
        double h = area.height() * static_cast<double>(m_stats.histogram[k]) / static_cast<double>(peak);
        p.drawRect(QRectF(area.left() + static_cast<double>(k) * bw, area.bottom() - h, std::max(1.0, bw - 1), h));
    }
    p.setPen(pal.color(QPalette::Text));
    p.drawText(QRectF(8, height() - 18, width() / 2.0, 16), Qt::AlignLeft, QString::number(m_stats.min, 'g', 4));
    p.drawText(QRectF(width() / 2.0, height() - 18, width() / 2.0 - 8, 16), Qt::AlignRight, QString::number(m_stats.max, 'g', 4));
}

WeightsPane::WeightsPane(Document* document, QWidget* parent) : QWidget(parent) {
    m_model = new WeightsModel(document, this);
    m_table = new TablePane(document, m_model, 0, this);
    m_table->proxy()->setSortRole(WeightsModel::SortRole);
    new EmptyNote(m_table->view(), [document] {
        return document->program() ? tr("No weights: this program has no parameters, buffers or tensor constants")
                                   : tr("No program: its parameters, buffers and constants are listed here");
    });
    m_hist = new HistogramWidget(this);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_table, 3);
    layout->addWidget(m_hist, 1);
    connect(m_table, &TablePane::rowActivated, this, [this](const QModelIndex& src) {
        m_hist->setStats(m_model->nameAt(src.row()), m_model->stats(src.row()));
    });
}

} // namespace irlens::views
