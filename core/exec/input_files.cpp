#include "core/exec/input_files.h"

#include "core/exec/inputs.h"
#include "core/io/tensor_file.h"

#include <cstring>
#include <filesystem>
#include <map>

namespace irlens::core::exec {
namespace {

// One value found in the files: its name (a key, or a position such as "[1]") and the file it is from.
struct Given {
    std::string name;
    std::string file;
    Value value;
};

std::string joined(const std::vector<std::string>& items, size_t most = 12) {
    std::string out;
    for (size_t k = 0; k < items.size() && k < most; ++k) out += (k ? ", " : "") + items[k];
    if (items.size() > most) out += ", ... (" + std::to_string(items.size()) + " in all)";
    return out;
}

std::string describe(const Value& v) {
    switch (v.kind) {
    case Value::Kind::Tensor: {
        std::string s = dtypeShortName(v.tensor.dtype) + "[";
        for (size_t k = 0; k < v.tensor.sizes.size(); ++k) s += (k ? ", " : "") + std::to_string(v.tensor.sizes[k]);
        return s + "]";
    }
    case Value::Kind::Int: return "int " + std::to_string(v.i);
    case Value::Kind::Float: return "float " + std::to_string(v.f);
    case Value::Kind::Bool: return std::string("bool ") + (v.b ? "True" : "False");
    case Value::Kind::None: return "None";
    default: return "'" + v.s + "'";
    }
}

// An engine value owning a C-contiguous copy (the file's mapping may go away; kernels may write inputs).
Result<EValue> toEValue(const Value& v, const std::string& input) {
    switch (v.kind) {
    case Value::Kind::Tensor: {
        auto t = Tensor::empty(v.tensor.dtype, v.tensor.sizes);
        if (!t) return t.status().withContext("input '" + input + "'");
        const std::vector<std::byte> bytes = v.tensor.contiguousBytes();
        if (!bytes.empty()) std::memcpy(t->raw(), bytes.data(), bytes.size());
        return EValue::fromTensor(std::move(*t));
    }
    case Value::Kind::Int: return EValue::fromInt(v.i);
    case Value::Kind::Float: return EValue::fromDouble(v.f);
    case Value::Kind::Bool: return EValue::fromBool(v.b);
    default: return Status::error("input '" + input + "': given " + describe(v) + ", expected a tensor or a number");
    }
}

std::string bound(const std::optional<int64_t>& v, const char* none) { return v ? std::to_string(*v) : none; }

// " with s0 in [2, 64]" for the constrained symbols among `meta`'s sizes.
std::string rangeText(const Program& p, const TensorMeta& meta) {
    std::string out;
    for (const auto& s : meta.sizes) {
        const std::string sym = symbolName(s);
        auto it = p.rangeConstraints.find(sym);
        if (sym.empty() || it == p.rangeConstraints.end()) continue;
        out += (out.empty() ? " with " : ", ") + sym + " in [" + bound(it->second.minVal, "0") + ", " + bound(it->second.maxVal, "inf") + "]";
    }
    return out;
}

Status checkTensorInput(const Program& p, const std::string& name, const TensorMeta& meta, const EValue& v,
                        std::map<std::string, std::pair<int64_t, std::string>>& symbols) {
    const std::string expects = "the program expects " + meta.shortString() + rangeText(p, meta);
    const std::string given = "input '" + name + "': given " + (v.isTensor() ? v.tensor.shapeString() : v.describe()) + ", ";
    if (!v.isTensor() || v.tensor.dtype() != meta.dtype || v.tensor.dim() != static_cast<int64_t>(meta.sizes.size()))
        return Status::error(given + expects);
    for (size_t d = 0; d < meta.sizes.size(); ++d) {
        const SymInt& s = meta.sizes[d];
        const int64_t got = v.tensor.size(static_cast<int64_t>(d));
        if (s.isStatic()) {
            if (s.value != got) return Status::error(given + expects);
            continue;
        }
        const std::string sym = symbolName(s);
        if (sym.empty()) continue; // a compound size ("2*s0") is checked by the kernels that use it
        if (auto r = p.rangeConstraints.find(sym); r != p.rangeConstraints.end())
            if ((r->second.minVal && got < *r->second.minVal) || (r->second.maxVal && got > *r->second.maxVal))
                return Status::error(given + expects);
        auto [it, fresh] = symbols.emplace(sym, std::make_pair(got, name));
        if (!fresh && it->second.first != got)
            return Status::error(given + expects + " with " + sym + " = " + std::to_string(it->second.first) + " (from input '" +
                                 it->second.second + "')");
    }
    return Status::ok();
}

std::vector<std::string> userInputNames(const ExecutionPlan& plan) {
    std::vector<std::string> names;
    for (int ui : plan.userInputs()) names.push_back(plan.inputs()[static_cast<size_t>(ui)].name);
    return names;
}

// Values matched to inputs by name: each input found once, no name left over.
Result<std::vector<const Given*>> matchByName(const std::vector<std::string>& inputs, const std::vector<Given>& given,
                                              const std::vector<std::string>& files) {
    std::map<std::string, const Given*> byName;
    for (const auto& g : given)
        if (auto [it, fresh] = byName.emplace(g.name, &g); !fresh)
            return Status::error("'" + g.name + "' is given twice (" + it->second->file + " and " + g.file + ")");
    std::vector<const Given*> out;
    for (const auto& in : inputs) {
        auto it = byName.find(in);
        if (it == byName.end()) {
            std::vector<std::string> held;
            for (const auto& g : given) held.push_back(g.name);
            return Status::error("input '" + in + "': no value named '" + in + "' in " + joined(files) + " (they hold " + joined(held) + ")");
        }
        out.push_back(it->second);
        byName.erase(it);
    }
    if (!byName.empty()) {
        const Given* extra = byName.begin()->second;
        return Status::error(extra->file + ": '" + extra->name + "' is not an input of the program (its inputs: " + joined(inputs) + ")");
    }
    return out;
}

Result<std::vector<EValue>> fromExpectedFolder(const ExecutionPlan& plan, const std::string& dir, std::string& from) {
    IRLENS_ASSIGN_OR_RETURN(set, loadExpected(dir));
    IRLENS_TRY(checkUserInputs(plan, set.main.inputs));
    from = dir;
    return std::move(set.main.inputs);
}

} // namespace

Status checkUserInputs(const ExecutionPlan& plan, const std::vector<EValue>& inputs) {
    const std::vector<std::string> names = userInputNames(plan);
    if (inputs.size() != names.size())
        return Status::error(std::to_string(inputs.size()) + " input values given, the program takes " + std::to_string(names.size()) +
                             " (" + joined(names) + ")");
    const Program& p = plan.program();
    std::map<std::string, std::pair<int64_t, std::string>> symbols;
    for (size_t k = 0; k < names.size(); ++k) {
        if (const TensorMeta* meta = p.graph.tensorMeta(names[k])) {
            IRLENS_TRY(checkTensorInput(p, names[k], *meta, inputs[k], symbols));
        } else if (!inputs[k].isScalar()) {
            return Status::error("input '" + names[k] + "': given " + inputs[k].describe() + ", the program expects a number");
        }
    }
    return Status::ok();
}

Result<std::vector<EValue>> inputsFromFiles(const ExecutionPlan& plan, const std::vector<std::string>& paths, std::string& from) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (paths.size() == 1 && fs::exists(fs::path(paths[0]) / "manifest.json", ec)) return fromExpectedFolder(plan, paths[0], from);
    std::vector<Given> given;
    std::vector<std::string> namedFiles, positionalFiles;
    for (const auto& path : paths) {
        IRLENS_ASSIGN_OR_RETURN(file, readTensorFile(path));
        (file.named ? namedFiles : positionalFiles).push_back(path);
        for (auto& e : file.entries) given.push_back({e.name, path, std::move(e.value)});
    }
    if (!namedFiles.empty() && !positionalFiles.empty())
        return Status::error("the input files mix values by name (" + joined(namedFiles) + ") and by position (" + joined(positionalFiles) +
                             "); give one kind");
    const std::vector<std::string> names = userInputNames(plan);
    std::vector<const Given*> chosen;
    if (!namedFiles.empty()) {
        IRLENS_ASSIGN_OR_RETURN(byName, matchByName(names, given, paths));
        chosen = std::move(byName);
    } else {
        if (given.size() != names.size())
            return Status::error(std::to_string(given.size()) + (given.size() == 1 ? " value" : " values") + " in " + joined(paths) +
                                 ", the program takes " + std::to_string(names.size()) + (names.size() == 1 ? " user input" : " user inputs") +
                                 " (" + joined(names) + ")");
        for (const auto& g : given) chosen.push_back(&g);
    }
    std::vector<EValue> values;
    for (size_t k = 0; k < chosen.size(); ++k) {
        IRLENS_ASSIGN_OR_RETURN(v, toEValue(chosen[k]->value, names[k]));
        values.push_back(std::move(v));
    }
    IRLENS_TRY(checkUserInputs(plan, values));
    from = joined(paths) + (namedFiles.empty() ? " (by position)" : " (by name)");
    return values;
}

} // namespace irlens::core::exec
