// engine headers (oneTBB) before Qt's: see run_snapshot.h
#include "core/compare/numeric_run.h"

#include "views/run/numerics_model.h"
#include "views/document.h"

#include <QColor>
#include <QFont>
#include <QPalette>
#include <QGuiApplication>

#include <cmath>
#include <limits>

namespace irlens::views {

using namespace irlens::core;

namespace {

bool measured(const ValueRecord& v) {
    return v.check == ValueCheck::Agree || v.check == ValueCheck::Differ || v.check == ValueCheck::DtypeMismatch;
}

QString measureText(double v) { return QString::fromStdString(formatMeasure(v)); }

} // namespace

NumericsModel::NumericsModel(Document* document, QObject* parent) : QAbstractTableModel(parent), m_doc(document) {
    connect(m_doc, &Document::numericsChanged, this, &NumericsModel::rebuild);
    connect(m_doc, &Document::programChanged, this, &NumericsModel::rebuild);
    rebuild();
}

void NumericsModel::rebuild() {
    beginResetModel();
    m_run = m_doc->numerics();
    m_program = m_doc->program();
    if (!m_program) m_run.reset();
    m_values = m_run ? static_cast<int>(m_run->values.size()) : 0;
    endResetModel();
}

int NumericsModel::rowOfValue(const QString& name) const {
    if (!m_run) return -1;
    const std::string n = name.toStdString();
    for (int r = 0; r < m_values; ++r)
        if (m_run->values[static_cast<size_t>(r)].name == n) return r;
    return -1;
}

int NumericsModel::firstDivergentRow() const { return m_run ? m_run->firstDivergent : -1; }

int NumericsModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !m_run) return 0;
    return m_values + static_cast<int>(m_run->referenceOnly.size());
}

int NumericsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant NumericsModel::measure(int row, int column, bool forSort) const {
    const ValueRecord& v = m_run->values[static_cast<size_t>(row)];
    if (column == NonFinite) {
        const int64_t n = v.finite.total();
        if (forSort) return static_cast<qlonglong>(n);
        if (n == 0) return QString();
        QStringList parts;
        if (v.finite.nan) parts << tr("%1 NaN").arg(v.finite.nan);
        if (v.finite.posInf) parts << tr("%1 +inf").arg(v.finite.posInf);
        if (v.finite.negInf) parts << tr("%1 −inf").arg(v.finite.negInf);
        return parts.join(", ");
    }
    if (!measured(v)) return forSort ? QVariant(-std::numeric_limits<double>::infinity()) : QVariant();
    const NodeError& e = v.error;
    double x = 0;
    switch (column) {
    case MaxAbs: x = e.maxAbs; break;
    case MaxRel: x = e.maxRel; break;
    case NormRel: x = e.normRel; break;
    case Cosine: x = e.cosine; break;
    case Sqnr: x = e.sqnrDb; break;
    default: return {};
    }
    if (forSort) return x;
    if (column == Cosine) return std::isfinite(x) ? QString::number(x, 'f', 6) : measureText(x);
    if (column == Sqnr) return std::isfinite(x) ? QString::number(x, 'f', 1) : measureText(x);
    return measureText(x);
}

QVariant NumericsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || !m_run || !m_program) return {};
    const int row = index.row();
    const int col = index.column();
    if (row >= m_values) { // a name only the reference holds
        const QString name = QString::fromStdString(m_run->referenceOnly[static_cast<size_t>(row - m_values)]);
        if (role == Qt::DisplayRole) {
            if (col == Value) return name;
            if (col == Check) return tr("only in the reference");
            return {};
        }
        if (role == SortRole) return col == Value ? QVariant(name) : col == Order ? QVariant(row) : QVariant(-std::numeric_limits<double>::infinity());
        return {};
    }
    const ValueRecord& v = m_run->values[static_cast<size_t>(row)];
    const Node& node = m_program->graph.nodes[static_cast<size_t>(v.node)];
    const bool first = row == m_run->firstDivergent;
    switch (role) {
    case Qt::DisplayRole:
        switch (col) {
        case Value: return QString::fromStdString(v.name);
        case Order: return row + 1;
        case Op: return QString::fromStdString(node.target.shortName());
        case Shape:
            return v.check == ValueCheck::ShapeMismatch || v.check == ValueCheck::DtypeMismatch
                       ? tr("%1, reference %2").arg(QString::fromStdString(v.shape), QString::fromStdString(v.referenceShape))
                       : QString::fromStdString(v.shape);
        case Check:
            if (!m_run->compared) return QString();
            if (v.check == ValueCheck::NoReference) return v.read ? tr("missing") : tr("missing (read by no node)");
            return QString::fromLatin1(valueCheckName(v.check));
        default: return measure(row, col, false);
        }
    case SortRole:
        switch (col) {
        case Value: return QString::fromStdString(v.name);
        case Order: return row;
        case Op: return QString::fromStdString(node.target.shortName());
        case Shape: return QString::fromStdString(v.shape);
        case Check: return m_run->compared ? QString::fromLatin1(valueCheckName(v.check)) : QString();
        default: return measure(row, col, true);
        }
    case LinkRole: return QStringLiteral("node:") + QString::fromStdString(node.name);
    case FirstDivergenceRole: return first;
    case Qt::FontRole:
        if (first) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::BackgroundRole:
        // the palette's highlight, faint, so that it reads on light and dark themes alike
        if (first || v.failed()) {
            QColor c = first ? QColor(0xff, 0x3d, 0x00) : QGuiApplication::palette().color(QPalette::Highlight);
            c.setAlpha(first ? 90 : 40);
            return c;
        }
        return {};
    case Qt::ToolTipRole:
        if (first) return tr("The first value, in execution order, over the tolerance: %1")
                              .arg(QString::fromStdString(m_run->verdict(*m_program)));
        return QString::fromStdString(describeNode(*m_program, v.node));
    case Qt::TextAlignmentRole:
        return col >= MaxAbs && col <= Sqnr ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    default: return {};
    }
}

QVariant NumericsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    static const char* const names[] = {"Value", "#", "Op", "Shape", "Check", "Max abs", "Max rel", "Normwise rel", "Cosine", "SQNR dB", "NaN / Inf"};
    static const char* const tips[] = {"The value's name, as print(ep.graph) names its node",
                                       "Execution order",
                                       "The op of the node that made it",
                                       "irlens's value (and the reference's when they differ)",
                                       "agree, differ (over the tolerance), shape, dtype, missing (not in the reference)",
                                       "max |a − r|",
                                       "max |a − r| / |r| over the elements where r ≠ 0",
                                       "‖a − r‖₂ / ‖r‖₂: what the tolerance applies to",
                                       "⟨a, r⟩ / (‖a‖₂ ‖r‖₂)",
                                       "10 log₁₀(‖r‖₂² / ‖a − r‖₂²)",
                                       "NaN and infinite elements of irlens's value"};
    if (section < 0 || section >= ColumnCount) return {};
    if (role == Qt::DisplayRole) return tr(names[section]);
    if (role == Qt::ToolTipRole) return tr(tips[section]);
    return {};
}

} // namespace irlens::views
