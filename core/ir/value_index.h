#pragma once
// Who makes and who reads each value of a graph, built in one pass: the inspector's links and
// "users" section ask this for every selection (a scan of 11,000 nodes each time held the GUI
// thread for milliseconds per click).

#include "core/ir/graph.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace irlens::core {

class ValueIndex {
public:
    explicit ValueIndex(const Graph& graph);
    /// Index of the node that outputs `value`, -1 for a graph input or an unknown name.
    int producer(const std::string& value) const;
    /// Indexes of the nodes reading `value`, in graph order, each once.
    const std::vector<int>& users(const std::string& value) const;

private:
    std::unordered_map<std::string, int> m_producer;
    std::unordered_map<std::string, std::vector<int>> m_users;
};

} // namespace irlens::core
