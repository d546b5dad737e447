#include "views/compare/diff_overlay.h"

#include "views/compare/compare_models.h"
#include "views/document.h"
#include "views/graph/graph_items.h"
#include "views/graph/graph_scene.h"

#include <QApplication>
#include <QFont>
#include <QFontMetricsF>
#include <QPainter>

#include <map>

namespace irlens::views {
namespace {

/// The outline and tag drawn over a box (a child of the box: clicks fall through to it).
class DiffMarkItem : public QGraphicsItem {
public:
    enum { Type = UserType + 40 };
    DiffMarkItem(QGraphicsItem* box, core::MatchKind kind, bool divergent)
        : QGraphicsItem(box), m_kind(kind), m_divergent(divergent) {
        setAcceptedMouseButtons(Qt::NoButton);
        setAcceptHoverEvents(false);
        m_rect = box->type() == NodeItem::Type ? static_cast<NodeItem*>(box)->boxRect().adjusted(1, 1, -1, -1)
                                               : box->boundingRect().adjusted(1, 1, -1, -1);
        if (kind != core::MatchKind::Same) m_tag = QString::fromLatin1(core::matchKindName(kind));
        if (divergent) m_tag = m_tag.isEmpty() ? QStringLiteral("≠ diverges") : m_tag + QStringLiteral(" · ≠ diverges");
        m_font.setPointSizeF(7);
        m_font.setBold(true);
        // on the bottom border like the "new" tag: above the box it covered the title of the module around it
        if (!m_tag.isEmpty()) {
            m_tagRect = tagRectOn(m_rect, m_tag, m_font);
            setData(kTagRectKey, m_tagRect);
            setData(kTagTextKey, m_tag);
        }
    }
    int type() const override { return Type; }
    QRectF boundingRect() const override { return m_rect.adjusted(-6, -6, 6, 6).united(m_tagRect); }
    core::MatchKind kind() const { return m_kind; }
    bool divergent() const { return m_divergent; }

    void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override {
        p->setRenderHint(QPainter::Antialiasing);
        p->setBrush(Qt::NoBrush);
        if (m_kind != core::MatchKind::Same) {
            p->setPen(QPen(matchKindColor(m_kind), 3.5));
            p->drawRoundedRect(m_rect, 7, 7);
        }
        if (m_divergent) {
            QPen pen(divergenceColor(), 3, Qt::DashLine);
            p->setPen(pen);
            p->drawRoundedRect(m_rect.adjusted(-4, -4, 4, 4), 9, 9);
        }
        if (m_tag.isEmpty()) return;
        p->setFont(m_font);
        const QColor bg = m_kind != core::MatchKind::Same ? matchKindColor(m_kind) : divergenceColor();
        p->setPen(Qt::NoPen);
        p->setBrush(bg);
        p->drawRoundedRect(m_tagRect, 3, 3);
        p->setPen(readableTextOn(bg));
        p->drawText(m_tagRect, Qt::AlignCenter, m_tag);
    }

private:
    QRectF m_rect;
    QRectF m_tagRect;
    QString m_tag;
    QFont m_font = QApplication::font();
    core::MatchKind m_kind;
    bool m_divergent;
};

const DiffMarkItem* markItemOf(const NodeItem* box) {
    for (QGraphicsItem* child : box->childItems())
        if (child->type() == DiffMarkItem::Type) return static_cast<const DiffMarkItem*>(child);
    return nullptr;
}

/// What a box folding several nodes shows: their common kind, else `changed`.
core::MatchKind combine(core::MatchKind a, core::MatchKind b) {
    if (a == b) return a;
    if (a == core::MatchKind::Same) return b;
    if (b == core::MatchKind::Same) return a;
    return core::MatchKind::Changed;
}

} // namespace

DiffOverlay::DiffOverlay(Document* document, GraphScene* scene, QObject* parent)
    : QObject(parent), m_doc(document), m_scene(scene) {
    connect(scene, &GraphScene::rebuilt, this, &DiffOverlay::apply);
}

void DiffOverlay::setStates(std::vector<core::MatchKind> states, int divergentNode) {
    m_states = std::move(states);
    m_divergent = divergentNode;
    apply();
}

int DiffOverlay::markOf(const NodeItem* item) const {
    const DiffMarkItem* m = markItemOf(item);
    return m && m->kind() != core::MatchKind::Same ? static_cast<int>(m->kind()) : -1;
}

bool DiffOverlay::isDivergent(const NodeItem* item) const {
    const DiffMarkItem* m = markItemOf(item);
    return m && m->divergent();
}

void DiffOverlay::apply() {
    for (NodeItem* box : m_scene->nodeItems())
        for (QGraphicsItem* child : box->childItems())
            if (child->type() == DiffMarkItem::Type) delete child;
    auto layout = m_scene->layout();
    auto program = m_doc->program();
    if (!layout || !program || m_doc->graph() != &program->graph || m_states.size() != program->graph.nodes.size()) return;
    std::map<int, core::MatchKind> kindOfItem; // layout item -> combined kind
    std::map<int, bool> divergentItem;
    for (const auto& [node, item] : layout->graph.itemOfNode) {
        if (node < 0 || node >= static_cast<int>(m_states.size())) continue;
        auto it = kindOfItem.find(item);
        const core::MatchKind k = m_states[static_cast<size_t>(node)];
        kindOfItem[item] = it == kindOfItem.end() ? k : combine(it->second, k);
        if (node == m_divergent) divergentItem[item] = true;
    }
    for (NodeItem* box : m_scene->nodeItems()) {
        auto it = kindOfItem.find(box->index());
        if (it == kindOfItem.end()) continue;
        const bool divergent = divergentItem.count(box->index()) > 0;
        if (it->second != core::MatchKind::Same || divergent) new DiffMarkItem(box, it->second, divergent);
    }
}

} // namespace irlens::views
