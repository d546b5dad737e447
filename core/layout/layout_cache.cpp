#include "core/layout/layout_cache.h"

namespace irlens::core {

LayoutPtr LayoutCache::find(const std::string& key) {
    std::lock_guard<std::mutex> lock(m_mutex);
    auto it = m_entries.find(key);
    if (it == m_entries.end()) return nullptr;
    m_order.splice(m_order.begin(), m_order, it->second.second);
    return it->second.first;
}

void LayoutCache::insert(const std::string& key, LayoutPtr layout) {
    std::lock_guard<std::mutex> lock(m_mutex);
    if (auto it = m_entries.find(key); it != m_entries.end()) {
        it->second.first = std::move(layout);
        m_order.splice(m_order.begin(), m_order, it->second.second);
        return;
    }
    m_order.push_front(key);
    m_entries.emplace(key, std::make_pair(std::move(layout), m_order.begin()));
    while (m_entries.size() > m_capacity && !m_order.empty()) {
        m_entries.erase(m_order.back());
        m_order.pop_back();
    }
}

void LayoutCache::clear() {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_entries.clear();
    m_order.clear();
}

size_t LayoutCache::size() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_entries.size();
}

} // namespace irlens::core
