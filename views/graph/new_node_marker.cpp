#include "views/graph/new_node_marker.h"

#include "views/count_text.h"
#include "views/document.h"
#include "views/graph/graph_items.h"
#include "views/graph/graph_scene.h"

#include <QHash>
#include <QSet>

namespace irlens::views {

NewNodeMarker::NewNodeMarker(GraphScene* scene) : QObject(scene), m_scene(scene) {
    connect(scene, &GraphScene::rebuilt, this, &NewNodeMarker::apply);
    connect(scene->document(), &Document::newNodesChanged, this, &NewNodeMarker::apply);
}

void NewNodeMarker::apply() {
    m_marked = 0;
    const NewNodes& fresh = m_scene->document()->newNodes();
    const int step = fresh.step;
    // nothing drawn yet (cleared until the new layout arrives, or built in slices): rebuilt() calls again
    if (m_scene->nodeItems().empty() || m_scene->isBuilding()) return;
    QHash<NodeItem*, QStringList> notes; // box -> the new nodes it shows
    const core::Graph* g = m_scene->document()->graph();
    if (step > 0 && g) {
        // a step can make thousands of nodes: one pass over the graph, not a lookup per name
        QSet<QString> wanted(fresh.names.begin(), fresh.names.end());
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
            note = tr("added by step %1: %2").arg(step).arg(fresh.ruleOf(it->front()));
        } else {
            QStringList rules;
            for (const QString& n : *it)
                if (const QString r = fresh.ruleOf(n); !rules.contains(r)) rules << r;
            note = tr("holds %1 added by step %2: %3").arg(nodesText(it->size())).arg(step).arg(rules.join("; "));
        }
        item->setNewMark(step, note);
        ++m_marked;
    }
}

} // namespace irlens::views
