// engine headers (oneTBB) before Qt's: see run_snapshot.h
#include "core/compare/numeric_run.h"

#include "views/run/numerics_dock.h"
#include "views/document.h"
#include "views/inspect/node_inspector_model.h"
#include "views/inspect/table_pane.h"
#include "views/run/numerics_model.h"

#include <QDoubleValidator>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace irlens::views {

using namespace irlens::core;

NumericsPane::NumericsPane(Document* document, QAction* overlay, QAction* compare, QWidget* parent)
    : QWidget(parent), m_doc(document) {
    m_toleranceValue = Tolerance{}.normRel;
    m_model = new NumericsModel(m_doc, this);
    m_table = new TablePane(m_doc, m_model, NumericsModel::LinkRole, this);
    m_table->proxy()->setSortRole(NumericsModel::SortRole);
    m_verdict = new QLabel(this);
    m_verdict->setObjectName("numericsVerdict");
    m_verdict->setWordWrap(true);
    m_verdict->setTextFormat(Qt::RichText);
    m_verdict->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    connect(m_verdict, &QLabel::linkActivated, this, [this](const QString& link) { followLink(m_doc, link); });
    m_tolerance = new QLineEdit(QString::number(m_toleranceValue), this);
    m_tolerance->setObjectName("numericsTolerance");
    m_tolerance->setMaximumWidth(90);
    auto* validator = new QDoubleValidator(0, 1e30, 12, m_tolerance);
    validator->setNotation(QDoubleValidator::ScientificNotation);
    m_tolerance->setValidator(validator);
    m_tolerance->setToolTip(tr("The normwise relative error ‖a − r‖₂ / ‖r‖₂ a value may have and still agree (Enter applies it)"));
    connect(m_tolerance, &QLineEdit::editingFinished, this, [this] {
        bool ok = false;
        const double v = m_tolerance->text().toDouble(&ok);
        if (ok && v >= 0 && v != m_toleranceValue) setTolerance(v);
    });
    auto* top = new QHBoxLayout;
    top->addWidget(m_verdict, 1);
    top->addWidget(new QLabel(tr("tolerance"), this));
    top->addWidget(m_tolerance);
    for (QAction* a : {overlay, compare}) {
        auto* b = new QToolButton(this);
        b->setDefaultAction(a);
        top->addWidget(b);
    }
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_table, 1);
    connect(m_doc, &Document::numericsChanged, this, &NumericsPane::updateVerdict);
    connect(m_doc, &Document::programChanged, this, &NumericsPane::updateVerdict);
    connect(m_model, &QAbstractItemModel::modelReset, this, &NumericsPane::showFirstDivergence, Qt::QueuedConnection);
    updateVerdict();
}

void NumericsPane::setTolerance(double normRel) {
    m_toleranceValue = normRel;
    m_tolerance->setText(QString::number(normRel));
    auto numerics = m_doc->numerics();
    ProgramPtr program = m_doc->program();
    if (numerics && program && numerics->compared) {
        auto judged = std::make_shared<NumericRun>(*numerics);
        applyTolerance(*judged, *program, Tolerance{normRel, Tolerance{}.atol});
        m_doc->setNumerics(std::move(judged));
    }
    Q_EMIT toleranceChanged(normRel);
}

void NumericsPane::updateVerdict() {
    auto numerics = m_doc->numerics();
    ProgramPtr program = m_doc->program();
    if (!numerics || !program) {
        m_verdict->setText(tr("No values yet: Run › Compare with reference values… runs the program and compares every node's value; "
                              "Run › Run (F5) or stepping fill the table without a reference."));
        return;
    }
    if (!numerics->compared) {
        m_verdict->setText(tr("%1 values of the last run or step (inputs: %2); no reference to compare them with.")
                               .arg(numerics->values.size())
                               .arg(QString::fromStdString(numerics->inputsFrom).toHtmlEscaped()));
        return;
    }
    const QString ref = QFileInfo(QString::fromStdString(numerics->referencePath)).fileName().toHtmlEscaped();
    const QString counts = tr("%1 agree, %2 differ, %3 shape, %4 dtype, %5 missing, %6 only in the reference")
                               .arg(numerics->count(ValueCheck::Agree))
                               .arg(numerics->count(ValueCheck::Differ))
                               .arg(numerics->count(ValueCheck::ShapeMismatch))
                               .arg(numerics->count(ValueCheck::DtypeMismatch))
                               .arg(numerics->count(ValueCheck::NoReference))
                               .arg(numerics->referenceOnly.size());
    if (numerics->firstDivergent < 0) {
        m_verdict->setText(tr("Against %1: every compared value agrees. %2").arg(ref, counts));
        return;
    }
    const ValueRecord& v = numerics->values[static_cast<size_t>(numerics->firstDivergent)];
    const QString node = QString::fromStdString(program->graph.nodes[static_cast<size_t>(v.node)].name).toHtmlEscaped();
    m_verdict->setText(tr("Against %1: <b>first divergence at <a href=\"node:%2\">%3</a></b> (%4), %5 producers before it agree. %6")
                           .arg(ref, node, QString::fromStdString(v.name).toHtmlEscaped(),
                                QString::fromStdString(describeNode(*program, v.node)).toHtmlEscaped())
                           .arg(numerics->agreeingChain.size())
                           .arg(counts));
}

// The first divergent row in view (the table is sorted in execution order until the user sorts it).
void NumericsPane::showFirstDivergence() {
    const int row = m_model->firstDivergentRow();
    if (row < 0) return;
    const QModelIndex index = m_table->proxy()->mapFromSource(m_model->index(row, 0));
    m_table->view()->scrollTo(index, QAbstractItemView::PositionAtCenter);
}

} // namespace irlens::views
