#include "core/ir/value_index.h"

namespace irlens::core {

ValueIndex::ValueIndex(const Graph& graph) {
    std::vector<std::string> read;
    for (size_t i = 0; i < graph.nodes.size(); ++i) {
        const Node& n = graph.nodes[i];
        const int index = static_cast<int>(i);
        for (const auto& out : n.outputNames()) m_producer.emplace(out, index);
        read.clear();
        for (const auto& in : n.inputs) in.arg.collectValueNames(read);
        for (const auto& value : read) {
            auto& users = m_users[value];
            if (users.empty() || users.back() != index) users.push_back(index); // a node reading x twice
        }
    }
}

int ValueIndex::producer(const std::string& value) const {
    auto it = m_producer.find(value);
    return it == m_producer.end() ? -1 : it->second;
}

const std::vector<int>& ValueIndex::users(const std::string& value) const {
    static const std::vector<int> none;
    auto it = m_users.find(value);
    return it == m_users.end() ? none : it->second;
}

} // namespace irlens::core
