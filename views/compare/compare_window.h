#pragma once
// The Compare window: two programs side by side, each in its own Document and graph view, with the
// nodes matched by core/compare. Selection, panning and module expansion follow from one side to the
// other through the match; changed / added / removed boxes carry coloured outlines (legend on top);
// the list of differences selects both sides; when both programs run, the first node whose values
// diverge is outlined and listed. Loading, decomposing, matching and running happen on workers; a
// newer comparison drops the results of an older one.

#include "core/compare/divergence.h"
#include "core/compare/program_match.h"
#include "core/ops/op_registry.h"

#include <QFutureWatcher>
#include <QWidget>

#include <map>
#include <memory>
#include <string>
#include <vector>

class QLabel;
class QTabWidget;
class QTableView;

namespace irlens::views {

class Document;
class GraphScene;
class GraphView;
class DiffOverlay;
class DifferenceModel;
class ModuleDiffModel;

using MatchPtr = std::shared_ptr<const core::ProgramMatch>;
using DivergencePtr = std::shared_ptr<const core::Divergence>;

/// What a comparison job hands back to the window.
struct CompareResult {
    quint64 generation = 0;
    core::ProgramPtr right;
    MatchPtr match;
    QString error;
};

/// What the numeric comparison job hands back.
struct DivergenceResult {
    quint64 generation = 0;
    DivergencePtr divergence;
    QString error; // why the values could not be compared
};

class CompareWindow : public QWidget {
    Q_OBJECT
public:
    explicit CompareWindow(QWidget* parent = nullptr);
    ~CompareWindow() override;

    /// `left` against the program in the file `path`, matched by structure. `leftPath` (may be "") finds
    /// the inputs of the numeric comparison (its model.expected/ folder).
    void compareWithFile(core::ProgramPtr left, const QString& leftPath, const QString& path);
    /// `left` against its own decomposition to `level`, matched through the decomposition's map.
    void compareWithLevel(core::ProgramPtr left, const QString& leftPath, core::IrLevel level);
    /// Two programs already in memory, matched by structure.
    void comparePrograms(core::ProgramPtr left, core::ProgramPtr right, const QString& leftPath = {});
    /// A match made elsewhere (a decomposition session's steps).
    void showMatch(MatchPtr match, const QString& leftPath = {});
    /// One decomposition step: `before` against `after`, matched through the step's old -> new map;
    /// both sides open on the pair of `focusNode` (a node of `before`; "" for the first difference).
    void compareStep(core::ProgramPtr before, core::ProgramPtr after, std::map<std::string, std::vector<std::string>> oldToNew,
                     const QString& focusNode = {});

    Document* leftDocument() const { return m_left; }
    Document* rightDocument() const { return m_right; }
    GraphView* leftView() const { return m_leftView; }
    GraphView* rightView() const { return m_rightView; }
    GraphScene* leftScene() const { return m_leftScene; }
    GraphScene* rightScene() const { return m_rightScene; }
    DiffOverlay* leftOverlay() const { return m_leftOverlay; }
    DiffOverlay* rightOverlay() const { return m_rightOverlay; }
    DifferenceModel* differenceModel() const { return m_diffModel; }
    QTableView* differenceView() const { return m_diffView; }
    ModuleDiffModel* moduleModel() const { return m_moduleModel; }
    QLabel* headline() const { return m_head; }
    MatchPtr match() const { return m_match; }
    DivergencePtr divergence() const { return m_divergence; }
    bool isBusy() const { return m_busy; }

    /// Selects a pair on both sides (its left node, or its right node when it was added).
    void selectPair(int pair);

signals:
    void matchReady();
    /// The numeric comparison finished (or could not run: `note` says why).
    void divergenceReady(const QString& note);
    void failed(const QString& message);

private:
    void buildUi();
    QWidget* buildSide(Document* doc, GraphScene*& scene, GraphView*& view, QLabel*& title);
    void start(std::function<CompareResult(quint64)> job, core::ProgramPtr left, const QString& leftPath);
    void onMatched();
    void startDivergence();
    void onDivergence();
    void applyMarks();
    /// Selects m_focusPair on both sides once both are laid out (the first difference on arrival).
    void focusWhenReady();
    void connectSync(Document* from, Document* to, bool fromLeft);
    void mirrorSelection(int node, bool fromLeft);
    void mirrorCollapse(Document* from, Document* to);
    void mirrorPan(bool fromLeft);
    void setBusy(bool busy, const QString& text);

    Document* m_left;
    Document* m_right;
    GraphScene* m_leftScene = nullptr;
    GraphScene* m_rightScene = nullptr;
    GraphView* m_leftView = nullptr;
    GraphView* m_rightView = nullptr;
    QLabel* m_leftTitle = nullptr;
    QLabel* m_rightTitle = nullptr;
    DiffOverlay* m_leftOverlay = nullptr;
    DiffOverlay* m_rightOverlay = nullptr;
    DifferenceModel* m_diffModel = nullptr;
    ModuleDiffModel* m_moduleModel = nullptr;
    QTableView* m_diffView = nullptr;
    QTabWidget* m_tabs = nullptr;
    QLabel* m_head = nullptr;
    QLabel* m_numeric = nullptr;

    core::ProgramPtr m_leftProgram;
    QString m_leftPath;
    QString m_headText;
    int m_focusPair = -1;
    QString m_focusNode; // compareStep's node: opened on it, not on the first difference or divergence
    MatchPtr m_match;
    DivergencePtr m_divergence;
    quint64 m_generation = 0;
    QFutureWatcher<CompareResult> m_matchWatcher;
    QFutureWatcher<DivergenceResult> m_divWatcher;
    bool m_busy = false;
    bool m_syncing = false;
};

} // namespace irlens::views
