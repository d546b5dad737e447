// JSON decoder: Graph, Node, NamedArgument and every Argument member (section 5.4-5.5 of the
// format guide). Unknown Argument members become ArgKind::Opaque with their raw JSON.
#include "core/io/json_decode_context.h"
#include "core/ir/fx_names.h"

#include <algorithm>
#include <future>
#include <memory>
#include <set>
#include <system_error>
#include <unordered_map>

namespace irlens::core::json {

namespace {

enum class Member {
    None, Tensor, Tensors, OptionalTensor, OptionalTensors, NestedTensors, Int, Ints, IntLists, Float, Floats,
    FloatLists, Bool, Bools, String, Strings, Complex, SymInt, SymInts, SymBool, SymBools, SymFloat, SymFloats,
    ScalarType, MemoryFormat, Layout, Device, Graph, CustomObj, Operator, StringToArgument
};

const std::unordered_map<std::string_view, Member>& memberTable() {
    static const std::unordered_map<std::string_view, Member> table = {
        {"as_none", Member::None}, {"as_tensor", Member::Tensor}, {"as_tensors", Member::Tensors},
        {"as_optional_tensor", Member::OptionalTensor}, {"as_optional_tensors", Member::OptionalTensors},
        {"as_nested_tensors", Member::NestedTensors}, {"as_int", Member::Int}, {"as_ints", Member::Ints},
        {"as_int_lists", Member::IntLists}, {"as_float", Member::Float}, {"as_floats", Member::Floats},
        {"as_float_lists", Member::FloatLists}, {"as_bool", Member::Bool}, {"as_bools", Member::Bools},
        {"as_string", Member::String}, {"as_strings", Member::Strings}, {"as_complex", Member::Complex},
        {"as_sym_int", Member::SymInt}, {"as_sym_ints", Member::SymInts}, {"as_sym_bool", Member::SymBool},
        {"as_sym_bools", Member::SymBools}, {"as_sym_float", Member::SymFloat}, {"as_sym_floats", Member::SymFloats},
        {"as_scalar_type", Member::ScalarType}, {"as_memory_format", Member::MemoryFormat},
        {"as_layout", Member::Layout}, {"as_device", Member::Device}, {"as_graph", Member::Graph},
        {"as_custom_obj", Member::CustomObj}, {"as_operator", Member::Operator},
        {"as_string_to_argument", Member::StringToArgument}};
    return table;
}

} // namespace

// {"name": "..."} (TensorArgument / TokenArgument)
static Status tensorName(const Decoder& d, uint32_t idx, const Path& p, std::string& out) {
    IRLENS_TRY(d.expect(idx, p, JType::Object));
    uint32_t n;
    IRLENS_TRY(d.requireMember(idx, p, "name", n));
    return d.readString(n, p.child("name"), out);
}

// Runs `each(childIndex, childPath, element)` over an array, filling out.list.
template <class Fn>
static Status forList(const Decoder& d, uint32_t idx, const Path& p, Argument& out, ArgKind kind, Fn each) {
    IRLENS_TRY(d.expect(idx, p, JType::Array));
    out.kind = kind;
    out.list.resize(d.doc().at(idx).count);
    int64_t k = 0;
    for (uint32_t c = d.doc().firstChild(idx); c != kNoNode; c = d.doc().nextSibling(idx, c), ++k)
        IRLENS_TRY(each(c, p.item(k), out.list[static_cast<size_t>(k)]));
    return Status::ok();
}

// SymIntArgument / SymBoolArgument / SymFloatArgument: {"as_name": ...} or the literal member.
static Status symArgument(const Decoder& d, uint32_t idx, const Path& p, ArgKind kind, Argument& out) {
    out.kind = kind;
    const char* what = kind == ArgKind::SymInt ? "a SymIntArgument" : kind == ArgKind::SymBool ? "a SymBoolArgument"
                                                                                              : "a SymFloatArgument";
    uint32_t m;
    IRLENS_TRY(d.unionMember(idx, p, what, m));
    std::string_view k = d.doc().at(m).key;
    Path mp = p.child(k);
    if (k == "as_name") {
        out.isName = true;
        return d.readString(m, mp, out.s);
    }
    if (kind == ArgKind::SymInt && k == "as_int") return d.readInt(m, mp, out.i);
    if (kind == ArgKind::SymBool && k == "as_bool") return d.readBool(m, mp, out.b);
    if (kind == ArgKind::SymFloat && k == "as_float") return d.readFloat(m, mp, out.f);
    return d.fail(p, std::string("unknown member \"") + std::string(k) + "\" of " + what);
}

// The list members of Argument (as_tensors, as_ints, as_sym_floats ...); false when `m` is none.
static bool listMember(const Decoder& d, Member m, uint32_t v, const Path& mp, Argument& out, Status& status) {
    // one element reader per list kind: sets the element's kind and reads it
    auto tensor = [&](uint32_t c, const Path& cp, Argument& e) { e.kind = ArgKind::Tensor; return tensorName(d, c, cp, e.s); };
    auto integer = [&](uint32_t c, const Path& cp, Argument& e) { e.kind = ArgKind::Int; return d.readInt(c, cp, e.i); };
    auto floating = [&](uint32_t c, const Path& cp, Argument& e) { e.kind = ArgKind::Float; return d.readFloat(c, cp, e.f); };
    auto sym = [&](ArgKind k) { return [&d, k](uint32_t c, const Path& cp, Argument& e) { return symArgument(d, c, cp, k, e); }; };
    switch (m) {
    case Member::Tensors: status = forList(d, v, mp, out, ArgKind::Tensors, tensor); return true;
    case Member::OptionalTensors:
        status = forList(d, v, mp, out, ArgKind::OptionalTensors, [&](uint32_t c, const Path& cp, Argument& e) {
            uint32_t u;
            IRLENS_TRY(d.unionMember(c, cp, "an OptionalTensorArgument", u));
            std::string_view k = d.doc().at(u).key;
            if (k == "as_none") { e.kind = ArgKind::None; return Status::ok(); }
            if (k != "as_tensor") return d.fail(cp, "unknown OptionalTensorArgument member \"" + std::string(k) + "\"");
            e.kind = ArgKind::Tensor;
            return tensorName(d, u, cp.child(k), e.s);
        });
        return true;
    case Member::NestedTensors:
        status = forList(d, v, mp, out, ArgKind::NestedTensors, [&](uint32_t c, const Path& cp, Argument& e) {
            return forList(d, c, cp, e, ArgKind::Tensors, tensor);
        });
        return true;
    case Member::Ints: status = forList(d, v, mp, out, ArgKind::Ints, integer); return true;
    case Member::IntLists:
        status = forList(d, v, mp, out, ArgKind::IntLists, [&](uint32_t c, const Path& cp, Argument& e) {
            return forList(d, c, cp, e, ArgKind::Ints, integer);
        });
        return true;
    case Member::Floats: status = forList(d, v, mp, out, ArgKind::Floats, floating); return true;
    case Member::FloatLists:
        status = forList(d, v, mp, out, ArgKind::FloatLists, [&](uint32_t c, const Path& cp, Argument& e) {
            return forList(d, c, cp, e, ArgKind::Floats, floating);
        });
        return true;
    case Member::Bools:
        status = forList(d, v, mp, out, ArgKind::Bools, [&](uint32_t c, const Path& cp, Argument& e) {
            e.kind = ArgKind::Bool;
            return d.readBool(c, cp, e.b);
        });
        return true;
    case Member::Strings:
        status = forList(d, v, mp, out, ArgKind::Strings, [&](uint32_t c, const Path& cp, Argument& e) {
            e.kind = ArgKind::String;
            return d.readString(c, cp, e.s);
        });
        return true;
    case Member::SymInts: status = forList(d, v, mp, out, ArgKind::SymInts, sym(ArgKind::SymInt)); return true;
    case Member::SymBools: status = forList(d, v, mp, out, ArgKind::SymBools, sym(ArgKind::SymBool)); return true;
    case Member::SymFloats: status = forList(d, v, mp, out, ArgKind::SymFloats, sym(ArgKind::SymFloat)); return true;
    default: return false;
    }
}

// Members with fields of their own: as_optional_tensor, as_complex, as_graph, as_custom_obj,
// as_string_to_argument.
static Status structMember(Decoder& d, Member m, uint32_t v, const Path& mp, Argument& out) {
    switch (m) {
    case Member::OptionalTensor: {
        out.kind = ArgKind::OptionalTensor;
        uint32_t u;
        IRLENS_TRY(d.unionMember(v, mp, "an OptionalTensorArgument", u));
        std::string_view k = d.doc().at(u).key;
        if (k == "as_tensor") return tensorName(d, u, mp.child(k), out.s);
        if (k == "as_none") return Status::ok();
        return d.fail(mp, "unknown OptionalTensorArgument member \"" + std::string(k) + "\"");
    }
    case Member::Complex: {
        out.kind = ArgKind::Complex;
        IRLENS_TRY(d.expect(v, mp, JType::Object));
        uint32_t r, i;
        IRLENS_TRY(d.requireMember(v, mp, "real", r));
        IRLENS_TRY(d.requireMember(v, mp, "imag", i));
        IRLENS_TRY(d.readFloat(r, mp.child("real"), out.f));
        return d.readFloat(i, mp.child("imag"), out.imag);
    }
    case Member::Graph: {
        out.kind = ArgKind::Graph;
        IRLENS_TRY(d.expect(v, mp, JType::Object));
        IRLENS_TRY(d.field(v, mp, "name", &Decoder::readString, out.s));
        auto sub = std::make_shared<Graph>();
        IRLENS_TRY(d.field(v, mp, "graph", &Decoder::graph, *sub));
        out.setGraph(std::move(sub));
        return Status::ok();
    }
    case Member::CustomObj:
        out.kind = ArgKind::CustomObj;
        IRLENS_TRY(d.expect(v, mp, JType::Object));
        IRLENS_TRY(d.field(v, mp, "name", &Decoder::readString, out.s));
        {
            std::string classFqn;
            IRLENS_TRY(d.field(v, mp, "class_fqn", &Decoder::readString, classFqn));
            out.setS2(std::move(classFqn));
        }
        return Status::ok();
    case Member::StringToArgument: {
        out.kind = ArgKind::StringToArgument;
        IRLENS_TRY(d.expect(v, mp, JType::Object));
        out.list.resize(d.doc().at(v).count);
        size_t k = 0;
        for (uint32_t c = d.doc().firstChild(v); c != kNoNode; c = d.doc().nextSibling(v, c), ++k) {
            IRLENS_TRY(d.argument(c, mp.child(d.doc().at(c).key), out.list[k]));
            out.list[k].setKey(std::string(d.doc().at(c).key));
        }
        return Status::ok();
    }
    default: return Status::ok();
    }
}

Status Decoder::argumentMember(std::string_view member, uint32_t v, const Path& mp, Argument& out) {
    const auto& table = memberTable();
    auto it = table.find(member);
    if (it == table.end()) {
        // A member newer than this build: keep it verbatim so nothing is lost, show it as raw JSON.
        out.kind = ArgKind::Opaque;
        out.s.assign(member);
        ++m_opaqueMembers[out.s];
        out.setRaw(std::string(m_doc.sourceOf(v)));
        return Status::ok();
    }
    switch (it->second) {
    case Member::None: out.kind = ArgKind::None; return Status::ok(); // true, or [] in old files
    case Member::Tensor: out.kind = ArgKind::Tensor; return tensorName(*this, v, mp, out.s);
    case Member::Int: out.kind = ArgKind::Int; return readInt(v, mp, out.i);
    case Member::Float: out.kind = ArgKind::Float; return readFloat(v, mp, out.f);
    case Member::Bool: out.kind = ArgKind::Bool; return readBool(v, mp, out.b);
    case Member::String: out.kind = ArgKind::String; return readString(v, mp, out.s);
    case Member::SymInt: return symArgument(*this, v, mp, ArgKind::SymInt, out);
    case Member::SymBool: return symArgument(*this, v, mp, ArgKind::SymBool, out);
    case Member::SymFloat: return symArgument(*this, v, mp, ArgKind::SymFloat, out);
    case Member::ScalarType: out.kind = ArgKind::ScalarType; return readEnum(v, mp, EnumKind::ScalarType, out.i);
    case Member::MemoryFormat: out.kind = ArgKind::MemoryFormat; return readEnum(v, mp, EnumKind::MemoryFormat, out.i);
    case Member::Layout: out.kind = ArgKind::Layout; return readEnum(v, mp, EnumKind::Layout, out.i);
    case Member::Device: {
        out.kind = ArgKind::Device;
        Device d;
        IRLENS_TRY(device(v, mp, d));
        out.setDevice(std::move(d));
        return Status::ok();
    }
    case Member::Operator: out.kind = ArgKind::Operator; return readString(v, mp, out.s);
    default: break;
    }
    if (Status status; listMember(*this, it->second, v, mp, out, status)) return status;
    return structMember(*this, it->second, v, mp, out);
}

Status Decoder::argument(uint32_t idx, const Path& p, Argument& out) {
    uint32_t m;
    IRLENS_TRY(unionMember(idx, p, "an Argument", m));
    std::string_view key = m_doc.at(m).key;
    return argumentMember(key, m, p.child(key), out);
}

Status Decoder::argumentList(uint32_t idx, const Path& p, std::vector<Argument>& out) {
    IRLENS_TRY(expect(idx, p, JType::Array));
    out.resize(m_doc.at(idx).count);
    int64_t k = 0;
    for (uint32_t c = m_doc.firstChild(idx); c != kNoNode; c = m_doc.nextSibling(idx, c), ++k)
        IRLENS_TRY(argument(c, p.item(k), out[static_cast<size_t>(k)]));
    return Status::ok();
}

Status Decoder::namedArgument(uint32_t idx, const Path& p, NamedArgument& out) {
    IRLENS_TRY(expect(idx, p, JType::Object));
    if (uint32_t n = findMember(idx, "name"); n != kNoNode) IRLENS_TRY(readString(n, p.child("name"), out.name));
    IRLENS_TRY(field(idx, p, "arg", &Decoder::argument, out.arg));
    if (uint32_t k = findMember(idx, "kind"); k != kNoNode) {
        int64_t kind;
        IRLENS_TRY(readEnum(k, p.child("kind"), EnumKind::ArgumentKind, kind));
        if (kind < static_cast<int64_t>(ArgumentKind::Unknown) || kind > static_cast<int64_t>(ArgumentKind::Keyword))
            return fail(p.child("kind"), "unknown argument kind " + std::to_string(kind) + " (0 unknown, 1 positional, 2 keyword)");
        out.kind = static_cast<ArgumentKind>(kind);
    }
    return Status::ok();
}

Status Decoder::node(uint32_t idx, const Path& p, Node& out) {
    IRLENS_TRY(expect(idx, p, JType::Object));
    uint32_t v;
    IRLENS_TRY(requireMember(idx, p, "target", v));
    std::string target;
    IRLENS_TRY(readString(v, p.child("target"), target));
    out.target = Target::parse(target);
    IRLENS_TRY(requireMember(idx, p, "inputs", v));
    IRLENS_TRY(expect(v, p.child("inputs"), JType::Array));
    out.inputs.resize(m_doc.at(v).count);
    IRLENS_TRY(forEachItem(v, p.child("inputs"), [&](uint32_t c, const Path& cp, size_t k) {
        return namedArgument(c, cp, out.inputs[k]);
    }));
    IRLENS_TRY(field(idx, p, "outputs", &Decoder::argumentList, out.outputs));
    if (uint32_t m = findMember(idx, "metadata"); m != kNoNode) {
        IRLENS_TRY(metaMap(m, p.child("metadata"), out.meta.raw));
        out.meta.parseFromRaw(m_metaViews);
    }
    if (uint32_t h = findMember(idx, "is_hop_single_tensor_return"); h != kNoNode) {
        bool b;
        IRLENS_TRY(readBool(h, p.child("is_hop_single_tensor_return"), b));
        out.isHopSingleTensorReturn = b;
    }
    if (uint32_t n = findMember(idx, "name"); n != kNoNode) {
        IRLENS_TRY(readString(n, p.child("name"), out.name));
        out.hasSerializedName = true;
    }
    // otherwise the graph names it as FX does, once all its nodes are read (nameUnnamedNodes)
    return Status::ok();
}

namespace {

/// Files that do not serialize node names: each node takes the name torch's deserializer gives its
/// FX node, so the FX text, the Node pane and the Profile agree (a multi-output node is
/// "native_layer_norm_default", not its first getitem). A big graph is named on a second thread while
/// its value tables are read (naming reads the nodes, inputs and outputs only; the tables write
/// none of them): the 100k program's 0.15 s of naming runs beside its tables. Only where that time
/// matters: the names the other thread made keep about 75 bytes per node of its pages held after the
/// load (a 20,000-node chain: 1,151 -> 1,226 bytes per node, over tst_load_memory's limit).
constexpr size_t kNameBesideTablesFrom = 50000;

std::future<std::vector<std::string>> startNaming(const Graph& g) {
    if (std::all_of(g.nodes.begin(), g.nodes.end(), [](const Node& n) { return n.hasSerializedName; })) return {};
    // a deferred task runs in get(); an async one is waited for by the future's destructor on every way out
    auto name = [&g] { return fxNodeNames(g); };
    if (g.nodes.size() >= kNameBesideTablesFrom) {
        try {
            return std::async(std::launch::async, name);
        } catch (const std::system_error&) { // no thread to be had: named in line
        }
    }
    return std::async(std::launch::deferred, name);
}

void applyNames(Graph& g, std::future<std::vector<std::string>>& naming) {
    if (!naming.valid()) return;
    std::vector<std::string> names = naming.get();
    for (size_t k = 0; k < g.nodes.size(); ++k)
        if (!g.nodes[k].hasSerializedName) g.nodes[k].name = std::move(names[k]);
}

} // namespace

template <class Fn>
Status Decoder::inHalves(size_t n, Fn&& decodeRange) {
    if (n < kSplitFrom) return decodeRange(*this, 0, n);
    // Nodes and value-table entries are records of their own: a big graph's second half is decoded at
    // the same time by a decoder of its own (its own metadata cache and warnings, merged after it, so
    // that messages and the first error come as one pass gives them).
    std::vector<std::string> laterWarnings;
    Decoder later(m_doc, m_record, laterWarnings);
    std::future<Status> second;
    try {
        second = std::async(std::launch::async, [&] { return decodeRange(later, n / 2, n); });
    } catch (const std::system_error&) { // no thread to be had: one pass
        return decodeRange(*this, 0, n);
    }
    const Status first = decodeRange(*this, 0, n / 2);
    const Status rest = second.get();
    m_warnings.insert(m_warnings.end(), laterWarnings.begin(), laterWarnings.end());
    for (const auto& [member, uses] : later.m_opaqueMembers) m_opaqueMembers[member] += uses;
    return !first ? first : rest;
}

Status Decoder::nodes(uint32_t idx, const Path& p, std::vector<Node>& out) {
    return inHalves(out.size(), [&](Decoder& d, size_t from, size_t to) {
        return d.forElements(idx, from, to, [&](Decoder& e, uint32_t c, size_t k) {
            return e.node(c, p.item(static_cast<int64_t>(k)), out[k]);
        });
    });
}

Status Decoder::tensorValues(uint32_t idx, const Path& p, std::map<std::string, TensorMeta>& out) {
    IRLENS_TRY(expect(idx, p, JType::Object));
    std::map<std::string, TensorMeta> laterHalf;
    IRLENS_TRY(inHalves(m_doc.at(idx).count, [&](Decoder& d, size_t from, size_t to) {
        auto& into = from == 0 ? out : laterHalf;
        return d.forElements(idx, from, to, [&](Decoder& e, uint32_t c, size_t) {
            const std::string_view name = e.doc().at(c).key;
            TensorMeta meta;
            IRLENS_TRY(e.tensorMeta(c, p.child(name), meta));
            // files list the table sorted, as torch writes it: each entry then goes in at the end in constant time
            into.insert_or_assign(into.end(), std::string(name), std::move(meta));
            return Status::ok();
        });
    }));
    // the later half after the first, its entries moved over as they are (a name written twice: the later one)
    while (!laterHalf.empty()) {
        auto entry = laterHalf.extract(laterHalf.begin());
        auto result = out.insert(out.end(), std::move(entry));
        if (entry) result->second = std::move(entry.mapped());
    }
    return Status::ok();
}

Status Decoder::graph(uint32_t idx, const Path& p, Graph& out) {
    IRLENS_TRY(expect(idx, p, JType::Object));
    uint32_t v;
    IRLENS_TRY(field(idx, p, "inputs", &Decoder::argumentList, out.inputs));
    IRLENS_TRY(field(idx, p, "outputs", &Decoder::argumentList, out.outputs));
    IRLENS_TRY(requireMember(idx, p, "nodes", v));
    IRLENS_TRY(expect(v, p.child("nodes"), JType::Array));
    out.nodes.resize(m_doc.at(v).count);
    IRLENS_TRY(nodes(v, p.child("nodes"), out.nodes));
    auto naming = startNaming(out);
    // The other optional name -> value tables (deferred in a program's top graph); each decoder call
    // fills the map entry in place.
    auto table = [&](const char* key, auto&& decodeInto) -> Status {
        uint32_t t = findMember(idx, key);
        if (t == kNoNode) return Status::ok();
        const Path tp = p.child(key);
        IRLENS_TRY(expect(t, tp, JType::Object));
        return forElements(t, 0, m_doc.at(t).count, [&](Decoder& d, uint32_t c, size_t) {
            const std::string_view name = d.doc().at(c).key;
            return decodeInto(d, c, tp.child(name), std::string(name));
        });
    };
    if (uint32_t t = findMember(idx, "tensor_values"); t != kNoNode) IRLENS_TRY(tensorValues(t, p.child("tensor_values"), out.tensorValues));
    IRLENS_TRY(table("sym_int_values", [&](Decoder& d, uint32_t c, const Path& cp, std::string name) {
        return d.sym(c, cp, out.symIntValues[std::move(name)]);
    }));
    IRLENS_TRY(table("sym_bool_values", [&](Decoder& d, uint32_t c, const Path& cp, std::string name) {
        return d.sym(c, cp, out.symBoolValues[std::move(name)]);
    }));
    IRLENS_TRY(table("sym_float_values", [&](Decoder& d, uint32_t c, const Path& cp, std::string name) {
        return d.sym(c, cp, out.symFloatValues[std::move(name)]);
    }));
    IRLENS_TRY(table("custom_obj_values", [&](Decoder& d, uint32_t c, const Path& cp, std::string name) {
        IRLENS_TRY(d.expect(c, cp, JType::Object));
        CustomObjMeta& meta = out.customObjValues[std::move(name)];
        IRLENS_TRY(d.field(c, cp, "name", &Decoder::readString, meta.name));
        return d.field(c, cp, "class_fqn", &Decoder::readString, meta.classFqn);
    }));
    if (uint32_t s = findMember(idx, "is_single_tensor_return"); s != kNoNode)
        IRLENS_TRY(readBool(s, p.child("is_single_tensor_return"), out.isSingleTensorReturn));
    applyNames(out, naming);
    return Status::ok();
}

} // namespace irlens::core::json
