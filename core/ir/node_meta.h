#pragma once
// Node metadata: the raw key/value pairs as stored and the parsed views of them (stack frames,
// nn_module_stack, source_fn_stack).

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace irlens::core {

struct StackFrame {
    std::string file;
    int line = 0;
    std::string function;
    std::string code;
    bool operator==(const StackFrame&) const = default;
};

struct ModuleStackEntry {
    std::string key;  // internal id, e.g. "L__self__linear"
    std::string path; // module FQN, "" for the root
    std::string type; // class qualified name
    bool operator==(const ModuleStackEntry&) const = default;
};

struct SourceFnEntry {
    std::string name;
    std::string target;
    bool operator==(const SourceFnEntry&) const = default;
};

/// A read-only list shared by every node whose metadata text is the same: the nodes of one module
/// share its module stack, the nodes of one source line its frames (a 100,000-node program holds a
/// few hundred distinct ones).
template <class T>
class SharedList {
public:
    SharedList() = default;
    SharedList(std::vector<T> items) // NOLINT(google-explicit-constructor): assigned like a vector
        : m_items(items.empty() ? nullptr : std::make_shared<const std::vector<T>>(std::move(items))) {}

    const std::vector<T>& items() const { return m_items ? *m_items : none(); }
    operator const std::vector<T>&() const { return items(); } // NOLINT(google-explicit-constructor)
    auto begin() const { return items().begin(); }
    auto end() const { return items().end(); }
    size_t size() const { return items().size(); }
    bool empty() const { return items().empty(); }
    const T& front() const { return items().front(); }
    const T& back() const { return items().back(); }
    const T& at(size_t k) const { return items().at(k); }
    const T& operator[](size_t k) const { return items()[k]; }
    bool operator==(const SharedList& o) const { return items() == o.items(); }

private:
    static const std::vector<T>& none() {
        static const std::vector<T> empty;
        return empty;
    }
    std::shared_ptr<const std::vector<T>> m_items;
};

/// A metadata value: text shared by every node whose value is the same (the nodes of one module
/// share their nn_module_stack, the nodes of one source line their stack_trace). Read-only;
/// assigning makes a new one.
class MetaText {
public:
    MetaText() = default;
    MetaText(std::string text) : m_text(std::make_shared<const std::string>(std::move(text))) {} // NOLINT
    MetaText(const char* text) : MetaText(std::string(text)) {}                                   // NOLINT
    explicit MetaText(std::shared_ptr<const std::string> text) : m_text(std::move(text)) {}

    const std::string& str() const { return m_text ? *m_text : none(); }
    operator const std::string&() const { return str(); } // NOLINT(google-explicit-constructor)
    const std::shared_ptr<const std::string>& shared() const { return m_text; }
    bool empty() const { return str().empty(); }
    size_t size() const { return str().size(); }
    bool operator==(const MetaText& o) const { return m_text == o.m_text || str() == o.str(); }

private:
    static const std::string& none() {
        static const std::string empty;
        return empty;
    }
    std::shared_ptr<const std::string> m_text;
};

/// A node's raw metadata: a handful of keys, kept as a sorted vector (a std::map spends a 96-byte
/// allocation on each key of each node). The parts of std::map's interface the IR uses.
class MetaMap {
public:
    using value_type = std::pair<std::string, MetaText>;
    using iterator = std::vector<value_type>::iterator;
    using const_iterator = std::vector<value_type>::const_iterator;

    const_iterator begin() const { return m_items.begin(); }
    const_iterator end() const { return m_items.end(); }
    iterator begin() { return m_items.begin(); }
    iterator end() { return m_items.end(); }
    size_t size() const { return m_items.size(); }
    bool empty() const { return m_items.empty(); }
    const_iterator find(std::string_view key) const {
        auto it = lowerBound(key);
        return it != m_items.end() && it->first == key ? it : m_items.end();
    }
    iterator find(std::string_view key) {
        auto it = lowerBound(key);
        return it != m_items.end() && it->first == key ? it : m_items.end();
    }
    size_t count(std::string_view key) const { return find(key) != end() ? 1 : 0; }
    /// Throws std::out_of_range for a missing key, as std::map::at does.
    const MetaText& at(std::string_view key) const;
    MetaText& operator[](std::string_view key);
    void insert_or_assign(std::string_view key, MetaText value) { (*this)[key] = std::move(value); }
    size_t erase(std::string_view key);
    void reserve(size_t n) { m_items.reserve(n); }
    bool operator==(const MetaMap& o) const { return m_items == o.m_items; }

private:
    const_iterator lowerBound(std::string_view key) const;
    iterator lowerBound(std::string_view key);
    std::vector<value_type> m_items; // sorted by key, each key once
};

struct NodeMeta;

/// The parsed views already made while reading one graph, by their text: a node whose stack trace
/// or module stack was seen before shares them instead of parsing and holding its own copy.
class MetaParseCache {
public:
    /// The one shared copy of a metadata value read from a file.
    MetaText text(std::string_view value);

private:
    friend struct NodeMeta;
    std::unordered_map<std::string_view, MetaText> m_texts; // keys view the values' own text
    struct Trace {
        std::shared_ptr<const std::string> text;
        SharedList<StackFrame> frames;
    };
    std::unordered_map<const std::string*, Trace> m_traces; // by the shared text (MetaText::shared)
    std::unordered_map<std::string, std::shared_ptr<const std::vector<ModuleStackEntry>>> m_moduleStacks;
    std::unordered_map<std::string, std::shared_ptr<const std::vector<SourceFnEntry>>> m_sourceFns;
};

/// Node metadata. `raw` holds every key as stored (the source of truth for writing back);
/// the other members are parsed views of it. The stack trace and module stack views may be shared
/// with other nodes (never modified in place: parseFromRaw makes new ones).
struct NodeMeta {
    MetaMap raw;

    std::shared_ptr<const std::string> stackTrace;
    SharedList<StackFrame> frames;
    std::shared_ptr<const std::vector<ModuleStackEntry>> moduleStack; // null: no nn_module_stack key
    std::shared_ptr<const std::vector<SourceFnEntry>> sourceFnStack; // null: no source_fn_stack key
    std::shared_ptr<const std::string> torchFn;                       // null: no torch_fn key
    std::shared_ptr<const std::string> custom;                        // null: no custom key

    /// Fills the parsed members from `raw` (stack frames, module stack in both eras, source_fn).
    void parseFromRaw();
    /// The same, sharing the views `cache` already holds for the same texts (and adding new ones).
    void parseFromRaw(MetaParseCache& cache);
    bool operator==(const NodeMeta& o) const { return raw == o.raw; }
};

} // namespace irlens::core
