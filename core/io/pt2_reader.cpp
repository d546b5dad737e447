// Container detection and loading (format guide sections 1-4, 12). The graph itself comes from the
// JSON decoder; everything around it (which file this is, which model, where weights live in each
// era) is decided here.
#include "core/io/pt2_reader.h"
#include "core/io/text_util.h"

#include "core/io/json_codec.h"
#include "core/io/limits.h"
#include "core/io/payload_config.h"
#include "core/io/torch_save.h"
#include "core/io/zip_archive.h"

#include <algorithm>
#include <cstdio>
#include <set>

namespace irlens::core {

namespace {

bool endsWith(const std::string& s, std::string_view tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}
bool startsWith(const std::string& s, std::string_view head) { return s.compare(0, head.size(), head) == 0; }

std::string joined(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
}

bool cancelled(const LoadOptions& o) { return o.cancel && o.cancel->load(std::memory_order_relaxed); }
void report(const LoadOptions& o, double f) {
    if (o.progress) o.progress(std::clamp(f, 0.0, 1.0));
}
const Status kCancelled = Status::error("loading cancelled");

// Fills ArchiveInfo from the record names alone (plus the small archive_format record).
ArchiveInfo detect(const ZipArchive& zip) {
    ArchiveInfo info;
    info.records = zip.names();
    std::string wrongFormat;
    bool havePt2 = false;
    // Any root: the record ending in archive_format whose content is "pt2". Prefer the shallowest.
    for (const auto& n : info.records) {
        if (n != "archive_format" && !endsWith(n, "/archive_format")) continue;
        auto text = zip.readText(n, limits::kMaxTagRecordBytes);
        std::string value = text ? trimmedRight(*text) : std::string("<unreadable>");
        std::string root = n.substr(0, n.size() - std::string("archive_format").size());
        if (value == "pt2") {
            if (!havePt2 || root.size() < info.root.size()) info.root = root;
            havePt2 = true;
        } else if (wrongFormat.empty()) {
            wrongFormat = value.size() > 40 ? value.substr(0, 40) + "..." : value;
        }
    }
    auto has = [&](const std::string& n) { return zip.contains(n); };
    if (havePt2) {
        const std::string models = info.root + "models/";
        std::set<std::string> aoti;
        for (const auto& n : info.records) {
            if (startsWith(n, models) && endsWith(n, ".json") && n.find('/', models.size()) == std::string::npos)
                info.models.push_back(n.substr(models.size(), n.size() - models.size() - 5));
            const std::string aotiDir = info.root + "data/aotinductor/";
            if (startsWith(n, aotiDir)) {
                auto slash = n.find('/', aotiDir.size());
                if (slash != std::string::npos) aoti.insert(n.substr(aotiDir.size(), slash - aotiDir.size()));
            }
        }
        std::sort(info.models.begin(), info.models.end());
        if (info.models.empty() && !aoti.empty()) {
            info.kind = ArchiveInfo::Kind::AotInductorPackage;
            info.models.assign(aoti.begin(), aoti.end());
            info.description = "AOTInductor package (compiled code, no exported program), root '" + info.root +
                               "', models: " + joined(info.models);
            return info;
        }
        info.kind = ArchiveInfo::Kind::Pt2Archive;
        info.description = "PT2 archive, root '" + info.root + "', " + std::to_string(info.models.size()) +
                           (info.models.size() == 1 ? " model" : " models") +
                           (info.models.empty() ? "" : " (" + joined(info.models) + ")");
        return info;
    }
    if (has("serialized_exported_program.json")) {
        info.kind = ArchiveInfo::Kind::LegacyZip;
        info.models = {"model"};
        info.description = "legacy torch.export zip (torch 2.1-2.7 layout)";
        return info;
    }
    if (!wrongFormat.empty()) {
        info.kind = ArchiveInfo::Kind::Unknown;
        info.description = "archive_format is '" + wrongFormat + "', expected 'pt2'; not a PT2 archive";
        return info;
    }
    for (const auto& n : info.records) {
        if (n != "data.pkl" && !(endsWith(n, "/data.pkl") && n.find('/') == n.size() - 9)) continue;
        std::string root = n.substr(0, n.size() - 8);
        info.root = root;
        if (has(root + "constants.pkl")) {
            info.kind = ArchiveInfo::Kind::TorchScript;
            info.description = "TorchScript archive (data.pkl and constants.pkl), not a torch.export program";
        } else {
            info.kind = ArchiveInfo::Kind::TorchSave;
            info.description = "plain torch.save file (data.pkl), not a torch.export program";
        }
        return info;
    }
    info.kind = ArchiveInfo::Kind::Unknown;
    info.description = "ZIP file with " + std::to_string(info.records.size()) +
                       " records but no archive_format, serialized_exported_program.json or data.pkl; not a torch.export program";
    return info;
}

// Raw or pickled payload files described by a 2.9+ payload config.
// Raw payload bytes of a `byteorder: big` archive, swapped per element (complex: per component) into
// owned little-endian bytes. Tensors sharing a storage share its dtype, so the first one decides.
std::shared_ptr<const Storage> littleEndianCopy(const Storage& big, ScalarType dtype) {
    const size_t unit = isComplexType(dtype) ? size_t(elementSize(dtype)) / 2 : size_t(elementSize(dtype));
    std::vector<std::byte> out(big.data, big.data + big.size);
    if (unit > 1)
        for (size_t k = 0; k + unit <= out.size(); k += unit) std::reverse(out.begin() + k, out.begin() + k + unit);
    return Storage::fromBytes(std::move(out));
}

Status loadPayloads(const ZipArchive& zip, const std::string& dir, const std::string& configRecord, bool intoWeights,
                    bool bigEndian, Program& p, const LoadOptions& o, double from, double to) {
    auto text = zip.readText(configRecord, limits::kMaxConfigJsonBytes);
    if (!text) return text.status();
    auto entries = parsePayloadConfig(*text, configRecord);
    if (!entries) return entries.status();
    std::map<std::string, std::shared_ptr<const Storage>> storages; // shared path_name -> shared storage
    size_t done = 0;
    uint64_t zeroBytes = 0;
    for (auto& e : *entries) {
        if (cancelled(o)) return kCancelled;
        if (++done % 64 == 0) report(o, from + (to - from) * double(done) / double(entries->size()));
        const std::string record = dir + e.pathName;
        if (!zip.contains(record))
            return Status::error(configRecord + ": '" + printableRecordName(e.fqn) + "' points to '" +
                                 printableRecordName(record) + "', which is missing");
        Value v;
        if (!e.meta) { // custom (TorchBind) or opaque object: described, never run
            auto st = zip.read(record);
            if (!st) return st.status();
            v.kind = Value::Kind::Opaque;
            v.s = "custom object '" + e.fqn + "' (" + record + ", " + std::to_string((*st)->size) + " bytes)";
        } else if (e.usePickle) {
            auto st = zip.read(record);
            if (!st) return st.status();
            auto obj = loadTorchSave(*st, record, zip.limits());
            if (!obj) return obj.status();
            auto leaf = leafValue(**obj);
            if (!leaf || leaf->kind != Value::Kind::Tensor)
                return Status::error(record + ": expected a pickled tensor for '" + e.fqn + "', found a " + (*obj)->kindName());
            v = std::move(*leaf);
        } else {
            auto& st = storages[e.pathName];
            if (!st) {
                auto r = zip.read(record);
                if (!r) return r.status();
                st = bigEndian ? littleEndianCopy(**r, e.meta->dtype) : ensureAligned(*r);
            }
            TensorData t = std::move(*e.meta); // each config entry is used once
            const int es = elementSize(t.dtype);
            auto need = viewBytesNeeded(t);
            // Only for messages: built when one is needed, not for each of hundreds of good weights.
            auto what = [&] {
                return "'" + e.fqn + "' (" + dtypeShortName(t.dtype) + shapeString(t.sizes) + ", strides " +
                       shapeString(t.strides) + ", offset " + std::to_string(t.storageOffset) + ")";
            };
            if (!need) return Status::error(configRecord + ": " + what() + " has an invalid view");
            if (st->size == 0 && *need > 0) {
                // A zero-length record means "no data" (fake tensor): PyTorch materializes zeros.
                if (*need > limits::kMaxMaterializedZeroBytes - zeroBytes)
                    return Status::error(record + ": empty payload for " + what() + " would take the zeros filled in for "
                                         "empty payloads past " + std::to_string(limits::kMaxMaterializedZeroBytes) + " bytes");
                zeroBytes += *need;
                st = Storage::fromBytes(std::vector<std::byte>(*need));
            }
            if (st->size % es != 0)
                return Status::error(record + " holds " + std::to_string(st->size) + " bytes, not a whole number of " +
                                     std::to_string(es) + "-byte elements for " + what());
            if (*need > st->size)
                return Status::error(record + " holds " + std::to_string(st->size) + " bytes but " + what() + " needs " +
                                     std::to_string(*need));
            t.storage = st;
            v.kind = Value::Kind::Tensor;
            v.tensor = std::move(t);
        }
        if (v.kind == Value::Kind::Tensor) v.tensor.isParameter = e.isParam;
        if (intoWeights) {
            if (v.kind != Value::Kind::Tensor)
                return Status::error(configRecord + ": '" + e.fqn + "' is not a tensor; weights must be tensors");
            // Entries come sorted by name: the end is the right place, found without a search.
            p.weights.insert_or_assign(p.weights.end(), e.fqn, std::move(v.tensor));
        } else {
            p.constants.insert_or_assign(p.constants.end(), e.fqn, std::move(v));
        }
    }
    return Status::ok();
}

// A nested torch.save state dict or constants dict (legacy, 2.8).
Status loadPickledDict(const ZipArchive& zip, const std::string& record, bool intoWeights, Program& p) {
    auto st = zip.read(record);
    if (!st) return st.status();
    if ((*st)->size == 0) return Status::ok(); // an empty artifact
    auto obj = loadTorchSave(*st, record, zip.limits());
    if (!obj) return obj.status();
    if (intoWeights) {
        auto t = tensorsFromStateDict(**obj, record);
        if (!t) return t.status();
        p.weights = std::move(*t);
    } else {
        auto v = valuesFromDict(**obj, record);
        if (!v) return v.status();
        p.constants = std::move(*v);
    }
    return Status::ok();
}

Status loadSampleInputs(const ZipArchive& zip, const std::string& record, Program& p) {
    auto st = zip.read(record);
    if (!st) return st.status();
    if ((*st)->size == 0) return Status::ok(); // zero-length record: no example inputs were attached
    auto obj = loadTorchSave(*st, record, zip.limits());
    if (!obj) return obj.status();
    IRLENS_TRY(flattenSampleInputs(**obj, p.sampleArgs, p.sampleKwargs, record));
    p.hasSampleInputs = true;
    return Status::ok();
}

Status loadExtraFiles(const ZipArchive& zip, const std::string& prefix, Program& p) {
    uint64_t total = 0;
    for (const auto& e : zip.entries()) {
        if (!startsWith(e.name, prefix) || e.name.size() == prefix.size() || endsWith(e.name, "/")) continue;
        if ((total += e.size) > limits::kMaxExtraFilesTotalBytes)
            return zip.recordError(e.name, "extra files exceed " + std::to_string(limits::kMaxExtraFilesTotalBytes) +
                                               " bytes in total");
        auto text = zip.readText(e.name, limits::kMaxExtraFileBytes);
        if (!text) return text.status();
        p.extraFiles[e.name.substr(prefix.size())] = std::move(*text);
    }
    return Status::ok();
}

// The signature names state the archive does not hold: loadable for viewing, not for running.
void warnAboutMissingState(Program& p) {
    for (const InputSpec& spec : p.signature.inputSpecs) {
        if (spec.kind != InputKind::Parameter && spec.kind != InputKind::Buffer && spec.kind != InputKind::TensorConstant)
            continue;
        if (!p.stateTensorFor(spec))
            p.warnings.push_back(std::string(inputKindName(spec.kind)) + " '" + spec.target +
                                 "' has no data in the archive (the program can be inspected but not run)");
    }
}

} // namespace

Result<ArchiveInfo> inspectPt2(const std::string& path) {
    auto reader = Pt2Reader::open(path);
    if (reader) return (*reader)->info();
    // A file that does not even start like a ZIP is described rather than reported as damaged.
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return reader.status();
    char head[4] = {0, 0, 0, 0};
    const size_t n = std::fread(head, 1, 4, f);
    std::fclose(f);
    if (n == 4 && head[0] == 'P' && head[1] == 'K') return reader.status();
    if (n == 0) return reader.status();
    ArchiveInfo info;
    info.kind = ArchiveInfo::Kind::NotZip;
    info.description = "not a ZIP archive (a .pt2 is always a ZIP file)";
    return info;
}

Result<std::unique_ptr<Pt2Reader>> Pt2Reader::open(const std::string& path, bool checkCrc) {
    ZipLimits limits;
    limits.checkStoredCrc = checkCrc;
    auto zip = ZipArchive::openFile(path, limits);
    if (!zip) return zip.status();
    std::unique_ptr<Pt2Reader> r(new Pt2Reader);
    r->m_path = path;
    r->m_zip = std::move(*zip);
    r->m_info = detect(*r->m_zip);
    return r;
}

Result<std::string> Pt2Reader::resolveModel(const std::string& requested) const {
    const auto& models = m_info.models;
    if (requested.empty()) {
        if (models.size() == 1) return models.front();
        if (std::find(models.begin(), models.end(), "model") != models.end()) return std::string("model");
        if (models.empty()) return Status::error(m_path + ": the archive holds no models/*.json");
        return Status::error(m_path + ": the archive holds " + std::to_string(models.size()) + " models (" + joined(models) +
                             "); choose one");
    }
    if (std::find(models.begin(), models.end(), requested) == models.end())
        return Status::error(m_path + ": no model '" + requested + "' in the archive (models: " + joined(models) + ")");
    return requested;
}

std::string Pt2Reader::programRecord(const std::string& model) const {
    if (m_info.kind == ArchiveInfo::Kind::LegacyZip) return "serialized_exported_program.json";
    return m_info.root + "models/" + model + ".json";
}

Result<std::shared_ptr<const Storage>> Pt2Reader::programJson(const std::string& model) const {
    const std::string record = programRecord(model);
    const ZipEntry* e = m_zip->find(record);
    if (!e) return Status::error(m_path + ": no record '" + record + "'");
    if (e->size > limits::kMaxProgramJsonBytes)
        return m_zip->recordError(record, std::to_string(e->size) + " bytes, more than the program JSON limit");
    return m_zip->read(record);
}

Status Pt2Reader::loadState(Program& p, const std::string& model, const LoadOptions& o, double from) const {
    const ZipArchive& zip = *m_zip;
    auto span = [&](double a) { return from + (1.0 - from) * a; };
    if (m_info.kind == ArchiveInfo::Kind::LegacyZip) {
        if (o.loadWeights) {
            for (const char* name : {"serialized_state_dict.pt", "serialized_state_dict.json"})
                if (zip.contains(name)) { IRLENS_TRY(loadPickledDict(zip, name, true, p)); break; }
            if (cancelled(o)) return kCancelled;
            report(o, span(0.6));
            for (const char* name : {"serialized_constants.pt", "serialized_constants.json"})
                if (zip.contains(name)) { IRLENS_TRY(loadPickledDict(zip, name, false, p)); break; }
        }
        if (cancelled(o)) return kCancelled;
        report(o, span(0.8));
        if (zip.contains("serialized_example_inputs.pt")) IRLENS_TRY(loadSampleInputs(zip, "serialized_example_inputs.pt", p));
        IRLENS_TRY(loadExtraFiles(zip, "extra_files/", p));
        report(o, 1.0);
        return Status::ok();
    }
    if (m_info.kind != ArchiveInfo::Kind::Pt2Archive)
        return Status::error(m_path + ": cannot load: " + m_info.description);

    const std::string& r = m_info.root;
    if (o.loadWeights) {
        // Raw payloads follow the archive's byteorder; nested torch.save files carry their own.
        bool bigEndian = false;
        if (zip.contains(r + "byteorder")) {
            auto order = zip.readText(r + "byteorder", limits::kMaxTagRecordBytes);
            if (!order) return order.status();
            bigEndian = trimmedRight(*order) == "big";
            if (!bigEndian && trimmedRight(*order) != "little")
                return Status::error(r + "byteorder: '" + trimmedRight(*order) + "', expected 'little' or 'big'");
        }
        struct Kind { const char* dir; const char* suffix; bool weights; double a, b; };
        for (const Kind& k : {Kind{"data/weights/", "_weights_config.json", true, 0.0, 0.7},
                              Kind{"data/constants/", "_constants_config.json", false, 0.7, 0.85}}) {
            const std::string dir = r + k.dir;
            if (zip.contains(dir + model + k.suffix))
                IRLENS_TRY(loadPayloads(zip, dir, dir + model + k.suffix, k.weights, bigEndian, p, o, span(k.a), span(k.b)));
            else if (zip.contains(dir + model + ".pt")) // torch 2.8: one torch.save of the whole dict
                IRLENS_TRY(loadPickledDict(zip, dir + model + ".pt", k.weights, p));
            if (cancelled(o)) return kCancelled;
        }
    }
    report(o, span(0.9));
    for (const std::string& name : {r + "data/sample_inputs/" + model + ".pt", r + "data/sample_inputs/" + model + "_0.pt"})
        if (zip.contains(name)) { IRLENS_TRY(loadSampleInputs(zip, name, p)); break; }
    IRLENS_TRY(loadExtraFiles(zip, r + "extra/", p));
    report(o, 1.0);
    return Status::ok();
}

Result<ProgramPtr> loadPt2(const std::string& path, const LoadOptions& options) {
    report(options, 0.0);
    auto reader = Pt2Reader::open(path, options.checkCrc);
    if (!reader) return reader.status();
    const Pt2Reader& rd = **reader;
    const ArchiveInfo& info = rd.info();
    if (info.kind != ArchiveInfo::Kind::Pt2Archive && info.kind != ArchiveInfo::Kind::LegacyZip)
        return Status::error(path + ": cannot load: " + info.description);
    auto model = rd.resolveModel(options.modelName);
    if (!model) return model.status();
    if (cancelled(options)) return kCancelled;
    report(options, 0.05);

    auto json = rd.programJson(*model);
    if (!json) return json.status();
    JsonDecodeOptions jo;
    jo.maxDepth = limits::kMaxJsonDepth;
    std::string_view text(reinterpret_cast<const char*>((*json)->data), (*json)->size);
    auto decoded = decodeProgramJson(text, rd.programRecord(*model), jo);
    if (!decoded) return decoded.status();
    std::shared_ptr<Program> program = std::move(*decoded);
    if (cancelled(options)) return kCancelled;
    report(options, 0.6);

    program->container = info.kind == ArchiveInfo::Kind::LegacyZip ? ContainerKind::LegacyZip : ContainerKind::Pt2Archive;
    program->modelName = *model;
    program->sourcePath = path;
    IRLENS_TRY(rd.loadState(*program, *model, options, 0.6));
    if (options.loadWeights) warnAboutMissingState(*program);
    if (info.kind == ArchiveInfo::Kind::Pt2Archive && rd.archive().contains(info.root + "archive_version")) {
        auto v = rd.archive().readText(info.root + "archive_version", limits::kMaxTagRecordBytes);
        if (v && trimmedRight(*v) != "0")
            program->warnings.push_back("archive_version is '" + trimmedRight(*v) + "'; this reader knows version 0 and tried anyway");
    }
    return ProgramPtr(std::move(program));
}

} // namespace irlens::core
