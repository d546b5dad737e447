#include "core/conformance/corpus.h"

#include <algorithm>
#include <filesystem>

#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

namespace irlens::core::conformance {

namespace {

using nlohmann::json;

// Every parse error is thrown as this and turned into a Status naming the case at loadCorpus.
struct ParseError {
    std::string message;
};

[[noreturn]] void bad(const std::string& what) { throw ParseError{what}; }

double numberOf(const json& v) {
    if (v.is_number()) return v.get<double>();
    if (v.is_string()) {
        auto s = v.get<std::string>();
        if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
        if (s == "inf") return std::numeric_limits<double>::infinity();
        if (s == "-inf") return -std::numeric_limits<double>::infinity();
    }
    bad("a number or \"nan\"/\"inf\"/\"-inf\" expected, got " + v.dump());
}

exec::Shape intsOf(const json& v, const char* field) {
    if (!v.is_array()) bad(std::string("'") + field + "' should be a list of ints");
    exec::Shape out;
    for (const auto& e : v) {
        if (!e.is_number_integer()) bad(std::string("'") + field + "' should be a list of ints");
        out.push_back(e.get<int64_t>());
    }
    return out;
}

TensorRecord tensorOf(const json& j, size_t dataSize, bool storageSpan) {
    if (!j.is_object() || !j.contains("t")) bad("a tensor {\"t\": ...} expected, got " + j.dump().substr(0, 80));
    const json& t = j.at("t");
    TensorRecord r;
    auto dt = dtypeFromName(t.at("dtype").get<std::string>());
    if (!dt || elementSize(*dt) == 0) bad("unknown dtype " + t.at("dtype").dump());
    r.dtype = *dt;
    r.shape = intsOf(t.at("shape"), "shape");
    r.strides = intsOf(t.at("stride"), "stride");
    r.count = t.at("n").get<int64_t>();
    r.offset = t.at("at").get<int64_t>();
    if (r.shape.size() != r.strides.size()) bad("shape and stride have different lengths");
    int64_t numel = 1, span = 1;
    for (size_t k = 0; k < r.shape.size(); ++k) {
        if (r.shape[k] < 0 || r.strides[k] < 0 || r.shape[k] > (int64_t(1) << 32)) bad("negative or huge size/stride");
        numel *= r.shape[k];
        span += (r.shape[k] - 1) * r.strides[k];
    }
    int64_t need = numel == 0 ? 0 : storageSpan ? span : numel;
    if (r.count != need) bad("'n' is " + std::to_string(r.count) + ", the shape and strides need " + std::to_string(need));
    auto bytes = static_cast<uint64_t>(r.count) * static_cast<uint64_t>(elementSize(r.dtype));
    if (r.offset < 0 || static_cast<uint64_t>(r.offset) + bytes > dataSize)
        bad("bytes [" + std::to_string(r.offset) + ", +" + std::to_string(bytes) + ") lie outside data.bin");
    return r;
}

Argument listOf(const json& v, ArgKind kind) {
    Argument a;
    a.kind = kind;
    for (const auto& e : v) {
        if (kind == ArgKind::Ints) a.list.push_back(Argument::integer(e.get<int64_t>()));
        else if (kind == ArgKind::Floats) a.list.push_back(Argument::floating(numberOf(e)));
        else a.list.push_back(Argument::boolean(e.get<bool>()));
    }
    return a;
}

int memoryFormatCode(const std::string& s) {
    if (s == "contiguous_format") return static_cast<int>(MemoryFormat::Contiguous);
    if (s == "channels_last") return static_cast<int>(MemoryFormat::ChannelsLast);
    if (s == "channels_last_3d") return static_cast<int>(MemoryFormat::ChannelsLast3d);
    if (s == "preserve_format") return static_cast<int>(MemoryFormat::Preserve);
    bad("unknown memory format " + s);
}

Argument literalOf(const json& v) {
    if (v.is_null()) return Argument::none();
    if (v.contains("i")) return Argument::integer(v.at("i").get<int64_t>());
    if (v.contains("f")) return Argument::floating(numberOf(v.at("f")));
    if (v.contains("b")) return Argument::boolean(v.at("b").get<bool>());
    if (v.contains("s")) return Argument::string(v.at("s").get<std::string>());
    if (v.contains("ints")) return listOf(v.at("ints"), ArgKind::Ints);
    if (v.contains("floats")) return listOf(v.at("floats"), ArgKind::Floats);
    if (v.contains("bools")) return listOf(v.at("bools"), ArgKind::Bools);
    if (v.contains("dtype")) {
        auto dt = dtypeFromName(v.at("dtype").get<std::string>());
        if (!dt) bad("unknown dtype " + v.at("dtype").dump());
        return Argument::scalarType(*dt);
    }
    if (v.contains("memory_format")) {
        Argument a; a.kind = ArgKind::MemoryFormat; a.i = memoryFormatCode(v.at("memory_format").get<std::string>());
        return a;
    }
    if (v.contains("layout")) { Argument a; a.kind = ArgKind::Layout; a.i = static_cast<int>(Layout::Strided); return a; }
    if (v.contains("device")) { Argument a; a.kind = ArgKind::Device; Device dv; dv.type = v.at("device").get<std::string>(); a.setDevice(dv); return a; }
    bad("unknown argument value " + v.dump().substr(0, 80));
}

ArgRecord argOf(const json& j, size_t dataSize) {
    ArgRecord a;
    a.name = j.at("name").get<std::string>();
    a.keyword = j.value("kw", false);
    const json& v = j.at("v");
    try {
        if (v.is_object() && v.contains("t")) {
            a.kind = ArgRecord::Kind::Tensor;
            a.tensors.push_back(tensorOf(v, dataSize, true));
        } else if (v.is_object() && v.contains("tensors")) {
            a.kind = ArgRecord::Kind::TensorList;
            for (const auto& e : v.at("tensors"))
                a.tensors.push_back(e.is_null() ? std::nullopt : std::optional(tensorOf(e, dataSize, true)));
        } else {
            a.literal = literalOf(v);
        }
    } catch (const ParseError& e) {
        bad("argument '" + a.name + "': " + e.message);
    }
    return a;
}

CaseRecord caseOf(const json& j, size_t dataSize) {
    CaseRecord c;
    c.op = j.at("op").get<std::string>();
    c.dtype = j.at("dtype").get<std::string>();
    c.index = j.at("case").get<int>();
    c.source = j.value("source", "");
    c.listOutput = j.value("list", false);
    c.values = j.value("values", true);
    c.scalar = j.value("scalar", false);
    c.distribution = j.value("distribution", "");
    c.check = j.value("check", "");
    for (const auto& a : j.at("args")) c.args.push_back(argOf(a, dataSize));
    for (const auto& o : j.at("out")) {
        try {
            c.outputs.push_back(tensorOf(o, dataSize, false));
        } catch (const ParseError& e) {
            bad("output " + std::to_string(c.outputs.size()) + ": " + e.message);
        }
    }
    if (j.contains("scalar_path")) {
        try {
            c.scalarPath = tensorOf(j.at("scalar_path"), dataSize, false);
        } catch (const ParseError& e) {
            bad("scalar_path: " + e.message);
        }
    }
    return c;
}

Result<std::vector<std::byte>> readAll(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return Status::error("cannot open " + path);
    std::ostringstream ss;
    ss << f.rdbuf();
    std::string s = ss.str();
    std::vector<std::byte> out(s.size());
    std::memcpy(out.data(), s.data(), s.size());
    return out;
}

} // namespace

std::string CaseRecord::label() const {
    return op + " " + dtype + " #" + std::to_string(index) + (source.empty() ? "" : " (" + source + ")");
}

exec::Tensor Corpus::input(const TensorRecord& r) const {
    exec::Tensor base = *exec::Tensor::empty(r.dtype, {r.count});
    if (r.count) std::memcpy(base.raw(), data.data() + r.offset, static_cast<size_t>(r.count * elementSize(r.dtype)));
    return base.asStrided(r.shape, r.strides, 0);
}

exec::Tensor Corpus::expected(const TensorRecord& r) const {
    exec::Tensor t = *exec::Tensor::empty(r.dtype, r.shape);
    if (r.count) std::memcpy(t.raw(), data.data() + r.offset, static_cast<size_t>(r.count * elementSize(r.dtype)));
    return t;
}

namespace {

// One part: `dir`/index.json and `dir`/data.bin, appended to `c` (its offsets shifted past what is there).
Status loadPart(Corpus& c, const std::string& dir) {
    auto data = readAll(dir + "/data.bin");
    if (!data) return data.status();
    auto text = readAll(dir + "/index.json");
    if (!text) return text.status();
    json index = json::parse(reinterpret_cast<const char*>(text->data()), reinterpret_cast<const char*>(text->data() + text->size()),
                             nullptr, false);
    if (index.is_discarded() || !index.is_object() || !index.contains("cases") || !index.at("cases").is_array())
        return Status::error(dir + "/index.json: not a corpus index (a JSON object with a 'cases' list expected)");
    std::string torch = index.contains("header") ? index.at("header").value("torch", "") : "";
    if (!torch.empty() && !c.torchVersion.empty() && torch != c.torchVersion)
        return Status::error(dir + "/index.json: made by torch " + torch + ", the other parts by torch " + c.torchVersion);
    if (!torch.empty()) c.torchVersion = torch;
    const auto& cases = index.at("cases");
    const int64_t base = static_cast<int64_t>(c.data.size());
    for (size_t k = 0; k < cases.size(); ++k) {
        try {
            CaseRecord r = caseOf(cases[k], data->size());
            for (auto& a : r.args)
                for (auto& t : a.tensors)
                    if (t) t->offset += base;
            for (auto& t : r.outputs) t.offset += base;
            if (r.scalarPath) r.scalarPath->offset += base;
            c.cases.push_back(std::move(r));
        } catch (const ParseError& e) {
            return Status::error(dir + "/index.json: case " + std::to_string(k) + ": " + e.message);
        } catch (const json::exception& e) {
            return Status::error(dir + "/index.json: case " + std::to_string(k) + ": " + e.what());
        }
    }
    c.data.insert(c.data.end(), data->begin(), data->end());
    return Status::ok();
}

} // namespace

Result<Corpus> loadCorpus(const std::string& dir) {
    namespace fs = std::filesystem;
    Corpus c;
    c.dir = dir;
    std::vector<std::string> parts;
    std::error_code ec;
    if (fs::exists(dir + "/index.json", ec)) {
        parts.push_back(dir);
    } else {
        for (const auto& e : fs::directory_iterator(dir, ec))
            if (e.is_directory() && fs::exists(e.path() / "index.json")) parts.push_back(e.path().string());
        if (ec) return Status::error(dir + ": " + ec.message());
        std::sort(parts.begin(), parts.end());
        if (parts.empty()) return Status::error(dir + ": no corpus part (a folder with index.json and data.bin) in it");
    }
    for (const auto& p : parts) {
        Status s = loadPart(c, p);
        if (!s) return s;
    }
    return c;
}

} // namespace irlens::core::conformance
