#pragma once
// What the numeric pass of a run found, drawn on the graph (views/run/numerics_controller.h):
//  * the error overlay (View › Numeric error overlay, on after a comparison): each op box, and each
//    collapsed module box with the worst of the nodes inside, recoloured by its value's normwise
//    relative error against the reference on viridis over a log scale from 1e-8 to 1 (a shape or dtype
//    mismatch at the top), the error written under its title; a legend in the canvas's corner reads
//    the colours back and marks the tolerance. Boxes whose values the reference lacks keep their colour.
//  * the non-finite marker, whenever a run made a NaN or an infinity: the node that made the first one
//    from finite inputs gets a red outline and a "NaN" (or "inf") tag, and says so in its tooltip.

#include <QColor>
#include <QObject>

#include <memory>
#include <unordered_map>

class QGraphicsItem;
class QWidget;

namespace irlens::core {
struct NumericRun;
}

namespace irlens::views {

class Document;
class GraphPane;
class NodeItem;
class ScaleLegend;

/// Decades of error the overlay's scale spans below 1: 1e-8 and below is its coolest colour.
constexpr double kErrorDecades = 8.0;
/// Where a normwise relative error sits on the scale: 0 at and below 1e-8, 1 at 1 and above (and for
/// infinity and NaN).
double errorPosition(double normRel);

class NumericOverlay : public QObject {
    Q_OBJECT
public:
    NumericOverlay(Document* document, GraphPane* graph, QObject* parent = nullptr);

    bool isEnabled() const { return m_enabled; }
    void setEnabled(bool on);
    /// The colour the overlay gives the box of top-level node `node` (invalid when it is not coloured).
    QColor colorOfNode(int node) const;
    /// Boxes the overlay colours.
    int coloredCount() const { return static_cast<int>(m_overlays.size()); }
    /// The node marked as making the first NaN or infinity (-1 when none is, or it has no box).
    int markedNode() const { return m_markedNode; }
    QGraphicsItem* marker() const { return m_marker; }
    QWidget* legend() const;

private:
    void apply();
    void clearItems();
    void colourBoxes(const core::NumericRun& run);
    void markNonFinite(const core::NumericRun& run);

    Document* m_doc;
    GraphPane* m_graph;
    bool m_enabled = false;
    std::unordered_map<const NodeItem*, QGraphicsItem*> m_overlays;
    QGraphicsItem* m_marker = nullptr;
    int m_markedNode = -1;
    ScaleLegend* m_legend = nullptr;
};

} // namespace irlens::views
