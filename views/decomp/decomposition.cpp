#include "views/decomp/decomposition.h"
#include "views/qstring_util.h"

#include "core/io/pt2_writer.h"
#include "core/ops/op_registry.h"
#include "views/count_text.h"
#include "views/document.h"

#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

namespace irlens::views {

using namespace irlens::core;

int levelRank(IrLevel l) { return l == IrLevel::Training ? 0 : l == IrLevel::CoreAten ? 1 : 2; }

namespace {

bool hasNode(const Program& p, const std::string& name) {
    for (const auto& n : p.graph.nodes)
        if (n.name == name) return true;
    return false;
}
} // namespace

Decomposition::Decomposition(Document* document) : QObject(document), m_doc(document) {
    connect(&m_watcher, &QFutureWatcher<DecompOutcome>::finished, this, &Decomposition::onStepDone);
    connect(m_doc, &Document::programChanged, this, &Decomposition::onProgramChanged);
    onProgramChanged();
}

Decomposition::~Decomposition() {
    // the worker uses the session: let it finish before the session goes
    if (m_progress) m_progress->cancel = true;
    m_watcher.waitForFinished();
}

namespace {
/// The level of a program: Training while a training op has a rule, Core ATen while a core op has a
/// prim decomposition, else Prims. A scan of every node: the worker does it after a step.
IrLevel levelOf(const Program& p) {
    auto any = [&](DecompStage st) {
        for (const auto& n : p.graph.nodes)
            if (findRule(n, st)) return true;
        return false;
    };
    // a program still in the training dialect with no training op left is core ATen already
    return any(DecompStage::ToCore) ? IrLevel::Training : any(DecompStage::ToPrims) ? IrLevel::CoreAten : IrLevel::Prims;
}
} // namespace

std::vector<DecompCandidate> Decomposition::candidates() const {
    if (m_busy || !m_session || currentLevel() == IrLevel::Prims) return {};
    return m_session->candidates(stage());
}

IrLevel Decomposition::currentLevel() const {
    if (!m_session) return IrLevel::Training;
    if (m_watcher.isRunning()) return m_level; // the worker owns the session until it finishes
    const ProgramPtr p = m_session->current();
    if (p == m_levelOf) return m_level;
    m_level = levelOf(*p);
    m_levelOf = p;
    return m_level;
}

DecompStage Decomposition::stage() const {
    return currentLevel() == IrLevel::Training ? DecompStage::ToCore : DecompStage::ToPrims;
}

void Decomposition::setMessage(const QString& message) {
    m_message = message;
    Q_EMIT changed();
}

void Decomposition::setBusy(bool busy) {
    m_busy = busy;
    Q_EMIT changed();
}

void Decomposition::onProgramChanged() {
    ProgramPtr p = m_doc->program();
    if (p == m_shown) return; // our own step put it there
    if (m_watcher.isRunning()) { // the worker uses the session: swap it once the step is back
        m_stale = true;
        return;
    }
    m_shown = p;
    m_session.reset();
    m_trees.clear();
    m_modified = false;
    m_message.clear();
    m_baseTitle = m_doc->title();
    if (p) {
        DecompSessionOptions o;
        o.numericCheck = true; // runs only when the archive has sample inputs; otherwise the note says why
        m_session = std::make_unique<DecompSession>(p, o);
    }
    m_doc->setNewNodes({});
    Q_EMIT sessionReset();
    Q_EMIT changed();
}

QString Decomposition::selectedNodeName() const {
    const Graph* g = m_doc->graph();
    const int k = m_doc->selectedNode();
    return g && k >= 0 && k < static_cast<int>(g->nodes.size()) ? q(g->nodes[static_cast<size_t>(k)].name) : QString();
}

bool Decomposition::runStep(std::function<Result<const DecompStep*>(DecompSession&)> work) {
    if (!m_session || m_busy) return false;
    auto state = std::make_shared<DecompProgressState>();
    m_progress = state;
    m_session->setProgress([state](const DecompProgress& p) {
        state->phase = static_cast<int>(p.phase);
        if (p.phase == DecompProgress::Phase::Rewrite) state->rewriteTotal = p.total;
        state->total = p.total;
        state->done = p.done;
        return !state->cancel.load();
    });
    m_startPosition = m_session->position();
    m_pendingSelection = selectedNodeName();
    Q_EMIT stepStarted();
    setBusy(true);
    DecompSession* session = m_session.get();
    m_watcher.setFuture(QtConcurrent::run(Document::workerPool(), [session, work] {
        DecompOutcome out;
        auto r = work(*session);
        if (r) out.step = *r;
        else out.error = QString::fromStdString(r.error());
        // the level of the program the step made: a scan of every node, kept off the GUI thread
        out.program = session->current();
        if (out.program) {
            out.level = levelOf(*out.program);
            out.tree = std::make_shared<const ModuleTree>(ModuleTree::build(out.program->graph));
        }
        return out;
    }));
    return true;
}

bool Decomposition::cancelStep() {
    if (!m_busy || !m_progress) return false;
    m_progress->cancel = true;
    return true;
}

void Decomposition::onStepDone() {
    const DecompOutcome out = m_watcher.result();
    m_session->setProgress({});
    if (out.program) {
        m_levelOf = out.program;
        m_level = out.level;
    }
    m_prepared = out;
    Q_EMIT stepReturned();
    if (!out.step || !out.error.isEmpty() || m_stale) m_busy = false; // else: after the deferred finish
    if (m_stale) {
        // another program arrived meanwhile: this result belongs to the old one
        m_stale = false;
        m_shown.reset();
        onProgramChanged();
        Q_EMIT stepFinished(false);
        return;
    }
    if (DecompSession::isCancelled(out.error.toStdString())) {
        // "to prims" is two steps: a cancel in the second drops the first as well
        while (m_session->position() > m_startPosition && m_session->canUndo()) (void)m_session->undo();
        setMessage(tr("Cancelled: the program is as it was before the step"));
        Q_EMIT stepFinished(false);
        return;
    }
    if (!out.error.isEmpty()) {
        setMessage(tr("Step failed: %1").arg(out.error));
        Q_EMIT stepFinished(false);
        return;
    }
    m_message = out.step ? tr("Last step: %1 replaced, %2 → %3 nodes, %4 ms")
                               .arg(nodesText(static_cast<qint64>(out.step->applied.size())))
                               .arg(out.step->nodesBefore)
                               .arg(out.step->nodesAfter)
                               .arg(out.step->millis, 0, 'f', 1)
                         : QString();
    if (out.step && out.step->flagged()) m_message += tr(" · numeric check ABOVE tolerance");
    applyCurrent(m_startPosition, true);
}

QString Decomposition::followSelection(size_t fromPosition) const {
    const size_t to = m_session->position();
    const auto steps = m_session->history(); // up to the current position
    QString selected = m_pendingSelection;
    if (to > fromPosition) {
        // forward: follow each step's old -> new map; the last node of a replacement carries its value
        for (size_t i = fromPosition; i < to && i < steps.size(); ++i) {
            const auto map = steps[i]->oldToNew();
            if (auto it = map.find(selected.toStdString()); it != map.end() && !it->second.empty())
                selected = q(it->second.back());
        }
    } else {
        // backward (undo): a node made by an undone step selects the node it replaced
        // (only when the node is not in the program before that step: older steps' nodes stay)
        for (size_t i = fromPosition; i > to; --i) {
            const std::string name = selected.toStdString();
            if (hasNode(*m_session->snapshot(i - 1), name)) continue;
            for (const auto& n : m_session->snapshot(i)->graph.nodes)
                if (n.name == name && !n.derivedFrom.empty()) selected = q(n.derivedFrom);
        }
    }
    return selected;
}

void Decomposition::publishNewNodes() {
    NewNodes fresh;
    const size_t to = m_session->position();
    const auto steps = m_session->history();
    if (to > 0 && to - 1 < steps.size()) {
        fresh.step = static_cast<int>(to);
        for (const auto& a : steps[to - 1]->applied)
            for (const auto& n : a.newNodes) {
                fresh.names << q(n);
                fresh.rules.insert(q(n), a.rule ? q(a.rule->title + " [" + a.rule->reference + "]") : QString());
            }
    }
    m_doc->setNewNodes(std::move(fresh));
}

void Decomposition::applyCurrent(size_t fromPosition, bool deferFinish) {
    const QString selected = followSelection(fromPosition);
    if (const ProgramPtr before = m_doc->program(); before && m_doc->topModuleTree()) m_trees[before.get()] = {before, m_doc->topModuleTree()};
    if (m_prepared.program && m_prepared.tree) m_trees[m_prepared.program.get()] = {m_prepared.program, m_prepared.tree};
    m_prepared = {};
    m_shown = m_session->current();
    m_modified = m_session->position() > 0;
    const QString title = m_session->position() == 0
                              ? m_baseTitle
                              : tr("%1 (%2)").arg(m_baseTitle, QString::fromUtf8(irLevelName(currentLevel())));
    // a worker step's program comes with its module tree, and undo / redo find theirs here (building
    // one on deep_stack takes ten milliseconds and more of the GUI thread's busiest turn)
    const auto known = m_trees.find(m_shown.get());
    const bool same = known != m_trees.end() && known->second.program.lock() == m_shown;
    m_doc->setProgram(m_shown, title, same ? known->second.tree : nullptr);
    // the selection and the new-node marks: those of the step the program is now at, after an undo
    // too (new nodes get their own mark in the graph, not the search-hit outline)
    auto finish = [this, selected] {
        if (!selected.isEmpty()) m_doc->selectNodeByName(selected);
        publishNewNodes();
    };
    if (!deferFinish) {
        finish();
        Q_EMIT changed();
        return;
    }
    // after a worker step on a big graph the Document's swap, the selection with the marks, and the
    // pane's lists each take tens of milliseconds on deep_stack: one event-loop turn each
    QTimer::singleShot(0, this, [this, finish, shown = m_shown] {
        if (m_shown == shown) finish(); // else another program came first: its own selection stands
        QTimer::singleShot(0, this, [this] {
            m_busy = false;
            Q_EMIT changed();
            Q_EMIT stepFinished(true);
        });
    });
}

bool Decomposition::stepNode(const QString& node) {
    if (node.isEmpty()) return false;
    const DecompStage st = stage();
    return runStep([n = node.toStdString(), st](DecompSession& s) { return s.stepNode(n, st); });
}

bool Decomposition::stepOp(const QString& target) {
    if (target.isEmpty()) return false;
    const DecompStage st = stage();
    return runStep([t = target.toStdString(), st](DecompSession& s) { return s.stepOp(t, st); });
}

bool Decomposition::stepAll() {
    if (!m_session || currentLevel() == IrLevel::Prims) return false;
    const DecompStage st = stage();
    return runStep([st](DecompSession& s) { return s.stepAll(st); });
}

bool Decomposition::stepToLevel(IrLevel level) {
    if (!m_session || levelRank(level) <= levelRank(currentLevel())) return false;
    return runStep([level](DecompSession& s) { return s.stepToLevel(level); });
}

bool Decomposition::goToLevel(IrLevel level) {
    if (levelRank(level) > levelRank(currentLevel())) return stepToLevel(level);
    bool any = false;
    while (!m_busy && m_session && m_session->canUndo() && levelRank(currentLevel()) > levelRank(level)) any = undo() || any;
    Q_EMIT changed();
    return any;
}

bool Decomposition::undo() { return moveInHistory(false); }

bool Decomposition::redo() { return moveInHistory(true); }

bool Decomposition::moveInHistory(bool forward) {
    if (!m_session || m_busy || !(forward ? m_session->canRedo() : m_session->canUndo())) return false;
    const size_t from = m_session->position();
    m_pendingSelection = selectedNodeName();
    if (auto s = forward ? m_session->redo() : m_session->undo(); !s) {
        setMessage((forward ? tr("Redo failed: %1") : tr("Undo failed: %1")).arg(q(s.message())));
        return false;
    }
    m_message = forward ? tr("Redone") : tr("Undone");
    applyCurrent(from);
    return true;
}

QString Decomposition::saveAs(const QString& path) {
    const ProgramPtr p = m_doc->program();
    if (!p) return tr("There is no program to save");
    if (auto s = savePt2(*p, path.toStdString()); !s) return q(s.message());
    m_modified = false;
    setMessage(tr("Saved %1").arg(path));
    return {};
}

} // namespace irlens::views
