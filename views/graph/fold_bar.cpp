#include "views/graph/fold_bar.h"

#include "views/document.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>

#include <algorithm>

namespace irlens::views {

using namespace irlens::core;

// ---------------------------------------------------------------------------- InstanceSpinBox

InstanceSpinBox::InstanceSpinBox(QWidget* parent) : QSpinBox(parent) {
    setKeyboardTracking(false); // a layout per instance asked for, not per key typed
    setAccelerated(true);       // held down, Up / Down run through 128 layers quickly
    setWrapping(false);
}

void InstanceSpinBox::setInstances(QStringList names) {
    m_names = std::move(names);
    setRange(0, std::max(0, static_cast<int>(m_names.size()) - 1));
    // as wide as the longest name (QSpinBox measures only the first and the last)
    int widest = 0;
    for (const QString& n : m_names) widest = std::max(widest, fontMetrics().horizontalAdvance(n));
    setMinimumWidth(widest + 48);
}

int InstanceSpinBox::instanceNamed(const QString& text) const {
    const QString t = text.trimmed();
    if (t.isEmpty()) return -1;
    if (const int exact = static_cast<int>(m_names.indexOf(t)); exact >= 0) return exact;
    for (int k = 0; k < m_names.size(); ++k)
        if (m_names[k].endsWith('.' + t)) return k;
    return -1;
}

QString InstanceSpinBox::textFromValue(int value) const { return m_names.value(value, QString::number(value)); }

int InstanceSpinBox::valueFromText(const QString& text) const {
    const int k = instanceNamed(text);
    return k >= 0 ? k : value();
}

QValidator::State InstanceSpinBox::validate(QString& text, int&) const {
    // anything may be typed on the way to a name; Enter takes it only when it names an instance
    return instanceNamed(text) >= 0 ? QValidator::Acceptable : QValidator::Intermediate;
}

// ---------------------------------------------------------------------------- FoldBar

FoldBar::FoldBar(Document* document, QWidget* parent) : QWidget(parent), m_doc(document) {
    setObjectName("foldBar");
    m_row = new QHBoxLayout(this);
    m_row->setContentsMargins(6, 0, 6, 2);
    m_row->setSpacing(4);
    connect(m_doc, &Document::layoutReady, this, &FoldBar::refresh);
    // another graph: its runs are known once its layout is
    connect(m_doc, &Document::programChanged, this, &FoldBar::clear);
    connect(m_doc, &Document::scopeChanged, this, &FoldBar::clear);
    hide();
}

void FoldBar::clear() {
    while (QLayoutItem* item = m_row->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_spins.clear();
    hide();
}

bool FoldBar::focusInstance() {
    if (m_spins.empty() || isHidden()) return false;
    InstanceSpinBox* spin = m_spins.front().second;
    spin->setFocus(Qt::ShortcutFocusReason);
    spin->selectAll();
    return true;
}

InstanceSpinBox* FoldBar::spinBoxOf(int fold) const {
    for (const auto& [f, spin] : m_spins)
        if (f == fold) return spin;
    return nullptr;
}

std::vector<std::pair<int, int>> FoldBar::runsInView() const {
    std::vector<std::pair<int, int>> runs;
    const LayoutPtr layout = m_doc->layout();
    if (!layout || m_doc->scopes().empty() || !m_doc->folds()) return runs;
    const ModuleTree& tree = *m_doc->scope().tree;
    const VisibleGraph& g = layout->graph;
    for (const auto& [module, fold] : g.folds) {
        // a run inside a closed module draws nothing of its own
        const bool drawn = g.itemOfId.count("mod:" + tree.module(module).label()) > 0 ||
                           std::find(g.clusters.begin(), g.clusters.end(), module) != g.clusters.end();
        if (drawn) runs.emplace_back(fold.fold, module);
    }
    std::sort(runs.begin(), runs.end());
    return runs;
}

void FoldBar::refresh() {
    const auto runs = runsInView();
    bool same = runs.size() == m_spins.size();
    for (size_t k = 0; same && k < runs.size(); ++k) same = runs[k].first == m_spins[k].first;
    if (!same) {
        clear();
        const ModuleTree& tree = *m_doc->scope().tree; // runs: a layout and folds exist
        for (const auto& [fold, module] : runs) {
            const ModuleFold& group = m_doc->folds()->folds()[static_cast<size_t>(fold)];
            QStringList names;
            for (int m : group.instances) names << QString::fromStdString(tree.module(m).label());
            auto* spin = new InstanceSpinBox(this);
            spin->setObjectName("foldInstance");
            spin->setInstances(names);
            const QString what = QString::fromStdString(tree.module(module).shortType());
            spin->setToolTip(tr("Which of the %1 identical %2 modules (%3 … %4) the graph draws in their place: Up / Down, "
                                "or type a name or number and Enter (Graph › Go to instance, Ctrl+L)")
                                 .arg(group.count()).arg(what, names.front(), names.back()));
            auto* label = new QLabel(tr("%1 ×%2:").arg(what).arg(group.count()), this);
            label->setBuddy(spin);
            m_row->addWidget(label);
            m_row->addWidget(spin);
            connect(spin, &QSpinBox::valueChanged, m_doc, [doc = m_doc, fold](int instance) { doc->showInstance(fold, instance); });
            m_spins.emplace_back(fold, spin);
        }
        m_row->addStretch(1);
    }
    for (const auto& [fold, spin] : m_spins) {
        const QSignalBlocker quiet(spin); // the document's state shown, not asked for again
        spin->setValue(m_doc->shownInstance(fold));
    }
    setVisible(!m_spins.empty());
}

} // namespace irlens::views
