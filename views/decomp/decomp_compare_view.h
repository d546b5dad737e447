#pragma once
// Before / after of one decomposition rewrite, side by side: left the replaced node between the
// values it read and the values read after it, right the nodes that replaced it between the same
// boundary (marked "new"), each drawn with the graph's own items and laid out by core/layout, each
// with its FX lines underneath. A step with many rewrites picks one in the combo box.

#include "views/decomp/decomp_compare.h"

#include "core/layout/layout_result.h"

#include <QFutureWatcher>
#include <QWidget>

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

class QComboBox;
class QGraphicsScene;
class QGraphicsView;
class QLabel;
class QPlainTextEdit;

namespace irlens::views {

class CompareWindow;
class NodeItem;

/// Both sides' layouts (a failed side stays null).
struct CompareLayouts {
    core::LayoutPtr before;
    core::LayoutPtr after;
    QString error;
};

class DecompCompareView : public QWidget {
    Q_OBJECT
public:
    explicit DecompCompareView(QWidget* parent = nullptr);
    ~DecompCompareView() override;

    /// The rewrites of history step `step` (0-based) of `session`, showing rewrite `rewrite`.
    bool showStep(const core::DecompSession& session, size_t step, size_t rewrite = 0);
    /// Picks another rewrite of the step shown (index in the combo box).
    bool showRewrite(int index);

    const std::optional<DecompComparison>& comparison() const { return m_comparison; }
    QComboBox* rewriteBox() const { return m_rewrites; }
    QGraphicsScene* beforeScene() const { return m_beforeScene; }
    QGraphicsScene* afterScene() const { return m_afterScene; }
    QPlainTextEdit* beforeText() const { return m_beforeText; }
    QPlainTextEdit* afterText() const { return m_afterText; }
    QString headline() const;
    /// "Whole program…": the Compare window on the programs before and after the step (created on
    /// first use, nullptr before), matched through the step's map, opened on the rewrite shown.
    CompareWindow* programCompare() const { return m_programCompare; }
    void compareWholeProgram();
    /// The op boxes of a side once laid out (inputs / output excluded).
    std::vector<NodeItem*> opItems(bool after) const;
    bool isLayoutPending() const { return m_pending; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

signals:
    /// Both sides are drawn (or their layout failed; the headline says why).
    void laidOut();

private:
    void startLayout();
    void onLayoutDone();
    static void fitView(QGraphicsView* view);
    void fill(QGraphicsScene* scene, QGraphicsView* view, const core::LayoutPtr& layout, const core::Graph& graph, bool markNew);

    core::ProgramPtr m_before;
    core::ProgramPtr m_after;
    std::vector<core::AppliedRewrite> m_applied;
    std::map<std::string, std::vector<std::string>> m_oldToNew; // the step's
    CompareWindow* m_programCompare = nullptr;
    int m_step = 0;
    std::optional<DecompComparison> m_comparison;
    QLabel* m_head;
    QComboBox* m_rewrites;
    QLabel* m_beforeLabel;
    QLabel* m_afterLabel;
    QGraphicsScene* m_beforeScene;
    QGraphicsScene* m_afterScene;
    QGraphicsView* m_beforeView;
    QGraphicsView* m_afterView;
    QPlainTextEdit* m_beforeText;
    QPlainTextEdit* m_afterText;
    QFutureWatcher<CompareLayouts> m_watcher;
    quint64 m_generation = 0;
    quint64 m_runningGeneration = 0;
    bool m_pending = false;
};

} // namespace irlens::views
