#include "core/exec/inputs.h"

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>

namespace irlens::core::exec {

namespace {

constexpr int64_t kMaxBinBytes = int64_t(4) << 30;

Result<Tensor> readBin(const std::filesystem::path& dir, const nlohmann::json& e, const std::string& where) {
    if (!e.contains("file") || !e["file"].is_string()) return Status::error(where + ": no 'file'");
    auto dtype = dtypeFromName(e.value("dtype", std::string()));
    if (!dtype) return Status::error(where + ": unknown dtype '" + e.value("dtype", std::string()) + "'");
    Shape shape;
    if (!e.contains("shape") || !e["shape"].is_array()) return Status::error(where + ": no 'shape'");
    for (const auto& s : e["shape"]) {
        if (!s.is_number_integer() || s.get<int64_t>() < 0) return Status::error(where + ": bad shape entry");
        shape.push_back(s.get<int64_t>());
    }
    std::string file = e["file"].get<std::string>();
    if (file.find("..") != std::string::npos || (!file.empty() && file[0] == '/')) return Status::error(where + ": file name '" + file + "' leaves the folder");
    auto path = dir / file;
    auto t = Tensor::empty(*dtype, shape);
    if (!t) return t.status().withContext(where);
    std::ifstream in(path, std::ios::binary);
    if (!in) return Status::error(path.string() + ": cannot open");
    in.seekg(0, std::ios::end);
    int64_t size = in.tellg();
    in.seekg(0);
    if (size != t->nbytes() || size > kMaxBinBytes)
        return Status::error(path.string() + ": holds " + std::to_string(size) + " bytes, " + dtypeName(*dtype) + shapeToString(shape) +
                             " needs " + std::to_string(t->nbytes()));
    if (size) in.read(reinterpret_cast<char*>(t->raw()), size);
    if (!in) return Status::error(path.string() + ": read failed");
    return t;
}

Status readCase(const std::filesystem::path& dir, const nlohmann::json& c, ExpectedCase& out, const std::string& where) {
    if (c.contains("inputs") && c["inputs"].is_array()) {
        size_t k = 0;
        for (const auto& e : c["inputs"]) {
            std::string w = where + " inputs[" + std::to_string(k++) + "]";
            if (e.value("kind", std::string()) == "constant") continue; // baked into the graph as constant_input
            auto t = readBin(dir, e, w);
            if (!t) return t.status();
            out.inputs.push_back(EValue::fromTensor(*t));
        }
    }
    if (c.contains("outputs") && c["outputs"].is_array()) {
        size_t k = 0;
        for (const auto& e : c["outputs"]) {
            auto t = readBin(dir, e, where + " outputs[" + std::to_string(k++) + "]");
            if (!t) return t.status();
            out.outputs.push_back({e.value("name", std::string()), *t});
        }
    }
    if (c.contains("buffer_mutations") && c["buffer_mutations"].is_array()) {
        size_t k = 0;
        for (const auto& e : c["buffer_mutations"]) {
            auto t = readBin(dir, e, where + " buffer_mutations[" + std::to_string(k++) + "]");
            if (!t) return t.status();
            out.buffers.push_back({e.value("buffer", std::string()), *t});
        }
    }
    return Status::ok();
}

} // namespace

Result<ExpectedSet> loadExpected(const std::string& dirPath) {
    std::filesystem::path dir(dirPath);
    auto mpath = dir / "manifest.json";
    std::ifstream in(mpath);
    if (!in) return Status::error(mpath.string() + ": cannot open (expected a model.expected/ folder with manifest.json)");
    nlohmann::json m = nlohmann::json::parse(in, nullptr, false);
    if (m.is_discarded() || !m.is_object()) return Status::error(mpath.string() + ": not valid JSON");
    ExpectedSet set;
    set.model = m.value("model", std::string());
    set.main.name = "main";
    IRLENS_TRY(readCase(dir, m, set.main, mpath.string()));
    if (m.contains("extra_cases") && m["extra_cases"].is_array()) {
        size_t k = 0;
        for (const auto& c : m["extra_cases"]) {
            ExpectedCase ec;
            ec.name = c.value("name", "case" + std::to_string(k));
            IRLENS_TRY(readCase(dir, c, ec, mpath.string() + " extra_cases[" + std::to_string(k++) + "]"));
            set.extra.push_back(std::move(ec));
        }
    }
    return set;
}

Result<std::vector<EValue>> sampleInputs(const ExecutionPlan& plan) {
    const Program& p = plan.program();
    if (!p.hasSampleInputs) return Status::error("the archive holds no sample inputs (use --inputs DIR or generated inputs)");
    std::vector<EValue> out;
    size_t next = 0;
    for (int ui : plan.userInputs()) {
        const PlanInput& in = plan.inputs()[static_cast<size_t>(ui)];
        bool wantTensor = p.graph.tensorMeta(in.name) != nullptr;
        while (next < p.sampleArgs.size() && wantTensor && p.sampleArgs[next].kind != Value::Kind::Tensor) ++next;
        if (next >= p.sampleArgs.size()) return Status::error("the archive's sample inputs have no value for input '" + in.name + "'");
        const Value& v = p.sampleArgs[next++];
        switch (v.kind) {
        case Value::Kind::Tensor: {
            auto t = Tensor::fromTensorData(v.tensor);
            if (!t) return t.status().withContext("sample input '" + in.name + "'");
            out.push_back(EValue::fromTensor(*t));
            break;
        }
        case Value::Kind::Int: out.push_back(EValue::fromInt(v.i)); break;
        case Value::Kind::Float: out.push_back(EValue::fromDouble(v.f)); break;
        case Value::Kind::Bool: out.push_back(EValue::fromBool(v.b)); break;
        default: return Status::error("sample input '" + in.name + "' is not a tensor or number");
        }
    }
    return out;
}

std::string symbolName(const SymInt& s) {
    if (!s.isExpr()) return {};
    static const std::regex srepr(R"(^\s*Symbol\('([A-Za-z_][A-Za-z0-9_]*)'.*\)\s*$)");
    static const std::regex plain(R"(^\s*([A-Za-z_][A-Za-z0-9_]*)\s*$)");
    std::smatch m;
    if (std::regex_match(s.expr(), m, srepr)) return m[1];
    if (std::regex_match(s.expr(), m, plain)) return m[1];
    return {};
}

Result<std::vector<EValue>> generateInputs(const ExecutionPlan& plan, uint64_t seed, const std::map<std::string, int64_t>& symbols) {
    const Program& p = plan.program();
    for (const auto& [name, value] : symbols) {
        auto it = p.rangeConstraints.find(name);
        if (it == p.rangeConstraints.end()) continue;
        if ((it->second.minVal && value < *it->second.minVal) || (it->second.maxVal && value > *it->second.maxVal))
            return Status::error("symbol " + name + " = " + std::to_string(value) + " is outside its range [" +
                                 (it->second.minVal ? std::to_string(*it->second.minVal) : "-inf") + ", " +
                                 (it->second.maxVal ? std::to_string(*it->second.maxVal) : "inf") + "]");
    }
    std::mt19937_64 gen(seed);
    std::normal_distribution<double> normal;
    std::uniform_int_distribution<int> small(0, 7);
    std::vector<EValue> out;
    for (int ui : plan.userInputs()) {
        const PlanInput& in = plan.inputs()[static_cast<size_t>(ui)];
        const TensorMeta* meta = p.graph.tensorMeta(in.name);
        if (!meta) {
            std::string sym = in.name;
            auto it = symbols.find(sym);
            out.push_back(EValue::fromInt(it != symbols.end() ? it->second : 1));
            continue;
        }
        Shape shape;
        for (const auto& s : meta->sizes) {
            if (s.isStatic()) { shape.push_back(s.value); continue; }
            std::string sym = symbolName(s);
            auto it = symbols.find(sym);
            if (it != symbols.end()) shape.push_back(it->second);
            else if (s.hint()) shape.push_back(*s.hint());
            else return Status::error("input '" + in.name + "': no value for symbolic size " + s.toString() + " (set it)");
        }
        auto t = Tensor::empty(meta->dtype, shape);
        if (!t) return t.status().withContext("input '" + in.name + "'");
        const int64_t n = t->numel();
        switch (meta->dtype) {
        case ScalarType::Float32: for (int64_t i = 0; i < n; ++i) t->data<float>()[i] = static_cast<float>(normal(gen)); break;
        case ScalarType::Float64: for (int64_t i = 0; i < n; ++i) t->data<double>()[i] = normal(gen); break;
        case ScalarType::Int64: for (int64_t i = 0; i < n; ++i) t->data<int64_t>()[i] = small(gen); break;
        case ScalarType::Int32: for (int64_t i = 0; i < n; ++i) t->data<int32_t>()[i] = small(gen); break;
        case ScalarType::Int16: for (int64_t i = 0; i < n; ++i) t->data<int16_t>()[i] = static_cast<int16_t>(small(gen)); break;
        case ScalarType::Int8: for (int64_t i = 0; i < n; ++i) t->data<int8_t>()[i] = static_cast<int8_t>(small(gen)); break;
        case ScalarType::UInt8: for (int64_t i = 0; i < n; ++i) t->data<uint8_t>()[i] = static_cast<uint8_t>(small(gen)); break;
        case ScalarType::Bool: for (int64_t i = 0; i < n; ++i) t->data<bool>()[i] = small(gen) >= 4; break;
        default: return Status::error("input '" + in.name + "': cannot generate values of dtype " + dtypeName(meta->dtype));
        }
        out.push_back(EValue::fromTensor(*t));
    }
    return out;
}

Comparison compareWithReference(const Tensor& actual, const Tensor& expected, double rtol, double atol) {
    Comparison c;
    if (actual.dtype() != expected.dtype()) {
        c.ok = false;
        c.message = "dtype " + dtypeName(actual.dtype()) + ", expected " + dtypeName(expected.dtype());
        return c;
    }
    if (actual.sizes() != expected.sizes()) {
        c.ok = false;
        c.message = "shape " + shapeToString(actual.sizes()) + ", expected " + shapeToString(expected.sizes());
        return c;
    }
    const bool isFloat = isFloatingType(actual.dtype());
    const int64_t n = actual.numel();
    for (int64_t i = 0; i < n; ++i) {
        double a = actual.at(i), e = expected.at(i);
        if (std::isnan(a) && std::isnan(e)) continue;
        double d = std::abs(a - e);
        if (std::isnan(d)) d = std::numeric_limits<double>::infinity();
        double rel = e != 0 ? d / std::abs(e) : (d == 0 ? 0 : std::numeric_limits<double>::infinity());
        c.maxAbs = std::max(c.maxAbs, d);
        if (d > atol) c.maxRel = std::max(c.maxRel, rel);
        bool ok = isFloat ? (d <= atol || d <= rtol * std::abs(e)) : d == 0;
        if (!ok) {
            if (c.mismatches == 0)
                c.message = "element " + std::to_string(i) + " is " + std::to_string(a) + ", expected " + std::to_string(e);
            ++c.mismatches;
        }
    }
    c.ok = c.mismatches == 0;
    if (!c.ok) c.message = std::to_string(c.mismatches) + " of " + std::to_string(n) + " elements differ; first: " + c.message;
    return c;
}

} // namespace irlens::core::exec
