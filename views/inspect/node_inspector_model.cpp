#include "views/inspect/node_inspector_model.h"

#include "views/document.h"
#include "views/graph/graph_navigation.h"
#include "views/inspect/node_info.h"

namespace irlens::views {

NodeInspectorModel::NodeInspectorModel(Document* document, QObject* parent) : InfoTreeModel(parent), m_doc(document) {
    connect(m_doc, &Document::selectionChanged, this, &NodeInspectorModel::refresh);
    connect(m_doc, &Document::programChanged, this, &NodeInspectorModel::refresh);
    connect(m_doc, &Document::runFinished, this, &NodeInspectorModel::refresh);
    refresh();
}

void NodeInspectorModel::refresh() {
    const auto* g = m_doc->graph();
    const QString item = m_doc->selectedItem();
    // placeholders and the output node of the top-level graph, in the spec's words
    if (g && m_doc->program() && g == &m_doc->program()->graph && !item.isEmpty()) {
        if (item.startsWith("in:")) return setRoot(buildPlaceholderInfo(*m_doc->program(), item.mid(3).toStdString(), &valueIndex(*g)));
        if (item == "out") return setRoot(buildOutputInfo(*m_doc->program()));
    }
    if (g && m_doc->selectedNode() < 0) {
        // nothing selected: say what to do rather than show an empty pane
        auto root = std::make_unique<InfoRow>();
        root->add(tr("No node selected"), tr("click a box, a search hit or an FX line"));
        setRoot(std::move(root));
        return;
    }
    auto root = g ? buildNodeInfo(*g, m_doc->selectedNode(), m_doc->program().get(), &valueIndex(*g)) : nullptr;
    if (root && m_extraRows && m_doc->program() && g == &m_doc->program()->graph) m_extraRows(*root, m_doc->selectedNode());
    setRoot(std::move(root));
}


const core::ValueIndex& NodeInspectorModel::valueIndex(const core::Graph& graph) {
    const core::ProgramPtr program = m_doc->program();
    if (!m_index || m_indexGraph != &graph || m_indexProgram.lock() != program) {
        m_index = std::make_unique<core::ValueIndex>(graph);
        m_indexGraph = &graph;
        m_indexProgram = program;
    }
    return *m_index;
}

bool followLink(Document* doc, const QString& link) {
    if (link.startsWith("node:")) {
        int n = doc->nodeIndexOf(link.mid(5));
        if (n < 0) return false;
        doc->revealNode(n);
        doc->selectNode(n);
        return true;
    }
    if (link.startsWith("in:") || link == "out") { // a placeholder or the output node
        doc->selectItem(link);
        return true;
    }
    if (link.startsWith("sym:")) {
        const QString s = link.mid(4);
        doc->setHighlightSymbol(doc->highlightSymbol() == s ? QString() : s);
        return true;
    }
    if (link.startsWith("subgraph:")) return doc->enterSubgraph(doc->selectedNode(), link.mid(9).toInt());
    if (link.startsWith("path:") && doc->graph()) {
        // every node on a path between two values (a buffer mutation), outlined as search hits
        const QStringList ends = link.mid(5).split('>');
        if (ends.size() != 2) return false;
        const std::vector<int> nodes = nodesBetween(*doc->graph(), ends[0].toStdString(), ends[1].toStdString());
        doc->setSearchHits(nodes);
        if (!nodes.empty()) doc->revealNode(nodes.front());
        return !nodes.empty();
    }
    return false;
}

} // namespace irlens::views
