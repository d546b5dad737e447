#include "views/decomp/decomp_pane.h"

#include "views/column_fit.h"
#include "views/qstring_util.h"

#include "views/count_text.h"
#include "views/decomp/decomp_models.h"
#include "views/decomp/decomposition.h"
#include "views/document.h"
#include "views/graph/graph_items.h"

#include <QButtonGroup>
#include <QFileDialog>
#include <QGridLayout>
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

#include <algorithm>

namespace irlens::views {

using namespace irlens::core;

namespace {
const IrLevel kLevels[] = {IrLevel::Training, IrLevel::CoreAten, IrLevel::Prims};
} // namespace

DecompPane::DecompPane(Document* document, QWidget* parent)
    : QWidget(parent), m_doc(document), m_decomp(document->decomposition()), m_ops(new DecompOpsModel(this)),
      m_history(new DecompHistoryModel(this)) {
    setObjectName("decompPane");
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    buildLevelRow(layout);
    buildButtons(layout);
    buildLists(layout);
    buildProgressRow(layout);
    connectLists();
    connect(m_decomp, &Decomposition::sessionReset, m_teaching, &QTextBrowser::clear);
    connect(m_decomp, &Decomposition::changed, this, &DecompPane::refresh);
    connect(m_decomp, &Decomposition::stepStarted, this, &DecompPane::onStepStarted);
    connect(m_decomp, &Decomposition::stepReturned, this, &DecompPane::onStepReturned);
    refresh();
}

// The level control: three exclusive steps; clicking a lower one undoes back to it.
void DecompPane::buildLevelRow(QVBoxLayout* layout) {
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
    connect(m_levels, &QButtonGroup::idClicked, this, [this](int id) { m_decomp->goToLevel(kLevels[id]); });
}

void DecompPane::buildButtons(QVBoxLayout* layout) {
    // two rows of three: one row of six set the right dock's minimum width to about 570 px
    auto* buttons = new QGridLayout;
    int placed = 0;
    auto button = [&](const QString& text, const QString& tip) {
        auto* b = new QPushButton(text, this);
        b->setToolTip(tip);
        buttons->addWidget(b, placed / 3, placed % 3);
        ++placed;
        return b;
    };
    m_step = button(tr("Step"), tr("Decompose the selected node (one rule application)"));
    m_stepOp = button(tr("Step op"), tr("Decompose every node of the selected op"));
    m_stepAll = button(tr("Step all"), tr("Decompose everything to the next level"));
    m_undo = button(tr("Undo"), tr("Back to the program before the last step"));
    m_redo = button(tr("Redo"), tr("Re-apply the step undone last"));
    m_compareButton = button(tr("Compare…"), tr("Before / after side by side: the selected new node and the node it "
                                                "replaced, else the step selected in the history (or double-click it)"));
    buttons->setColumnStretch(3, 1);
    layout->addLayout(buttons);
    connect(m_step, &QPushButton::clicked, this, [this] { stepSelectedNode(); });
    connect(m_stepOp, &QPushButton::clicked, this, [this] { stepSelectedOp(); });
    connect(m_stepAll, &QPushButton::clicked, this, [this] { stepAll(); });
    connect(m_undo, &QPushButton::clicked, this, [this] { undo(); });
    connect(m_redo, &QPushButton::clicked, this, [this] { redo(); });
    connect(m_compareButton, &QPushButton::clicked, this, [this] { compareSelection(); });
}

// The ops and history lists, the teaching text and the status line.
void DecompPane::buildLists(QVBoxLayout* layout) {
    auto* split = new QSplitter(Qt::Vertical, this);
    m_opsView = new QTreeView(split);
    m_opsView->setModel(m_ops);
    m_opsView->setUniformRowHeights(true);
    m_opsView->setAlternatingRowColors(true);
    m_historyView = new QTreeView(split);
    m_historyView->setModel(m_history);
    m_historyView->setRootIsDecorated(false);
    m_historyView->setUniformRowHeights(true);
    // the columns share the width: the rule (the last) whole when there is room
    m_opsFitter = new ColumnFitter(m_opsView, DecompOpsModel::ColRule);
    m_historyFitter = new ColumnFitter(m_historyView, DecompHistoryModel::ColumnCount - 1);
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

// A running step: nodes looked at / total, and Cancel (the program stays as before the step); under
// it the legend of the graph's "new" mark.
void DecompPane::buildProgressRow(QVBoxLayout* layout) {
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
    auto* legend = new QLabel(this);
    legend->setObjectName("decompLegend");
    legend->setTextFormat(Qt::RichText);
    legend->setText(tr("<span style='color:%1'>&#9700;</span> <b>new</b>: made by the last step "
                       "(hover a node for its step and rule)")
                        .arg(newNodeColor().name()));
    layout->addWidget(legend);
}

// A node row selects the node in the graph; any row shows its rule's text. With the before / after
// window open, selecting a new node in the graph shows where it came from.
void DecompPane::connectLists() {
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
    connect(m_opsView->selectionModel(), &QItemSelectionModel::currentChanged, this, [this] { updateStepButtons(); });
    connect(m_doc, &Document::selectionChanged, this, [this](int k) {
        updateStepButtons();
        const Graph* g = m_doc->graph();
        if (!m_compareWindow || !m_compareWindow->isVisible() || isBusy() || !g || k < 0 || k >= int(g->nodes.size())) return;
        if (!g->nodes[size_t(k)].derivedFrom.empty()) compareNode(q(g->nodes[size_t(k)].name));
    });
}

IrLevel DecompPane::currentLevel() const { return m_decomp->currentLevel(); }

bool DecompPane::isBusy() const { return m_decomp->isBusy(); }

void DecompPane::refresh() {
    DecompSession* session = m_decomp->session();
    const bool busy = m_decomp->isBusy();
    const IrLevel level = currentLevel();
    if (session && busy) {
        // the worker owns the session: keep the lists as they are until it finishes
    } else if (session) {
        auto candidates = m_decomp->candidates();
        auto blocked = session->blocked(m_decomp->stage());
        m_steppable.clear();
        m_steppableOps.clear();
        m_stays.clear();
        for (const auto& c : candidates) {
            m_steppable.insert(q(c.node), q(c.target));
            m_steppableOps.insert(q(c.target));
        }
        for (const auto& b : blocked) m_stays.insert(q(b.node), q(b.reason));
        m_ops->setEntries(std::move(candidates), std::move(blocked));
        m_history->setSteps(session->history());
    } else {
        m_steppable.clear();
        m_steppableOps.clear();
        m_stays.clear();
        m_ops->setEntries({}, {});
        m_history->setSteps({});
    }
    m_opsView->expandToDepth(-1);
    m_opsFitter->fit();
    m_historyFitter->fit();
    if (m_history->rowCount() > 0) {
        const QModelIndex last = m_history->index(m_history->rowCount() - 1, 0);
        m_historyView->setCurrentIndex(last);
        m_historyView->scrollTo(last);
    }
    const bool idle = session && !busy;
    if (auto* b = m_levels->button(levelRank(level))) b->setChecked(true);
    for (auto* b : m_levels->buttons()) b->setEnabled(idle);
    m_stepAll->setEnabled(idle && m_ops->candidateCount() > 0);
    m_stepAll->setToolTip(level == IrLevel::Prims ? tr("Nothing left to decompose: the program is prims")
                                                 : tr("Decompose everything to the next level"));
    updateStepButtons();
    m_stepAll->setText(level == IrLevel::Training ? tr("Step all → Core ATen") : tr("Step all → Prims"));
    m_undo->setEnabled(idle && session->canUndo());
    m_redo->setEnabled(idle && session->canRedo());
    m_compareButton->setEnabled(idle && session->position() > 0);
    m_status->setText(statusText());
}

QString DecompPane::statusText() const {
    if (!m_decomp->session()) return tr("No program");
    if (m_decomp->isBusy()) return tr("Decomposing…");
    QString s = tr("%1 · %2 can be stepped (%3)")
                    .arg(QString::fromUtf8(irLevelName(currentLevel())))
                    .arg(nodesText(m_ops->candidateCount()))
                    .arg(QString::fromUtf8(decompStageName(m_decomp->stage())));
    if (currentLevel() == IrLevel::Prims) s = tr("prims · nothing left to decompose");
    if (!m_decomp->message().isEmpty()) s += QStringLiteral("\n") + m_decomp->message();
    return s;
}

void DecompPane::onStepStarted() {
    m_progress->setRange(0, 0);
    m_progress->setFormat(tr("starting…"));
    m_progress->setVisible(true);
    m_cancel->setEnabled(true);
    m_cancel->setVisible(true);
    m_progressTimer.start();
}

void DecompPane::onStepReturned() {
    m_progressTimer.stop();
    m_progress->setVisible(false);
    m_cancel->setVisible(false);
}

bool DecompPane::cancelStep() {
    if (!m_decomp->cancelStep()) return false;
    m_cancel->setEnabled(false);
    m_progress->setFormat(tr("cancelling…"));
    return true;
}

void DecompPane::showProgress() {
    const DecompProgressState* state = m_decomp->progress();
    if (!state || state->cancel) return;
    const auto phase = static_cast<DecompProgress::Phase>(state->phase.load());
    const size_t total = state->total, done = state->done;
    if (phase == DecompProgress::Phase::Rewrite && total > 0) {
        m_progress->setRange(0, static_cast<int>(std::min<size_t>(total, 1u << 30)));
        m_progress->setValue(static_cast<int>(std::min(done, total)));
        m_progress->setFormat(tr("rewriting: %v / %m nodes"));
    } else {
        // re-checks report no steps of their own: a full bar that says which one runs (a busy
        // indicator would hide the text)
        const int n = static_cast<int>(std::min<size_t>(state->rewriteTotal, 1u << 30));
        m_progress->setRange(0, std::max(n, 1));
        m_progress->setValue(std::max(n, 1));
        m_progress->setFormat(tr("%m nodes rewritten · %1…").arg(QString::fromUtf8(decompPhaseName(phase))));
    }
}

QString DecompPane::stepNodeName() const {
    QString node = m_opsView->currentIndex().data(DecompOpsModel::NodeNameRole).toString();
    const Graph* g = m_doc->graph();
    const int k = m_doc->selectedNode();
    if (node.isEmpty() && g && k >= 0 && k < static_cast<int>(g->nodes.size())) node = q(g->nodes[size_t(k)].name);
    return node;
}

QString DecompPane::stepOpTarget() const {
    QString target = m_opsView->currentIndex().data(DecompOpsModel::TargetRole).toString();
    const Graph* g = m_doc->graph();
    const int k = m_doc->selectedNode();
    if (target.isEmpty() && g && k >= 0 && k < static_cast<int>(g->nodes.size()))
        target = q(g->nodes[size_t(k)].target.shortName());
    return target;
}

void DecompPane::updateStepButtons() {
    const bool idle = m_decomp->session() && !m_decomp->isBusy();
    const bool prims = currentLevel() == IrLevel::Prims;
    const QString node = stepNodeName();
    const QString op = stepOpTarget();
    QString nodeWhy, opWhy; // empty when the button can act
    if (!m_decomp->session()) {
        nodeWhy = opWhy = tr("No program");
    } else if (m_decomp->isBusy()) {
        nodeWhy = opWhy = tr("A step is running");
    } else if (prims) {
        nodeWhy = opWhy = tr("Nothing left to decompose: the program is prims");
    } else {
        if (node.isEmpty()) nodeWhy = tr("Select a node (in the graph or the list) to step it");
        else if (m_stays.contains(node)) nodeWhy = tr("%1 stays at this stage: %2").arg(node, m_stays.value(node));
        else if (!m_steppable.contains(node)) nodeWhy = tr("%1 has no rule at this stage").arg(node);
        if (op.isEmpty()) opWhy = tr("Select an op in the list (or a node of it in the graph) to step every node of it");
        else if (!m_steppableOps.contains(op)) opWhy = tr("No %1 node can be stepped at this stage").arg(op);
    }
    m_step->setEnabled(idle && nodeWhy.isEmpty());
    m_step->setToolTip(nodeWhy.isEmpty() ? tr("Decompose %1 (one rule application)").arg(node) : nodeWhy);
    m_stepOp->setEnabled(idle && opWhy.isEmpty());
    m_stepOp->setToolTip(opWhy.isEmpty() ? tr("Decompose every %1 node").arg(op) : opWhy);
}

bool DecompPane::stepSelectedNode() {
    const QString node = stepNodeName();
    if (node.isEmpty()) {
        m_decomp->setMessage(tr("Select a node (in the graph or the list) to step it"));
        return false;
    }
    return m_decomp->stepNode(node);
}

bool DecompPane::stepSelectedOp() {
    const QString target = stepOpTarget();
    if (target.isEmpty()) {
        m_decomp->setMessage(tr("Select an op in the list (or a node of it in the graph) to step every node of it"));
        return false;
    }
    return m_decomp->stepOp(target);
}

bool DecompPane::stepAll() { return m_decomp->stepAll(); }

bool DecompPane::stepToLevel(IrLevel level) { return m_decomp->stepToLevel(level); }

bool DecompPane::undo() { return m_decomp->undo(); }

bool DecompPane::redo() { return m_decomp->redo(); }

bool DecompPane::confirmClose(Decomposition* decomposition, QWidget* parent) {
    if (!decomposition || !decomposition->isModified()) return true;
    const auto answer = QMessageBox::question(parent, tr("Unsaved decomposition"),
                                              tr("The program on screen was decomposed and not saved. Save it?"),
                                              QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel,
                                              QMessageBox::Save);
    if (answer == QMessageBox::Cancel) return false;
    if (answer == QMessageBox::Discard) return true;
    const QString path = QFileDialog::getSaveFileName(parent, tr("Save the decomposed program"), decomposition->baseTitle(),
                                                      tr("Exported programs (*.pt2)"));
    if (path.isEmpty()) return false;
    if (const QString err = decomposition->saveAs(path); !err.isEmpty()) {
        QMessageBox::warning(parent, tr("Could not save"), err);
        return false;
    }
    return true;
}

} // namespace irlens::views
