#pragma once
// A compact, read-only JSON tree for the program decoder.
//
// Why not a general JSON library's DOM: program JSON reaches several megabytes (5k+ nodes), and a
// map-of-maps DOM costs more than the decoding itself. Here every value is one flat record in
// pre-order; a container knows where its subtree ends, so walking siblings is an index jump.
// Strings without escapes are views into the source text (which must outlive the document).
// Integers are kept as int64 (never through double); nesting depth is bounded while parsing.
//
// Containers that grow with the program (a graph's nodes and value tables) can be deferred: the
// parse keeps only where each of their elements starts and ends, and the decoder parses one element
// at a time into a small document of its own. A million-node graph's tree (about 40 records of 48
// bytes a node) is then never held beside the program.

#include "core/ir/status.h"

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace irlens::core::json {

enum class JType : uint8_t { Null, Bool, Int, Float, String, Array, Object };

// 48 bytes: program JSON has ~45 values per kilobyte, so the record size is most of the parse cost.
struct JNode {
    JType type = JType::Null;
    uint8_t flags = 0;        // kTrue, kIntOverflow, kEscaped
    uint32_t end = 0;         // index one past this node's subtree
    uint32_t count = 0;       // number of children (arrays, objects)
    uint32_t srcBegin = 0;    // the value's text in the source
    uint32_t srcEnd = 0;
    std::string_view key;     // member key when the parent is an object
    union {
        int64_t i;            // Int; String with kEscaped: index of its unescaped copy
        double d;             // Float, and Int with kIntOverflow (approximate)
    };
    JNode() : i(0) {}

    static constexpr uint8_t kTrue = 1, kIntOverflow = 2, kEscaped = 4;
    /// An Array or Object whose elements were checked but not kept: `i` indexes the document's
    /// deferred element lists, `count` is their number, and the record has no children.
    static constexpr uint8_t kDeferred = 8;
};

inline constexpr uint32_t kNoNode = UINT32_MAX;

/// "null", "a boolean", "a number", "a string", "an array", "an object".
const char* describeType(JType t);

/// A container to defer, named by the object keys leading to it from the root ({"graph_module", "graph", "nodes"}).
using KeyPath = std::vector<std::string_view>;

/// How a deferred container is read. Scan: only its structure (strings, brackets, the commas between
/// elements), fast; each element is checked whole when parseElement parses it. Check: every byte, with
/// the errors a plain parse gives in text order (the elements still not kept): what names the first
/// syntax error once a scanned document turned out to hold one.
enum class Deferral { Scan, Check };

class JsonDoc {
public:
    /// Parses `text`. Errors give line and column; nesting deeper than `maxDepth` is refused. The
    /// elements of the containers at `deferred` paths are not kept (see Deferral and parseElement).
    Status parse(std::string_view text, size_t maxDepth, const std::vector<KeyPath>& deferred = {},
                 Deferral how = Deferral::Scan);

    /// Whether `index` is a deferred container (its elements are read with parseElement).
    bool deferred(uint32_t index) const { return m_nodes[index].flags & JNode::kDeferred; }
    /// Parses element `k` of deferred container `index` into `element`, which then views this
    /// document's source: its record 0 is the element (for an object, the member with its key). Errors
    /// name the line and column in the whole text; with Deferral::Scan an error here may not be the
    /// text's first (parse again with Deferral::Check for that).
    Status parseElement(uint32_t index, size_t k, JsonDoc& element) const;

    const JNode& at(uint32_t index) const { return m_nodes[index]; }
    size_t size() const { return m_nodes.size(); }
    /// The raw JSON text of a value, as written in the source.
    std::string_view sourceOf(uint32_t index) const {
        return m_text.substr(m_nodes[index].srcBegin, m_nodes[index].srcEnd - m_nodes[index].srcBegin);
    }
    /// First child of a container (kNoNode when empty) and the sibling after `index` (kNoNode at the end).
    uint32_t firstChild(uint32_t index) const { return m_nodes[index].count ? index + 1 : kNoNode; }
    uint32_t nextSibling(uint32_t parent, uint32_t index) const {
        uint32_t n = m_nodes[index].end;
        return n < m_nodes[parent].end ? n : kNoNode;
    }
    /// The member `key` of object `index` (the last one when duplicated), kNoNode when absent.
    /// Linear: objects in program JSON are small.
    uint32_t member(uint32_t index, std::string_view key) const;

    /// A String's unescaped text.
    std::string_view str(uint32_t index) const {
        const JNode& n = m_nodes[index];
        if (n.flags & JNode::kEscaped) return m_unescaped[static_cast<size_t>(n.i)];
        return m_text.substr(n.srcBegin + 1, n.srcEnd - n.srcBegin - 2);
    }
    bool boolean(uint32_t index) const { return m_nodes[index].flags & JNode::kTrue; }
    bool intOverflow(uint32_t index) const { return m_nodes[index].flags & JNode::kIntOverflow; }
    /// An Int or Float as double.
    double number(uint32_t index) const {
        const JNode& n = m_nodes[index];
        return n.type == JType::Int && !(n.flags & JNode::kIntOverflow) ? static_cast<double>(n.i) : n.d;
    }

private:
    friend class JsonParser;
    /// Where each element of a deferred container starts (an object's: at its key) and ends, and how
    /// deep its elements sit (nesting is counted from the document's root).
    struct DeferredElements {
        std::vector<uint32_t> begins;
        std::vector<uint32_t> ends;
        size_t depth = 0;
        bool members = false;
    };
    std::vector<JNode> m_nodes;
    std::deque<std::string> m_unescaped; // strings that had escapes (deque: stable addresses)
    std::vector<DeferredElements> m_deferred;
    std::string_view m_text;
    size_t m_maxDepth = 0;
};

} // namespace irlens::core::json
