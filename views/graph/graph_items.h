#pragma once
// The small items a graph scene is made of, drawn with QPainter (crisp at any zoom / DPI).
// Geometry comes from core/layout; items only paint it.

#include "core/layout/layout_result.h"

#include <QColor>
#include <QGraphicsItem>
#include <QPainterPath>

namespace irlens::views {

/// Below this zoom (a 160-unit box is under ~16 pixels wide) items are drawn plain: boxes as filled
/// rectangles, frames square, edges as hairlines from end to end (or not at all when a pixel or two
/// long); nothing antialiased. The whole of llama_deep expanded has 27,000 items in view.
inline constexpr double kPlainLod = 0.1;

/// Item data keys of a tag an item paints over its box ("new", a comparison's "changed"): where, in item
/// coordinates (QRectF), and its text. Any overlay's tag is found the same way (tests check that no tag
/// covers a module's title).
inline constexpr int kTagRectKey = 1;
inline constexpr int kTagTextKey = 2;

/// Where a tag with `text` in `font` goes on `box`: on its bottom border, at the left. A module's title
/// strip lies above the boxes of its first rank and the title text on top of a box, so the top edge
/// (where a tag above the box covered both) is taken; below the box only edges leave.
QRectF tagRectOn(const QRectF& box, const QString& text, const QFont& font);

/// How an item is emphasised (selection accent, producer/user tint, search outline, symbol match).
enum class Emphasis { None = 0, Selected = 1, Neighbour = 2, SearchHit = 4, Symbol = 8 };

class NodeItem : public QGraphicsItem {
public:
    enum { Type = UserType + 1 };
    /// `fill` is the op family colour, `badge` the IR level letter ('\0' for none).
    NodeItem(const core::LayoutResult& layout, int index, QColor fill, char badge);
    int type() const override { return Type; }
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
    /// The bounding rect of the item a layout box gets (the box and room for the "new" tag).
    static QRectF reachOf(const core::LRect& box);

    int index() const { return m_index; }              // into LayoutResult::graph.items
    const core::VisibleItem& item() const { return m_item; }
    /// Repaints the box when the flags change; `repaint` false leaves that to the caller (one scene
    /// update for thousands of boxes, cheaper than one item update each). Returns whether they changed.
    bool setEmphasis(int flags, bool repaint = true);
    int emphasis() const { return m_emphasis; }
    /// The chip under a scene point, -1 if none.
    int chipAt(const QPointF& scenePos) const;
    /// Where a chip (an index into item().chips) is drawn, in scene coordinates; empty if not drawn.
    QRectF chipRect(int chip) const;
    /// Marks the box as made by decomposition step `step` (1-based; 0 clears): a notch in its top-left
    /// corner in newNodeColor() (the fill keeps the op family's colour), with `tagged` a "new" tag on its
    /// bottom border too, and `note` ("added by step 2: linear → t + addmm") in the tooltip.
    void setNewMark(int step, const QString& note, bool tagged = true);
    int newStep() const { return m_newStep; }
    bool newTagged() const { return m_newStep > 0 && m_newTagged; }
    /// The run's time for the box ("self time 1.2 ms (4.0% of the run)"), "" for none: a tooltip line.
    void setTimeNote(const QString& note) { m_timeNote = note; }
    /// The tooltip: title, subtitle, each chip's tip, the new-node note and the time note, wrapped under
    /// 600 pixels (wrappedTip). Composed when asked (GraphScene::helpEvent), not stored: a step marks
    /// thousands of boxes at once.
    QString toolTipText() const;
    /// The fonts of the title and of the subtitle (the op's output shape) in scene units; overlays
    /// that cover the box write its text in the same.
    QFont titleFont() const;
    static QFont subtitleFont();
    QColor fill() const { return m_fill; }
    /// The box itself (the bounding rect adds room for the tag), in item coordinates.
    QRectF boxRect() const { return m_rect; }
    /// Where the title's text is drawn (its elided width, centred) and the level badge (empty when none).
    QRectF titleRect() const;
    QRectF badgeRect() const;

private:
    // The phases of paint(): outline and fill, the "new" tag, title / subtitle / badge, chips.
    void paintShape(QPainter* p, const QColor& border) const;
    void paintNewMark(QPainter* p) const;
    void paintText(QPainter* p, const QFont& smallFont) const;
    void paintChips(QPainter* p, const QFont& smallFont) const;
    QPen outlinePen(const QColor& border) const;

    core::VisibleItem m_item;
    std::vector<core::ChipBox> m_chips;
    QRectF m_rect;
    int m_index;
    QColor m_fill;
    char m_badge;
    int m_emphasis = 0;
    int m_newStep = 0;
    bool m_newTagged = true;
    QString m_newNote;
    QString m_timeNote;
};

class EdgeItem : public QGraphicsItem {
public:
    enum { Type = UserType + 2 };
    EdgeItem(const core::LayoutResult& layout, int index);
    int type() const override { return Type; }
    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
    int index() const { return m_index; }
    void setHighlighted(bool on);
    /// Where the shape label is drawn (empty when there is none or it is left off).
    QRectF labelRect() const;
    /// Leaves the label off (where it would lie on another); the tooltip keeps it.
    void setLabelShown(bool shown) { m_labelShown = shown; }
    /// A rect holding the bounding rect of edge `index`'s item, from its points without building the
    /// path (a Bézier curve stays inside its control points).
    static QRectF reachOf(const core::LayoutResult& layout, int index);

private:
    QPainterPath m_path;
    QPolygonF m_arrow;
    QString m_label;
    QPointF m_labelPos;
    bool m_labelShown = true;
    QRectF m_bounds;
    int m_index;
    bool m_highlighted = false;
};

/// A module's frame. In a scene it holds the items inside it as children (ItemContainsChildrenInShape):
/// the scene's index then holds only the top-level items, and a frame out of view is skipped with
/// all it holds. `reach` is a rect holding every child's bounding rect.
class ClusterItem : public QGraphicsItem {
public:
    enum { Type = UserType + 3 };
    explicit ClusterItem(const core::LayoutCluster& cluster, const QRectF& reach = QRectF());
    int type() const override { return Type; }
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
    int module() const { return m_module; }
    /// The title strip: a double-click there collapses the module.
    bool inTitle(const QPointF& scenePos) const;
    /// Where the title's text is drawn.
    QRectF titleRect() const;
    /// The frame itself (the bounding rect holds everything inside it).
    QRectF frameRect() const { return m_rect; }

private:
    QRectF m_rect;
    QRectF m_reach;
    QString m_label;
    int m_module;
    int m_depth;
};

/// Text colour that stays readable on `fill`, whatever the theme.
QColor readableTextOn(const QColor& fill);
/// The colour of the mark of nodes made by the last decomposition step: a magenta far in hue from
/// every op family's fill (the prims teal among them), the search-hit amber, the symbol orange and
/// the selection accent; lighter on dark themes.
QColor newNodeColor();
/// The op family fill adapted to the palette (darker on dark themes).
QColor themedFill(unsigned rgb, bool darkTheme);

} // namespace irlens::views
