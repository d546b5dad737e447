#include "views/graph/graph_items.h"

#include "views/qstring_util.h"

#include <QApplication>
#include <QPainter>
#include <QPalette>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <cmath>

namespace irlens::views {

using namespace irlens::core;

namespace {

QPointF qp(const LPoint& p) { return {p.x, p.y}; }
QRectF qr(const LRect& r) { return {r.x, r.y, r.w, r.h}; }

QPalette palette() { return QApplication::palette(); }

bool darkTheme() { return palette().color(QPalette::Window).lightness() < 128; }

// room for the tags on the bottom border, as much above so that the rect keeps the box's centre
QRectF withTagRoom(const QRectF& box) { return box.adjusted(-6, -10, 4, 10); }

// Where an edge's label may paint, from its length in characters.
QRectF labelRoom(const QPointF& pos, qsizetype chars) { return QRectF(pos.x() + 2, pos.y() - 8, chars * 5.0 + 8, 14); }

QString elide(const QFontMetricsF& fm, const QString& s, double width) {
    return fm.elidedText(s, Qt::ElideMiddle, width);
}

QFont titleFontOf(const VisibleItem& item) {
    QFont f = QApplication::font();
    f.setPointSizeF(9);
    f.setBold(item.kind != VisibleItem::Kind::Op || item.isHop);
    return f;
}

QFont subtitleFontOf() {
    QFont f = QApplication::font();
    f.setBold(false);
    f.setPointSizeF(7.5);
    return f;
}

QFont edgeLabelFont() {
    QFont f = QApplication::font();
    f.setPointSizeF(6.5);
    return f;
}

QFont frameTitleFont() {
    QFont f = QApplication::font();
    f.setPointSizeF(7.5);
    f.setBold(true);
    return f;
}

QFont newTagFont() {
    QFont f = QApplication::font();
    f.setPointSizeF(6.0);
    f.setBold(true);
    return f;
}

} // namespace

QRectF tagRectOn(const QRectF& box, const QString& text, const QFont& font) {
    const double h = QFontMetricsF(font).height() + 1;
    return QRectF(box.left() + 6, box.bottom() - h / 2 + 1, QFontMetricsF(font).horizontalAdvance(text) + 8, h);
}

QColor readableTextOn(const QColor& fill) {
    // relative luminance: dark text on pale fills, light text on dark ones
    double l = 0.2126 * fill.redF() + 0.7152 * fill.greenF() + 0.0722 * fill.blueF();
    return l > 0.55 ? QColor(20, 20, 20) : QColor(240, 240, 240);
}

QColor newNodeColor() {
    // PiYG's magenta: no family fill is near it (the pastel fills are lighter, prims is teal)
    return darkTheme() ? QColor(0xf1, 0x8e, 0xc6) : QColor(0xc5, 0x1b, 0x7d);
}

QColor themedFill(unsigned rgb, bool dark) {
    QColor c(QRgb(0xff000000u | rgb));
    return dark ? c.darker(260) : c;
}

// ---------------------------------------------------------------------------- NodeItem

NodeItem::NodeItem(const LayoutResult& layout, int index, QColor fill, char badge)
    : m_item(layout.graph.items[static_cast<size_t>(index)]),
      m_chips(layout.chips[static_cast<size_t>(index)]),
      m_rect(qr(layout.boxes[static_cast<size_t>(index)])),
      m_index(index),
      m_fill(fill),
      m_badge(badge) {
    setFlag(ItemIsSelectable, false);
    setAcceptHoverEvents(true);
    setZValue(2);
}

void NodeItem::setNewMark(int step, const QString& note, bool tagged) {
    m_newNote = step > 0 ? note : QString();
    if (step == m_newStep && tagged == m_newTagged) return;
    m_newStep = step;
    m_newTagged = tagged;
    const bool tag = step > 0 && tagged;
    setData(kTagRectKey, tag ? QVariant(tagRectOn(m_rect, QStringLiteral("new"), newTagFont())) : QVariant());
    setData(kTagTextKey, tag ? QVariant(QStringLiteral("new")) : QVariant());
    update();
}

QFont NodeItem::titleFont() const { return titleFontOf(m_item); }

QFont NodeItem::subtitleFont() { return subtitleFontOf(); }

QRectF NodeItem::badgeRect() const { return m_badge ? QRectF(m_rect.right() - 15, m_rect.top() + 3, 12, 12) : QRectF(); }

// The title centred between the left edge and the badge (or the right edge), cut in the middle to fit.
QRectF NodeItem::titleRect() const {
    const double left = m_rect.left() + 6, right = m_badge ? m_rect.right() - 17 : m_rect.right() - 6;
    const QFontMetricsF fm(titleFontOf(m_item));
    const double w = std::min(right - left, fm.horizontalAdvance(QString::fromStdString(m_item.title)));
    return QRectF((left + right - w) / 2, m_rect.top() + 3, w, 16);
}

QString NodeItem::toolTipText() const {
    QString tip = QString::fromStdString(m_item.title);
    if (!m_item.subtitle.empty()) tip += "\n" + QString::fromStdString(m_item.subtitle);
    for (const auto& c : m_item.chips) tip += "\n• " + QString::fromStdString(c.tip);
    if (!m_newNote.isEmpty()) tip += "\n" + m_newNote;
    if (!m_timeNote.isEmpty()) tip += "\n" + m_timeNote;
    return wrappedTip(tip);
}

QRectF NodeItem::boundingRect() const { return withTagRoom(m_rect); }

QRectF NodeItem::reachOf(const LRect& box) { return withTagRoom(qr(box)); }

bool NodeItem::setEmphasis(int flags, bool repaint) {
    if (flags == m_emphasis) return false;
    m_emphasis = flags;
    if (repaint) update();
    return true;
}

int NodeItem::chipAt(const QPointF& scenePos) const {
    for (size_t k = 0; k < m_chips.size(); ++k)
        if (qr(m_chips[k].box).contains(scenePos)) return m_chips[k].chip;
    return -1;
}

QRectF NodeItem::chipRect(int chip) const {
    for (const auto& cb : m_chips)
        if (cb.chip == chip) return qr(cb.box);
    return {};
}

QPen NodeItem::outlinePen(const QColor& border) const {
    const QPalette pal = palette();
    QPen pen(border, 1.2);
    if (m_item.kind == VisibleItem::Kind::Module) pen.setStyle(Qt::DashLine);
    if (m_emphasis & int(Emphasis::Neighbour)) pen = QPen(pal.color(QPalette::Highlight).lighter(darkTheme() ? 100 : 130), 2.2);
    if (m_emphasis & int(Emphasis::Symbol)) pen = QPen(QColor(0xd9, 0x5f, 0x02), 2.6);
    if (m_emphasis & int(Emphasis::SearchHit)) pen = QPen(QColor(0xe6, 0xab, 0x02), 3.0, Qt::DashLine);
    if (m_emphasis & int(Emphasis::Selected)) pen = QPen(pal.color(QPalette::Highlight), 3.2);
    return pen;
}

void NodeItem::paintShape(QPainter* p, const QColor& border) const {
    double radius = 6;
    if (m_item.kind == VisibleItem::Kind::Input || m_item.kind == VisibleItem::Kind::Output) radius = m_rect.height() / 2;
    else if (m_item.kind == VisibleItem::Kind::Module) radius = 3;
    p->setRenderHint(QPainter::Antialiasing, true);
    p->setPen(outlinePen(border));
    p->setBrush(m_fill);
    p->drawRoundedRect(m_rect, radius, radius);
    if (m_item.isHop) {
        // higher-order ops are double-bordered
        p->setBrush(Qt::NoBrush);
        p->setPen(QPen(border, 1.0));
        p->drawRoundedRect(m_rect.adjusted(3, 3, -3, -3), radius - 2, radius - 2);
    }
}

// The mark of a node the last decomposition step made: a notch in the box's top-left corner (inside
// the box, clear of the title and the badge, the fill keeping the family's colour) and, unless many
// boxes are new (NewNodeMarker says it once then), a "new" tag on the bottom border (tagRectOn).
void NodeItem::paintNewMark(QPainter* p) const {
    const QColor c = newNodeColor();
    p->setPen(Qt::NoPen);
    p->setBrush(c);
    const double leg = std::min(11.0, m_rect.height() / 3); // clear of a title as wide as the box allows
    // the corner point on the rounded corner's arc (radius 6, at 45°), so no clip is needed
    const QPointF corner = m_rect.topLeft();
    p->drawPolygon(QPolygonF({corner + QPointF(1.8, 1.8), corner + QPointF(leg, 0), corner + QPointF(0, leg)}));
    if (!m_newTagged) return;
    const QFont tf = newTagFont();
    const QRectF tag = tagRectOn(m_rect, QStringLiteral("new"), tf);
    p->setBrush(c);
    p->drawRoundedRect(tag, 3, 3);
    p->setPen(readableTextOn(c));
    p->setFont(tf);
    p->drawText(tag, Qt::AlignCenter, QStringLiteral("new"));
}

void NodeItem::paintText(QPainter* p, const QFont& smallFont) const {
    const QColor text = readableTextOn(m_fill);
    const QFont titleFont = titleFontOf(m_item);
    const double textTop = m_rect.top() + 3;
    const QRectF title = titleRect();
    p->setPen(text);
    p->setFont(titleFont);
    p->drawText(title.adjusted(-1, 0, 1, 0), Qt::AlignCenter, elide(QFontMetricsF(titleFont), QString::fromStdString(m_item.title), title.width() + 1));
    p->setFont(smallFont);
    p->drawText(QRectF(m_rect.left() + 8, textTop + 15, m_rect.width() - 16, 14), Qt::AlignCenter,
                elide(QFontMetricsF(smallFont), QString::fromStdString(m_item.subtitle), m_rect.width() - 16));
    if (!m_badge) return;
    // IR level badge in the top-right corner
    const QRectF b = badgeRect();
    p->setPen(Qt::NoPen);
    p->setBrush(text);
    p->drawEllipse(b);
    p->setPen(m_fill);
    QFont bf = smallFont;
    bf.setBold(true);
    bf.setPointSizeF(6.5);
    p->setFont(bf);
    p->drawText(b, Qt::AlignCenter, QString(QChar(m_badge)));
}

// Chips: parameters, buffers, constants and far-away values read by this node.
void NodeItem::paintChips(QPainter* p, const QFont& smallFont) const {
    QFont chipFont = smallFont;
    chipFont.setPointSizeF(6.5);
    p->setFont(chipFont);
    QFontMetricsF fmChip(chipFont);
    const bool dark = darkTheme();
    for (const auto& cb : m_chips) {
        const Chip& c = m_item.chips[static_cast<size_t>(cb.chip)];
        QColor chipFill;
        switch (c.kind) {
        case Chip::Kind::Parameter: chipFill = QColor(0x6b, 0xae, 0xd6); break;
        case Chip::Kind::Buffer: chipFill = QColor(0x74, 0xc4, 0x76); break;
        case Chip::Kind::Constant: chipFill = QColor(0xbc, 0xbd, 0xdc); break;
        case Chip::Kind::FanOut: chipFill = QColor(0xfd, 0xae, 0x6b); break;
        case Chip::Kind::Subgraph: chipFill = QColor(0xfd, 0xd4, 0x9e); break;
        case Chip::Kind::Other: chipFill = QColor(0xd9, 0xd9, 0xd9); break;
        }
        if (dark) chipFill = chipFill.darker(170);
        QRectF r = qr(cb.box);
        p->setPen(QPen(chipFill.darker(140), 0.8));
        p->setBrush(chipFill);
        p->drawRoundedRect(r, 3, 3);
        p->setPen(readableTextOn(chipFill));
        p->drawText(r.adjusted(3, 0, -3, 0), Qt::AlignCenter, elide(fmChip, QString::fromStdString(c.label), r.width() - 6));
    }
}

void NodeItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*) {
    const double lod = option->levelOfDetailFromTransform(p->worldTransform());
    if (lod < kPlainLod) {
        // a few pixels wide: a plain fill, the emphasis colour when outlined (search hits stay visible)
        p->setRenderHint(QPainter::Antialiasing, false);
        const QColor fill = m_emphasis ? outlinePen(m_fill).color() : m_fill;
        p->fillRect(m_rect, fill);
        return;
    }
    const QColor border = darkTheme() ? m_fill.lighter(170) : m_fill.darker(160);
    paintShape(p, border);
    if (m_newStep > 0) paintNewMark(p);
    if (lod < 0.35) return; // too small to read: shapes only
    const QFont smallFont = subtitleFontOf();
    paintText(p, smallFont);
    paintChips(p, smallFont);
}

// ---------------------------------------------------------------------------- EdgeItem

EdgeItem::EdgeItem(const LayoutResult& layout, int index) : m_index(index) {
    const LayoutEdge& e = layout.edges[static_cast<size_t>(index)];
    const VisibleEdge& ve = layout.graph.edges[static_cast<size_t>(e.edge)];
    if (!e.points.empty()) {
        m_path.moveTo(qp(e.points.front()));
        for (size_t k = 1; k + 2 < e.points.size(); k += 3)
            m_path.cubicTo(qp(e.points[k]), qp(e.points[k + 1]), qp(e.points[k + 2]));
    }
    if (e.arrow && !e.points.empty()) {
        QPointF tip = qp(e.arrowTip), base = qp(e.points.back());
        QPointF d = tip - base;
        double len = std::hypot(d.x(), d.y());
        if (len < 1e-6) d = {0, 1}, len = 1;
        QPointF n(-d.y() / len * 3.5, d.x() / len * 3.5);
        m_path.lineTo(tip);
        m_arrow << tip << base + n << base - n;
    }
    m_label = QString::fromStdString(ve.label);
    m_labelPos = qp(e.labelPos);
    m_bounds = m_path.boundingRect().united(m_arrow.boundingRect()).adjusted(-4, -4, 4, 4);
    if (!m_label.isEmpty()) m_bounds = m_bounds.united(labelRoom(m_labelPos, m_label.size()));
    setZValue(1);
    setToolTip(wrappedTip(QString::fromStdString(ve.value) + "  " + m_label));
}

QRectF EdgeItem::boundingRect() const { return m_bounds; }

QRectF EdgeItem::labelRect() const {
    if (m_label.isEmpty() || !m_labelShown) return {};
    return QRectF(m_labelPos.x() + 3, m_labelPos.y() - 7, QFontMetricsF(edgeLabelFont()).horizontalAdvance(m_label) + 4, 12);
}

QRectF EdgeItem::reachOf(const LayoutResult& layout, int index) {
    const LayoutEdge& e = layout.edges[static_cast<size_t>(index)];
    if (e.points.empty()) return {};
    double x0 = e.points.front().x, x1 = x0, y0 = e.points.front().y, y1 = y0;
    auto take = [&](const LPoint& p) {
        x0 = std::min(x0, p.x), x1 = std::max(x1, p.x);
        y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
    };
    for (const LPoint& p : e.points) take(p);
    if (e.arrow) take(e.arrowTip);
    QRectF r = QRectF(x0, y0, x1 - x0, y1 - y0).adjusted(-8, -8, 8, 8); // the arrowhead's width and the margin
    const std::string& label = layout.graph.edges[static_cast<size_t>(e.edge)].label;
    // UTF-8 bytes are at least the UTF-16 units the item measures
    if (!label.empty()) r = r.united(labelRoom(qp(e.labelPos), static_cast<qsizetype>(label.size())));
    return r;
}

QPainterPath EdgeItem::shape() const {
    QPainterPathStroker s;
    s.setWidth(6);
    return s.createStroke(m_path);
}

void EdgeItem::setHighlighted(bool on) {
    if (on == m_highlighted) return;
    m_highlighted = on;
    update();
}

void EdgeItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*) {
    const QPalette pal = palette();
    QColor c = m_highlighted ? pal.color(QPalette::Highlight) : pal.color(QPalette::WindowText);
    if (!m_highlighted) c.setAlphaF(0.55);
    const double lodNow = option->levelOfDetailFromTransform(p->worldTransform());
    if (lodNow < kPlainLod) {
        // boxes a few pixels wide: a hairline from end to end, none when the whole edge is a pixel or two
        if (!m_highlighted && lodNow * std::max(m_bounds.width(), m_bounds.height()) < 3) return;
        p->setRenderHint(QPainter::Antialiasing, false);
        p->setPen(QPen(c, 0));
        p->drawLine(QPointF(m_path.elementAt(0)), m_path.currentPosition());
        return;
    }
    p->setRenderHint(QPainter::Antialiasing, true);
    p->setPen(QPen(c, m_highlighted ? 2.0 : 1.0));
    p->setBrush(Qt::NoBrush);
    p->drawPath(m_path);
    p->setPen(Qt::NoPen);
    p->setBrush(c);
    p->drawPolygon(m_arrow);
    const double lod = option->levelOfDetailFromTransform(p->worldTransform());
    if (lod < 0.6 || m_label.isEmpty() || !m_labelShown) return;
    p->setFont(edgeLabelFont());
    const QRectF r = labelRect();
    QColor bg = pal.color(QPalette::Base);
    bg.setAlphaF(0.8);
    p->setBrush(bg);
    p->drawRect(r);
    p->setPen(pal.color(QPalette::Text));
    p->drawText(r, Qt::AlignCenter, m_label);
}

// ---------------------------------------------------------------------------- ClusterItem

ClusterItem::ClusterItem(const LayoutCluster& cluster, const QRectF& reach)
    : m_rect(qr(cluster.box)), m_reach(m_rect.adjusted(-2, -2, 2, 2).united(reach)), m_label(QString::fromStdString(cluster.label)),
      m_module(cluster.module), m_depth(cluster.depth) {
    setZValue(0);
    setFlag(ItemContainsChildrenInShape);
    setToolTip(wrappedTip(m_label + QObject::tr("\nDouble-click the title to collapse")));
}

QRectF ClusterItem::boundingRect() const { return m_reach; }

bool ClusterItem::inTitle(const QPointF& scenePos) const {
    return QRectF(m_rect.left(), m_rect.top(), m_rect.width(), 18).contains(scenePos);
}

void ClusterItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*) {
    const QPalette pal = palette();
    QColor frame = pal.color(QPalette::Mid);
    QColor fill = pal.color(QPalette::Base);
    // nested groups get slightly darker (lighter on dark themes) backgrounds
    fill = darkTheme() ? fill.lighter(100 + 8 * m_depth) : fill.darker(100 + 4 * m_depth);
    const double lod = option->levelOfDetailFromTransform(p->worldTransform());
    if (lod < kPlainLod) {
        // zoomed far out: a square frame of one pixel, no rounding
        p->setRenderHint(QPainter::Antialiasing, false);
        p->setPen(QPen(frame, 0));
        p->setBrush(fill);
        p->drawRect(m_rect);
        return;
    }
    p->setRenderHint(QPainter::Antialiasing, true);
    p->setPen(QPen(frame, 1.0));
    p->setBrush(fill);
    p->drawRoundedRect(m_rect, 5, 5);
    if (lod < 0.4) return;
    const QFont f = frameTitleFont();
    p->setFont(f);
    p->setPen(pal.color(QPalette::Text));
    QFontMetricsF fm(f);
    p->drawText(QRectF(m_rect.left() + 6, m_rect.top() + 2, m_rect.width() - 12, 14), Qt::AlignLeft | Qt::AlignVCenter,
                fm.elidedText("▾ " + m_label, Qt::ElideRight, m_rect.width() - 12));
}

QRectF ClusterItem::titleRect() const {
    const double w = std::min(m_rect.width() - 12, QFontMetricsF(frameTitleFont()).horizontalAdvance("▾ " + m_label));
    return QRectF(m_rect.left() + 6, m_rect.top() + 2, w, 14);
}

} // namespace irlens::views
