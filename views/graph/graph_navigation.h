#pragma once
// Graph queries behind keyboard navigation and search (no widgets, so tests reach them directly).

#include "core/ir/program.h"
#include "core/layout/module_tree.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace irlens::views {

/// The node producing the first tensor input of `node`; -1 when it reads only graph inputs.
int producerOf(const core::Graph& graph, int node);
/// The first node reading any output of `node`; -1 when none (only the graph output uses it).
int firstUserOf(const core::Graph& graph, int node);
/// The nodes reading any output of `node`, in graph order (at most `limit`).
std::vector<int> usersOf(const core::Graph& graph, int node, size_t limit = SIZE_MAX);
/// Every node producing an input of `node`, in argument order, without repeats.
std::vector<int> producersOf(const core::Graph& graph, int node);
/// The nodes on some path from value `from` (a placeholder or a node's output) to value `to`, in
/// graph order: those reached forward from `from` whose outputs reach `to` (the producer of `to`
/// included). Empty when `to` does not depend on `from`.
std::vector<int> nodesBetween(const core::Graph& graph, const std::string& from, const std::string& to);

/// Nodes matching `query` by name, op (target), or module path, case-insensitive substring; with
/// `regex` the query is a regular expression matched against the same fields. An invalid regex
/// matches nothing.
std::vector<int> searchNodes(const core::Graph& graph, const core::ModuleTree& tree, const QString& query, bool regex);

/// The fields searchNodes matches, converted to QString once per graph: on a graph of thousands of
/// nodes, converting them again on every keystroke is what made typing in the search field stutter.
class NodeSearchIndex {
public:
    NodeSearchIndex() = default;
    NodeSearchIndex(const core::Graph& graph, const core::ModuleTree& tree);
    /// Same hits as searchNodes on the graph and tree the index was built from.
    std::vector<int> search(const QString& query, bool regex) const;
    const core::Graph* graph() const { return m_graph; }
    const core::ModuleTree* tree() const { return m_tree; }

private:
    const core::Graph* m_graph = nullptr;
    const core::ModuleTree* m_tree = nullptr;
    std::vector<QStringList> m_fields; // per node: name, target, short target, enclosing module paths
    std::vector<QString> m_folded;     // per node: its fields joined by newlines, case folded
};

} // namespace irlens::views
