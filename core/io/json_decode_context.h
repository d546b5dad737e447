#pragma once
// Internal to the JSON decoder: the walker over a parsed JsonDoc that builds the IR model.
// Every error names the record and the JSON path ("$.graph_module.graph.nodes[3].inputs[1].arg").

#include "core/io/json_decode_dom.h"
#include "core/ir/program.h"
#include "core/ir/status.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace irlens::core::json {

/// A JSON path as a chain of stack frames: built for free while walking, formatted only on error.
struct Path {
    const Path* parent = nullptr;
    std::string_view key; // member name (used when index < 0)
    int64_t index = -1;

    Path child(std::string_view k) const { return Path{this, k, -1}; }
    Path item(int64_t i) const { return Path{this, {}, i}; }
    std::string toString() const;
};

class Decoder {
public:
    Decoder(const JsonDoc& doc, std::string recordName, std::vector<std::string>& warnings)
        : m_doc(doc), m_record(std::move(recordName)), m_warnings(warnings) {}
    /// A decoder of the elements of a deferred container, each parsed in turn into `element`: it
    /// reports into `parent`'s warnings, unknown-member counts and metadata cache, as if `parent`
    /// decoded them itself.
    Decoder(const JsonDoc& element, Decoder& parent)
        : m_doc(element), m_record(parent.m_record), m_warnings(parent.m_warnings),
          m_opaqueMembers(parent.m_opaqueMembers), m_metaViews(parent.m_metaViews) {}

    Status program(uint32_t root, Program& out);
    Status graph(uint32_t idx, const Path& p, Graph& out);
    Status argument(uint32_t idx, const Path& p, Argument& out);
    Status tensorMeta(uint32_t idx, const Path& p, TensorMeta& out);

    // ---- primitives (json_decode_values.cpp)
    Status fail(const Path& p, const std::string& what) const;
    Status expect(uint32_t idx, const Path& p, JType type) const;
    /// The member `key` of object `idx`; kNoNode when absent or null.
    uint32_t findMember(uint32_t idx, std::string_view key) const;
    Status requireMember(uint32_t idx, const Path& p, std::string_view key, uint32_t& out) const;
    /// The required member `key` of object `idx` decoded by `decode` (a Decoder method taking the
    /// member, its path and `out`).
    template <class Method, class T>
    Status field(uint32_t idx, const Path& p, std::string_view key, Method decode, T& out) {
        uint32_t v;
        IRLENS_TRY(requireMember(idx, p, key, v));
        return (this->*decode)(v, p.child(key), out);
    }
    /// The active member of a union: the only key, or the only non-null key (all-keys-with-nulls form).
    Status unionMember(uint32_t idx, const Path& p, const char* what, uint32_t& member) const;
    Status readString(uint32_t idx, const Path& p, std::string& out) const;
    Status readInt(uint32_t idx, const Path& p, int64_t& out) const;
    Status readFloat(uint32_t idx, const Path& p, double& out) const;
    Status readBool(uint32_t idx, const Path& p, bool& out) const;
    /// readInt, readFloat or readBool by the type of `out`.
    Status readScalar(uint32_t idx, const Path& p, int64_t& out) const { return readInt(idx, p, out); }
    Status readScalar(uint32_t idx, const Path& p, double& out) const { return readFloat(idx, p, out); }
    Status readScalar(uint32_t idx, const Path& p, bool& out) const { return readBool(idx, p, out); }
    /// An enum as its number or its schema name.
    enum class EnumKind { ScalarType, Layout, MemoryFormat, ArgumentKind };
    Status readEnum(uint32_t idx, const Path& p, EnumKind kind, int64_t& out) const;
    Status stringMap(uint32_t idx, const Path& p, std::map<std::string, std::string>& out) const;
    /// A node's metadata: a string map whose values are shared with every node holding the same.
    Status metaMap(uint32_t idx, const Path& p, MetaMap& out);
    Status stringList(uint32_t idx, const Path& p, std::vector<std::string>& out) const;
    /// A SymInt, SymBool or SymFloat: its literal member ("as_int", ...) or "as_expr" (sym.h).
    template <class T>
    Status sym(uint32_t idx, const Path& p, Sym<T>& out) const;
    Status device(uint32_t idx, const Path& p, Device& out) const;

    /// Calls fn(child, path of the child, position) for each element of array `idx`; an error if it is no array.
    template <class Fn>
    Status forEachItem(uint32_t idx, const Path& p, Fn&& fn) const {
        IRLENS_TRY(expect(idx, p, JType::Array));
        size_t k = 0;
        for (uint32_t c = m_doc.firstChild(idx); c != kNoNode; c = m_doc.nextSibling(idx, c), ++k)
            IRLENS_TRY(fn(c, p.item(static_cast<int64_t>(k)), k));
        return Status::ok();
    }
    /// Calls fn(child, path of the child, key) for each member of object `idx`; an error if it is no object.
    template <class Fn>
    Status forEachMember(uint32_t idx, const Path& p, Fn&& fn) const {
        IRLENS_TRY(expect(idx, p, JType::Object));
        for (uint32_t c = m_doc.firstChild(idx); c != kNoNode; c = m_doc.nextSibling(idx, c)) {
            std::string_view key = m_doc.at(c).key;
            IRLENS_TRY(fn(c, p.child(key), key));
        }
        return Status::ok();
    }

    /// Calls fn(decoder, element, k) for elements [from, to) of array or object `idx`: the elements in
    /// place, or, in a deferred container, each parsed from the text in turn and handed with the
    /// decoder of its own small document (whose record 0 it is; an object member keeps its key).
    template <class Fn>
    Status forElements(uint32_t idx, size_t from, size_t to, Fn&& fn) {
        if (!m_doc.deferred(idx)) {
            size_t k = 0;
            uint32_t c = m_doc.firstChild(idx);
            for (; c != kNoNode && k < from; c = m_doc.nextSibling(idx, c)) ++k;
            for (; c != kNoNode && k < to; c = m_doc.nextSibling(idx, c), ++k) IRLENS_TRY(fn(*this, c, k));
            return Status::ok();
        }
        JsonDoc element;
        Decoder d(element, *this);
        for (size_t k = from; k < to; ++k) {
            if (Status s = m_doc.parseElement(idx, k, element); !s) return s.withContext(m_record);
            IRLENS_TRY(fn(d, uint32_t(0), k));
        }
        return Status::ok();
    }

    const JsonDoc& doc() const { return m_doc; }
    void warn(std::string w) { m_warnings.push_back(std::move(w)); }

private:
    /// decodeRange(decoder, from, to) over [0, n); from kSplitFrom elements on, the two halves at once.
    template <class Fn>
    Status inHalves(size_t n, Fn&& decodeRange);
    static constexpr size_t kSplitFrom = 50000;
    /// The nodes of array `idx` into `out` (sized to the array), in halves.
    Status nodes(uint32_t idx, const Path& p, std::vector<Node>& out);
    /// The tensor_values table `idx` into `out`, in halves.
    Status tensorValues(uint32_t idx, const Path& p, std::map<std::string, TensorMeta>& out);
    Status node(uint32_t idx, const Path& p, Node& out);
    Status namedArgument(uint32_t idx, const Path& p, NamedArgument& out);
    Status argumentMember(std::string_view member, uint32_t v, const Path& p, Argument& out);
    Status signature(uint32_t idx, const Path& p, GraphSignature& out);
    Status legacySignature(uint32_t idx, const Path& p, GraphSignature& out);
    void finishLegacySignature(const Graph& g, GraphSignature& out) const;
    Status inputSpec(uint32_t idx, const Path& p, InputSpec& out);
    Status outputSpec(uint32_t idx, const Path& p, OutputSpec& out);
    Status moduleCallGraph(uint32_t idx, const Path& p, std::vector<ModuleCallEntry>& out);
    Status argumentList(uint32_t idx, const Path& p, std::vector<Argument>& out);
    Status schemaVersion(uint32_t idx, const Path& p, SchemaVersion& out);

    const JsonDoc& m_doc;
    std::string m_record;
    std::vector<std::string>& m_warnings;
    std::map<std::string, size_t> m_ownOpaqueMembers;
    MetaParseCache m_ownMetaViews;
    // unknown Argument members and how often they occur (an element decoder's are its parent's)
    std::map<std::string, size_t>& m_opaqueMembers = m_ownOpaqueMembers;
    MetaParseCache& m_metaViews = m_ownMetaViews; // stack traces and module stacks parsed once per distinct text
    // torch 2.1 signature maps, applied once the graph inputs/outputs are known
    bool m_legacySignature = false;
    std::map<std::string, std::string> m_legacyParams, m_legacyBuffers, m_legacyMutations;
};

} // namespace irlens::core::json
