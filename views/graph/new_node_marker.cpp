#include "views/graph/new_node_marker.h"

#include "views/count_text.h"
#include "views/document.h"
#include "views/graph/graph_items.h"
#include "views/graph/graph_scene.h"

#include <QHash>

#include <string_view>
#include <unordered_map>

namespace irlens::views {

NewNodeMarker::NewNodeMarker(GraphScene* scene) : QObject(scene), m_scene(scene) {
    // queued: on a big graph the scene's last slice and the view's own reaction to rebuilt() already
    // fill an event-loop turn; marking thousands of boxes takes the next one
    connect(scene, &GraphScene::rebuilt, this, &NewNodeMarker::apply, Qt::QueuedConnection);
    connect(scene->document(), &Document::newNodesChanged, this, &NewNodeMarker::apply);
}

void NewNodeMarker::apply() {
    m_marked = 0;
    const NewNodes& fresh = m_scene->document()->newNodes();
    const int step = fresh.step;
    // nothing drawn yet (cleared until the new layout arrives, or built in slices): rebuilt() calls again
    if (m_scene->nodeItems().empty() || m_scene->isBuilding()) {
        if (!m_summary.isEmpty()) {
            m_summary.clear();
            Q_EMIT applied();
        }
        return;
    }
    QHash<NodeItem*, QStringList> notes; // box -> the new nodes it shows
    const core::Graph* g = m_scene->document()->graph();
    if (step > 0 && g) {
        // a step can make thousands of nodes: one index of the graph's names, then a lookup per new node
        std::unordered_map<std::string_view, int> indexOf;
        indexOf.reserve(g->nodes.size());
        for (size_t k = 0; k < g->nodes.size(); ++k) indexOf.emplace(g->nodes[k].name, static_cast<int>(k));
        for (const QString& name : fresh.names) {
            const auto it = indexOf.find(name.toStdString());
            if (it == indexOf.end()) continue;
            if (NodeItem* item = m_scene->itemForNode(it->second)) notes[item] << name;
        }
    }
    const bool tagged = notes.size() <= kTagEachUpTo;
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
        item->setNewMark(step, note, tagged);
        ++m_marked;
    }
    m_summary = m_marked == 0 ? QString()
                              : tr("step %1 made %2 of the %3 boxes").arg(step).arg(m_marked).arg(m_scene->nodeItems().size());
    Q_EMIT applied();
}

} // namespace irlens::views
