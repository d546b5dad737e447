#pragma once
// Layouts already computed, keyed by (program, subgraph, collapse state), so that collapsing a
// module again or going back up from a subgraph is instant. Thread-safe; bounded.

#include "core/layout/layout_result.h"

#include <list>
#include <mutex>
#include <string>
#include <unordered_map>

namespace irlens::core {

class LayoutCache {
public:
    explicit LayoutCache(size_t capacity = 48) : m_capacity(capacity) {}

    /// `programKey` identifies the program snapshot (e.g. its address plus a generation id),
    /// `scope` the graph inside it ("" top level, "cond_1/true_graph_0" for a subgraph).
    static std::string key(const std::string& programKey, const std::string& scope, const std::string& collapseKey) {
        return programKey + '|' + scope + '|' + collapseKey;
    }

    LayoutPtr find(const std::string& key);
    void insert(const std::string& key, LayoutPtr layout);
    void clear();
    size_t size() const;

private:
    mutable std::mutex m_mutex;
    size_t m_capacity;
    std::list<std::string> m_order; // most recent first
    std::unordered_map<std::string, std::pair<LayoutPtr, std::list<std::string>::iterator>> m_entries;
};

} // namespace irlens::core
