#include "views/graph/overlay_items.h"

#include "views/graph/graph_items.h"

#include <QEvent>
#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

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

std::vector<OverlayBox::Line> OverlayBox::lines() const {
    QFont noteFont = NodeItem::subtitleFont();
    noteFont.setBold(true);
    std::vector<Line> out;
    out.push_back({{}, m_node->titleFont(), m_title});
    if (const QString shape = QString::fromStdString(m_node->item().subtitle); !shape.isEmpty())
        out.push_back({{}, NodeItem::subtitleFont(), shape});
    out.push_back({{}, noteFont, m_note});
    const QRectF room = rect().adjusted(4, 0, -4, 0);
    double height = 0;
    for (const Line& l : out) height += QFontMetricsF(l.font).height();
    double y = room.top() + std::max(0.0, (room.height() - height) / 2);
    for (Line& l : out) {
        const double h = QFontMetricsF(l.font).height();
        l.rect = QRectF(room.left(), y, room.width(), h);
        y += h;
    }
    return out;
}

void OverlayBox::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*) {
    p->setRenderHint(QPainter::Antialiasing);
    const bool selected = m_node->emphasis() & static_cast<int>(Emphasis::Selected);
    p->setPen(selected ? QPen(QColor(0xff, 0x3d, 0x00), 3.0) : pen());
    p->setBrush(brush());
    p->drawRoundedRect(rect(), 6, 6);
    // the box's own rule: under 0.35 zoom its text is too small to read, and it writes none
    if (option->levelOfDetailFromTransform(p->worldTransform()) < 0.35) return;
    p->setPen(readableTextOn(brush().color()));
    // every font set here: the view does not restore the painter between items (DontSavePainterState)
    for (const Line& l : lines()) {
        p->setFont(l.font);
        p->drawText(l.rect, Qt::AlignCenter, QFontMetricsF(l.font).elidedText(l.text, Qt::ElideMiddle, l.rect.width()));
    }
}

ScaleLegend::ScaleLegend(const QString& objectName, int width, QAbstractScrollArea* view) : QWidget(view), m_viewport(view->viewport()) {
    setObjectName(objectName);
    setAttribute(Qt::WA_TransparentForMouseEvents);
    resize(width, 58);
    m_viewport->installEventFilter(this);
}

void ScaleLegend::setScale(QString title, std::vector<Tick> ticks, double mark) {
    m_title = std::move(title);
    m_ticks = std::move(ticks);
    m_mark = mark;
    update();
}

QPoint ScaleLegend::corner() const {
    const QRect port = m_viewport->geometry();
    return {port.left() + 8, port.bottom() + 1 + 4};
}

void ScaleLegend::place() { move(corner()); }

bool ScaleLegend::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_viewport && (event->type() == QEvent::Resize || event->type() == QEvent::Move)) place();
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
