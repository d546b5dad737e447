// engine headers (oneTBB) before Qt's: see run_snapshot.h
#include "core/exec/output_summary.h"
#include "core/exec/run_compare.h"
#include "core/exec/stepper.h"
#include "core/compare/numeric_run.h"
#include "views/run/run_inputs.h"

#include "views/run/step_controller.h"
#include "views/count_text.h"
#include "views/document.h"
#include "views/inspect/table_pane.h"
#include "views/run/step_values_model.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

#include <set>

namespace irlens::views {

using namespace irlens::core;
using namespace irlens::core::exec;

namespace {

// How long one slice of a Run to here may hold the UI thread.
constexpr qint64 kSliceMs = 30;

QString firstValues(const Tensor& t, int count) {
    QStringList parts;
    const int64_t n = std::min<int64_t>(t.numel(), count);
    for (int64_t k = 0; k < n; ++k) parts << QString::number(t.at(k), 'g', 4);
    if (t.numel() > n) parts << QStringLiteral("…");
    return parts.join(QStringLiteral(", "));
}

} // namespace

StepController::StepController(QMainWindow* window, Document* document) : QObject(window), m_window(window), m_doc(document) {
    setObjectName("stepController");
    m_step = new QAction(tr("&Step node"), this);
    m_step->setObjectName("stepNodeAction");
    m_step->setShortcut(QKeySequence(Qt::Key_F10));
    m_step->setToolTip(tr("Execute the next node in graph order, as torch.fx.Interpreter does (F10)"));
    connect(m_step, &QAction::triggered, this, &StepController::step);
    m_runTo = new QAction(tr("Run to &here"), this);
    m_runTo->setObjectName("runToHereAction");
    m_runTo->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F10));
    connect(m_runTo, &QAction::triggered, this, [this] { runTo(m_doc->selectedNode()); });
    m_restart = new QAction(tr("Restart stepping"), this);
    m_restart->setObjectName("restartStepAction");
    connect(m_restart, &QAction::triggered, this, &StepController::restart);
    m_slice = new QTimer(this);
    m_slice->setInterval(0);
    connect(m_slice, &QTimer::timeout, this, &StepController::continueRunTo);
    createDock();
    createMenu();
    connect(m_doc, &Document::programChanged, this, &StepController::restart);
    connect(m_doc, &Document::selectionChanged, this, &StepController::updateActions);
    connect(m_doc, &Document::scopeChanged, this, &StepController::updateActions);
    updateActions();
}

StepController::~StepController() = default;

void StepController::createDock() {
    auto* box = new QWidget(m_window);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    m_status = new QLabel(tr("Run › Step node (F10) executes one node at a time; Run to here (Ctrl+F10) runs up to the selected node."), box);
    m_status->setObjectName("stepStatus");
    m_status->setWordWrap(true);
    m_model = new StepValuesModel(this);
    m_pane = new TablePane(m_doc, m_model, StepValuesModel::LinkRole, box);
    layout->addWidget(m_status);
    layout->addWidget(m_pane, 1);
    m_dock = new QDockWidget(tr("Values"), m_window);
    m_dock->setObjectName("stepValues");
    m_dock->setWidget(box);
    m_window->addDockWidget(Qt::BottomDockWidgetArea, m_dock);
    if (auto* fx = m_window->findChild<QDockWidget*>("fx")) m_window->tabifyDockWidget(fx, m_dock);
    m_dock->hide(); // shown by the first step: the bottom area carries only what has something to show
}

void StepController::createMenu() {
    for (QAction* a : m_window->menuBar()->actions()) {
        if (a->text() != tr("&Run") || !a->menu()) continue;
        QMenu* run = a->menu();
        QAction* first = run->actions().size() > 2 ? run->actions().at(2) : nullptr; // after Run and Cancel
        run->insertAction(first, m_step);
        run->insertAction(first, m_runTo);
        run->insertAction(first, m_restart);
        run->insertSeparator(first);
        run->addAction(m_dock->toggleViewAction());
        return;
    }
}

// Disabled actions say why on hover (UI.md).
void StepController::updateActions() {
    const bool program = m_doc->program() != nullptr;
    const bool topLevel = m_doc->scopes().size() <= 1;
    m_step->setEnabled(program && !isBusy() && !(m_stepper && m_stepper->finished()));
    m_step->setToolTip(!program ? tr("Open a program first")
                       : m_stepper && m_stepper->finished() ? tr("Every node has run: Restart stepping to start again")
                                                             : tr("Execute the next node in graph order (F10)"));
    const int sel = m_doc->selectedNode();
    m_runTo->setEnabled(program && topLevel && sel >= 0 && !isBusy());
    m_runTo->setToolTip(!program ? tr("Open a program first")
                        : !topLevel ? tr("Stepping runs the top-level graph: leave the subgraph first")
                        : sel < 0   ? tr("Select the node to run to")
                                    : tr("Execute every node up to the selected one (Ctrl+F10)"));
    m_restart->setEnabled(m_stepper != nullptr);
}

bool StepController::ensureSession() {
    if (m_stepper) return true;
    ProgramPtr program = m_doc->program();
    if (!program) return false;
    auto plan = ExecutionPlan::compile(program, false, false);
    if (!plan) {
        fail(tr("cannot compile: %1").arg(QString::fromStdString(plan.status().message())));
        return false;
    }
    auto inputs = pickInputs(**plan, runInputRequest(*m_doc));
    if (!inputs) {
        fail(tr("no inputs: %1").arg(QString::fromStdString(inputs.status().message())));
        return false;
    }
    auto stepper = Stepper::create(std::shared_ptr<const ExecutionPlan>(*plan), inputs->values);
    if (!stepper) {
        fail(QString::fromStdString(stepper.status().message()));
        return false;
    }
    m_stepper = std::move(*stepper);
    // once per session, not per row: who produces each value, and which values the graph returns
    const auto& g = m_stepper->plan().graph();
    m_producer.clear();
    for (const auto& pn : g.nodes)
        for (const std::string& out : m_stepper->outputsOf(pn.index)) m_producer.emplace(out, pn.index);
    m_graphOutputs.clear();
    for (int s : g.outputSlots)
        if (s >= 0) m_graphOutputs.insert(g.slotNames[static_cast<size_t>(s)]);
    m_inputsFrom = QString::fromStdString(inputs->from);
    m_values = std::make_shared<NumericRun>();
    m_values->inputsFrom = inputs->from;
    std::vector<StepRow> rows;
    for (const auto& pn : m_stepper->plan().graph().nodes) {
        StepRow r;
        r.name = QString::fromStdString(pn.node->name);
        r.op = QString::fromStdString(pn.node->target.shortName());
        rows.push_back(r);
    }
    m_model->reset(std::move(rows));
    m_dock->show();
    m_dock->raise();
    return true;
}

void StepController::step() {
    if (isBusy() || !ensureSession()) return;
    const int node = m_stepper->nextNode();
    if (node < 0) return;
    Status s = m_stepper->step();
    if (s) recordValues(node);
    afterSteps(node, node);
    if (!s) fail(QString::fromStdString(s.message()));
    Q_EMIT stepped();
}

void StepController::runTo(int node) {
    if (isBusy() || node < 0 || !ensureSession()) return;
    if (node >= m_stepper->nodeCount()) return;
    if (m_stepper->executed(node)) {
        m_status->setText(tr("%1 has already run (restart stepping to run it again); its value is in its row.")
                              .arg(m_model->row(node)->name));
        m_pane->view()->scrollTo(m_pane->proxy()->mapFromSource(m_model->index(node, 0)));
        Q_EMIT stepped();
        return;
    }
    m_target = node;
    m_sliceFrom = m_stepper->nextNode();
    updateActions();
    continueRunTo();
}

// One slice of a Run to here: steps until the target has run, an error, or the slice's time is up.
void StepController::continueRunTo() {
    if (!m_stepper || m_target < 0) return m_slice->stop();
    QElapsedTimer clock;
    clock.start();
    Status s;
    while (s && !m_stepper->executed(m_target) && clock.elapsed() < kSliceMs) {
        const int node = m_stepper->nextNode();
        s = m_stepper->step();
        if (s) recordValues(node); // now: a later node of the slice may free the value
    }
    if (s && !m_stepper->executed(m_target)) {
        m_status->setText(tr("Running to %1: %2 of %3 nodes…").arg(m_model->row(m_target)->name).arg(m_stepper->nextNode()).arg(m_target + 1));
        if (!m_slice->isActive()) m_slice->start();
        return;
    }
    m_slice->stop();
    const int from = m_sliceFrom, to = std::max(m_sliceFrom, m_stepper->finished() ? m_stepper->nodeCount() - 1 : m_stepper->nextNode() - 1);
    m_target = -1;
    afterSteps(from, to);
    if (!s) fail(QString::fromStdString(s.message()));
    Q_EMIT stepped();
}

// Rows of the nodes just run and of the values they freed, then the next node in view.
void StepController::afterSteps(int from, int to) {
    const auto& g = m_stepper->plan().graph();
    for (int n = from; n <= to && n < m_stepper->nodeCount(); ++n) {
        updateRow(n);
        // the producers of what this node read: their values may have been freed now
        for (int s : g.nodes[static_cast<size_t>(n)].inputSlots) {
            const std::string& value = g.slotNames[static_cast<size_t>(s)];
            auto producer = m_producer.find(value);
            if (producer != m_producer.end() && producer->second < n && m_stepper->freedAfter(value) == n) updateRow(producer->second);
        }
    }
    m_doc->setStepping({true, m_stepper->nextNode()}); // the graph tints what has run, outlines what is next
    showNext();
    m_pane->fitColumns(); // the rows in view, now with values
    if (m_values) { // the Node pane's statistics of every value made so far
        m_published = std::make_shared<const NumericRun>(*m_values);
        m_doc->setNumerics(m_published);
    }
    updateActions();
}

void StepController::updateRow(int node) {
    StepRow r = *m_model->row(node);
    r.executed = m_stepper->executed(node);
    r.next = m_stepper->nextNode() == node;
    r.ns = m_stepper->nodeNs(node);
    const auto outs = m_stepper->outputsOf(node);
    QStringList values, tips;
    r.live = false;
    r.output = false;
    r.freedAfter.clear();
    r.hasStats = false;
    for (const std::string& name : outs) {
        const EValue* v = m_stepper->value(name);
        if (!v) continue;
        const QString text = QString::fromStdString(v->describe());
        values << text;
        r.live = r.live || m_stepper->isLive(name);
        r.output = r.output || m_graphOutputs.count(name) > 0;
        const int freed = m_stepper->freedAfter(name);
        if (freed >= 0 && r.freedAfter.isEmpty()) r.freedAfter = m_model->row(freed)->name;
        QString tip = QString::fromStdString(name) + ": " + text;
        if (v->isTensor() && v->tensor.numel() > 0) {
            const OutputSummary sum = summarizeOutput(v->tensor, int64_t{1} << 22);
            tip += QStringLiteral("  min %1  max %2  mean %3").arg(sum.min, 0, 'g', 5).arg(sum.max, 0, 'g', 5).arg(sum.mean, 0, 'g', 5);
            if (!r.hasStats) {
                r.hasStats = true;
                r.min = sum.min;
                r.max = sum.max;
                r.mean = sum.mean;
                r.first = firstValues(v->tensor, 6);
            }
        }
        tips << tip;
    }
    r.value = values.size() > 1 ? tr("%1 outputs: %2").arg(values.size()).arg(values.join(", ")) : values.value(0);
    r.tooltip = tips.join('\n');
    m_model->setRow(node, std::move(r));
}

// The statistics of the tensor values `node` just made, while they are live.
void StepController::recordValues(int node) {
    for (const std::string& name : m_stepper->outputsOf(node)) {
        const EValue* v = m_stepper->value(name);
        if (!v || !v->isTensor() || !v->tensor.defined() || isComplexType(v->tensor.dtype())) continue;
        ValueRecord rec;
        rec.node = node;
        rec.name = name;
        rec.shape = v->tensor.shapeString();
        rec.sizes = v->tensor.sizes();
        rec.stats = valueStatsOf(v->tensor, kValueStatsBins);
        rec.finite = rec.stats->nonFinite;
        m_values->values.push_back(std::move(rec));
    }
}

// The next node selected in the graph and bold in the pane; the status line says where stepping stands.
void StepController::showNext() {
    const int next = m_stepper->nextNode();
    if (next >= 0) updateRow(next);
    const int shown = next >= 0 ? next : m_stepper->nodeCount() - 1;
    if (m_doc->scopes().size() > 1) m_doc->leaveSubgraph(0);
    if (shown >= 0) {
        m_doc->revealNode(shown);
        m_doc->selectNode(shown);
        m_pane->view()->scrollTo(m_pane->proxy()->mapFromSource(m_model->index(shown, 0)), QAbstractItemView::PositionAtCenter);
    }
    const int done = next >= 0 ? next : m_stepper->nodeCount();
    m_status->setText(next >= 0 ? tr("%1 of %2 nodes run; next: %3 (inputs: %4)")
                                      .arg(done).arg(m_stepper->nodeCount()).arg(m_model->row(next)->name, m_inputsFrom)
                                : tr("Every node has run (%1; inputs: %2). Restart stepping to start again.")
                                      .arg(nodesText(done), m_inputsFrom));
}

void StepController::fail(const QString& message) {
    m_status->setText(tr("Stepping stopped: %1").arg(message));
    m_window->statusBar()->showMessage(tr("Stepping stopped: %1").arg(message), 15000);
    m_dock->show();
    updateActions();
}

void StepController::stop() {
    if (m_target < 0) return;
    m_slice->stop();
    const int from = m_sliceFrom, to = m_stepper->nextNode() - 1;
    m_target = -1;
    if (to >= from) afterSteps(from, to);
    m_status->setText(tr("Stopped before %1 (Esc). F10 steps on.").arg(m_model->row(m_stepper->nextNode())->name));
    updateActions();
    Q_EMIT stepped();
}

void StepController::restart() {
    m_slice->stop();
    m_target = -1;
    m_stepper.reset();
    m_values.reset();
    if (m_published && m_doc->numerics() == m_published) m_doc->setNumerics(nullptr);
    m_published.reset();
    m_model->reset({});
    m_doc->setStepping({});
    m_status->setText(tr("Run › Step node (F10) executes one node at a time; Run to here (Ctrl+F10) runs up to the selected node."));
    updateActions();
}

} // namespace irlens::views
