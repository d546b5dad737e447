#include "views/graph/overlay_items.h"

#include "views/graph/graph_items.h"

#include <QEvent>
#include <QPainter>

#include <algorithm>
#include <array>
#include <cmath>

namespace irlens::views {

QColor viridis(double t) {
    // a few samples of matplotlib's viridis, linearly interpolated
    static constexpr std::array<std::array<double, 3>, 9> stops{{{68, 1, 84},
                                                                  {71, 44, 122},
                                                                  {59, 81, 139},
                                                                  {44, 113, 142},
                                                                  {33, 144, 141},
                                                                  {39, 173, 129},
                                                                  {92, 200, 99},
                                                                  {170, 220, 50},
                                                                  {253, 231, 37}}};
    t = std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0) * (stops.size() - 1);
    const size_t i = std::min(static_cast<size_t>(t), stops.size() - 2);
    const double f = t - static_cast<double>(i);
    auto mix = [&](int c) { return static_cast<int>(std::lround(stops[i][c] * (1 - f) + stops[i + 1][c] * f)); };
    return QColor(mix(0), mix(1), mix(2));
}


OverlayBox::OverlayBox(const QRectF& rect, QColor color, QString title, QString note, NodeItem* parent)
    : QGraphicsRectItem(rect, parent), m_title(std::move(title)), m_note(std::move(note)), m_node(parent) {
    setBrush(color);
    setPen(QPen(color.darker(150), 1.2));
    setAcceptedMouseButtons(Qt::NoButton); // clicks fall through to the box underneath
    setAcceptHoverEvents(false);
}

void OverlayBox::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) {
    p->setRenderHint(QPainter::Antialiasing);
    const bool selected = m_node->emphasis() & static_cast<int>(Emphasis::Selected);
    p->setPen(selected ? QPen(QColor(0xff, 0x3d, 0x00), 3.0) : pen());
    p->setBrush(brush());
    p->drawRoundedRect(rect(), 6, 6);
    p->setPen(readableTextOn(brush().color()));
    const QRectF text = rect().adjusted(4, 1, -4, -1);
    const QRectF top(text.left(), text.top(), text.width(), text.height() / 2);
    const QRectF bottom(text.left(), text.center().y(), text.width(), text.height() / 2);
    p->drawText(top, Qt::AlignHCenter | Qt::AlignBottom, m_title);
    QFont f = p->font();
    f.setBold(true);
    p->setFont(f);
    p->drawText(bottom, Qt::AlignHCenter | Qt::AlignTop, m_note);
}

ScaleLegend::ScaleLegend(const QString& objectName, int width, QWidget* viewport) : QWidget(viewport) {
    setObjectName(objectName);
    setAttribute(Qt::WA_TransparentForMouseEvents);
    resize(width, 58);
    viewport->installEventFilter(this);
}

void ScaleLegend::setScale(QString title, std::vector<Tick> ticks, double mark) {
    m_title = std::move(title);
    m_ticks = std::move(ticks);
    m_mark = mark;
    update();
}

void ScaleLegend::place() { move(8, parentWidget()->height() - height() - 8); }

bool ScaleLegend::eventFilter(QObject* watched, QEvent* event) {
    if (watched == parentWidget() && event->type() == QEvent::Resize) place();
    return QWidget::eventFilter(watched, event);
}

void ScaleLegend::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(palette().color(QPalette::Mid));
    QColor back = palette().color(QPalette::Base);
    back.setAlpha(230);
    p.setBrush(back);
    p.drawRoundedRect(rect().adjusted(0, 0, -1, -1), 5, 5);
    p.setPen(palette().color(QPalette::Text));
    p.drawText(QRect(8, 3, width() - 16, 16), Qt::AlignLeft | Qt::AlignVCenter, m_title);
    const QRect bar(10, 21, width() - 20, 12);
    for (int x = 0; x < bar.width(); ++x) {
        p.setPen(viridis(static_cast<double>(x) / std::max(1, bar.width() - 1)));
        p.drawLine(bar.left() + x, bar.top(), bar.left() + x, bar.bottom());
    }
    p.setPen(palette().color(QPalette::Text));
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 0.85);
    p.setFont(f);
    for (const Tick& t : m_ticks) {
        const int x = bar.left() + static_cast<int>(std::lround(bar.width() * t.at));
        p.drawLine(x, bar.bottom() + 1, x, bar.bottom() + 3);
        const int w = QFontMetrics(f).horizontalAdvance(t.label);
        p.drawText(std::clamp(x - w / 2, 2, width() - w - 2), bar.bottom() + 16, t.label);
    }
    if (m_mark >= 0) {
        const int x = bar.left() + static_cast<int>(std::lround(bar.width() * m_mark));
        p.setPen(QPen(palette().color(QPalette::Text), 2));
        p.drawLine(x, bar.top() - 3, x, bar.bottom() + 3);
    }
}

} // namespace irlens::views
