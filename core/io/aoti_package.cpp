// Describing an AOTInductor package: the tags at its root, then each model folder's records by kind.
#include "core/io/aoti_package.h"
#include "core/io/text_util.h"

#include "core/io/aoti_source_scan.h"
#include "core/io/library_header.h"
#include "core/io/limits.h"
#include "core/io/pt2_reader.h"
#include "core/io/zip_archive.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <set>

namespace irlens::core {

namespace {

constexpr int kMaxJsonNesting = 64;
constexpr size_t kMaxCustomOpCalls = 100000;

bool endsWith(std::string_view s, std::string_view tail) {
    return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}
bool startsWith(std::string_view s, std::string_view head) { return s.substr(0, head.size()) == head; }

// A small JSON record, parsed; a discarded value when unreadable, too big or too deeply nested.
nlohmann::json readJson(const ZipArchive& zip, const std::string& record) {
    auto text = zip.readText(record, limits::kMaxConfigJsonBytes);
    if (!text || aoti::jsonNesting(*text) > kMaxJsonNesting) return nlohmann::json::value_t::discarded;
    return nlohmann::json::parse(*text, nullptr, false);
}

std::string scalarText(const nlohmann::json& v) {
    if (v.is_string()) return v.get<std::string>();
    return v.dump(); // numbers, booleans, null; nesting was bounded by readJson
}

// One export-schema argument ({"as_tensor": {"name": "buf15"}}, {"as_int": 224}, ...) as source text.
std::string argumentText(const nlohmann::json& arg) {
    if (!arg.is_object() || arg.size() != 1) return "?";
    const std::string& kind = arg.begin().key();
    const nlohmann::json& v = arg.begin().value();
    auto named = [](const nlohmann::json& t) { return t.is_object() ? t.value("name", std::string("?")) : std::string("?"); };
    if (kind == "as_tensor" || kind == "as_sym_int" || kind == "as_sym_float" || kind == "as_sym_bool") {
        if (v.is_object() && v.contains("as_name")) return scalarText(v["as_name"]);
        if (v.is_object() && v.contains("as_int")) return scalarText(v["as_int"]);
        return named(v);
    }
    if (kind == "as_tensors" && v.is_array()) {
        std::string s = "[";
        for (size_t k = 0; k < v.size(); ++k) s += (k ? ", " : "") + named(v[k]);
        return s + "]";
    }
    if (kind == "as_none") return "None";
    if (kind == "as_string") return "'" + scalarText(v) + "'";
    if (kind == "as_bool") return v.is_boolean() ? (v.get<bool>() ? "True" : "False") : "?";
    return v.dump();
}

void readCustomOpCalls(const nlohmann::json& doc, AotiModel& m) {
    for (const auto& entry : doc["nodes"]) {
        if (m.customOps.size() >= kMaxCustomOpCalls) break;
        if (!entry.is_object()) continue;
        const nlohmann::json node = entry.value("node", nlohmann::json::object());
        AotiCustomOpCall call;
        call.node = entry.value("name", std::string());
        call.target = node.is_object() ? node.value("target", std::string("?")) : "?";
        if (node.is_object() && node.contains("inputs") && node["inputs"].is_array())
            for (const auto& in : node["inputs"]) {
                if (!in.is_object()) continue;
                std::string name = in.value("name", std::string());
                call.inputs.push_back((name.empty() ? "" : name + "=") + argumentText(in.value("arg", nlohmann::json())));
            }
        if (node.is_object() && node.contains("outputs") && node["outputs"].is_array())
            for (const auto& out : node["outputs"]) call.outputs.push_back(argumentText(out));
        m.customOps.push_back(std::move(call));
    }
}

void readMetadata(const nlohmann::json& doc, AotiModel& m, AotiFile& f) {
    if (!doc.is_object()) { f.detail = "unreadable JSON"; return; }
    for (const auto& item : doc.items()) {
        const std::string& key = item.key();
        const std::string v = scalarText(item.value());
        f.detail += (f.detail.empty() ? "" : ", ") + key + ": " + v;
        if (std::none_of(m.metadata.begin(), m.metadata.end(), [&](const auto& kv) { return kv.first == key && kv.second == v; }))
            m.metadata.emplace_back(key, v);
        if (key == "AOTI_DEVICE_KEY" && m.device.find(v) == std::string::npos)
            m.device += (m.device.empty() ? "" : ", ") + v;
    }
}

void readSource(const ZipArchive& zip, const ZipEntry& e, AotiModel& m, AotiFile& f) {
    auto bytes = zip.read(e.name);
    if (!bytes) { f.detail = bytes.error(); return; }
    const size_t n = size_t(std::min<uint64_t>((*bytes)->size, limits::kMaxAotiSourceBytes));
    aoti::scanGeneratedSource(std::string_view(reinterpret_cast<const char*>((*bytes)->data), n), m);
    if (n < (*bytes)->size) f.detail = "scanned the first " + std::to_string(n >> 20) + " MiB";
}

const char* binaryKind(std::string_view name) {
    if (endsWith(name, ".so") || endsWith(name, ".dylib") || endsWith(name, ".pyd")) return "shared library";
    if (endsWith(name, ".o")) return "object file";
    if (endsWith(name, ".cubin")) return "CUDA kernel binary";
    if (endsWith(name, ".hsaco")) return "ROCm kernel binary";
    if (endsWith(name, ".spv")) return "SPIR-V kernel";
    return nullptr;
}

void addFile(const ZipArchive& zip, const ZipEntry& e, std::string name, AotiModel& m) {
    AotiFile f;
    f.record = e.name;
    f.name = std::move(name);
    f.kind = "file";
    f.size = e.size;
    const std::string_view n = f.name;
    if (endsWith(n, "_metadata.json")) {
        f.kind = "metadata";
        readMetadata(readJson(zip, e.name), m, f);
    } else if (endsWith(n, ".json")) {
        nlohmann::json doc = readJson(zip, e.name);
        const bool calls = doc.is_object() && doc.contains("nodes") && doc["nodes"].is_array();
        f.kind = calls ? "proxy-executor calls" : n == "weights_config.json" ? "weights config" : "JSON";
        if (calls) {
            readCustomOpCalls(doc, m);
            f.detail = std::to_string(doc["nodes"].size()) + " call" + (doc["nodes"].size() == 1 ? "" : "s");
        } else if (doc.is_discarded()) {
            f.detail = "unreadable JSON";
        }
    } else if (endsWith(n, ".cpp")) {
        f.kind = endsWith(n, ".wrapper.cpp") ? "wrapper C++ source" : endsWith(n, ".kernel.cpp") ? "kernel C++ source"
                                                                                                 : "generated C++ source";
        readSource(zip, e, m, f);
    } else if (endsWith(n, ".h")) {
        f.kind = "C++ header";
    } else if (const char* kind = binaryKind(n)) {
        f.kind = kind;
        if (auto bytes = zip.read(e.name)) f.detail = describeLibraryHeader((*bytes)->data, (*bytes)->size);
        else f.detail = bytes.error();
    } else if (endsWith(n, ".bin")) {
        f.kind = "constants blob";
    } else if (n == "CMakeLists.txt") {
        f.kind = "build script";
    }
    m.files.push_back(std::move(f));
}

void readTags(const ZipArchive& zip, AotiPackage& p) {
    auto tag = [&](const std::string& name) -> std::string {
        auto text = zip.readText(p.root + name, limits::kMaxTagRecordBytes);
        return text ? trimmedRight(*text) : std::string();
    };
    p.archiveFormat = tag("archive_format");
    for (const char* record : {"archive_version", "version"})
        if (zip.contains(p.root + record)) {
            p.archiveVersion = tag(record);
            p.versionRecord = record;
            break;
        }
    if (zip.contains(p.root + "byteorder")) p.byteorder = tag("byteorder");
}

} // namespace

Result<AotiPackage> readAotiPackage(const Pt2Reader& reader) {
    const ArchiveInfo& info = reader.info();
    if (info.kind != ArchiveInfo::Kind::AotInductorPackage)
        return Status::error(reader.path() + ": not an AOTInductor package: " + info.description);
    const ZipArchive& zip = reader.archive();
    AotiPackage p;
    p.path = reader.path();
    p.root = info.root;
    readTags(zip, p);
    for (const auto& name : info.models) {
        p.models.emplace_back();
        p.models.back().name = name;
    }
    const std::string dir = info.root + "data/aotinductor/";
    const std::set<std::string> tags = {p.root + "archive_format", p.root + "archive_version", p.root + "version",
                                        p.root + "byteorder"};
    for (const ZipEntry& e : zip.entries()) {
        const size_t slash = startsWith(e.name, dir) ? e.name.find('/', dir.size()) : std::string::npos;
        if (slash == std::string::npos) {
            if (!tags.count(e.name)) p.otherRecords.emplace_back(e.name, e.size);
            continue;
        }
        const std::string model = e.name.substr(dir.size(), slash - dir.size());
        auto m = std::find_if(p.models.begin(), p.models.end(), [&](const AotiModel& x) { return x.name == model; });
        if (m == p.models.end() || slash + 1 == e.name.size()) continue; // folder entries
        addFile(zip, e, e.name.substr(slash + 1), *m);
    }
    for (auto& m : p.models) {
        // leaves of the specs named after the inputs and outputs the code declares
        std::vector<std::string> in, out;
        for (const auto& s : m.inputs) in.push_back(s.name);
        for (const auto& s : m.outputs) out.push_back(s.name);
        m.inSpec = aoti::describeTreeSpec(m.inSpec, in);
        m.outSpec = aoti::describeTreeSpec(m.outSpec, out);
    }
    return p;
}

Result<AotiPackage> readAotiPackage(const std::string& path) {
    auto reader = Pt2Reader::open(path);
    if (!reader) return reader.status();
    return readAotiPackage(**reader);
}

std::string AotiPackage::summary() const {
    std::set<std::string> devices;
    for (const auto& m : models) devices.insert(m.device.empty() ? "device not recorded" : m.device);
    std::string s = "AOTInductor package (layout " + (archiveVersion.empty() ? std::string("?") : archiveVersion);
    for (const auto& d : devices) s += ", " + d;
    s += "): compiled code for " + std::string(models.size() == 1 ? "model" : "models");
    for (size_t k = 0; k < models.size(); ++k) s += (k ? ", '" : " '") + models[k].name + "'";
    return s + ", no exported program";
}

} // namespace irlens::core
