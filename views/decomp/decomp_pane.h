#pragma once
// The Decomposition pane: the program's IR level as a three-step control (Training → Core ATen →
// Prims), the decomposable nodes grouped by op (and the ops that stay, with the reason), Step /
// Step op / Step all / Undo / Redo, and the history with each step's teaching text and re-checks.
// Steps run on a worker; the result replaces the Document's program, the selection follows the
// step's old → new map and the nodes the last step made are outlined in the graph.

#include "core/decomp/decomp_session.h"

#include <QFutureWatcher>
#include <QHash>
#include <QTimer>
#include <QWidget>

#include <atomic>
#include <functional>
#include <memory>

class QVBoxLayout;
class QButtonGroup;
class QLabel;
class QProgressBar;
class QPushButton;
class QTextBrowser;
class QTreeView;

namespace irlens::views {

/// What a worker step hands back (QFuture wants a default-constructible value).
struct DecompOutcome {
    const core::DecompStep* step = nullptr;
    QString error;
};

class Document;
class DecompOpsModel;
class DecompHistoryModel;
class DecompNewNodeMarker;
class DecompCompareView;
class GraphScene;

/// Shared between the GUI and the stepping thread: where the step is, and the cancel request.
struct DecompProgressState {
    std::atomic<size_t> done{0};
    std::atomic<size_t> total{0};
    std::atomic<size_t> rewriteTotal{0}; // the nodes of the program being rewritten
    std::atomic<int> phase{0}; // core::DecompProgress::Phase
    std::atomic<bool> cancel{false};
};

class DecompPane : public QWidget {
    Q_OBJECT
public:
    explicit DecompPane(Document* document, QWidget* parent = nullptr);
    ~DecompPane() override;

    DecompOpsModel* opsModel() const { return m_ops; }
    DecompHistoryModel* historyModel() const { return m_history; }
    QTreeView* opsView() const { return m_opsView; }
    core::DecompSession* session() const { return m_session.get(); }

    /// The level of the program on screen: Training while a training op has a rule, Core ATen while
    /// a core op has a prim decomposition, else Prims.
    core::IrLevel currentLevel() const;
    /// The stage the Step buttons work on (from the current level).
    core::DecompStage stage() const;

    // The actions behind the buttons (run on a worker; false when busy or nothing to do).
    bool stepSelectedNode();
    bool stepOp(const QString& target);
    bool stepSelectedOp();
    bool stepAll();
    bool stepToLevel(core::IrLevel level);
    bool undo();
    bool redo();

    bool isBusy() const { return m_busy; }
    /// Asks the running step to stop; the program stays as before the step. False when idle.
    bool cancelStep();
    /// The progress bar under the buttons (visible while a step runs).
    QProgressBar* progressBar() const { return m_progress; }
    /// Nodes made by the last applied step, by name (marked "new" in the graph).
    const QStringList& newNodes() const { return m_newNodes; }
    /// The history step (1-based) that made the current new nodes, 0 when none.
    int newNodesStep() const { return m_newNodesStep; }
    /// The rule that made a new node ("" when it is not new).
    QString ruleOfNewNode(const QString& node) const { return m_newNodeRules.value(node); }
    /// Marks the last step's new nodes in a graph scene (badge, outline, tooltip).
    void attachGraph(GraphScene* scene);

    // Before / after, side by side (a window of its own, opened from the history or the selection).
    /// The rewrites of history row `row`, showing its `rewrite`-th one.
    bool compareStep(int row, int rewrite = 0);
    /// The rewrite that made `node` (a node of the program on screen), through its "came from" link.
    bool compareNode(const QString& node);
    /// The Compare button: the selected node when a step made it, else the current history row.
    bool compareSelection();
    /// The before / after view (created on first use); nullptr before that.
    DecompCompareView* compareView() const { return m_compare; }
    /// The status line under the buttons (last result or error).
    QString statusText() const;

    /// True when the program on screen was decomposed and not saved since.
    bool isModified() const { return m_modified; }
    /// Writes the program on screen as .pt2; "" on success, else the error.
    QString saveAs(const QString& path);
    /// Asks Save / Discard / Cancel when modified; false when the user cancels.
    bool confirmClose(QWidget* parent);

signals:
    void stepFinished(bool ok);
    void newNodesChanged();

private:
    // The constructor's parts, top to bottom.
    void buildLevelRow(QVBoxLayout* layout);
    void buildButtons(QVBoxLayout* layout);
    void buildViews(QVBoxLayout* layout);
    void buildProgressRow(QVBoxLayout* layout);
    void buildLegend(QVBoxLayout* layout);
    void connectSelection();

    void onProgramChanged();
    void refresh();
    bool runStep(std::function<core::Result<const core::DecompStep*>(core::DecompSession&)> work);
    void onStepDone();
    /// Shows the session's current program; the selection follows the steps between `fromPosition`
    /// and the current position (forward through old -> new maps, or backward on undo).
    /// `deferRefresh`: the pane's lists are rebuilt (and the pane stops being busy) on the next
    /// event-loop turn, so that one turn does not pay for both the Document's swap and the lists.
    void applyCurrent(size_t fromPosition, bool deferRefresh = false);
    void setBusy(bool busy);
    void showProgress();
    DecompCompareView* ensureCompare();

    Document* m_doc;
    std::unique_ptr<core::DecompSession> m_session;
    core::ProgramPtr m_shown;     // the program this pane last put on the Document
    DecompOpsModel* m_ops;
    DecompHistoryModel* m_history;
    QButtonGroup* m_levels;
    QTreeView* m_opsView;
    QTreeView* m_historyView;
    QTextBrowser* m_teaching;
    QLabel* m_status;
    QProgressBar* m_progress;
    QPushButton* m_cancel;
    QTimer m_progressTimer;
    std::shared_ptr<DecompProgressState> m_progressState;
    QPushButton* m_step;
    QPushButton* m_stepOp;
    QPushButton* m_stepAll;
    QPushButton* m_undo;
    QPushButton* m_redo;
    QPushButton* m_compareButton;
    DecompCompareView* m_compare = nullptr;
    QWidget* m_compareWindow = nullptr;
    QFutureWatcher<DecompOutcome> m_watcher;
    size_t m_startPosition = 0;
    QString m_baseTitle;
    QString m_lastMessage;
    bool m_stale = false;         // the Document got another program while a step ran
    QString m_pendingSelection;   // selected node name when the step started
    QStringList m_newNodes;
    int m_newNodesStep = 0;
    QHash<QString, QString> m_newNodeRules;
    bool m_busy = false;
    bool m_modified = false;
    // currentLevel() scans every node for rules: computed once per program on screen
    mutable core::ProgramPtr m_levelOf;
    mutable core::IrLevel m_level = core::IrLevel::Training;
};

} // namespace irlens::views
