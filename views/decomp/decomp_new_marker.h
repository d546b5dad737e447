#pragma once
// Marks the nodes the last decomposition step made in a graph scene: each box standing for one of
// them gets NodeItem's "new" state (tag, outline, "added by step N: <rule>" tooltip). Re-applied
// whenever the scene is rebuilt (a new layout) or the pane's new nodes change (step, undo, redo).
// A collapsed module box holding new nodes is marked too.

#include <QObject>
#include <QPointer>

namespace irlens::views {

class DecompPane;
class GraphScene;

class DecompNewNodeMarker : public QObject {
    Q_OBJECT
public:
    DecompNewNodeMarker(DecompPane* pane, GraphScene* scene, QObject* parent = nullptr);
    /// Boxes marked by the last apply().
    int markedCount() const { return m_marked; }

private:
    void apply();

    DecompPane* m_pane;
    QPointer<GraphScene> m_scene;
    int m_marked = 0;
};

} // namespace irlens::views
