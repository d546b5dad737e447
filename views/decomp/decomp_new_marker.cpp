#include "views/decomp/decomp_new_marker.h"

#include "views/decomp/decomp_pane.h"
#include "views/document.h"
#include "views/graph/graph_items.h"
#include "views/graph/graph_scene.h"

#include <QHash>
#include <QSet>

namespace irlens::views {

DecompNewNodeMarker::DecompNewNodeMarker(DecompPane* pane, GraphScene* scene, QObject* parent)
    : QObject(parent), m_pane(pane), m_scene(scene) {
    connect(scene, &GraphScene::rebuilt, this, &DecompNewNodeMarker::apply);
    connect(pane, &DecompPane::newNodesChanged, this, &DecompNewNodeMarker::apply);
    apply();
}

void DecompNewNodeMarker::apply() {
    m_marked = 0;
    if (!m_scene) return;
    const int step = m_pane->newNodesStep();
    // nothing drawn yet (cleared until the new layout arrives, or built in slices): rebuilt() calls again
    if (m_scene->nodeItems().empty() || m_scene->isBuilding()) return;
    QHash<NodeItem*, QStringList> notes; // box -> the new nodes it shows
    const core::Graph* g = m_scene->document()->graph();
    if (step > 0 && g) {
        // a step can make thousands of nodes: one pass over the graph, not a lookup per name
        QSet<QString> wanted(m_pane->newNodes().begin(), m_pane->newNodes().end());
        for (size_t k = 0; k < g->nodes.size() && !wanted.isEmpty(); ++k) {
            const QString name = QString::fromStdString(g->nodes[k].name);
            if (!wanted.remove(name)) continue;
            if (NodeItem* item = m_scene->itemForNode(static_cast<int>(k))) notes[item] << name;
        }
    }
    for (NodeItem* item : m_scene->nodeItems()) {
        auto it = notes.find(item);
        if (it == notes.end()) {
            item->setNewMark(0, {});
            continue;
        }
        QString note;
        if (it->size() == 1) {
            note = tr("added by step %1: %2").arg(step).arg(m_pane->ruleOfNewNode(it->front()));
        } else {
            QStringList rules;
            for (const QString& n : *it)
                if (const QString r = m_pane->ruleOfNewNode(n); !rules.contains(r)) rules << r;
            note = tr("holds %1 nodes added by step %2: %3").arg(it->size()).arg(step).arg(rules.join("; "));
        }
        item->setNewMark(step, note);
        ++m_marked;
    }
}

} // namespace irlens::views
