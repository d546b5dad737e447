#pragma once
// Marks the nodes the last decomposition step made (the Document's newNodes()) in a graph scene:
// each box standing for one of them gets NodeItem's "new" state (tag, outline, "added by step N:
// <rule>" tooltip). Re-applied whenever the scene is rebuilt (a new layout) or the Document's new
// nodes change (step, undo, redo, another program). A collapsed module box holding new nodes is
// marked too. Every GraphScene has one.

#include <QObject>

namespace irlens::views {

class GraphScene;

class NewNodeMarker : public QObject {
    Q_OBJECT
public:
    explicit NewNodeMarker(GraphScene* scene);
    /// Boxes marked by the last apply().
    int markedCount() const { return m_marked; }

private:
    void apply();

    GraphScene* m_scene;
    int m_marked = 0;
};

} // namespace irlens::views
