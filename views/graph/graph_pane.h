#pragma once
// The central pane: breadcrumb (graph › cond_1 · true_graph_0) and search bar (Ctrl+F, Enter /
// Shift+Enter walk the hits, count shown, and the instance a hit in a folded run switched to), under
// them the instance shown of each folded run of repeated blocks (FoldBar), after a decomposition step
// a line saying what it made ("◤ new: step 2 made 412 of the 430 boxes"), and the graph canvas with
// its minimap.

#include "views/graph/graph_navigation.h"

#include <QWidget>

class QCheckBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QToolButton;

namespace irlens::views {

class Document;
class FoldBar;
class GraphScene;
class GraphView;

class GraphPane : public QWidget {
    Q_OBJECT
public:
    explicit GraphPane(Document* document, QWidget* parent = nullptr);

    GraphScene* scene() const { return m_scene; }
    GraphView* view() const { return m_view; }
    QLineEdit* searchField() const { return m_search; }
    FoldBar* foldBar() const { return m_folds; }
    /// The search bar's count ("2 of 128 · showing layers.1").
    QString searchCountText() const;
    /// What the last decomposition step made, said once for the whole drawing (hidden when nothing is new).
    QLabel* newNodesNote() const { return m_newNodes; }

    /// Focuses the search field (Ctrl+F).
    void focusSearch();
    /// Focuses the instance box of the first folded run in view (Ctrl+L); false when none is.
    bool focusInstance();
    /// Runs a search now (also what typing does); returns the hit count.
    int search(const QString& text, bool regex = false);
    /// Selects the next (or previous) hit, opening modules and entering nothing; returns its node.
    int nextHit(bool backwards = false);
    int currentHit() const { return m_current; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuildBreadcrumb();
    void addSiblingSubgraphs();
    void updateCount();

    Document* m_doc;
    GraphScene* m_scene;
    GraphView* m_view;
    QHBoxLayout* m_crumbs;
    FoldBar* m_folds;
    QLineEdit* m_search;
    QCheckBox* m_regex;
    QLabel* m_count;
    QLabel* m_newNodes;
    int m_current = -1;
    void prepareIndex();

    NodeSearchIndex m_index; // of the graph on screen, rebuilt when it changes
    const core::ModuleTree* m_indexPending = nullptr; // the tree a worker is indexing now
    quint64 m_indexGeneration = 0;                     // counts programs shown
};

} // namespace irlens::views
