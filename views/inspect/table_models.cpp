#include "views/inspect/table_models.h"
#include "views/qstring_util.h"

#include "core/exec/memory_budget.h"
#include "core/verify/diagnostic.h"

#include "views/document.h"

#include <QLocale>

#include <string>
#include <unordered_map>
#include <vector>

namespace irlens::views {

using namespace irlens::core;

namespace {


QString shapeOf(const TensorData& t) {
    QStringList dims;
    for (auto s : t.sizes) dims << QString::number(s);
    return "[" + dims.join(", ") + "]";
}

QString num(double v) { return QString::number(v, 'g', 5); }

} // namespace

// ---------------------------------------------------------------------------- SignatureModel

SignatureModel::SignatureModel(Document* document, QObject* parent) : QAbstractTableModel(parent), m_doc(document) {
    connect(m_doc, &Document::programChanged, this, &SignatureModel::reload);
    reload();
}

void SignatureModel::reload() {
    beginResetModel();
    m_rows.clear();
    if (auto p = m_doc->program()) {
        // the producers of the outputs only: a map of every node's outputs cost ~10 ms on a 11k-node
        // graph, on every program swap (a decomposition step)
        std::unordered_map<std::string, std::string> producer;
        for (const auto& s : p->signature.outputSpecs) {
            std::vector<std::string> names;
            s.arg.collectValueNames(names);
            if (!names.empty()) producer.emplace(names.front(), std::string());
        }
        size_t found = 0;
        for (auto n = p->graph.nodes.rbegin(); n != p->graph.nodes.rend() && found < producer.size(); ++n)
            for (const auto& out : n->outputNames())
                if (auto it = producer.find(out); it != producer.end() && it->second.empty()) {
                    it->second = n->name;
                    ++found;
                }
        auto valueText = [&](const Argument& a) {
            std::vector<std::string> names;
            a.collectValueNames(names);
            if (names.empty()) return QString();
            const TensorMeta* m = p->graph.tensorMeta(names.front());
            return m ? q(m->shortString()) : QString();
        };
        for (const auto& s : p->signature.inputSpecs) {
            std::vector<std::string> names;
            s.arg.collectValueNames(names);
            QString name = names.empty() ? q(s.name) : q(names.front());
            // an input selects its placeholder (a constant input has none)
            m_rows.push_back({tr("input"), name, q(inputKindName(s.kind)), q(s.target), valueText(s.arg),
                              names.empty() ? QString() : "in:" + name});
        }
        for (const auto& s : p->signature.outputSpecs) {
            std::vector<std::string> names;
            s.arg.collectValueNames(names);
            QString name = names.empty() ? QString() : q(names.front());
            QString link;
            // a mutated buffer (or any output) links to the node that computes it
            if (!names.empty())
                if (auto it = producer.find(names.front()); it != producer.end() && !it->second.empty())
                    link = "node:" + q(it->second);
            m_rows.push_back({tr("output"), name, q(outputKindName(s.kind)), q(s.target), valueText(s.arg), link});
        }
    }
    endResetModel();
}

int SignatureModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(m_rows.size()); }
int SignatureModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : 5; }

QVariant SignatureModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= static_cast<int>(m_rows.size())) return {};
    const Row& r = m_rows[static_cast<size_t>(index.row())];
    if (role == LinkRole) return r.link.isEmpty() ? QVariant() : QVariant(r.link);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
    switch (index.column()) {
    case 0: return r.name;
    case 1: return r.kind;
    case 2: return r.target;
    case 3: return r.value;
    default: return r.dir;
    }
}

QVariant SignatureModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* names[] = {"Name", "Kind", "Target", "Value", "In/Out"};
    return section >= 0 && section < 5 ? tr(names[section]) : QVariant();
}

// ---------------------------------------------------------------------------- RangeConstraintsModel

RangeConstraintsModel::RangeConstraintsModel(Document* document, QObject* parent) : QAbstractTableModel(parent), m_doc(document) {
    connect(m_doc, &Document::programChanged, this, [this] {
        beginResetModel();
        m_rows.clear();
        if (auto p = m_doc->program())
            for (const auto& [sym, rc] : p->rangeConstraints)
                m_rows.push_back({q(sym), rc.minVal ? QString::number(*rc.minVal) : QStringLiteral("-∞"),
                                  rc.maxVal ? QString::number(*rc.maxVal) : QStringLiteral("∞")});
        endResetModel();
    });
}

int RangeConstraintsModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(m_rows.size()); }
int RangeConstraintsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : 3; }

QVariant RangeConstraintsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= static_cast<int>(m_rows.size()) || role != Qt::DisplayRole) return {};
    const Row& r = m_rows[static_cast<size_t>(index.row())];
    return index.column() == 0 ? r.symbol : index.column() == 1 ? r.min : r.max;
}

QVariant RangeConstraintsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    return section == 0 ? tr("Symbol") : section == 1 ? tr("Min") : tr("Max");
}

// ---------------------------------------------------------------------------- DiagnosticsModel

DiagnosticsModel::DiagnosticsModel(Document* document, QObject* parent) : QAbstractTableModel(parent), m_doc(document) {
    connect(m_doc, &Document::diagnosticsChanged, this, [this] {
        beginResetModel();
        endResetModel();
    });
}

int DiagnosticsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_doc->diagnostics().size());
}
int DiagnosticsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : 4; }

QVariant DiagnosticsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const DiagnosticRow& d = m_doc->diagnostics()[static_cast<size_t>(index.row())];
    if (role == NodeNameRole) return d.node;
    if (role == Qt::ToolTipRole) {
        // the finding, then what the rule asks and where the spec says it
        const core::RuleInfo* rule = core::findRule(d.rule.toStdString());
        if (!rule) return wrappedTip(d.message);
        return wrappedTip(QStringLiteral("%1\n\n%2 · %3\n%4\nSpec: %5\n%6").arg(d.message, d.rule, QString::fromUtf8(rule->title),
                                                                     QString::fromUtf8(rule->explanation), QString::fromUtf8(rule->specRef),
                                                                     tr("(activate the rule to read its example and fix)")));
    }
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
    case 0: return d.severity == DiagnosticRow::Severity::Error ? tr("error") : d.severity == DiagnosticRow::Severity::Warning ? tr("warning") : tr("info");
    case 1: return d.rule;
    case 2: return d.node;
    default: return d.message;
    }
}

QVariant DiagnosticsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* names[] = {"Severity", "Rule", "Node", "Message"};
    return section >= 0 && section < 4 ? tr(names[section]) : QVariant();
}

// ---------------------------------------------------------------------------- WeightsModel

WeightsModel::WeightsModel(Document* document, QObject* parent) : QAbstractTableModel(parent), m_doc(document) {
    connect(m_doc, &Document::programChanged, this, &WeightsModel::reload);
    reload();
}

void WeightsModel::reload() {
    beginResetModel();
    m_rows.clear();
    m_stats.clear();
    if (auto p = m_doc->program()) {
        for (const auto& [name, t] : p->weights) m_rows.push_back({name, t.isParameter ? tr("parameter") : tr("buffer"), &t});
        for (const auto& [name, v] : p->constants)
            if (v.kind == Value::Kind::Tensor) m_rows.push_back({name, tr("constant"), &v.tensor});
    }
    endResetModel();
}

int WeightsModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(m_rows.size()); }
int WeightsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QString WeightsModel::nameAt(int row) const {
    return row >= 0 && row < rowCount() ? q(m_rows[static_cast<size_t>(row)].name) : QString();
}

const TensorStats* WeightsModel::stats(int row) const {
    if (row < 0 || row >= rowCount()) return nullptr;
    auto it = m_stats.find(row);
    if (it == m_stats.end()) it = m_stats.emplace(row, computeTensorStats(*m_rows[static_cast<size_t>(row)].tensor)).first;
    return it->second ? &*it->second : nullptr;
}

QVariant WeightsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const Row& r = m_rows[static_cast<size_t>(index.row())];
    const TensorData& t = *r.tensor;
    const int64_t bytes = t.numel() * elementSize(t.dtype);
    if (role == SortRole) {
        switch (index.column()) {
        case Bytes: return static_cast<qlonglong>(bytes);
        case Min: case Max: case Mean: case Std: {
            const TensorStats* s = stats(index.row());
            if (!s) return QVariant();
            return index.column() == Min ? s->min : index.column() == Max ? s->max : index.column() == Mean ? s->mean : s->std;
        }
        default: role = Qt::DisplayRole;
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() >= Bytes && index.column() <= Std)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
    switch (index.column()) {
    case Name: return q(r.name);
    case Kind: return r.kind;
    case Shape: return shapeOf(t);
    case DType: return q(dtypeName(t.dtype));
    case Bytes: return q(core::exec::formatBytes(bytes)); // KiB / MiB as everywhere else
    default: break;
    }
    const TensorStats* s = stats(index.row());
    if (!s) return QStringLiteral("—");
    switch (index.column()) {
    case Min: return num(s->min);
    case Max: return num(s->max);
    case Mean: return num(s->mean);
    case Std: return num(s->std);
    case First: {
        QStringList parts;
        for (double v : s->first) parts << num(v);
        return parts.join(", ") + (s->count > static_cast<int64_t>(s->first.size()) ? ", …" : "");
    }
    default: return {};
    }
}

QVariant WeightsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* names[] = {"Name", "Kind", "Shape", "DType", "Bytes", "Min", "Max", "Mean", "Std", "First values"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

} // namespace irlens::views
