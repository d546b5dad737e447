#include "views/inspect/node_inspector_model.h"

#include "views/document.h"
#include "views/inspect/node_info.h"

namespace irlens::views {

NodeInspectorModel::NodeInspectorModel(Document* document, QObject* parent) : InfoTreeModel(parent), m_doc(document) {
    connect(m_doc, &Document::selectionChanged, this, &NodeInspectorModel::refresh);
    connect(m_doc, &Document::programChanged, this, &NodeInspectorModel::refresh);
    refresh();
}

void NodeInspectorModel::refresh() {
    const auto* g = m_doc->graph();
    if (g && m_doc->selectedNode() < 0) {
        // nothing selected: say what to do rather than show an empty pane
        auto root = std::make_unique<InfoRow>();
        root->add(tr("No node selected"), tr("click a box, a search hit or an FX line"));
        setRoot(std::move(root));
        return;
    }
    setRoot(g ? buildNodeInfo(*g, m_doc->selectedNode()) : nullptr);
}

bool followLink(Document* doc, const QString& link) {
    if (link.startsWith("node:")) {
        int n = doc->nodeIndexOf(link.mid(5));
        if (n < 0) return false;
        doc->revealNode(n);
        doc->selectNode(n);
        return true;
    }
    if (link.startsWith("sym:")) {
        const QString s = link.mid(4);
        doc->setHighlightSymbol(doc->highlightSymbol() == s ? QString() : s);
        return true;
    }
    if (link.startsWith("subgraph:")) return doc->enterSubgraph(doc->selectedNode(), link.mid(9).toInt());
    return false;
}

} // namespace irlens::views
