#pragma once
// The node inspector's model: the selected node's properties (see node_info.h), kept in sync with
// the Document's selection, with rows other layers add (the last run's numbers for the node).

#include "core/ir/program.h"
#include "core/ir/value_index.h"
#include "views/inspect/info_tree_model.h"

#include <functional>
#include <memory>

namespace irlens::views {

class Document;

class NodeInspectorModel : public InfoTreeModel {
    Q_OBJECT
public:
    explicit NodeInspectorModel(Document* document, QObject* parent = nullptr);
    /// Rows another layer adds under a top-level node's properties (the last run's, views/run/run_node_info.h).
    void setExtraRows(std::function<void(InfoRow& root, int node)> extra) { m_extraRows = std::move(extra); refresh(); }

private:
    void refresh();
    /// The producers and users of the shown graph, built once per graph (not per click).
    const core::ValueIndex& valueIndex(const core::Graph& graph);
    Document* m_doc;
    // the graph the index belongs to, with its program held weakly: a freed program's address
    // reused by a new one cannot bring back a stale index
    std::weak_ptr<const core::Program> m_indexProgram;
    const core::Graph* m_indexGraph = nullptr;
    std::unique_ptr<core::ValueIndex> m_index;
    std::function<void(InfoRow& root, int node)> m_extraRows;
};

/// Follows a link from any pane: "node:<name>" selects (and reveals) it, "in:<value>" and "out" select
/// a placeholder or the output node, "sym:<s>" highlights the nodes using a symbol, "subgraph:<k>"
/// enters the selected HOP's k-th subgraph. False if not understood.
bool followLink(Document* document, const QString& link);

} // namespace irlens::views
