#pragma once
// Colours one side of a comparison on its graph scene: an outline and a corner tag on every box
// whose node is changed, added or removed (a collapsed module's box takes the mark of what it
// folds), and the first numeric divergence outlined apart. Redone whenever the scene rebuilds.

#include "core/compare/program_match.h"

#include <QObject>

#include <vector>

namespace irlens::views {

class Document;
class GraphScene;
class NodeItem;

class DiffOverlay : public QObject {
    Q_OBJECT
public:
    DiffOverlay(Document* document, GraphScene* scene, QObject* parent = nullptr);

    /// One kind per node of the document's top-level graph (empty clears), and the divergent node (-1: none).
    void setStates(std::vector<core::MatchKind> states, int divergentNode);
    /// The mark a box carries: -1 none, else static_cast<int>(MatchKind); tests read it.
    int markOf(const NodeItem* item) const;
    bool isDivergent(const NodeItem* item) const;

private:
    void apply();

    Document* m_doc;
    GraphScene* m_scene;
    std::vector<core::MatchKind> m_states;
    int m_divergent = -1;
};

} // namespace irlens::views
