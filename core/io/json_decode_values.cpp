// JSON decoder primitives: typed reads with paths, unions in both eras, enums, symbolic values,
// devices and TensorMeta.
#include "core/io/json_decode_context.h"
#include "core/io/limits.h"

#include <cctype>
#include <cmath>
#include <limits>

namespace irlens::core::json {

namespace {

bool isIdentifier(std::string_view k) {
    if (k.empty()) return false;
    for (char c : k)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
    return !(k[0] >= '0' && k[0] <= '9');
}

} // namespace

std::string Path::toString() const {
    std::vector<const Path*> chain;
    for (const Path* q = this; q; q = q->parent) chain.push_back(q);
    std::string out = "$";
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        const Path* q = *it;
        if (q->index >= 0) {
            out += "[" + std::to_string(q->index) + "]";
        } else if (!q->key.empty()) {
            if (isIdentifier(q->key)) {
                out += ".";
                out += q->key;
            } else {
                out += "[\"";
                out += q->key;
                out += "\"]";
            }
        }
    }
    return out;
}

Status Decoder::fail(const Path& p, const std::string& what) const {
    return Status::error(m_record + ": " + p.toString() + ": " + what);
}

Status Decoder::expect(uint32_t idx, const Path& p, JType type) const {
    JType t = m_doc.at(idx).type;
    if (t == type || (type == JType::Float && t == JType::Int)) return Status::ok();
    return fail(p, std::string("expected ") + describeType(type) + ", found " + describeType(t));
}

uint32_t Decoder::findMember(uint32_t idx, std::string_view key) const {
    uint32_t m = m_doc.member(idx, key);
    if (m == kNoNode || m_doc.at(m).type == JType::Null) return kNoNode;
    return m;
}

Status Decoder::requireMember(uint32_t idx, const Path& p, std::string_view key, uint32_t& out) const {
    out = m_doc.member(idx, key);
    if (out == kNoNode) return fail(p, "missing key \"" + std::string(key) + "\"");
    return Status::ok();
}

Status Decoder::unionMember(uint32_t idx, const Path& p, const char* what, uint32_t& member) const {
    IRLENS_TRY(expect(idx, p, JType::Object));
    const JNode& obj = m_doc.at(idx);
    if (obj.count == 1) {
        member = idx + 1;
        return Status::ok();
    }
    // Old producers wrote every member with null for the inactive ones: the active one is the non-null.
    member = kNoNode;
    size_t active = 0;
    std::string names;
    for (uint32_t c = m_doc.firstChild(idx); c != kNoNode; c = m_doc.nextSibling(idx, c)) {
        if (m_doc.at(c).type == JType::Null) continue;
        if (m_doc.member(idx, m_doc.at(c).key) != c) continue; // a duplicate key: the last one counts
        if (active++) names += ", ";
        names += m_doc.at(c).key;
        member = c;
    }
    if (active == 1) return Status::ok();
    if (active == 0)
        return fail(p, std::string("expected ") + what + " with one active member, found " +
                           (obj.count ? "every member null" : "an empty object"));
    return fail(p, std::string("expected ") + what + " with one active member, found " + std::to_string(active) +
                       " (" + names + ")");
}

Status Decoder::readString(uint32_t idx, const Path& p, std::string& out) const {
    IRLENS_TRY(expect(idx, p, JType::String));
    out.assign(m_doc.str(idx));
    return Status::ok();
}

Status Decoder::readInt(uint32_t idx, const Path& p, int64_t& out) const {
    const JNode& n = m_doc.at(idx);
    if (n.type == JType::Int && !m_doc.intOverflow(idx)) {
        out = n.i;
        return Status::ok();
    }
    if (n.type == JType::Int) return fail(p, "integer " + std::string(m_doc.sourceOf(idx)) + " does not fit in 64 bits");
    // Some writers emit integral values as floats ("2.0"); accept those exactly.
    if (n.type == JType::Float && std::isfinite(n.d) && std::trunc(n.d) == n.d && std::fabs(n.d) < 9.0e18) {
        out = static_cast<int64_t>(n.d);
        return Status::ok();
    }
    if (n.type == JType::Float) return fail(p, "expected an integer, found " + std::string(m_doc.sourceOf(idx)));
    return fail(p, std::string("expected an integer, found ") + describeType(n.type));
}

Status Decoder::readFloat(uint32_t idx, const Path& p, double& out) const {
    const JNode& n = m_doc.at(idx);
    if (n.type == JType::Int || n.type == JType::Float) {
        out = m_doc.number(idx);
        return Status::ok();
    }
    if (n.type == JType::String) {
        std::string_view str = m_doc.str(idx);
        // The JSON writer cannot write infinities; PyTorch writes these strings instead.
        if (str == "Infinity" || str == "inf") { out = std::numeric_limits<double>::infinity(); return Status::ok(); }
        if (str == "-Infinity" || str == "-inf") { out = -std::numeric_limits<double>::infinity(); return Status::ok(); }
        if (str == "NaN" || str == "nan") { out = std::numeric_limits<double>::quiet_NaN(); return Status::ok(); }
        return fail(p, "expected a number, found the string \"" + std::string(str) + "\"");
    }
    return fail(p, std::string("expected a number, found ") + describeType(n.type));
}

Status Decoder::readBool(uint32_t idx, const Path& p, bool& out) const {
    IRLENS_TRY(expect(idx, p, JType::Bool));
    out = m_doc.boolean(idx);
    return Status::ok();
}

namespace {

struct EnumName {
    const char* name;
    int value;
};

const EnumName kScalarTypeNames[] = {
    {"UNKNOWN", 0}, {"BYTE", 1}, {"CHAR", 2}, {"SHORT", 3}, {"INT", 4}, {"LONG", 5}, {"HALF", 6}, {"FLOAT", 7},
    {"DOUBLE", 8}, {"COMPLEXHALF", 9}, {"COMPLEXFLOAT", 10}, {"COMPLEXDOUBLE", 11}, {"BOOL", 12}, {"BFLOAT16", 13},
    {"UINT16", 28}, {"FLOAT8E4M3FN", 29}, {"FLOAT8E5M2", 30}, {"FLOAT8E4M3FNUZ", 31}, {"FLOAT8E5M2FNUZ", 32},
    {"FLOAT8E8M0FNU", 33}, {"UINT32", 34}, {"UINT64", 35}};
const EnumName kLayoutNames[] = {{"Unknown", 0},   {"SparseCoo", 1}, {"SparseCsr", 2}, {"SparseCsc", 3},
                                 {"SparseBsr", 4}, {"SparseBsc", 5}, {"_mkldnn", 6},   {"Strided", 7}};
const EnumName kMemoryFormatNames[] = {
    {"Unknown", 0}, {"ContiguousFormat", 1}, {"ChannelsLast", 2}, {"ChannelsLast3d", 3}, {"PreserveFormat", 4}};
const EnumName kArgumentKindNames[] = {{"UNKNOWN", 0}, {"POSITIONAL", 1}, {"KEYWORD", 2}};

template <size_t N>
bool lookup(const EnumName (&table)[N], std::string_view name, int64_t& out) {
    for (const auto& e : table) {
        if (name.size() != std::char_traits<char>::length(e.name)) continue;
        bool same = true;
        for (size_t k = 0; k < name.size() && same; ++k)
            same = std::tolower(static_cast<unsigned char>(name[k])) == std::tolower(static_cast<unsigned char>(e.name[k]));
        if (same) { out = e.value; return true; }
    }
    return false;
}

} // namespace

Status Decoder::readEnum(uint32_t idx, const Path& p, EnumKind kind, int64_t& out) const {
    const JNode& n = m_doc.at(idx);
    if (n.type != JType::String) return readInt(idx, p, out);
    std::string_view text = m_doc.str(idx);
    std::string_view name = text;
    if (auto dot = name.rfind('.'); dot != std::string_view::npos) name = name.substr(dot + 1); // "ScalarType.FLOAT"
    bool found = false;
    const char* what = "";
    switch (kind) {
    case EnumKind::ScalarType:
        what = "scalar type";
        found = lookup(kScalarTypeNames, name, out);
        if (!found)
            if (auto t = dtypeFromName(text)) { out = static_cast<int64_t>(*t); found = true; }
        break;
    case EnumKind::Layout: what = "layout"; found = lookup(kLayoutNames, name, out); break;
    case EnumKind::MemoryFormat: what = "memory format"; found = lookup(kMemoryFormatNames, name, out); break;
    case EnumKind::ArgumentKind: what = "argument kind"; found = lookup(kArgumentKindNames, name, out); break;
    }
    if (!found) return fail(p, std::string("unknown ") + what + " name \"" + std::string(text) + "\"");
    return Status::ok();
}

Status Decoder::metaMap(uint32_t idx, const Path& p, MetaMap& out) {
    IRLENS_TRY(expect(idx, p, JType::Object));
    out.reserve(m_doc.at(idx).count);
    for (uint32_t c = m_doc.firstChild(idx); c != kNoNode; c = m_doc.nextSibling(idx, c)) {
        const JNode& v = m_doc.at(c);
        // as stringMap: a value that is not a string is kept as its JSON text
        out.insert_or_assign(std::string(v.key), m_metaViews.text(v.type == JType::String ? m_doc.str(c) : m_doc.sourceOf(c)));
    }
    return Status::ok();
}

Status Decoder::stringMap(uint32_t idx, const Path& p, std::map<std::string, std::string>& out) const {
    IRLENS_TRY(expect(idx, p, JType::Object));
    for (uint32_t c = m_doc.firstChild(idx); c != kNoNode; c = m_doc.nextSibling(idx, c)) {
        const JNode& v = m_doc.at(c);
        // Values are strings; anything else is kept as its JSON text rather than refused.
        if (v.type == JType::String) out.insert_or_assign(std::string(v.key), std::string(m_doc.str(c)));
        else out.insert_or_assign(std::string(v.key), std::string(m_doc.sourceOf(c)));
    }
    return Status::ok();
}

Status Decoder::stringList(uint32_t idx, const Path& p, std::vector<std::string>& out) const {
    IRLENS_TRY(expect(idx, p, JType::Array));
    out.reserve(m_doc.at(idx).count);
    int64_t k = 0;
    for (uint32_t c = m_doc.firstChild(idx); c != kNoNode; c = m_doc.nextSibling(idx, c), ++k) {
        std::string s;
        IRLENS_TRY(readString(c, p.item(k), s));
        out.push_back(std::move(s));
    }
    return Status::ok();
}

// SymExpr: {"expr_str": "...", "hint": SymExprHint | null}. The hint union holds as_int/as_bool/as_float.
template <class T>
Status Decoder::sym(uint32_t idx, const Path& p, Sym<T>& out) const {
    using Schema = SymSchema<T>;
    // The oldest files wrote storage_offset (and only it) as a bare integer.
    if constexpr (std::is_same_v<T, int64_t>)
        if (m_doc.at(idx).type == JType::Int) return readInt(idx, p, out.value);
    uint32_t m;
    IRLENS_TRY(unionMember(idx, p, (std::string("a ") + Schema::type).c_str(), m));
    const std::string_view k = m_doc.at(m).key;
    const Path mp = p.child(k);
    if (k == Schema::literalKey) {
        T value{};
        IRLENS_TRY(readScalar(m, mp, value));
        out = Sym<T>::literal(value);
        return Status::ok();
    }
    if (k != "as_expr") return fail(p, std::string("unknown ") + Schema::type + " member \"" + std::string(k) + "\"");
    std::string expr;
    std::optional<T> hint;
    // Some early writers stored the expression as a bare string.
    if (m_doc.at(m).type == JType::String) {
        IRLENS_TRY(readString(m, mp, expr));
    } else {
        IRLENS_TRY(expect(m, mp, JType::Object));
        uint32_t e;
        IRLENS_TRY(requireMember(m, mp, "expr_str", e));
        IRLENS_TRY(readString(e, mp.child("expr_str"), expr));
        if (uint32_t h = findMember(m, "hint"); h != kNoNode) {
            const Path hp = mp.child("hint");
            T value{};
            if (m_doc.at(h).type == JType::Object) {
                uint32_t member;
                IRLENS_TRY(unionMember(h, hp, "a SymExprHint", member));
                IRLENS_TRY(readScalar(member, hp.child(m_doc.at(member).key), value));
            } else {
                IRLENS_TRY(readScalar(h, hp, value));
            }
            hint = value;
        }
    }
    out = Sym<T>::expression(std::move(expr), hint);
    return Status::ok();
}

template Status Decoder::sym(uint32_t, const Path&, SymInt&) const;
template Status Decoder::sym(uint32_t, const Path&, SymBool&) const;
template Status Decoder::sym(uint32_t, const Path&, SymFloat&) const;

Status Decoder::device(uint32_t idx, const Path& p, Device& out) const {
    IRLENS_TRY(expect(idx, p, JType::Object));
    uint32_t t;
    IRLENS_TRY(requireMember(idx, p, "type", t));
    IRLENS_TRY(readString(t, p.child("type"), out.type));
    out.index.reset();
    if (uint32_t i = findMember(idx, "index"); i != kNoNode) {
        int64_t v;
        IRLENS_TRY(readInt(i, p.child("index"), v));
        if (v < INT32_MIN || v > INT32_MAX) return fail(p.child("index"), "device index out of range");
        out.index = static_cast<int>(v);
    }
    return Status::ok();
}

Status Decoder::tensorMeta(uint32_t idx, const Path& p, TensorMeta& out) {
    IRLENS_TRY(expect(idx, p, JType::Object));
    // 2.1-era files wrap each entry as {"meta": TensorMeta}.
    if (m_doc.member(idx, "dtype") == kNoNode) {
        if (uint32_t inner = findMember(idx, "meta"); inner != kNoNode) return tensorMeta(inner, p.child("meta"), out);
    }
    uint32_t v;
    int64_t e;
    IRLENS_TRY(requireMember(idx, p, "dtype", v));
    IRLENS_TRY(readEnum(v, p.child("dtype"), EnumKind::ScalarType, e));
    out.dtype = static_cast<ScalarType>(e);
    for (auto [key, dst] : {std::pair<const char*, std::vector<SymInt>*>{"sizes", &out.sizes}, {"strides", &out.strides}}) {
        IRLENS_TRY(requireMember(idx, p, key, v));
        Path lp = p.child(key);
        IRLENS_TRY(expect(v, lp, JType::Array));
        // Hostile meta: ranks past the limit and negative literal sizes would reach every shape user.
        if (m_doc.at(v).count > limits::kMaxTensorRank)
            return fail(lp, std::to_string(m_doc.at(v).count) + " dimensions, more than the limit of " +
                                std::to_string(limits::kMaxTensorRank));
        dst->resize(m_doc.at(v).count);
        int64_t k = 0;
        for (uint32_t c = m_doc.firstChild(v); c != kNoNode; c = m_doc.nextSibling(v, c), ++k) {
            IRLENS_TRY(sym(c, lp.item(k), (*dst)[static_cast<size_t>(k)]));
            const SymInt& d = (*dst)[static_cast<size_t>(k)];
            if (dst == &out.sizes && d.isStatic() && d.value < 0)
                return fail(lp.item(k), "negative size " + std::to_string(d.value));
        }
    }
    if (uint32_t so = findMember(idx, "storage_offset"); so != kNoNode) IRLENS_TRY(sym(so, p.child("storage_offset"), out.storageOffset));
    if (uint32_t rg = findMember(idx, "requires_grad"); rg != kNoNode) IRLENS_TRY(readBool(rg, p.child("requires_grad"), out.requiresGrad));
    if (uint32_t dv = findMember(idx, "device"); dv != kNoNode) IRLENS_TRY(device(dv, p.child("device"), out.device));
    if (uint32_t ly = findMember(idx, "layout"); ly != kNoNode) {
        IRLENS_TRY(readEnum(ly, p.child("layout"), EnumKind::Layout, e));
        out.layout = static_cast<int>(e);
    }
    return Status::ok();
}

} // namespace irlens::core::json
