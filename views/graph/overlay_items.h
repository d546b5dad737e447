#pragma once
// What the graph's colour overlays (heatmap_overlay.h: time and memory; numeric_overlay.h: error)
// draw: a box over a graph box in the overlay's colour, and the legend in the canvas's corner that
// reads the colours back.

#include <QGraphicsRectItem>
#include <QString>
#include <QWidget>

#include <vector>

namespace irlens::views {

class NodeItem;

/// Viridis at t in [0, 1] (0 = dark purple, 1 = yellow): the scale of every colour overlay.
QColor viridis(double t);

/// The box an overlay puts over a graph box: its colour, the box's title and, under it in bold, what
/// the colour stands for, at the title's size (a corner label is too small to read at the zoom a
/// graph is read at). Clicks fall through to the box underneath, which selects its node.
class OverlayBox : public QGraphicsRectItem {
public:
    OverlayBox(const QRectF& rect, QColor color, QString title, QString note, NodeItem* parent);
    void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
    /// The line under the title ("3.06 MiB · 6.1%").
    const QString& note() const { return m_note; }

private:
    QString m_title, m_note;
    NodeItem* m_node;
};

/// An overlay's legend, in the bottom-left corner of the canvas's viewport (it follows the viewport's
/// size): a title, the viridis bar, labelled ticks under it and, optionally, a notch through the bar.
class ScaleLegend : public QWidget {
public:
    struct Tick {
        double at;     // 0 (the bar's left end) to 1 (its right end)
        QString label;
    };
    ScaleLegend(const QString& objectName, int width, QWidget* viewport);
    /// `mark` in [0, 1]: a notch through the bar there (the numeric overlay's tolerance); < 0: none.
    void setScale(QString title, std::vector<Tick> ticks, double mark = -1);
    QString title() const { return m_title; }
    /// To the viewport's bottom-left corner.
    void place();

protected:
    void paintEvent(QPaintEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QString m_title;
    std::vector<Tick> m_ticks;
    double m_mark = -1;
};

} // namespace irlens::views
