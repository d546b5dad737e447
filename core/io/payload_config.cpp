#include "core/io/payload_config.h"

#include "core/io/limits.h"

#include <nlohmann/json.hpp>

namespace irlens::core {

using nlohmann::json;

namespace {

// Old producers wrote unions with every member present and null for the inactive ones: the active
// member is the one non-null key.
const json* unionMember(const json& j, std::string& member) {
    if (!j.is_object()) return nullptr;
    const json* found = nullptr;
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (it.value().is_null() && j.size() > 1) continue;
        if (found) return nullptr;
        found = &it.value();
        member = it.key();
    }
    return found;
}

// A SymInt as a concrete integer: bare integer, {"as_int": n}, or {"as_expr": {..., "hint": n}}.
bool symIntValue(const json& j, int64_t& out) {
    if (j.is_number_integer()) { out = j.get<int64_t>(); return true; }
    std::string member;
    const json* v = unionMember(j, member);
    if (!v) return false;
    if (member == "as_int" && v->is_number_integer()) { out = v->get<int64_t>(); return true; }
    if (member == "as_expr" && v->is_object() && v->contains("hint") && !(*v)["hint"].is_null())
        return symIntValue((*v)["hint"], out);
    return false;
}

Result<TensorData> tensorMetaFromJson(const json& j, const std::string& where) {
    if (!j.is_object()) return Status::error(where + ": tensor_meta is not an object");
    TensorData t;
    if (!j.contains("dtype") || !j["dtype"].is_number_integer())
        return Status::error(where + ": tensor_meta.dtype missing or not an integer");
    t.dtype = static_cast<ScalarType>(j["dtype"].get<int>());
    if (elementSize(t.dtype) == 0)
        return Status::error(where + ": tensor_meta.dtype " + std::to_string(j["dtype"].get<int>()) + " is not a known dtype");
    for (const char* key : {"sizes", "strides"}) {
        if (!j.contains(key) || !j[key].is_array()) return Status::error(where + ": tensor_meta." + key + " missing");
        if (j[key].size() > limits::kMaxTensorRank) return Status::error(where + ": tensor_meta." + key + " has too many dimensions");
        auto& dst = std::string(key) == "sizes" ? t.sizes : t.strides;
        for (size_t k = 0; k < j[key].size(); ++k) {
            int64_t v = 0;
            if (!symIntValue(j[key][k], v))
                return Status::error(where + ": tensor_meta." + key + "[" + std::to_string(k) + "] is symbolic without a hint");
            dst.push_back(v);
        }
    }
    if (t.sizes.size() != t.strides.size()) return Status::error(where + ": tensor_meta sizes and strides differ in rank");
    if (j.contains("storage_offset") && !j["storage_offset"].is_null() && !symIntValue(j["storage_offset"], t.storageOffset))
        return Status::error(where + ": tensor_meta.storage_offset is not an integer");
    if (j.contains("requires_grad") && j["requires_grad"].is_boolean()) t.requiresGrad = j["requires_grad"].get<bool>();
    if (j.contains("device") && j["device"].is_object() && j["device"].contains("type") && j["device"]["type"].is_string()) {
        t.device = j["device"]["type"].get<std::string>();
        if (j["device"].contains("index") && j["device"]["index"].is_number_integer())
            t.device += ":" + std::to_string(j["device"]["index"].get<int>());
    }
    return t;
}

Result<json> parseJson(std::string_view text, const std::string& where) {
    if (!jsonDepthWithin(text, limits::kMaxJsonDepth))
        return Status::error(where + ": JSON nested deeper than " + std::to_string(limits::kMaxJsonDepth));
    json j = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) return Status::error(where + ": not valid JSON");
    return j;
}

Result<std::vector<PayloadEntry>> parsePayloadConfigUnchecked(std::string_view text, const std::string& recordName);

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
    auto j = parseJson(text, where);
    if (!j) return j.status();
    try {
        return tensorMetaFromJson(*j, where);
    } catch (const std::exception& e) {
        return Status::error(where + ": unexpected JSON shape (" + e.what() + ")");
    }
}

Result<std::vector<PayloadEntry>> parsePayloadConfig(std::string_view text, const std::string& recordName) {
    try {
        return parsePayloadConfigUnchecked(text, recordName);
    } catch (const std::exception& e) { // nlohmann accessors; never let one leave core
        return Status::error(recordName + ": unexpected JSON shape (" + e.what() + ")");
    }
}

namespace {
Result<std::vector<PayloadEntry>> parsePayloadConfigUnchecked(std::string_view text, const std::string& recordName) {
    auto parsed = parseJson(text, recordName);
    if (!parsed) return parsed.status();
    const json& root = *parsed;
    if (!root.is_object() || !root.contains("config") || !root["config"].is_object())
        return Status::error(recordName + ": expected an object {\"config\": {name: payload}}");
    std::vector<PayloadEntry> out;
    for (auto it = root["config"].begin(); it != root["config"].end(); ++it) {
        const std::string where = recordName + ": config['" + it.key() + "']";
        const json& e = it.value();
        if (!e.is_object() || !e.contains("path_name") || !e["path_name"].is_string())
            return Status::error(where + ": path_name missing");
        PayloadEntry p;
        p.fqn = it.key();
        p.pathName = e["path_name"].get<std::string>();
        if (p.pathName.empty() || p.pathName.find('/') != std::string::npos || p.pathName == "..")
            return Status::error(where + ": path_name '" + p.pathName + "' is not a plain file name");
        p.isParam = e.contains("is_param") && e["is_param"].is_boolean() && e["is_param"].get<bool>();
        p.usePickle = e.contains("use_pickle") && e["use_pickle"].is_boolean() && e["use_pickle"].get<bool>();
        if (e.contains("tensor_meta") && !e["tensor_meta"].is_null()) {
            auto meta = tensorMetaFromJson(e["tensor_meta"], where);
            if (!meta) return meta.status();
            p.meta = std::move(*meta);
        }
        out.push_back(std::move(p));
    }
    return out;
}
} // namespace

} // namespace irlens::core
