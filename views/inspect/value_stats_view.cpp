// engine headers (oneTBB) before Qt's: see views/run/run_snapshot.h
#include "core/compare/numeric_run.h"

#include "views/inspect/value_stats_view.h"
#include "views/document.h"

#include <QComboBox>
#include <QLabel>
#include <QPainter>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace irlens::views {

using namespace irlens::core;

namespace {

const QColor kReferenceColour(0xef, 0x8a, 0x17); // the reference's bars, beside the palette's highlight

QString statNumber(double v) { return QString::number(v, 'g', 5); }

// One row of the table: the measure, irlens's number, the reference's when there is one.
QString statRow(const QString& what, const QString& mine, const QString* theirs) {
    QString row = QStringLiteral("<tr><td>%1</td><td align=right>&nbsp;%2</td>").arg(what, mine);
    if (theirs) row += QStringLiteral("<td align=right>&nbsp;&nbsp;%1</td>").arg(*theirs);
    return row + QStringLiteral("</tr>");
}

QStringList statColumn(const ValueStats& s) {
    const bool any = s.finite > 0;
    return {QString::number(s.elements),
            any ? statNumber(s.min) : QStringLiteral("–"),
            any ? statNumber(s.max) : QStringLiteral("–"),
            any ? statNumber(s.mean) : QStringLiteral("–"),
            any ? statNumber(s.std) : QStringLiteral("–"),
            QStringLiteral("%1, %2, %3").arg(s.nonFinite.nan).arg(s.nonFinite.posInf).arg(s.nonFinite.negInf)};
}

} // namespace

HistogramPair::HistogramPair(QWidget* parent) : QWidget(parent) {
    setObjectName("valueHistograms");
    setMinimumHeight(80);
}

void HistogramPair::setHistograms(std::vector<int64_t> value, std::vector<int64_t> reference, double lo, double hi) {
    m_value = std::move(value);
    m_reference = std::move(reference);
    m_lo = lo;
    m_hi = hi;
    update();
}

void HistogramPair::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const bool two = !m_reference.empty();
    int64_t top = 1;
    for (int64_t c : m_value) top = std::max(top, c);
    for (int64_t c : m_reference) top = std::max(top, c);
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 0.85);
    p.setFont(f);
    const int label = QFontMetrics(f).height();
    const int gap = 10;
    const int chartW = two ? (width() - gap) / 2 : width();
    auto chart = [&](const std::vector<int64_t>& bins, int x0, const QColor& colour, const QString& title) {
        const QRect area(x0, label, chartW, height() - 2 * label - 2);
        p.setPen(palette().color(QPalette::Mid));
        p.drawLine(area.bottomLeft(), area.bottomRight());
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRect(x0, 0, chartW, label), Qt::AlignLeft | Qt::AlignVCenter, title);
        if (bins.empty()) return;
        const double w = static_cast<double>(area.width()) / static_cast<double>(bins.size());
        for (size_t b = 0; b < bins.size(); ++b) {
            if (bins[b] == 0) continue;
            // a square root scale: one element in a bin stays visible beside a thousand
            const double h = std::max(1.0, area.height() * std::sqrt(static_cast<double>(bins[b]) / static_cast<double>(top)));
            p.fillRect(QRectF(area.left() + b * w, area.bottom() - h, std::max(1.0, w - 1), h), colour);
        }
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRect(x0, area.bottom() + 2, chartW, label), Qt::AlignLeft | Qt::AlignTop, statNumber(m_lo));
        p.drawText(QRect(x0, area.bottom() + 2, chartW, label), Qt::AlignRight | Qt::AlignTop, statNumber(m_hi));
    };
    chart(m_value, 0, palette().color(QPalette::Highlight), tr("irlens (√count)"));
    if (two) chart(m_reference, chartW + gap, kReferenceColour, tr("reference"));
}

ValueStatsView::ValueStatsView(Document* document, QWidget* parent) : QScrollArea(parent), m_doc(document) {
    setObjectName("valueStats");
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    auto* content = new QWidget(this);
    m_title = new QLabel(content);
    m_title->setWordWrap(true);
    m_chooser = new QComboBox(content);
    m_chooser->setObjectName("valueChooser");
    m_stats = new QLabel(content);
    m_stats->setObjectName("valueStatsTable");
    m_stats->setTextFormat(Qt::RichText);
    m_stats->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_histograms = new HistogramPair(content);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->addWidget(m_title);
    layout->addWidget(m_chooser);
    layout->addWidget(m_stats);
    layout->addWidget(m_histograms);
    layout->addStretch(1);
    setWidget(content);
    connect(m_chooser, &QComboBox::currentIndexChanged, this, &ValueStatsView::showValue);
    connect(m_doc, &Document::selectionChanged, this, &ValueStatsView::refresh);
    connect(m_doc, &Document::numericsChanged, this, &ValueStatsView::refresh);
    connect(m_doc, &Document::programChanged, this, &ValueStatsView::refresh);
    refresh();
}

QStringList ValueStatsView::valueNames() const {
    QStringList names;
    if (!m_run) return names;
    for (int r : m_records) names << QString::fromStdString(m_run->values[static_cast<size_t>(r)].name);
    return names;
}

// The values the selected node made (a getitem node: the value it names, made by its tuple's node).
void ValueStatsView::refresh() {
    m_run = m_doc->numerics();
    m_records.clear();
    const int node = m_doc->selectedNode();
    ProgramPtr program = m_doc->program();
    if (m_run && program && node >= 0 && m_doc->graph() == &program->graph) {
        const std::string& name = program->graph.nodes[static_cast<size_t>(node)].name;
        for (size_t k = 0; k < m_run->values.size(); ++k) {
            const ValueRecord& v = m_run->values[k];
            if ((v.node == node || v.name == name) && v.stats) m_records.push_back(static_cast<int>(k));
        }
    }
    setVisible(!m_records.empty());
    const QSignalBlocker block(m_chooser);
    m_chooser->clear();
    m_chooser->addItems(valueNames());
    m_chooser->setVisible(m_records.size() > 1);
    if (!m_records.empty()) showValue(0);
}

void ValueStatsView::showValue(int which) {
    if (which < 0 || which >= static_cast<int>(m_records.size())) return;
    const ValueRecord& v = m_run->values[static_cast<size_t>(m_records[static_cast<size_t>(which)])];
    QString title = tr("<b>Value</b> %1 · %2").arg(QString::fromStdString(v.name).toHtmlEscaped(), QString::fromStdString(v.shape));
    if (m_run->compared) {
        title += " · " + QString::fromLatin1(valueCheckName(v.check));
        if (v.check == ValueCheck::Agree || v.check == ValueCheck::Differ || v.check == ValueCheck::DtypeMismatch)
            title += tr(" (normwise %1, SQNR %2 dB)")
                         .arg(QString::fromStdString(formatMeasure(v.error.normRel)), QString::fromStdString(formatMeasure(v.error.sqnrDb)));
        else if (v.check == ValueCheck::ShapeMismatch)
            title += tr(" (reference %1)").arg(QString::fromStdString(v.referenceShape));
    }
    m_title->setText(title);
    const QStringList mine = statColumn(*v.stats);
    const bool two = v.referenceStats.has_value();
    const QStringList theirs = two ? statColumn(*v.referenceStats) : QStringList();
    const QStringList what{tr("elements"), tr("min"), tr("max"), tr("mean"), tr("std"), tr("NaN, +inf, −inf")};
    QString table = QStringLiteral("<table cellspacing=0>");
    if (two) table += QStringLiteral("<tr><td></td><td align=right><b>%1</b></td><td align=right><b>%2</b></td></tr>").arg(tr("irlens"), tr("reference"));
    for (int r = 0; r < what.size(); ++r) table += statRow(what[r], mine[r], two ? &theirs[r] : nullptr);
    m_stats->setText(table + QStringLiteral("</table>"));
    m_histograms->setHistograms(v.stats->histogram, two ? v.referenceStats->histogram : std::vector<int64_t>{}, v.stats->lo, v.stats->hi);
}

} // namespace irlens::views
