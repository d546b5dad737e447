#pragma once
// Marks the nodes the last decomposition step made (the Document's newNodes()) in a graph scene:
// each box standing for one of them gets NodeItem's "new" state (a notch in its corner, its fill
// keeping the op family's colour, and an "added by step N: <rule>" tooltip). A few marked boxes also
// carry a "new" tag each; when many are new (a whole level stepped) the tags would crowd the drawing,
// and summary() says it once instead. Re-applied whenever the scene is rebuilt (a new layout) or the
// Document's new nodes change (step, undo, redo, another program). A collapsed module box holding new
// nodes is marked too. Every GraphScene has one.

#include <QObject>
#include <QString>

namespace irlens::views {

class GraphScene;

class NewNodeMarker : public QObject {
    Q_OBJECT
public:
    /// With more marked boxes than this, none carries a "new" tag.
    static constexpr int kTagEachUpTo = 16;

    explicit NewNodeMarker(GraphScene* scene);
    /// Boxes marked by the last apply().
    int markedCount() const { return m_marked; }
    /// "step 2 made 412 of the 430 boxes", "" when no box is marked.
    QString summary() const { return m_summary; }

signals:
    /// The marks were applied again (summary() may have changed).
    void applied();

private:
    void apply();

    GraphScene* m_scene;
    int m_marked = 0;
    QString m_summary;
};

} // namespace irlens::views
