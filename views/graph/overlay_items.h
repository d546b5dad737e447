#pragma once
// What the graph's colour overlays (heatmap_overlay.h: time and memory; numeric_overlay.h: error)
// draw: a box over a graph box in the overlay's colour, and the legend in the canvas's corner that
// reads the colours back.

#include <QAbstractScrollArea>
#include <QFont>
#include <QGraphicsRectItem>
#include <QString>
#include <QWidget>

#include <vector>

namespace irlens::views {

class NodeItem;

/// Viridis at t in [0, 1] (0 = dark purple, 1 = yellow): the scale of every colour overlay.
QColor viridis(double t);

/// The box an overlay puts over a graph box, exactly over it (edge labels and module titles around it
/// stay in view): its colour, the box's title and its shape line in the box's own fonts, and under them
/// in bold at the shape line's size what the colour stands for (a corner label is too small to read at
/// the zoom a graph is read at). Like the box, it writes nothing when zoomed out too far to read.
/// Clicks fall through to the box underneath, which selects its node.
class OverlayBox : public QGraphicsRectItem {
public:
    OverlayBox(const QRectF& rect, QColor color, QString title, QString note, NodeItem* parent);
    void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
    /// The line under the title ("3.06 MiB · 6.1%").
    const QString& note() const { return m_note; }

    /// A line of text the box writes: where (item coordinates), in which font, what.
    struct Line {
        QRectF rect;
        QFont font;
        QString text;
    };
    /// The title, the shape line (when the box has one) and the note, centred top to bottom.
    std::vector<Line> lines() const;

private:
    QString m_title, m_note;
    NodeItem* m_node;
};

/// An overlay's legend, over the bottom-left corner of a view's viewport at every size, zoom and
/// scroll: a title, the viridis bar, labelled ticks under it and, optionally, a notch through the bar.
/// It is a child of the view, not of its viewport: a graphics view scrolls its viewport's child
/// widgets and their pixels with the drawing (QWidget::scroll), and the view's own children stay put.
class ScaleLegend : public QWidget {
public:
    struct Tick {
        double at;     // 0 (the bar's left end) to 1 (its right end)
        QString label;
    };
    ScaleLegend(const QString& objectName, int width, QAbstractScrollArea* view);
    /// `mark` in [0, 1]: a notch through the bar there (the numeric overlay's tolerance); < 0: none.
    void setScale(QString title, std::vector<Tick> ticks, double mark = -1);
    QString title() const { return m_title; }
    const std::vector<Tick>& ticks() const { return m_ticks; }
    /// Below the viewport's bottom-left corner, in the band the graph view keeps for legends beside the
    /// drawing, so that it covers no box.
    void place();
    /// Where place() puts it, in the view's coordinates.
    QPoint corner() const;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QWidget* m_viewport; // the view's viewport, whose corner the legend keeps
    QString m_title;
    std::vector<Tick> m_ticks;
    double m_mark = -1;
};

} // namespace irlens::views
