#pragma once
// The Decomposition pane: the program's IR level as a three-step control (Training → Core ATen →
// Prims), the decomposable nodes grouped by op (and the ops that stay, with the reason), Step /
// Step op / Step all / Undo / Redo, and the history with each step's teaching text and re-checks.
// It is a view of the Document's Decomposition (views/decomp/decomposition.h), which owns the
// session and runs the steps; the graph marks the nodes the last step made by itself.
//
// decomp_pane.cpp: the pane and its actions; decomp_pane_compare.cpp: the before / after window.

#include "core/decomp/decomp_session.h"

#include <QHash>
#include <QSet>
#include <QTimer>
#include <QWidget>

class QButtonGroup;
class QLabel;
class QProgressBar;
class QPushButton;
class QTextBrowser;
class QTreeView;
class QVBoxLayout;

namespace irlens::views {

class ColumnFitter;

class Document;
class Decomposition;
class DecompOpsModel;
class DecompHistoryModel;
class DecompCompareView;

class DecompPane : public QWidget {
    Q_OBJECT
public:
    explicit DecompPane(Document* document, QWidget* parent = nullptr);

    DecompOpsModel* opsModel() const { return m_ops; }
    DecompHistoryModel* historyModel() const { return m_history; }
    QTreeView* opsView() const { return m_opsView; }
    /// The Document's decomposition this pane shows.
    Decomposition* decomposition() const { return m_decomp; }

    /// The level of the program on screen (the Document's decomposition's).
    core::IrLevel currentLevel() const;

    // The actions behind the buttons (run on a worker; false when busy or nothing to do).
    /// The node selected in the list, else in the graph.
    bool stepSelectedNode();
    /// The op selected in the list, else the selected node's op.
    bool stepSelectedOp();
    bool stepAll();
    bool stepToLevel(core::IrLevel level);
    bool undo();
    bool redo();

    bool isBusy() const;
    /// Asks the running step to stop; the program stays as before the step. False when idle.
    bool cancelStep();
    /// Step and Step op: disabled when they cannot act, the reason in their tooltip.
    QPushButton* stepButton() const { return m_step; }
    QPushButton* stepOpButton() const { return m_stepOp; }
    /// The progress bar under the buttons (visible while a step runs).
    QProgressBar* progressBar() const { return m_progress; }

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

    /// Asks Save / Discard / Cancel when the decomposed program on screen is not saved; false when
    /// the user cancels.
    static bool confirmClose(Decomposition* decomposition, QWidget* parent);

private:
    void buildLevelRow(QVBoxLayout* layout);
    void buildButtons(QVBoxLayout* layout);
    void buildLists(QVBoxLayout* layout);
    void buildProgressRow(QVBoxLayout* layout);
    void connectLists();
    void refresh();
    /// The node Step acts on: the one current in the list, else the graph's selection ("" if none).
    QString stepNodeName() const;
    /// The op Step op acts on: the list's current op, else the selected node's.
    QString stepOpTarget() const;
    void updateStepButtons();
    void onStepStarted();
    void onStepReturned();
    void showProgress();
    DecompCompareView* ensureCompare();

    Document* m_doc;
    Decomposition* m_decomp;
    DecompOpsModel* m_ops;
    DecompHistoryModel* m_history;
    QButtonGroup* m_levels = nullptr;
    ColumnFitter* m_opsFitter = nullptr;
    ColumnFitter* m_historyFitter = nullptr;
    QTreeView* m_opsView = nullptr;
    // what Step / Step op can act on at this stage, kept by refresh() for every selection change
    QHash<QString, QString> m_steppable; // node -> its op ("aten.linear.default")
    QHash<QString, QString> m_stays;     // node -> why it stays
    QSet<QString> m_steppableOps;
    QTreeView* m_historyView = nullptr;
    QTextBrowser* m_teaching = nullptr;
    QLabel* m_status = nullptr;
    QProgressBar* m_progress = nullptr;
    QPushButton* m_cancel = nullptr;
    QTimer m_progressTimer;
    QPushButton* m_step = nullptr;
    QPushButton* m_stepOp = nullptr;
    QPushButton* m_stepAll = nullptr;
    QPushButton* m_undo = nullptr;
    QPushButton* m_redo = nullptr;
    QPushButton* m_compareButton = nullptr;
    DecompCompareView* m_compare = nullptr;
    QWidget* m_compareWindow = nullptr;
};

} // namespace irlens::views
