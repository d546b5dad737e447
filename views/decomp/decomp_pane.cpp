#include "views/decomp/decomp_pane.h"

#include "core/io/pt2_writer.h"
#include "core/ops/op_registry.h"
#include "views/decomp/decomp_models.h"
#include "views/decomp/decomp_new_marker.h"
#include "views/document.h"
#include "views/graph/graph_items.h"

#include <QButtonGroup>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTextBrowser>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <set>

namespace irlens::views {

using namespace irlens::core;

namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }
const IrLevel kLevels[] = {IrLevel::Training, IrLevel::CoreAten, IrLevel::Prims};
int levelRank(IrLevel l) { return l == IrLevel::Training ? 0 : l == IrLevel::CoreAten ? 1 : 2; }
} // namespace

DecompPane::DecompPane(Document* document, QWidget* parent)
    : QWidget(parent), m_doc(document), m_ops(new DecompOpsModel(this)), m_history(new DecompHistoryModel(this)) {
    setObjectName("decompPane");
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    buildLevelRow(layout);
    buildButtons(layout);
    buildViews(layout);
    buildProgressRow(layout);
    buildLegend(layout);
    connectSelection();
    connect(&m_watcher, &QFutureWatcher<DecompOutcome>::finished, this, &DecompPane::onStepDone);
    connect(m_doc, &Document::programChanged, this, &DecompPane::onProgramChanged);
    onProgramChanged();
}

void DecompPane::buildLevelRow(QVBoxLayout* layout) {
    // the level control: three exclusive steps; clicking a lower one undoes back to it
    auto* levelRow = new QHBoxLayout;
    levelRow->addWidget(new QLabel(tr("IR level:"), this));
    m_levels = new QButtonGroup(this);
    m_levels->setExclusive(true);
    const QString names[] = {tr("Training"), tr("Core ATen"), tr("Prims")};
    for (int i = 0; i < 3; ++i) {
        if (i > 0) levelRow->addWidget(new QLabel(QStringLiteral("→"), this));
        auto* b = new QToolButton(this);
        b->setText(names[i]);
        b->setCheckable(true);
        b->setAutoRaise(false);
        b->setToolButtonStyle(Qt::ToolButtonTextOnly);
        b->setToolTip(tr("Decompose everything down to this level (or undo back to it)"));
        m_levels->addButton(b, i);
        levelRow->addWidget(b);
    }
    levelRow->addStretch(1);
    layout->addLayout(levelRow);
    connect(m_levels, &QButtonGroup::idClicked, this, [this](int id) {
        const IrLevel target = kLevels[id];
        const IrLevel now = currentLevel();
        if (levelRank(target) > levelRank(now)) {
            stepToLevel(target);
        } else {
            while (!m_busy && m_session && m_session->canUndo() && levelRank(currentLevel()) > levelRank(target)) undo();
            refresh();
        }
    });

}

void DecompPane::buildButtons(QVBoxLayout* layout) {
    auto* buttons = new QHBoxLayout;
    auto button = [&](const QString& text, const QString& tip) {
        auto* b = new QPushButton(text, this);
        b->setToolTip(tip);
        buttons->addWidget(b);
        return b;
    };
    m_step = button(tr("Step"), tr("Decompose the selected node (one rule application)"));
    m_stepOp = button(tr("Step op"), tr("Decompose every node of the selected op"));
    m_stepAll = button(tr("Step all"), tr("Decompose everything to the next level"));
    m_undo = button(tr("Undo"), tr("Back to the program before the last step"));
    m_redo = button(tr("Redo"), tr("Re-apply the step undone last"));
    m_compareButton = button(tr("Compare…"), tr("Before / after side by side: the selected new node and the node it "
                                                "replaced, else the step selected in the history (or double-click it)"));
    buttons->addStretch(1);
    layout->addLayout(buttons);
    connect(m_step, &QPushButton::clicked, this, [this] { stepSelectedNode(); });
    connect(m_stepOp, &QPushButton::clicked, this, [this] { stepSelectedOp(); });
    connect(m_stepAll, &QPushButton::clicked, this, [this] { stepAll(); });
    connect(m_undo, &QPushButton::clicked, this, [this] { undo(); });
    connect(m_redo, &QPushButton::clicked, this, [this] { redo(); });
    connect(m_compareButton, &QPushButton::clicked, this, [this] { compareSelection(); });

}

void DecompPane::buildViews(QVBoxLayout* layout) {
    auto* split = new QSplitter(Qt::Vertical, this);
    m_opsView = new QTreeView(split);
    m_opsView->setModel(m_ops);
    m_opsView->setUniformRowHeights(true);
    m_opsView->setAlternatingRowColors(true);
    m_opsView->header()->setStretchLastSection(true);
    m_historyView = new QTreeView(split);
    m_historyView->setModel(m_history);
    m_historyView->setRootIsDecorated(false);
    m_historyView->setUniformRowHeights(true);
    m_teaching = new QTextBrowser(split);
    m_teaching->setPlaceholderText(tr("The rule of the selected op or step: what it does and which reference it follows"));
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setStretchFactor(2, 2);
    layout->addWidget(split, 1);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_status);
}

void DecompPane::buildProgressRow(QVBoxLayout* layout) {
    // a running step: nodes looked at / total, and Cancel (the program stays as before the step)
    auto* progressRow = new QHBoxLayout;
    m_progress = new QProgressBar(this);
    m_progress->setObjectName("decompProgress");
    m_progress->setTextVisible(true);
    m_progress->setVisible(false);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setObjectName("decompCancel");
    m_cancel->setToolTip(tr("Stop the running step; the program stays as it was before it"));
    m_cancel->setVisible(false);
    progressRow->addWidget(m_progress, 1);
    progressRow->addWidget(m_cancel);
    layout->addLayout(progressRow);
    connect(m_cancel, &QPushButton::clicked, this, [this] { cancelStep(); });
    m_progressTimer.setInterval(50);
    connect(&m_progressTimer, &QTimer::timeout, this, &DecompPane::showProgress);
}

void DecompPane::buildLegend(QVBoxLayout* layout) {
    // legend of the graph marks this pane adds
    auto* legend = new QLabel(this);
    legend->setObjectName("decompLegend");
    legend->setTextFormat(Qt::RichText);
    legend->setText(tr("<span style='color:%1'>&#9632;</span> <b>new</b>: made by the last step "
                       "(hover a node for its step and rule)")
                        .arg(newNodeColor().name()));
    layout->addWidget(legend);

}

void DecompPane::connectSelection() {
    // a node row selects the node in the graph; any row shows its rule's text
    connect(m_opsView->selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex& idx) {
        if (!idx.isValid()) return;
        m_teaching->setPlainText(idx.data(Qt::ToolTipRole).toString());
        const QString node = idx.data(DecompOpsModel::NodeNameRole).toString();
        if (!node.isEmpty()) m_doc->selectNodeByName(node);
    });
    connect(m_historyView->selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex& idx) {
        if (idx.isValid()) m_teaching->setPlainText(idx.data(DecompHistoryModel::TeachingRole).toString());
    });
    connect(m_historyView, &QTreeView::doubleClicked, this, [this](const QModelIndex& idx) { compareStep(idx.row()); });
    // with the before / after window open, selecting a new node in the graph shows where it came from
    connect(m_doc, &Document::selectionChanged, this, [this](int k) {
        const Graph* g = m_doc->graph();
        if (!m_compareWindow || !m_compareWindow->isVisible() || m_busy || !g || k < 0 || k >= int(g->nodes.size())) return;
        if (!g->nodes[size_t(k)].derivedFrom.empty()) compareNode(qs(g->nodes[size_t(k)].name));
    });
}

DecompPane::~DecompPane() {
    // the worker uses the session: let it finish before the session goes
    m_watcher.waitForFinished();
}

IrLevel DecompPane::currentLevel() const {
    if (!m_session) return IrLevel::Training;
    if (m_watcher.isRunning()) return m_level; // the worker owns the session until it finishes
    const ProgramPtr p = m_session->current();
    if (p == m_levelOf) return m_level;
    auto any = [&](DecompStage st) {
        for (const auto& n : p->graph.nodes)
            if (findRule(n, st)) return true;
        return false;
    };
    // a program still in the training dialect with no training op left is core ATen already
    m_level = any(DecompStage::ToCore) ? IrLevel::Training : any(DecompStage::ToPrims) ? IrLevel::CoreAten : IrLevel::Prims;
    m_levelOf = p;
    return m_level;
}

DecompStage DecompPane::stage() const {
    return currentLevel() == IrLevel::Training ? DecompStage::ToCore : DecompStage::ToPrims;
}

void DecompPane::onProgramChanged() {
    ProgramPtr p = m_doc->program();
    if (p == m_shown) return; // our own step put it there
    if (m_watcher.isRunning()) { // the worker uses the session: swap it once the step is back
        m_stale = true;
        return;
    }
    m_shown = p;
    m_session.reset();
    m_newNodes.clear();
    m_modified = false;
    m_lastMessage.clear();
    m_baseTitle = m_doc->title();
    if (p) {
        DecompSessionOptions o;
        o.numericCheck = true; // runs only when the archive has sample inputs; otherwise the note says why
        m_session = std::make_unique<DecompSession>(p, o);
    }
    m_teaching->clear();
    refresh();
}

void DecompPane::refresh() {
    const bool have = m_session != nullptr;
    const IrLevel level = currentLevel();
    const DecompStage st = stage();
    if (have && m_watcher.isRunning()) {
        // the worker owns the session: keep the lists as they are until it finishes
    } else if (have) {
        m_ops->setEntries(level == IrLevel::Prims ? std::vector<DecompCandidate>{} : m_session->candidates(st),
                          m_session->blocked(st));
        m_history->setSteps(m_session->history());
    } else {
        m_ops->setEntries({}, {});
        m_history->setSteps({});
    }
    m_opsView->expandToDepth(-1);
    for (int c = 0; c < DecompOpsModel::ColRule; ++c) m_opsView->resizeColumnToContents(c);
    for (int c = 0; c < DecompHistoryModel::ColumnCount - 1; ++c) m_historyView->resizeColumnToContents(c);
    if (m_history->rowCount() > 0) {
        const QModelIndex last = m_history->index(m_history->rowCount() - 1, 0);
        m_historyView->setCurrentIndex(last);
        m_historyView->scrollTo(last);
    }
    if (auto* b = m_levels->button(levelRank(level))) b->setChecked(true);
    for (auto* b : m_levels->buttons()) b->setEnabled(have && !m_busy);
    const bool canStep = have && !m_busy && m_ops->candidateCount() > 0;
    m_step->setEnabled(canStep);
    m_stepOp->setEnabled(canStep);
    m_stepAll->setEnabled(canStep);
    m_stepAll->setText(level == IrLevel::Training ? tr("Step all → Core ATen") : tr("Step all → Prims"));
    m_undo->setEnabled(have && !m_busy && m_session->canUndo());
    m_redo->setEnabled(have && !m_busy && m_session->canRedo());
    m_compareButton->setEnabled(have && !m_busy && m_session->position() > 0);
    m_status->setText(statusText());
}

QString DecompPane::statusText() const {
    if (!m_session) return tr("No program");
    if (m_busy) return tr("Decomposing…");
    QString s = tr("%1 · %2 nodes can be stepped (%3)")
                    .arg(QString::fromUtf8(irLevelName(currentLevel())))
                    .arg(m_ops->candidateCount())
                    .arg(QString::fromUtf8(decompStageName(stage())));
    if (currentLevel() == IrLevel::Prims) s = tr("prims · nothing left to decompose");
    if (!m_lastMessage.isEmpty()) s += QStringLiteral("\n") + m_lastMessage;
    return s;
}

void DecompPane::setBusy(bool busy) {
    m_busy = busy;
    refresh();
}

void DecompPane::attachGraph(GraphScene* scene) {
    if (scene) new DecompNewNodeMarker(this, scene, this);
}

bool DecompPane::cancelStep() {
    if (!m_busy || !m_progressState) return false;
    m_progressState->cancel = true;
    m_cancel->setEnabled(false);
    m_progress->setFormat(tr("cancelling…"));
    return true;
}

void DecompPane::showProgress() {
    if (!m_progressState || m_progressState->cancel) return;
    const auto phase = static_cast<DecompProgress::Phase>(m_progressState->phase.load());
    const size_t total = m_progressState->total, done = m_progressState->done;
    if (phase == DecompProgress::Phase::Rewrite && total > 0) {
        m_progress->setRange(0, static_cast<int>(std::min<size_t>(total, 1u << 30)));
        m_progress->setValue(static_cast<int>(std::min(done, total)));
        m_progress->setFormat(tr("rewriting: %v / %m nodes"));
    } else {
        // re-checks report no steps of their own: a full bar that says which one runs (a busy
        // indicator would hide the text)
        const int n = static_cast<int>(std::min<size_t>(m_progressState->rewriteTotal, 1u << 30));
        m_progress->setRange(0, std::max(n, 1));
        m_progress->setValue(std::max(n, 1));
        m_progress->setFormat(tr("%m nodes rewritten · %1…").arg(QString::fromUtf8(decompPhaseName(phase))));
    }
}

bool DecompPane::runStep(std::function<Result<const DecompStep*>(DecompSession&)> work) {
    if (!m_session || m_busy) return false;
    auto state = std::make_shared<DecompProgressState>();
    m_progressState = state;
    m_session->setProgress([state](const DecompProgress& p) {
        state->phase = static_cast<int>(p.phase);
        if (p.phase == DecompProgress::Phase::Rewrite) state->rewriteTotal = p.total;
        state->total = p.total;
        state->done = p.done;
        return !state->cancel.load();
    });
    m_progress->setRange(0, 0);
    m_progress->setFormat(tr("starting…"));
    m_progress->setVisible(true);
    m_cancel->setEnabled(true);
    m_cancel->setVisible(true);
    m_progressTimer.start();
    m_startPosition = m_session->position();
    m_pendingSelection.clear();
    if (const Graph* g = m_doc->graph(); g && m_doc->selectedNode() >= 0 &&
                                         m_doc->selectedNode() < static_cast<int>(g->nodes.size()))
        m_pendingSelection = qs(g->nodes[static_cast<size_t>(m_doc->selectedNode())].name);
    setBusy(true);
    DecompSession* session = m_session.get();
    m_watcher.setFuture(QtConcurrent::run(Document::workerPool(), [session, work] {
        DecompOutcome out;
        auto r = work(*session);
        if (r) out.step = *r;
        else out.error = QString::fromStdString(r.error());
        return out;
    }));
    return true;
}

void DecompPane::onStepDone() {
    const DecompOutcome out = m_watcher.result();
    m_progressTimer.stop();
    m_progress->setVisible(false);
    m_cancel->setVisible(false);
    m_session->setProgress({});
    if (!out.step || !out.error.isEmpty() || m_stale) m_busy = false; // else: after the deferred refresh
    if (m_stale) {
        // another program arrived meanwhile: this result belongs to the old one
        m_stale = false;
        m_shown.reset();
        onProgramChanged();
        emit stepFinished(false);
        return;
    }
    if (DecompSession::isCancelled(out.error.toStdString())) {
        // "to prims" is two steps: a cancel in the second drops the first as well
        while (m_session->position() > m_startPosition && m_session->canUndo()) (void)m_session->undo();
        m_lastMessage = tr("Cancelled: the program is as it was before the step");
        refresh();
        emit stepFinished(false);
        return;
    }
    if (!out.error.isEmpty()) {
        m_lastMessage = tr("Step failed: %1").arg(out.error);
        refresh();
        emit stepFinished(false);
        return;
    }
    m_lastMessage = out.step ? tr("Last step: %1 nodes replaced, %2 → %3 nodes, %4 ms")
                                   .arg(out.step->applied.size())
                                   .arg(out.step->nodesBefore)
                                   .arg(out.step->nodesAfter)
                                   .arg(out.step->millis, 0, 'f', 1)
                             : QString();
    if (out.step && out.step->flagged()) m_lastMessage += tr(" · numeric check ABOVE tolerance");
    applyCurrent(m_startPosition, true);
}

void DecompPane::applyCurrent(size_t fromPosition, bool deferRefresh) {
    const size_t to = m_session->position();
    const auto steps = m_session->history(); // up to the current position
    QString selected = m_pendingSelection;
    m_newNodes.clear();
    m_newNodeRules.clear();
    m_newNodesStep = 0;
    if (to > fromPosition) {
        // forward: follow each step's old -> new map; the last node of a replacement carries its value
        for (size_t i = fromPosition; i < to && i < steps.size(); ++i) {
            const auto map = steps[i]->oldToNew();
            if (auto it = map.find(selected.toStdString()); it != map.end() && !it->second.empty())
                selected = qs(it->second.back());
        }
        if (to > 0 && to - 1 < steps.size()) {
            m_newNodesStep = static_cast<int>(to);
            for (const auto& a : steps[to - 1]->applied)
                for (const auto& n : a.newNodes) {
                    m_newNodes << qs(n);
                    m_newNodeRules.insert(qs(n), a.rule ? qs(a.rule->title + " [" + a.rule->reference + "]") : QString());
                }
        }
    } else if (to < fromPosition) {
        // backward (undo): a node made by an undone step selects the node it replaced
        // (only when the node is not in the program before that step: older steps' nodes stay)
        auto has = [](const Program& p, const std::string& name) {
            for (const auto& n : p.graph.nodes)
                if (n.name == name) return true;
            return false;
        };
        for (size_t i = fromPosition; i > to; --i) {
            const std::string name = selected.toStdString();
            if (has(*m_session->snapshot(i - 1), name)) continue;
            for (const auto& n : m_session->snapshot(i)->graph.nodes)
                if (n.name == name && !n.derivedFrom.empty()) selected = qs(n.derivedFrom);
        }
    }
    m_shown = m_session->current();
    m_modified = m_session->position() > 0;
    const QString title = m_session->position() == 0
                              ? m_baseTitle
                              : tr("%1 (%2)").arg(m_baseTitle, QString::fromUtf8(irLevelName(currentLevel())));
    m_doc->setProgram(m_shown, title);
    if (!selected.isEmpty()) m_doc->selectNodeByName(selected);
    // new nodes get their own mark (DecompNewNodeMarker), not the search-hit outline
    emit newNodesChanged();
    if (deferRefresh) {
        // after a worker step on a big graph, the Document's swap and the lists' rebuild each take
        // tens of milliseconds: give the event loop a turn between them
        QTimer::singleShot(0, this, [this] {
            m_busy = false;
            refresh();
            emit stepFinished(true);
        });
        return;
    }
    refresh();
}

bool DecompPane::stepSelectedNode() {
    QString node = m_opsView->currentIndex().data(DecompOpsModel::NodeNameRole).toString();
    if (node.isEmpty()) {
        const Graph* g = m_doc->graph();
        const int k = m_doc->selectedNode();
        if (g && k >= 0 && k < static_cast<int>(g->nodes.size())) node = qs(g->nodes[static_cast<size_t>(k)].name);
    }
    if (node.isEmpty()) {
        m_lastMessage = tr("Select a node (in the graph or the list) to step it");
        refresh();
        return false;
    }
    const DecompStage st = stage();
    return runStep([n = node.toStdString(), st](DecompSession& s) { return s.stepNode(n, st); });
}

bool DecompPane::stepOp(const QString& target) {
    if (target.isEmpty()) return false;
    const DecompStage st = stage();
    return runStep([t = target.toStdString(), st](DecompSession& s) { return s.stepOp(t, st); });
}

bool DecompPane::stepSelectedOp() {
    QString target = m_opsView->currentIndex().data(DecompOpsModel::TargetRole).toString();
    if (target.isEmpty()) {
        const Graph* g = m_doc->graph();
        const int k = m_doc->selectedNode();
        if (g && k >= 0 && k < static_cast<int>(g->nodes.size()))
            target = qs(g->nodes[static_cast<size_t>(k)].target.shortName());
    }
    if (target.isEmpty()) {
        m_lastMessage = tr("Select an op in the list (or a node of it in the graph) to step every node of it");
        refresh();
        return false;
    }
    return stepOp(target);
}

bool DecompPane::stepAll() {
    if (!m_session || currentLevel() == IrLevel::Prims) return false;
    const DecompStage st = stage();
    return runStep([st](DecompSession& s) { return s.stepAll(st); });
}

bool DecompPane::stepToLevel(IrLevel level) {
    if (!m_session || levelRank(level) <= levelRank(currentLevel())) return false;
    return runStep([level](DecompSession& s) { return s.stepToLevel(level); });
}

bool DecompPane::undo() {
    if (!m_session || m_busy || !m_session->canUndo()) return false;
    const size_t from = m_session->position();
    m_pendingSelection = m_doc->selectedNode() >= 0 && m_doc->graph()
                             ? qs(m_doc->graph()->nodes[static_cast<size_t>(m_doc->selectedNode())].name)
                             : QString();
    if (auto s = m_session->undo(); !s) {
        m_lastMessage = tr("Undo failed: %1").arg(qs(s.message()));
        refresh();
        return false;
    }
    m_lastMessage = tr("Undone");
    applyCurrent(from);
    return true;
}

bool DecompPane::redo() {
    if (!m_session || m_busy || !m_session->canRedo()) return false;
    const size_t from = m_session->position();
    m_pendingSelection = m_doc->selectedNode() >= 0 && m_doc->graph()
                             ? qs(m_doc->graph()->nodes[static_cast<size_t>(m_doc->selectedNode())].name)
                             : QString();
    if (auto s = m_session->redo(); !s) {
        m_lastMessage = tr("Redo failed: %1").arg(qs(s.message()));
        refresh();
        return false;
    }
    m_lastMessage = tr("Redone");
    applyCurrent(from);
    return true;
}

QString DecompPane::saveAs(const QString& path) {
    const ProgramPtr p = m_doc->program();
    if (!p) return tr("There is no program to save");
    if (auto s = savePt2(*p, path.toStdString()); !s) return qs(s.message());
    m_modified = false;
    m_lastMessage = tr("Saved %1").arg(path);
    refresh();
    return {};
}

bool DecompPane::confirmClose(QWidget* parent) {
    if (!m_modified) return true;
    const auto answer = QMessageBox::question(parent, tr("Unsaved decomposition"),
                                              tr("The program on screen was decomposed and not saved. Save it?"),
                                              QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel,
                                              QMessageBox::Save);
    if (answer == QMessageBox::Cancel) return false;
    if (answer == QMessageBox::Discard) return true;
    const QString path = QFileDialog::getSaveFileName(parent, tr("Save the decomposed program"), m_baseTitle,
                                                      tr("Exported programs (*.pt2)"));
    if (path.isEmpty()) return false;
    if (const QString err = saveAs(path); !err.isEmpty()) {
        QMessageBox::warning(parent, tr("Could not save"), err);
        return false;
    }
    return true;
}

} // namespace irlens::views
