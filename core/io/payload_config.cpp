#include "core/io/payload_config.h"

#include "core/io/json_decode_dom.h"
#include "core/io/limits.h"
#include "core/io/zip_archive.h"

#include <algorithm>
#include <limits>

namespace irlens::core {

// Read with the program decoder's flat JSON tree rather than a map-of-maps DOM: resnet18's 37 KB
// weights config takes longer through nlohmann::json (~0.35 ms) than the rest of the container layer
// together, a third of loading the whole program.
using json::JNode;
using json::JType;
using json::JsonDoc;
using json::kNoNode;

namespace {

bool isNull(const JsonDoc& d, uint32_t v) { return v == kNoNode || d.at(v).type == JType::Null; }
bool isObject(const JsonDoc& d, uint32_t v) { return v != kNoNode && d.at(v).type == JType::Object; }
bool isInt(const JsonDoc& d, uint32_t v) { return v != kNoNode && d.at(v).type == JType::Int && !d.intOverflow(v); }
bool isBool(const JsonDoc& d, uint32_t v) { return v != kNoNode && d.at(v).type == JType::Bool; }
bool isString(const JsonDoc& d, uint32_t v) { return v != kNoNode && d.at(v).type == JType::String; }
uint32_t memberOf(const JsonDoc& d, uint32_t obj, std::string_view key) {
    return isObject(d, obj) ? d.member(obj, key) : kNoNode;
}

// Old producers wrote unions with every member present and null for the inactive ones: the active
// member is the one non-null key (a repeated key counts once, its last value).
uint32_t unionMember(const JsonDoc& d, uint32_t obj, std::string_view& member) {
    if (!isObject(d, obj)) return kNoNode;
    const bool several = d.at(obj).count > 1;
    uint32_t found = kNoNode;
    for (uint32_t c = d.firstChild(obj); c != kNoNode; c = d.nextSibling(obj, c)) {
        if (several && d.at(c).type == JType::Null) continue;
        if (found != kNoNode && d.at(c).key != member) return kNoNode;
        found = c;
        member = d.at(c).key;
    }
    return found;
}

// A SymInt as a concrete integer: bare integer, {"as_int": n}, or {"as_expr": {..., "hint": n}}.
bool symIntValue(const JsonDoc& d, uint32_t v, int64_t& out, int depth = 0) {
    if (isInt(d, v)) { out = d.at(v).i; return true; }
    std::string_view member;
    uint32_t m = unionMember(d, v, member);
    if (m == kNoNode) return false;
    if (member == "as_int" && isInt(d, m)) { out = d.at(m).i; return true; }
    if (member == "as_expr" && depth < 4) {
        uint32_t hint = memberOf(d, m, "hint");
        if (!isNull(d, hint)) return symIntValue(d, hint, out, depth + 1);
    }
    return false;
}

// `where()` gives the message prefix; called only on error (hundreds of entries, rarely one bad).
template <class Where>
Result<TensorData> tensorMeta(const JsonDoc& d, uint32_t j, const Where& where) {
    if (!isObject(d, j)) return Status::error(where() + ": tensor_meta is not an object");
    TensorData t;
    uint32_t dtype = d.member(j, "dtype");
    if (!isInt(d, dtype)) return Status::error(where() + ": tensor_meta.dtype missing or not an integer");
    const int64_t code = d.at(dtype).i;
    const bool known = code >= std::numeric_limits<int>::min() && code <= std::numeric_limits<int>::max() &&
                       elementSize(static_cast<ScalarType>(code)) != 0;
    t.dtype = static_cast<ScalarType>(code);
    if (!known) return Status::error(where() + ": tensor_meta.dtype " + std::to_string(code) + " is not a known dtype");
    for (const char* key : {"sizes", "strides"}) {
        uint32_t arr = d.member(j, key);
        if (arr == kNoNode || d.at(arr).type != JType::Array)
            return Status::error(where() + ": tensor_meta." + key + " missing");
        if (d.at(arr).count > limits::kMaxTensorRank)
            return Status::error(where() + ": tensor_meta." + key + " has too many dimensions");
        auto& dst = key[1] == 'i' ? t.sizes : t.strides;
        dst.reserve(d.at(arr).count);
        size_t k = 0;
        for (uint32_t c = d.firstChild(arr); c != kNoNode; c = d.nextSibling(arr, c), ++k) {
            int64_t v = 0;
            if (!symIntValue(d, c, v))
                return Status::error(where() + ": tensor_meta." + key + "[" + std::to_string(k) + "] is symbolic without a hint");
            dst.push_back(v);
        }
    }
    if (t.sizes.size() != t.strides.size()) return Status::error(where() + ": tensor_meta sizes and strides differ in rank");
    uint32_t offset = d.member(j, "storage_offset");
    if (!isNull(d, offset) && !symIntValue(d, offset, t.storageOffset))
        return Status::error(where() + ": tensor_meta.storage_offset is not an integer");
    uint32_t grad = d.member(j, "requires_grad");
    if (isBool(d, grad)) t.requiresGrad = d.boolean(grad);
    uint32_t device = d.member(j, "device");
    uint32_t type = memberOf(d, device, "type");
    if (isString(d, type)) {
        t.device = std::string(d.str(type));
        uint32_t index = d.member(device, "index");
        if (isInt(d, index)) t.device += ":" + std::to_string(d.at(index).i);
    }
    return t;
}

Status parseDoc(JsonDoc& doc, std::string_view text, const std::string& where) {
    Status st = doc.parse(text, limits::kMaxJsonDepth);
    return st.isOk() ? st : Status::error(where + ": " + st.message());
}

} // namespace

bool jsonDepthWithin(std::string_view text, size_t maxDepth) {
    size_t depth = 0;
    bool inString = false;
    for (size_t k = 0; k < text.size(); ++k) {
        char c = text[k];
        if (inString) {
            if (c == '\\') ++k;
            else if (c == '"') inString = false;
        } else if (c == '"') inString = true;
        else if (c == '[' || c == '{') { if (++depth > maxDepth) return false; }
        else if ((c == ']' || c == '}') && depth > 0) --depth;
    }
    return true;
}

std::optional<uint64_t> viewBytesNeeded(const TensorData& t) {
    const int64_t es = elementSize(t.dtype);
    if (es == 0 || t.sizes.size() != t.strides.size() || t.storageOffset < 0) return std::nullopt;
    // In 128-bit arithmetic: the last element touched by the view, plus one, in bytes.
    __int128 maxIndex = t.storageOffset;
    for (size_t k = 0; k < t.sizes.size(); ++k) {
        if (t.sizes[k] < 0 || t.strides[k] < 0) return std::nullopt;
        if (t.sizes[k] == 0) return 0; // no element is ever read
        maxIndex += static_cast<__int128>(t.sizes[k] - 1) * t.strides[k];
        if (maxIndex > (__int128(1) << 62)) return std::nullopt;
    }
    __int128 bytes = (maxIndex + 1) * es;
    if (bytes > (__int128(1) << 62)) return std::nullopt;
    return static_cast<uint64_t>(bytes);
}

bool tensorViewFits(const TensorData& t, uint64_t storageBytes) {
    auto need = viewBytesNeeded(t);
    return need && *need <= storageBytes;
}

std::string shapeString(const std::vector<int64_t>& dims) {
    std::string s = "[";
    for (size_t k = 0; k < dims.size(); ++k) s += (k ? ", " : "") + std::to_string(dims[k]);
    return s + "]";
}

Result<TensorData> tensorMetaFromJsonText(std::string_view text, const std::string& where) {
    JsonDoc doc;
    IRLENS_TRY(parseDoc(doc, text, where));
    return tensorMeta(doc, 0, [&] { return where; });
}

Result<std::vector<PayloadEntry>> parsePayloadConfig(std::string_view text, const std::string& recordName) {
    JsonDoc doc;
    IRLENS_TRY(parseDoc(doc, text, recordName));
    const uint32_t config = memberOf(doc, 0, "config");
    if (!isObject(doc, config)) return Status::error(recordName + ": expected an object {\"config\": {name: payload}}");
    // Entries by name, a repeated name keeping its last value (what a JSON object means).
    std::vector<uint32_t> items;
    items.reserve(doc.at(config).count);
    for (uint32_t c = doc.firstChild(config); c != kNoNode; c = doc.nextSibling(config, c)) items.push_back(c);
    std::stable_sort(items.begin(), items.end(), [&](uint32_t x, uint32_t y) { return doc.at(x).key < doc.at(y).key; });
    std::vector<PayloadEntry> out;
    out.reserve(items.size());
    for (size_t k = 0; k < items.size(); ++k) {
        const uint32_t e = items[k];
        if (k + 1 < items.size() && doc.at(items[k + 1]).key == doc.at(e).key) continue;
        auto where = [&] { return recordName + ": config['" + printableRecordName(doc.at(e).key) + "']"; };
        const uint32_t path = memberOf(doc, e, "path_name");
        if (!isString(doc, path)) return Status::error(where() + ": path_name missing");
        PayloadEntry p;
        p.fqn = std::string(doc.at(e).key);
        p.pathName = std::string(doc.str(path));
        if (!isSafeRecordName(p.pathName) || p.pathName.find('/') != std::string::npos)
            return Status::error(where() + ": path_name '" + printableRecordName(p.pathName) + "' is not a plain file name");
        const uint32_t isParam = doc.member(e, "is_param"), usePickle = doc.member(e, "use_pickle");
        p.isParam = isBool(doc, isParam) && doc.boolean(isParam);
        p.usePickle = isBool(doc, usePickle) && doc.boolean(usePickle);
        const uint32_t meta = doc.member(e, "tensor_meta");
        if (!isNull(doc, meta)) {
            auto t = tensorMeta(doc, meta, where);
            if (!t) return t.status();
            p.meta = std::move(*t);
        }
        out.push_back(std::move(p));
    }
    return out;
}

} // namespace irlens::core
