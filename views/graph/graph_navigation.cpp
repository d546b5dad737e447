#include "views/graph/graph_navigation.h"

#include <QRegularExpression>

#include <unordered_map>
#include <algorithm>
#include <unordered_set>

namespace irlens::views {

using namespace irlens::core;

namespace {

std::unordered_map<std::string, int> producerMap(const Graph& graph) {
    std::unordered_map<std::string, int> m;
    for (size_t k = 0; k < graph.nodes.size(); ++k)
        for (const auto& out : graph.nodes[k].outputNames()) m.emplace(out, static_cast<int>(k));
    return m;
}

} // namespace

std::vector<int> producersOf(const Graph& graph, int node) {
    std::vector<int> out;
    if (node < 0 || node >= static_cast<int>(graph.nodes.size())) return out;
    auto producers = producerMap(graph);
    std::vector<std::string> names;
    for (const auto& in : graph.nodes[static_cast<size_t>(node)].inputs) in.arg.collectValueNames(names);
    for (const auto& n : names)
        if (auto it = producers.find(n); it != producers.end())
            if (std::find(out.begin(), out.end(), it->second) == out.end()) out.push_back(it->second);
    return out;
}

int producerOf(const Graph& graph, int node) {
    auto p = producersOf(graph, node);
    return p.empty() ? -1 : p.front();
}

std::vector<int> usersOf(const Graph& graph, int node, size_t limit) {
    std::vector<int> out;
    if (node < 0 || node >= static_cast<int>(graph.nodes.size())) return out;
    auto outs = graph.nodes[static_cast<size_t>(node)].outputNames();
    std::unordered_set<std::string> mine(outs.begin(), outs.end());
    for (size_t k = static_cast<size_t>(node) + 1; k < graph.nodes.size() && out.size() < limit; ++k) {
        std::vector<std::string> names;
        for (const auto& in : graph.nodes[k].inputs) in.arg.collectValueNames(names);
        for (const auto& n : names)
            if (mine.count(n)) {
                out.push_back(static_cast<int>(k));
                break;
            }
    }
    return out;
}

std::vector<int> nodesBetween(const Graph& graph, const std::string& from, const std::string& to) {
    // forward: values that depend on `from`, in one pass (nodes are in topological order)
    std::unordered_set<std::string> reached{from};
    std::vector<bool> forward(graph.nodes.size(), false);
    for (size_t k = 0; k < graph.nodes.size(); ++k) {
        std::vector<std::string> names;
        for (const auto& in : graph.nodes[k].inputs) in.arg.collectValueNames(names);
        for (const auto& n : names) forward[k] = forward[k] || reached.count(n) > 0;
        if (forward[k])
            for (const auto& out : graph.nodes[k].outputNames()) reached.insert(out);
    }
    if (!reached.count(to) || from == to) return {};
    // backward from `to`, through forward nodes only
    std::unordered_set<std::string> needed{to};
    std::vector<int> out;
    for (size_t k = graph.nodes.size(); k-- > 0;) {
        if (!forward[k]) continue;
        bool feeds = false;
        for (const auto& o : graph.nodes[k].outputNames()) feeds = feeds || needed.count(o) > 0;
        if (!feeds) continue;
        out.push_back(static_cast<int>(k));
        std::vector<std::string> names;
        for (const auto& in : graph.nodes[k].inputs) in.arg.collectValueNames(names);
        needed.insert(names.begin(), names.end());
    }
    std::reverse(out.begin(), out.end());
    return out;
}

int firstUserOf(const Graph& graph, int node) {
    auto users = usersOf(graph, node, 1);
    return users.empty() ? -1 : users.front();
}

std::vector<int> searchNodes(const Graph& graph, const ModuleTree& tree, const QString& query, bool regex) {
    return NodeSearchIndex(graph, tree).search(query, regex);
}

NodeSearchIndex::NodeSearchIndex(const Graph& graph, const ModuleTree& tree) : m_graph(&graph), m_tree(&tree) {
    m_fields.reserve(graph.nodes.size());
    m_folded.reserve(graph.nodes.size());
    for (size_t k = 0; k < graph.nodes.size(); ++k) {
        const Node& n = graph.nodes[k];
        QStringList fields{QString::fromStdString(n.name), QString::fromStdString(n.target.full),
                           QString::fromStdString(n.target.shortName())};
        for (int m = tree.moduleOfNode(static_cast<int>(k)); m > 0; m = tree.module(m).parent)
            fields << QString::fromStdString(tree.module(m).path);
        // case folded once here, so that a query is one case-sensitive scan per node
        m_folded.push_back(fields.join(QChar('\n')).toCaseFolded());
        m_fields.push_back(std::move(fields));
    }
}

std::vector<int> NodeSearchIndex::search(const QString& query, bool regex) const {
    std::vector<int> hits;
    if (query.trimmed().isEmpty()) return hits;
    QRegularExpression re;
    if (regex) {
        re = QRegularExpression(query, QRegularExpression::CaseInsensitiveOption);
        if (!re.isValid()) return hits;
    }
    const QString needle = query.trimmed().toCaseFolded();
    if (!regex && !needle.contains(QChar('\n'))) {
        // the fields joined by newlines: a needle without one matches the join where it matches a field
        for (size_t k = 0; k < m_folded.size(); ++k)
            if (m_folded[k].contains(needle)) hits.push_back(static_cast<int>(k));
        return hits;
    }
    for (size_t k = 0; k < m_fields.size(); ++k) {
        bool hit = false;
        for (const QString& f : m_fields[k]) {
            hit = regex ? re.match(f).hasMatch() : f.toCaseFolded().contains(needle);
            if (hit) break;
        }
        if (hit) hits.push_back(static_cast<int>(k));
    }
    return hits;
}

} // namespace irlens::views
