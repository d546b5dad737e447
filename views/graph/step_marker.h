#pragma once
// Run › Step node drawn on the graph (the Document's stepping()): the boxes of nodes already run are
// tinted, the box of the node the next step runs is outlined. A collapsed module's box is tinted once
// every node inside it has run, and shows how far stepping is through it as a bar along its bottom
// until then; it is outlined while it holds the next node. In a folded run of repeated blocks a box
// counts the nodes of the instance it shows. Only the top-level graph is stepped, so a subgraph shows
// no marks. Re-applied when the scene is rebuilt and when stepping moves; a restart or another
// program takes the marks away. Every GraphScene has one.

#include <QGraphicsItem>
#include <QObject>

#include <unordered_map>

namespace irlens::views {

class GraphScene;
class NodeItem;

/// The mark a StepMarker puts over a box (a child of its NodeItem).
class StepMark : public QGraphicsItem {
public:
    enum { Type = UserType + 20 };
    explicit StepMark(NodeItem* box);
    int type() const override { return Type; }
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    /// The share of the box's nodes that have run (1: tinted; between 0 and 1: a bar), and whether
    /// it holds the next node (outlined).
    void setState(double done, bool next);
    double done() const { return m_done; }
    bool isNext() const { return m_next; }

    /// The tint of run boxes and the outline of the next one (Dark2 purple and magenta, apart in hue
    /// from the selection blue, the search amber and the new-node teal; lighter on dark themes).
    static QColor ranColor();
    static QColor nextColor();

private:
    QRectF m_box;
    double m_done = 0;
    bool m_next = false;
};

class StepMarker : public QObject {
    Q_OBJECT
public:
    explicit StepMarker(GraphScene* scene);
    /// The box of the node the next step runs (null when none is drawn or no stepping goes on).
    const NodeItem* nextBox() const { return m_next; }

private:
    void apply();

    GraphScene* m_scene;
    std::unordered_map<NodeItem*, StepMark*> m_marks; // boxes of the scene's current items
    const NodeItem* m_next = nullptr;
};

} // namespace irlens::views
