// oneTBB (through core/exec) first: Qt's `emit` macro breaks its headers when they come later
#include "core/exec/engine.h"
#include "core/exec/output_summary.h"
#include "core/exec/plan.h"
#include "core/exec/profile.h"
#include "core/exec/run_compare.h"
#include "core/compare/numeric_run.h"
#include "views/run/run_inputs.h"

#include "views/run/run_controller.h"
#include "views/run/run_analysis.h"
#include "views/settings_writer.h"
#include "views/count_text.h"
#include "views/document.h"
#include "views/run/flame_graph_widget.h"
#include "views/graph/graph_pane.h"
#include "views/run/heatmap_overlay.h"
#include "views/run/profile_table_model.h"
#include "views/run/run_outputs_model.h"
#include "views/inspect/table_pane.h"
#include "views/run/timeline_widget.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLabel>
#include <QMainWindow>
#include <QMenuBar>
#include <QProgressBar>
#include <QScrollArea>
#include <QSettings>
#include <QShortcut>
#include <QSpinBox>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>

namespace irlens::views {

using namespace irlens::core;
using namespace irlens::core::exec;

namespace {
// Summing more elements than this for an output's stats would stall the finish; the count says so.
constexpr int64_t kMaxStatElements = int64_t(1) << 24;

RunOutput summarise(const PlanOutput& spec, const EValue& value) {
    RunOutput o;
    o.name = QString::fromStdString(spec.name);
    o.kind = QString::fromUtf8(outputKindName(spec.kind)).toLower().replace('_', ' ');
    if (!value.isTensor()) {
        o.text = QString::fromStdString(value.describe());
        return o;
    }
    const Tensor& t = value.tensor;
    o.dtype = QString::fromStdString(dtypeName(t.dtype()));
    QStringList dims;
    for (int64_t s : t.sizes()) dims << QString::number(s);
    o.shape = "[" + dims.join(", ") + "]";
    const OutputSummary sum = summarizeOutput(t, kMaxStatElements);
    o.count = sum.count;
    o.min = sum.min;
    o.max = sum.max;
    o.mean = sum.mean;
    return o;
}

QString checkText(const OutputCheck& c) {
    return c.cmp.ok ? QObject::tr("ok (max abs %1, max rel %2)").arg(c.cmp.maxAbs, 0, 'g', 3).arg(c.cmp.maxRel, 0, 'g', 3)
                    : QString::fromStdString(c.cmp.message);
}

// The profile, the outputs and the comparison of a finished run, as the snapshot the Document publishes.
// `cold` saw the first warm-up run (empty without warm-up).
std::shared_ptr<RunSnapshot> snapshotOf(const RunComparison& rc, const Profile& profile, const Profile& cold, int warmup,
                                        quint64 generation) {
    auto snap = std::make_shared<RunSnapshot>();
    snap->generation = generation;
    const RunResult& result = rc.last;
    snap->inputSource = rc.compared ? QObject::tr("model.expected/ (compared)") : QString::fromStdString(rc.inputsFrom);
    snap->runWallNs = profile.wallNs();
    if (const Profile::Queued queued = profile.queued(); queued.measured) snap->slowestRunQueuedNs = queued.slowestRunNs;
    snap->wallNs = profile.medianWallNs();
    snap->wallMinNs = *std::min_element(snap->runWallNs.begin(), snap->runWallNs.end());
    snap->wallMaxNs = *std::max_element(snap->runWallNs.begin(), snap->runWallNs.end());
    snap->warmup = warmup;
    if (cold.runs() > 0) snap->coldWallNs = cold.wallNs().front();
    snap->peakBytes = result.peakBytes;
    snap->threads = result.threads;
    const std::vector<int64_t> coldNs = cold.lastRunNs(); // empty without warm-up
    for (const auto& n : profile.nodes())
        snap->nodes.push_back({n.node, n.name, n.op, n.modulePath, n.medianNs, n.minNs, n.maxNs,
                               static_cast<size_t>(n.node) < coldNs.size() ? coldNs[static_cast<size_t>(n.node)] : -1, n.bytes, n.flops,
                               n.calls, {}});
    for (const auto& t : profile.lastRun())
        if (t.node >= 0) snap->timings.push_back({t.node, t.startNs, t.endNs, t.thread});
    for (size_t i = 0; i < result.outputs.size() && i < result.specs.size(); ++i)
        snap->outputs.push_back(summarise(result.specs[i], result.outputs[i]));
    snap->compared = rc.compared;
    snap->matches = rc.ok();
    snap->verdict = QString::fromStdString(rc.verdict());
    for (size_t k = 0; k < rc.checks.size(); ++k) {
        const OutputCheck& c = rc.checks[k];
        const bool main = k < rc.mainChecks; // the rows show the main case; extra cases only count in the verdict
        if (main && c.outputIndex >= 0 && static_cast<size_t>(c.outputIndex) < snap->outputs.size())
            snap->outputs[static_cast<size_t>(c.outputIndex)].check = checkText(c);
        snap->checks.push_back({c.caseName, c.what, main ? c.outputIndex : -1, c.cmp.ok, c.cmp.maxAbs, c.cmp.maxRel, c.cmp.message});
    }
    return snap;
}


QString msText(int64_t ns) { return QString::number(static_cast<double>(ns) / 1e6, 'f', 2); }
QString runsText(int n) { return countText(n, QStringLiteral("run"), QStringLiteral("runs")); }
} // namespace

/// State shared with the worker: progress counters, the cancel flag, and what it produced.
struct RunController::Job {
    std::atomic<int> done{0};
    std::atomic<int> total{0};
    std::atomic<int> run{0};  // which of the runs is going (0-based)
    std::atomic<int> runs{1};
    std::atomic<bool> cancel{false};
    std::shared_ptr<RunSnapshot> snapshot;
    std::shared_ptr<const NumericRun> numerics;
    QString error;
    QString numericsError; // the numeric pass failed (an unreadable reference): the timed run still shows
};

RunController::RunController(QMainWindow* window, Document* document, GraphPane* graph)
    : QObject(window), m_window(window), m_doc(document), m_graph(graph) {
    setObjectName("runController");
    m_tolerance = Tolerance{}.normRel;
    createActions();
    const Docks docks = createPanes();
    createMenus(docks);
    createRunBoxes();
    createStatusWidgets();
    connectDocument(docks[0]);
}

void RunController::createActions() {
    m_run = new QAction(tr("&Run"), this);
    m_run->setObjectName("runAction");
    m_run->setShortcut(QKeySequence(Qt::Key_F5));
    connect(m_run, &QAction::triggered, this, &RunController::run);
    updateRunAvailable();
    m_cancelAction = new QAction(tr("&Cancel run"), this);
    m_cancelAction->setEnabled(false);
    connect(m_cancelAction, &QAction::triggered, this, &RunController::cancel);
    m_heatmapAction = new QAction(tr("&Heatmap"), this);
    m_heatmapAction->setObjectName("heatmapAction");
    m_heatmapAction->setCheckable(true);
    m_heatmapAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_H));
    setHeatmapAvailable(false);
}

RunController::Docks RunController::createPanes() {
    QMainWindow* window = m_window;
    auto dock = [window](const QString& title, const QString& name, QWidget* w) {
        auto* d = new QDockWidget(title, window);
        d->setObjectName(name);
        d->setWidget(w);
        window->addDockWidget(Qt::BottomDockWidgetArea, d);
        return d;
    };
    m_profile = new ProfileTableModel(m_doc, this);
    auto* profileBox = new QWidget(window);
    auto* top = new QHBoxLayout;
    m_grouping = new QComboBox(profileBox);
    m_grouping->addItems({tr("by node"), tr("by op"), tr("by module")});
    m_summary = new QLabel(tr("Not run yet: Run › Run (F5)"), profileBox);
    m_summary->setObjectName("runSummary");
    m_summary->setWordWrap(true); // long summaries wrap instead of widening the dock
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    connect(m_summary, &QLabel::linkActivated, this, [this](const QString& link) {
        if (!link.startsWith("node:")) return;
        if (m_doc->scopes().size() > 1) m_doc->leaveSubgraph(0);
        const int node = m_doc->nodeIndexOf(link.mid(5));
        m_doc->revealNode(node);
        m_doc->selectNode(node);
    });
    top->addWidget(m_grouping);
    top->addWidget(m_summary, 1);
    m_profilePane = new TablePane(m_doc, m_profile, ProfileTableModel::LinkRole, profileBox);
    m_profilePane->proxy()->setSortRole(ProfileTableModel::SortRole);
    auto* vl = new QVBoxLayout(profileBox);
    vl->setContentsMargins(0, 0, 0, 0);
    vl->addLayout(top);
    vl->addWidget(m_profilePane, 1);
    connect(m_grouping, &QComboBox::currentIndexChanged, this,
            [this](int i) { m_profile->setGrouping(static_cast<ProfileTableModel::Grouping>(i)); });
    m_timeline = new TimelineWidget(m_doc, window);
    m_flame = new FlameGraphWidget(m_doc, window);
    auto* flameScroll = new QScrollArea(window); // deep module stacks scroll rather than squeeze
    flameScroll->setWidget(m_flame);
    flameScroll->setWidgetResizable(true);
    flameScroll->setFrameShape(QFrame::NoFrame);
    m_outputs = new RunOutputsModel(m_doc, this);
    auto* profileDock = dock(tr("Profile"), "runProfile", profileBox);
    auto* timelineDock = dock(tr("Timeline"), "runTimeline", m_timeline);
    auto* flameDock = dock(tr("Flame graph"), "runFlameGraph", flameScroll);
    auto* outputsDock = dock(tr("Outputs"), "runOutputs", new TablePane(m_doc, m_outputs, 0, window));
    // next to the panes already at the bottom, so the canvas keeps its height
    QDockWidget* neighbour = nullptr;
    for (auto* d : window->findChildren<QDockWidget*>())
        if (d != profileDock && d != timelineDock && d != flameDock && d != outputsDock && window->dockWidgetArea(d) == Qt::BottomDockWidgetArea) {
            neighbour = d;
            break;
        }
    if (neighbour) window->tabifyDockWidget(neighbour, profileDock);
    window->tabifyDockWidget(profileDock, timelineDock);
    window->tabifyDockWidget(timelineDock, flameDock);
    window->tabifyDockWidget(flameDock, outputsDock);
    // empty until a run: hidden, so the graph keeps the height (shown by the first run's result)
    for (auto* d : {profileDock, timelineDock, flameDock, outputsDock}) d->hide();
    m_docks = {profileDock, timelineDock, flameDock, outputsDock};

    m_heatmap = new HeatmapOverlay(m_doc, m_graph, this);
    connect(m_heatmapAction, &QAction::toggled, m_heatmap, &HeatmapOverlay::setEnabled);
    return {profileDock, timelineDock, flameDock, outputsDock};
}

void RunController::createMenus(const Docks& docks) {
    QMainWindow* window = m_window;
    QMenu* runMenu = new QMenu(tr("&Run"), window);
    runMenu->addAction(m_run);
    runMenu->addAction(m_cancelAction);
    runMenu->addSeparator();
    runMenu->addAction(m_heatmapAction);
    for (auto* d : docks) runMenu->addAction(d->toggleViewAction());
    QAction* before = nullptr;
    for (QAction* a : window->menuBar()->actions()) {
        if (a->text() == tr("&Help")) before = a;
        if (a->text() == tr("&View") && a->menu()) {
            a->menu()->addSeparator();
            a->menu()->addAction(m_heatmapAction);
        }
    }
    window->menuBar()->insertMenu(before, runMenu);
}

void RunController::createRunBoxes() {
    QMainWindow* window = m_window;
    // a remembered count in [lo, hi] for the next run
    auto box = [window](const QString& name, const QString& prefix, const QString& key, int lo, int hi, int fallback, const QString& tip) {
        auto* b = new QSpinBox(window);
        b->setObjectName(name);
        b->setRange(lo, hi);
        b->setPrefix(prefix);
        b->setToolTip(tip);
        b->setValue(std::clamp(QSettings().value(key, fallback).toInt(), lo, hi));
        QObject::connect(b, &QSpinBox::valueChanged, [key](int n) { writeSettingLater(key, n); });
        return b;
    };
    // worker threads: 1 .. the hardware's; the engine's default is every core
    m_threads = box("runThreads", tr("threads "), "run/threads", 1, Engine::hardwareThreads(), Engine::hardwareThreads(),
                    tr("Worker threads for the next run (1 = serial; default: every hardware thread)"));
    m_warmup = box("runWarmup", tr("warm-up "), "run/warmup", 0, 100, 2,
                   tr("Runs before the measured ones. The first run of all is the cold start (one-time setup such as "
                      "primitive creation): the Profile shows it in its own column"));
    m_repeat = box("runRepeat", tr("runs "), "run/repeat", 1, 1000, 20,
                   tr("Measured runs: the Profile shows each node's median over them, with the fastest and slowest"));
    if (auto* tb = window->findChild<QToolBar*>("mainToolbar")) {
        tb->addSeparator();
        tb->addAction(m_run);
        tb->addWidget(m_threads);
        tb->addWidget(m_warmup);
        tb->addWidget(m_repeat);
        tb->addAction(m_heatmapAction);
    }
}

// Status bar: node progress and a cancel button while a run is going.
void RunController::createStatusWidgets() {
    QMainWindow* window = m_window;
    m_progress = new QProgressBar(window);
    m_progress->setMaximumWidth(160);
    m_progress->setFormat(tr("%v / %m nodes"));
    m_progress->setVisible(false);
    m_cancelButton = new QToolButton(window);
    m_cancelButton->setText(tr("Cancel run"));
    m_cancelButton->setVisible(false);
    connect(m_cancelButton, &QToolButton::clicked, this, &RunController::cancel);
    window->statusBar()->addPermanentWidget(m_progress);
    window->statusBar()->addPermanentWidget(m_cancelButton);
    // Esc is the window's cancel key; a second shortcut on it would be ambiguous, so listen to that one
    for (auto* s : window->findChildren<QShortcut*>())
        if (s->key() == QKeySequence(Qt::Key_Escape)) connect(s, &QShortcut::activated, this, [this] { if (m_running) cancel(); });
    m_poll = new QTimer(this);
    m_poll->setInterval(50);
    connect(m_poll, &QTimer::timeout, this, [this] {
        if (!m_job) return;
        m_progress->setRange(0, std::max(1, m_job->total.load()));
        m_progress->setValue(m_job->done.load());
        m_progress->setFormat(m_job->runs > 1 ? tr("run %1 of %2").arg(m_job->run + 1).arg(m_job->runs.load()) : tr("%v / %m nodes"));
    });
}

void RunController::revealDocks() {
    if (!m_doc->runResult()) return;
    m_docksRevealed = true;
    for (auto* d : m_docks) d->show();
    m_docks[0]->raise();
}

void RunController::connectDocument(QDockWidget* profileDock) {
    // a new program makes the last run stale
    connect(m_doc, &Document::programChanged, this, [this] {
        if (m_running) cancel();
        ++m_generation;
        if (m_doc->runResult()) m_doc->setRunResult(nullptr);
        m_summary->setText(m_doc->program() ? tr("Not run yet: Run › Run (F5)") : tr("No program: open one to run it"));
        updateRunAvailable();
    });
    connect(m_doc, &Document::runFinished, this, [this, profileDock](RunSnapshotPtr r) {
        setHeatmapAvailable(r != nullptr);
        if (!r) return;
        if (!m_docksRevealed) revealDocks();
        profileDock->raise(); // the table is what a user reads first after a run
        for (int c = 0; c < 2; ++c) m_profilePane->view()->resizeColumnToContents(c);
        QString summary = tr("%1 ms median [%2–%3] of %4 · %5 nodes · %6 threads · peak %7 MiB of activations + workspace (weights not counted) · inputs: %8")
                              .arg(msText(r->wallNs), msText(r->wallMinNs), msText(r->wallMaxNs), runsText(r->runs()))
                              .arg(r->nodes.size())
                              .arg(r->threads)
                              .arg(static_cast<double>(r->peakBytes) / (1024.0 * 1024.0), 0, 'f', 1)
                              .arg(r->inputSource);
        if (r->coldWallNs >= 0) {
            const QString cold = msText(r->coldWallNs);
            summary += r->warmup == 1 ? tr(" · cold start %1 ms (the warm-up run)").arg(cold)
                                      : tr(" · cold start %1 ms (the first of %2 warm-up runs)").arg(cold).arg(r->warmup);
        }
        if (r->slowestRunQueuedNs >= 0) // how much of the slowest run other processes took
            summary += tr(" · slowest run: %1 ms waiting for cores other tasks held").arg(msText(r->slowestRunQueuedNs));
        if (r->compared) summary += " · " + r->verdict; // outputs and mutated buffers against model.expected/
        m_summary->setText(summary.toHtmlEscaped() + numericsSummary());
    });
}

// Without a program there is nothing to run: the action is off and its tooltip says why.
void RunController::updateRunAvailable() {
    const bool available = m_doc->program() != nullptr;
    m_run->setEnabled(available);
    m_run->setToolTip(available ? tr("Run the program on the CPU engine and profile every node (F5)")
                                : tr("Run: open a program first (File › Open, or the example), then run it on the CPU engine (F5)"));
}

// Before a run there is nothing to colour: the action says so instead of doing nothing. Its checked
// state stays, so a heatmap asked for before the run appears when it ends.
void RunController::setHeatmapAvailable(bool available) {
    m_heatmapAction->setEnabled(available);
    m_heatmapAction->setToolTip(available ? tr("Colour nodes by their share of the run time (Ctrl+H)")
                                          : tr("Heatmap: run the program first (Run › Run, F5), then colour nodes by their share of the run time"));
}

RunController::~RunController() {
    if (m_job) m_job->cancel = true;
}

void RunController::setReference(const QString& path, double tolerance) {
    m_reference = path;
    m_tolerance = tolerance;
}

// The numeric pass's findings for the summary line, as rich text: the node that makes the first NaN
// or infinity (a link that selects it), the reference's verdict.
QString RunController::numericsSummary() const {
    if (!m_numericsError.isEmpty()) return " · " + tr("values not compared: %1").arg(m_numericsError).toHtmlEscaped();
    const auto numerics = m_doc->numerics();
    ProgramPtr program = m_doc->program();
    if (!numerics || !program) return {};
    QString out;
    const NonFiniteOrigin& nf = numerics->nonFinite;
    if (nf.first() >= 0) {
        const ValueRecord& v = numerics->values[static_cast<size_t>(nf.first())];
        const QString what = v.finite.nan > 0 ? tr("NaN") : tr("infinity");
        const QString node = QString::fromStdString(program->graph.nodes[static_cast<size_t>(v.node)].name);
        out += " · <b>" + tr("first %1 made by").arg(what) + QStringLiteral(" <a href=\"node:%1\">%2</a></b> (%3)")
                                                        .arg(node.toHtmlEscaped(), QString::fromStdString(v.name).toHtmlEscaped(),
                                                             QString::fromStdString(describeNode(*program, v.node)).toHtmlEscaped());
    } else if (!nf.nonFiniteInputs.empty()) {
        out += " · " + tr("NaN or infinity in the inputs: %1").arg(QString::fromStdString(nf.nonFiniteInputs.front())).toHtmlEscaped();
    }
    if (numerics->compared) {
        out += " · " + tr("values against %1: ").arg(QFileInfo(QString::fromStdString(numerics->referencePath)).fileName()).toHtmlEscaped();
        if (numerics->firstDivergent >= 0) {
            const ValueRecord& v = numerics->values[static_cast<size_t>(numerics->firstDivergent)];
            const QString node = QString::fromStdString(program->graph.nodes[static_cast<size_t>(v.node)].name);
            out += tr("first divergence at") + QStringLiteral(" <a href=\"node:%1\">%2</a>")
                                                   .arg(node.toHtmlEscaped(), QString::fromStdString(v.name).toHtmlEscaped());
        } else {
            out += tr("all %1 compared values agree").arg(numerics->count(ValueCheck::Agree));
        }
    }
    return out;
}

void RunController::setRunning(bool running) {
    m_running = running;
    m_progress->setVisible(running);
    m_cancelButton->setVisible(running);
    m_cancelAction->setEnabled(running);
    if (running) m_poll->start();
    else m_poll->stop();
    Q_EMIT runningChanged(running);
}

void RunController::run() {
    ProgramPtr program = m_doc->program();
    if (!program) return;
    if (m_job) m_job->cancel = true;
    const quint64 generation = ++m_generation;
    auto job = std::make_shared<Job>();
    job->total = static_cast<int>(program->graph.nodes.size());
    m_job = job;
    setRunning(true);
    m_window->statusBar()->showMessage(tr("Running…"));
    auto* watcher = new QFutureWatcher<void>(this);
    connect(watcher, &QFutureWatcher<void>::finished, this, [this, watcher, generation, job] {
        watcher->deleteLater();
        finish(generation, job);
    });
    // the chosen inputs, else model.expected/ beside the file (its outputs the reference)
    const InputRequest request = runInputRequest(*m_doc);
    NumericRunOptions numeric;
    numeric.inputs = request;
    numeric.reference = m_reference.toStdString();
    numeric.tolerance.normRel = m_tolerance;
    numeric.statsBins = kValueStatsBins;
    numeric.cancel = &job->cancel;
    const int threads = m_threads->value();
    const int warmup = m_warmup->value();
    const int repeat = m_repeat->value();
    job->runs = warmup + repeat;
    watcher->setFuture(QtConcurrent::run(Document::workerPool(), [program, job, generation, request, numeric, threads, warmup, repeat]() mutable {
        auto plan = ExecutionPlan::compile(program);
        if (!plan) {
            job->error = QString::fromStdString(plan.status().message());
            return;
        }
        Profile profile, cold;
        RunCompareOptions options;
        options.inputs = request;
        options.run.threads = threads;
        options.run.observer = &profile;
        options.run.cancel = &job->cancel;
        auto progress = [job](int done, int total) {
            job->done = done;
            job->total = total;
        };
        options.run.progress = progress;
        options.warmup = warmup;
        options.repeat = repeat;
        options.coldObserver = &cold;
        options.onRun = [job](int run, int) { job->run = run; };
        auto result = runAndCompare(*plan, options);
        if (!result) {
            job->error = QString::fromStdString(result.status().message());
            return;
        }
        job->snapshot = snapshotOf(*result, profile, cold, warmup, generation);
        // nodes folded into another's kernel run in next to no time: the panes say where their work went
        const PlanGraph& planned = (*plan)->graph();
        for (RunNode& n : job->snapshot->nodes)
            if (const int into = planned.nodes[static_cast<size_t>(n.node)].fusedInto; into >= 0)
                n.fusedInto = planned.nodes[static_cast<size_t>(into)].node->name;
        job->snapshot->analysis = analyseRun(*plan, std::move(profile)); // the profile is not read after this
        // once more node by node (one thread, no fusion): every value's statistics, where a NaN or an
        // infinity is made, and the comparison with reference values when there are some
        numeric.progress = progress;
        auto values = runNumerics(program, numeric);
        if (values) job->numerics = std::make_shared<const NumericRun>(std::move(*values));
        else job->numericsError = QString::fromStdString(values.status().message());
    }));
}

void RunController::cancel() {
    if (!m_job) return;
    m_job->cancel = true;
    ++m_generation; // whatever it still delivers is stale
    m_job.reset();
    setRunning(false);
    m_window->statusBar()->showMessage(tr("Run cancelled"), 5000);
}

void RunController::finish(quint64 generation, std::shared_ptr<Job> job) {
    if (generation != m_generation) return; // superseded or cancelled
    m_job.reset();
    setRunning(false);
    if (!job->snapshot) {
        const QString message = job->error.isEmpty() ? tr("the run produced nothing") : job->error;
        m_window->statusBar()->showMessage(tr("Run failed: %1").arg(message), 15000);
        m_summary->setText(tr("Run failed: %1").arg(message).toHtmlEscaped());
        Q_EMIT runFailed(message);
        return;
    }
    m_window->statusBar()->showMessage(tr("Run finished: %1 ms median of %2").arg(msText(job->snapshot->wallNs), runsText(job->snapshot->runs())), 8000);
    m_numericsError = job->numericsError;
    m_doc->setNumerics(job->numerics);
    m_doc->setRunResult(std::move(job->snapshot));
    if (!m_numericsError.isEmpty()) {
        m_window->statusBar()->showMessage(tr("Values not compared: %1").arg(m_numericsError), 15000);
        Q_EMIT numericsFailed(m_numericsError);
    }
}

} // namespace irlens::views
