#include "views/graph/step_marker.h"

#include "views/document.h"
#include "views/graph/graph_items.h"
#include "views/graph/graph_scene.h"

#include <QApplication>
#include <QPainter>
#include <QPalette>

#include <vector>

namespace irlens::views {

using namespace irlens::core;

// ---------------------------------------------------------------------------- StepMark

namespace {
/// How far the next node's outline stands off its box, and the room the mark takes around it: inside a
/// module frame's margin, which holds its children's marks (ClusterItem: ItemContainsChildrenInShape).
constexpr double kNextOutlineGap = 4;
constexpr double kNextOutlineWidth = 3;
constexpr double kStepMarkMargin = 7;
/// The height of the bar a partly run module box shows along its bottom.
constexpr double kStepBarHeight = 5;

bool stepMarksOnDark() { return QApplication::palette().color(QPalette::Window).lightness() < 128; }
} // namespace

StepMark::StepMark(NodeItem* box) : QGraphicsItem(box), m_box(box->boxRect()) {
    setAcceptedMouseButtons(Qt::NoButton); // a click selects the box underneath
    setZValue(8);                          // over a heatmap or error box, under the NaN marker
}

QColor StepMark::ranColor() { return stepMarksOnDark() ? QColor(0xa9, 0xa4, 0xe0) : QColor(0x75, 0x70, 0xb3); }

QColor StepMark::nextColor() { return stepMarksOnDark() ? QColor(0xf0, 0x6e, 0xb0) : QColor(0xe7, 0x29, 0x8a); }

QRectF StepMark::boundingRect() const { return m_box.adjusted(-kStepMarkMargin, -kStepMarkMargin, kStepMarkMargin, kStepMarkMargin); }

void StepMark::setState(double done, bool next) {
    if (done == m_done && next == m_next) return;
    m_done = done;
    m_next = next;
    update();
}

void StepMark::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) {
    p->setRenderHint(QPainter::Antialiasing, true);
    const QColor ran = ranColor();
    if (m_done >= 1) {
        // a wash the box's colour and text show through
        QColor wash = ran;
        wash.setAlphaF(0.38);
        p->setPen(QPen(ran, 2));
        p->setBrush(wash);
        p->drawRoundedRect(m_box, 6, 6);
    } else if (m_done > 0) {
        p->setPen(Qt::NoPen);
        p->setBrush(ran);
        p->drawRect(QRectF(m_box.left(), m_box.bottom() - kStepBarHeight, m_box.width() * m_done, kStepBarHeight));
    }
    if (m_next) {
        p->setPen(QPen(nextColor(), kNextOutlineWidth));
        p->setBrush(Qt::NoBrush);
        p->drawRoundedRect(m_box.adjusted(-kNextOutlineGap, -kNextOutlineGap, kNextOutlineGap, kNextOutlineGap), 8, 8);
    }
}

// ---------------------------------------------------------------------------- StepMarker

StepMarker::StepMarker(GraphScene* scene) : QObject(scene), m_scene(scene) {
    // queued, as the new-node marks: the scene's last slice already fills an event-loop turn
    connect(scene, &GraphScene::rebuilt, this, &StepMarker::apply, Qt::QueuedConnection);
    connect(scene->document(), &Document::steppingChanged, this, &StepMarker::apply);
    // the scene deletes every item with their marks
    connect(scene, &GraphScene::aboutToClear, this, [this] {
        m_marks.clear();
        m_next = nullptr;
    });
}

void StepMarker::apply() {
    m_next = nullptr;
    if (m_scene->isBuilding()) return; // rebuilt() calls again
    const Document* doc = m_scene->document();
    const Stepping& stepping = doc->stepping();
    const LayoutPtr layout = m_scene->layout();
    const auto& items = m_scene->nodeItems();
    // per box: the nodes it stands for, how many have run, whether the next is among them
    std::vector<int> total(items.size(), 0), ran(items.size(), 0);
    std::vector<bool> holdsNext(items.size(), false);
    if (stepping.active && layout && doc->graph() && doc->scopes().size() == 1 && layout->graph.items.size() == items.size()) {
        const ModuleTree& tree = *doc->scope().tree;
        for (const auto& [node, item] : layout->graph.itemOfNode) {
            const VisibleItem& vi = layout->graph.items[static_cast<size_t>(item)];
            // in a folded run the other instances' nodes map onto the shown one's boxes: a box counts its own
            const bool own = vi.kind == VisibleItem::Kind::Op ? vi.nodeIndex == node
                                                               : vi.kind == VisibleItem::Kind::Module &&
                                                                     tree.isWithin(tree.moduleOfNode(node), vi.moduleIndex);
            if (!own) continue;
            ++total[static_cast<size_t>(item)];
            ran[static_cast<size_t>(item)] += stepping.hasRun(node);
            if (node == stepping.next) holdsNext[static_cast<size_t>(item)] = true;
        }
    }
    for (size_t k = 0; k < items.size(); ++k) {
        NodeItem* box = items[k];
        const double done = total[k] > 0 ? static_cast<double>(ran[k]) / total[k] : 0.0;
        auto it = m_marks.find(box);
        if (done <= 0 && !holdsNext[k]) {
            if (it != m_marks.end()) {
                delete it->second;
                m_marks.erase(it);
            }
            continue;
        }
        StepMark* mark = it != m_marks.end() ? it->second : m_marks.emplace(box, new StepMark(box)).first->second;
        mark->setState(done, holdsNext[k]);
        if (holdsNext[k]) m_next = box;
    }
}

} // namespace irlens::views
