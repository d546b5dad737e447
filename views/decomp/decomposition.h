#pragma once
// The decomposition of the program on screen, owned by the Document: the DecompSession with its
// history, the step running on a worker (progress and cancel), and what a finished step changes in
// the Document (the program, the selection through the old -> new map, the new-node state). The
// Decomposition pane observes it and calls its actions; nothing here is a widget.

#include "core/decomp/decomp_session.h"
#include "core/layout/module_tree.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <unordered_map>

namespace irlens::views {

class Document;

/// The IR levels in order, 0 (training) to 2 (prims): the Decomposition pane's buttons and the steps.
int levelRank(core::IrLevel level);

/// What a worker step hands back (QFuture wants a default-constructible value).
struct DecompOutcome {
    const core::DecompStep* step = nullptr;
    QString error;
    core::ProgramPtr program;                  // the session's program after the work
    core::IrLevel level = core::IrLevel::Training; // its level, computed on the worker
    std::shared_ptr<const core::ModuleTree> tree;  // its module tree, built on the worker too
};

/// Shared between the GUI and the stepping thread: where the step is, and the cancel request.
struct DecompProgressState {
    std::atomic<size_t> done{0};
    std::atomic<size_t> total{0};
    std::atomic<size_t> rewriteTotal{0}; // the nodes of the program being rewritten
    std::atomic<int> phase{0};           // core::DecompProgress::Phase
    std::atomic<bool> cancel{false};
};

class Decomposition : public QObject {
    Q_OBJECT
public:
    explicit Decomposition(Document* document);
    ~Decomposition() override;

    /// The session of the program on screen (nullptr without a program). Owned by the worker while
    /// a step runs: read it only when !isBusy().
    core::DecompSession* session() const { return m_session.get(); }
    /// The level of the program on screen: Training while a training op has a rule, Core ATen while
    /// a core op has a prim decomposition, else Prims.
    core::IrLevel currentLevel() const;
    /// The stage a step works on (from the current level).
    core::DecompStage stage() const;
    /// What a step could rewrite now, at the current stage: none while a step runs, without a
    /// program, or once the program is prims. The pane's lists and the graph's context menu ask this.
    std::vector<core::DecompCandidate> candidates() const;

    // Steps run on a worker; false when busy or there is nothing to do.
    bool stepNode(const QString& node);
    bool stepOp(const QString& target);
    bool stepAll();
    bool stepToLevel(core::IrLevel level);
    /// A higher level steps down to it; a lower one undoes back to it.
    bool goToLevel(core::IrLevel level);
    bool undo();
    bool redo();

    bool isBusy() const { return m_busy; }
    /// Asks the running step to stop; the program stays as before the step. False when idle.
    bool cancelStep();
    /// Where the running step is; nullptr when none ran yet.
    const DecompProgressState* progress() const { return m_progress.get(); }

    /// The last result, error or hint ("Last step: …", "Undone"); "" after a new program.
    QString message() const { return m_message; }
    void setMessage(const QString& message);

    /// True when the program on screen was decomposed and not saved since.
    bool isModified() const { return m_modified; }
    /// Writes the program on screen as .pt2; "" on success, else the error.
    QString saveAs(const QString& path);
    /// The title of the program before any step (the default file name to save it as).
    QString baseTitle() const { return m_baseTitle; }

signals:
    /// A new program arrived: a fresh session with an empty history.
    void sessionReset();
    /// The level, history, busy state or message changed.
    void changed();
    void stepStarted();
    /// The worker is back (the result is applied next; stepFinished follows).
    void stepReturned();
    void stepFinished(bool ok);

private:
    void onProgramChanged();
    bool runStep(std::function<core::Result<const core::DecompStep*>(core::DecompSession&)> work);
    void onStepDone();
    bool moveInHistory(bool forward);
    /// Shows the session's current program; the selection follows the steps between `fromPosition`
    /// and the current position (forward through old -> new maps, or backward on undo).
    /// `deferFinish`: the pane's lists are rebuilt (and the step stops being busy) on the next
    /// event-loop turn, so that one turn does not pay for both the Document's swap and the lists.
    void applyCurrent(size_t fromPosition, bool deferFinish = false);
    /// The selection after moving from `fromPosition` to the current position.
    QString followSelection(size_t fromPosition) const;
    /// The nodes the step at the current position made.
    void publishNewNodes();
    QString selectedNodeName() const;
    void setBusy(bool busy);

    Document* m_doc;
    std::unique_ptr<core::DecompSession> m_session;
    core::ProgramPtr m_shown; // the program this session last put on the Document
    DecompOutcome m_prepared; // the last worker step's program with its module tree, until shown
    // module trees of the session's programs (kept alive by its history) once built, so that undo and
    // redo do not rebuild one on the GUI thread
    struct KnownTree {
        std::weak_ptr<const core::Program> program; // a freed program's address may come back
        std::shared_ptr<const core::ModuleTree> tree;
    };
    std::unordered_map<const core::Program*, KnownTree> m_trees;
    QFutureWatcher<DecompOutcome> m_watcher;
    std::shared_ptr<DecompProgressState> m_progress;
    size_t m_startPosition = 0;
    QString m_pendingSelection; // selected node name when the step started
    QString m_baseTitle;
    QString m_message;
    bool m_stale = false; // the Document got another program while a step ran
    bool m_busy = false;
    bool m_modified = false;
    // currentLevel() scans every node for rules: computed once per program on screen
    mutable core::ProgramPtr m_levelOf;
    mutable core::IrLevel m_level = core::IrLevel::Training;
};

} // namespace irlens::views
