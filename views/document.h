#pragma once
// The Document: the one source of truth every pane observes. It owns the current Program snapshot,
// the module tree and collapse state of the graph on screen (the top level or a HOP subgraph), the
// laid-out geometry, the selection, the diagnostics, the decomposition session with the nodes its
// last step made, and the last run. Loading and layout run on workers; every job carries a
// generation id and results of superseded jobs are dropped.
//
// document.cpp: program, scope, layout and selection; document_verify.cpp: the verifier job and its
// summary; views/decomp/decomposition.cpp: the decomposition it owns.

#include "core/ir/program.h"
#include "core/layout/collapse_state.h"
#include "core/layout/module_fold.h"
#include "core/layout/incremental_layout.h"
#include "core/layout/layout_cache.h"
#include "core/layout/layout_result.h"
#include "core/layout/module_tree.h"

#include <QHash>
#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <memory>
#include <vector>

class QThreadPool;

namespace irlens::core {
struct AotiPackage;
struct NumericRun; // core/compare/numeric_run.h
}

namespace irlens::views {

struct RunSnapshot; // views/run/run_snapshot.h: one finished run (outputs + per-node profile)
class Decomposition; // views/decomp/decomposition.h: the decomposition session of the program on screen

/// The nodes the last decomposition step made, marked "new" in the graph.
struct NewNodes {
    int step = 0;                  // the history step (1-based) that made them, 0 when none
    QStringList names;
    QHash<QString, QString> rules; // node -> the rule that made it
    QString ruleOf(const QString& node) const { return rules.value(node); }
};

/// Where Run › Step node stands in the top-level graph: it runs the nodes in graph order, so the nodes
/// before `next` have run and `next` runs on the next step.
struct Stepping {
    bool active = false; // a stepping session exists (false before the first step, after a restart)
    int next = -1;       // the node the next step runs; -1 once every node has run
    bool hasRun(int node) const { return active && node >= 0 && (next < 0 || node < next); }
};

/// One verifier finding as the panes show it (a Qt copy of core::Diagnostic).
struct DiagnosticRow {
    enum class Severity { Error, Warning, Info };
    Severity severity = Severity::Error;
    QString rule;    // rule id ("EIR-S006")
    QString node;    // node name, "" for program-level findings
    QString message; // what is wrong and how to fix it
    QString graph;   // "" top level, "cond.true_graph_0" inside a subgraph
};

/// A graph being shown: the top level, or a HOP subgraph reached by double-click.
struct Scope {
    QString label;                                   // breadcrumb text ("graph", "cond · true_graph_0")
    const core::Graph* graph = nullptr;              // owned by the program
    const core::GraphSignature* signature = nullptr; // top level only
    std::shared_ptr<const core::ModuleTree> tree;
    core::CollapseState collapse;
    /// Repeated blocks, found on the layout's thread the first time it needs them.
    struct Folds {
        std::once_flag once;
        std::atomic<bool> ready{false};
        core::ModuleFolds folds;
        const core::ModuleFolds& get(const core::Graph& g, const core::GraphSignature* sig, const core::ModuleTree& tree);
    };
    std::shared_ptr<Folds> folds = std::make_shared<Folds>();
    std::map<int, int> shownInstance;                // fold -> the instance drawn for the run
    QString key;                                     // cache scope key
    int node = -1;                                   // a subgraph: the HOP node of the scope above that holds it
    int subgraph = -1;                               // and which of its subgraphs this is
};

class Document : public QObject {
    Q_OBJECT
public:
    explicit Document(QObject* parent = nullptr);
    ~Document() override;

    /// The pool for the panes' CPU jobs (decomposition steps, runs, the verifier, printing). Never
    /// QThreadPool::globalInstance(): Qt 6.4's raster engine splits big fills over the global pool
    /// and waits for them, so a long job there stalls painting. Separate from the layout pool, so
    /// that a Graphviz run nobody wants any more cannot hold up a step or a run.
    static QThreadPool* workerPool();

    // ------------------------------------------------------------------ program
    /// Loads a .pt2 on a worker; emits loadFailed or, later, programChanged.
    void openFile(const QString& path);
    /// Shows a program built in code (the bundled example, a decomposed program).
    /// `tree`, when given, is the program's module tree built elsewhere (a worker), else it is built here.
    void setProgram(core::ProgramPtr program, const QString& title, std::shared_ptr<const core::ModuleTree> tree = nullptr);
    core::ProgramPtr program() const { return m_program; }
    /// The module tree of the program's top-level graph (null without a program).
    std::shared_ptr<const core::ModuleTree> topModuleTree() const { return m_scopes.empty() ? nullptr : m_scopes.front().tree; }
    QString title() const { return m_title; }
    QString filePath() const { return m_path; }

    // ------------------------------------------------------------------ scope and layout
    const Scope& scope() const { return m_scopes.back(); }
    const std::vector<Scope>& scopes() const { return m_scopes; }
    const core::Graph* graph() const { return m_scopes.empty() ? nullptr : m_scopes.back().graph; }
    core::LayoutPtr layout() const { return m_layout; }
    /// Double-click on a HOP node: show its first (or `argIndex`-th) subgraph.
    bool enterSubgraph(int nodeIndex, int subgraph = 0);
    /// Back to the enclosing graph (`depth` = index in scopes(); default one level up).
    void leaveSubgraph(int depth = -1);
    void toggleModule(int module);
    void setModuleExpanded(int module, bool expanded);
    void setCollapse(const core::CollapseState& state);
    void collapseAll();
    void expandAll();
    /// Draw the graph as the FX graph has it (lifted state as placeholder boxes, HOP branches as
    /// get_attr boxes) instead of state as chips; lays out again.
    void setDrawFxPlaceholders(bool on);
    bool drawFxPlaceholders() const { return m_fxPlaceholders; }
    /// Runs of at least kMinFoldRun identical sibling modules drawn once with a ×N note, in graphs of
    /// kFoldFromNodes nodes or more (on by default; smaller graphs are drawn in full, as they are cheap).
    static constexpr int kMinFoldRun = 4;
    static constexpr int kFoldFromNodes = 2000;
    void setFoldRepeatedBlocks(bool on);
    bool foldRepeatedBlocks() const { return m_foldRepeated; }
    /// The repeated-block groups of the graph on screen, once the first layout has found them (else null).
    const core::ModuleFolds* folds() const;
    /// The instance a folded group shows (0 until another is asked for).
    int shownInstance(int fold) const;
    /// The module of the instance that holds `node` when the node lies in a run drawn folded (its
    /// instance is shown when the node is revealed); -1 otherwise.
    int foldedInstanceOf(int node) const;
    /// Shows instance `instance` of folded group `fold` (an index into folds()->folds()) in its place,
    /// with the modules that were open in the instance shown before open in it too; lays out again.
    /// False (nothing changes) when there is no such group or instance, or it is shown already.
    bool showInstance(int fold, int instance);
    /// Opens every module around a node so that it gets its own box (in a folded group: the node's
    /// instance is shown).
    void revealNode(int nodeIndex);
    /// Lays the graph on screen out in full again (after decomposition steps placed incrementally).
    void relayout();
    /// A layout of more boxes than this (estimated from the module tree) is preceded by a coarser one
    /// (previewOf: its modules open down to a depth that draws at most kPreviewBoxes), shown through
    /// layoutPreview while the full one is made.
    void setPreviewFromBoxes(int boxes) { m_previewFromBoxes = boxes; }
    static constexpr int kPreviewFromBoxes = 20000;
    static constexpr int kPreviewBoxes = 8000;
    /// True when the layout on screen was placed incrementally on the previous program's (a step).
    bool layoutIsIncremental() const { return m_layout && m_layout->incrementalSteps > 0; }

    // ------------------------------------------------------------------ selection (one for every pane)
    int selectedNode() const { return m_selected; }
    void selectNode(int nodeIndex);
    /// The FX graph's other nodes, which are not in the serialized node list: a placeholder
    /// ("in:<value>", a user input or lifted state) or the output node ("out"). Selecting one
    /// clears the node selection (selectionChanged(-1)); "" when a node or nothing is selected.
    void selectItem(const QString& itemId);
    /// Re-infers every node's meta['val'] with the meta functions on a worker (EIR-M006) and adds the
    /// disagreements to the diagnostics (replacing an earlier check's); metaChecked() when done.
    void checkInferredMeta();
    QString selectedItem() const { return m_selectedItem; }
    bool selectNodeByName(const QString& name);
    int nodeIndexOf(const QString& name) const;
    /// Highlights every node whose output shape uses `symbol` ("" clears).
    void setHighlightSymbol(const QString& symbol);
    QString highlightSymbol() const { return m_symbol; }
    /// Search hits shown outlined in the graph.
    void setSearchHits(const std::vector<int>& nodes);
    const std::vector<int>& searchHits() const { return m_searchHits; }

    // ------------------------------------------------------------------ diagnostics
    const std::vector<DiagnosticRow>& diagnostics() const { return m_diagnostics; }
    void setDiagnostics(std::vector<DiagnosticRow> diagnostics);
    /// "verifier: 0 errors, 2 warnings", or "verifying…" while it runs.
    QString verifierSummary() const;
    /// Holds the findings back while a learner looks for them (Help › Exercises): diagnostics() is
    /// empty and the summary says so until they are released. A new program releases them.
    void setDiagnosticsWithheld(bool withheld);
    bool diagnosticsWithheld() const { return m_withheld; }

    // ------------------------------------------------------------------ decomposition (views/decomp)
    /// The decomposition session of the program on screen: steps, history, the running step.
    Decomposition* decomposition() const { return m_decomp; }
    /// Whether a decomposition step can rewrite node `n` of the graph on screen now: the same
    /// candidates the Decomposition pane's Step button acts on, top-level graph only (the graph's
    /// context menu asks this).
    bool canDecomposeNode(int n) const;
    /// Starts that step on a worker; false when it cannot run.
    bool decomposeNode(int n);
    /// The nodes the last applied step made (none after an undo or a new program).
    const NewNodes& newNodes() const { return m_newNodes; }
    void setNewNodes(NewNodes nodes);

    // ------------------------------------------------------------------ stepping (views/run/step_controller.h)
    /// The stepping session of the top-level graph, for the panes that draw it (the graph's tints);
    /// a new program ends it.
    const Stepping& stepping() const { return m_stepping; }
    void setStepping(Stepping stepping);

    // ------------------------------------------------------------------ execution (views/run/*)
    /// The last finished run of the program on screen (nullptr before a run or after a new program).
    std::shared_ptr<const RunSnapshot> runResult() const { return m_run; }
    void setRunResult(std::shared_ptr<const RunSnapshot> run) { m_run = std::move(run); Q_EMIT runFinished(m_run); }

    /// Every value of the last run or stepping session with its statistics, compared with reference
    /// values when the run had some (views/run/numerics_controller.h); nullptr before either.
    std::shared_ptr<const core::NumericRun> numerics() const { return m_numerics; }
    void setNumerics(std::shared_ptr<const core::NumericRun> numerics) { m_numerics = std::move(numerics); Q_EMIT numericsChanged(); }
    /// The input files chosen for the file on screen (Run › Inputs…), remembered per file; empty: the
    /// default inputs (model.expected/ beside the file, the archive's sample inputs, generated ones).
    QStringList inputFiles() const;
    void setInputFiles(const QStringList& paths);

    bool isBusy() const { return m_busy; }
    /// Cancels the running job (Esc).
    void cancel();

signals:
    void programChanged();
    void scopeChanged();
    /// Expand all or Collapse all: the drawing changes as a whole (the view starts over on it).
    void wholeDrawingChanged();
    void layoutStarted();
    void layoutReady(core::LayoutPtr layout);
    /// A coarser layout of the requested state, while the requested one is made (see
    /// setPreviewFromBoxes); layout() stays the last complete one, layoutReady follows.
    void layoutPreview(core::LayoutPtr layout);
    void layoutFailed(const QString& message);
    void selectionChanged(int nodeIndex);
    void symbolHighlightChanged(const QString& symbol);
    void searchHitsChanged();
    void steppingChanged();
    void newNodesChanged();
    void diagnosticsChanged();
    void loadFailed(const QString& message);
    /// The file opened is an AOTInductor package (compiled code, no program): what it holds. The
    /// program on screen stays.
    void packageOpened(const QString& path, std::shared_ptr<const irlens::core::AotiPackage> package);
    void busyChanged(bool busy);
    void progressChanged(const QString& stage, int percent);
    /// A run finished (or its result was cleared: nullptr).
    void runFinished(std::shared_ptr<const irlens::views::RunSnapshot> run);
    /// Graph › Check metas (EIR-M006) finished with `findings` disagreements.
    void metaChecked(int findings);
    /// numerics() changed (a run or a step made values, or a new program cleared them).
    void numericsChanged();
    void inputFilesChanged();

private:
    void pushTopScope();
    /// Another graph shown (a subgraph entered or left): selection and search hits start afresh.
    void onScopeChanged();
    void startVerify();
    void startPendingVerify();
    void requestLayout(bool force = false);
    void setBusy(bool busy, const QString& stage = {});
    std::function<void(int, int)> layoutProgress(quint64 generation);
    std::function<void(core::LayoutPtr)> layoutPreviewSink(quint64 generation);
    QString programKey() const;

    core::ProgramPtr m_program;
    int m_previewFromBoxes = kPreviewFromBoxes;
    QString m_title;
    QString m_path;
    std::vector<Scope> m_scopes;
    core::LayoutPtr m_layout;
    core::LayoutCache m_cache;
    int m_selected = -1;
    QString m_selectedItem;
    int m_metaChecked = -1;
    QString m_symbol;
    std::vector<int> m_searchHits;
    Stepping m_stepping;
    std::vector<DiagnosticRow> m_diagnostics;
    std::vector<DiagnosticRow> m_withheldRows; // the findings held back while m_withheld
    bool m_withheld = false;
    quint64 m_loadGeneration = 0;
    quint64 m_layoutGeneration = 0;
    quint64 m_programGeneration = 0;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    bool m_busy = false;
    bool m_fxPlaceholders = false;
    bool m_foldRepeated = true;
    /// Whether the graph on screen is drawn with its repeated blocks folded.
    bool foldsDrawn() const;
    /// The folds of the graph on screen, found now if no layout has needed them yet (null when the
    /// graph is not drawn folded).
    const core::ModuleFolds* foldsNow();
    /// shownInstance[fold] = instance in scope `s`, opening there what was open in the instance shown before.
    void switchInstance(Scope& s, const core::ModuleFolds& folds, int fold, int instance);
    bool m_verifying = false;
    bool m_verifyPending = false;
    std::shared_ptr<const RunSnapshot> m_run;
    std::shared_ptr<const core::NumericRun> m_numerics;
    QHash<QString, QStringList> m_inputFiles; // program key (its file, else its title) -> chosen inputs
    Decomposition* m_decomp = nullptr;
    NewNodes m_newNodes;
    // A program that came from the one on screen by decomposition steps (or their undo, read from the
    // nodes' derivedFrom) keeps the collapse state and is placed on the current layout: set by
    // setProgram, used by the next layout request only.
    core::LayoutPtr m_incrementalBase;
    /// The module tree of the program openFile is about to show, built on its worker.
    std::shared_ptr<const core::ModuleTree> m_preparedTree;
    core::NodeReplacementMap m_incrementalMap;
};

} // namespace irlens::views

Q_DECLARE_METATYPE(irlens::core::LayoutPtr)
