#pragma once
// The node inspector's model: the selected node's properties (see node_info.h), kept in sync with
// the Document's selection.

#include "views/inspect/info_tree_model.h"

namespace irlens::views {

class Document;

class NodeInspectorModel : public InfoTreeModel {
    Q_OBJECT
public:
    explicit NodeInspectorModel(Document* document, QObject* parent = nullptr);

private:
    void refresh();
    Document* m_doc;
};

/// Follows a link from any pane: "node:<name>" selects (and reveals) it, "sym:<s>" highlights the
/// nodes using a symbol, "subgraph:<k>" enters the selected HOP's k-th subgraph. False if not understood.
bool followLink(Document* document, const QString& link);

} // namespace irlens::views
