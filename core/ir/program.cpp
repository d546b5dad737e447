#include "core/ir/program.h"

#include <cstring>
#include <sstream>

namespace irlens::core {

// ---------------------------------------------------------------- TensorMeta

std::string TensorMeta::shortString() const {
    std::string out = dtypeShortName(dtype) + "[";
    for (size_t k = 0; k < sizes.size(); ++k) {
        if (k) out += ", ";
        out += sizes[k].toString();
    }
    return out + "]";
}

std::optional<std::vector<int64_t>> TensorMeta::staticSizes() const {
    std::vector<int64_t> out;
    out.reserve(sizes.size());
    for (const auto& s : sizes) {
        if (s.isExpr) return std::nullopt;
        out.push_back(s.value);
    }
    return out;
}

std::string SymInt::toString() const {
    return isExpr ? prettySymExpr(expr) : std::to_string(value);
}

// ---------------------------------------------------------------- Argument

Argument Argument::ints(const std::vector<int64_t>& v) {
    Argument a;
    a.kind = ArgKind::Ints;
    for (auto x : v) a.list.push_back(integer(x));
    return a;
}

Argument Argument::tensors(const std::vector<std::string>& names) {
    Argument a;
    a.kind = ArgKind::Tensors;
    for (const auto& n : names) a.list.push_back(tensor(n));
    return a;
}

bool Argument::isList() const {
    switch (kind) {
    case ArgKind::Tensors: case ArgKind::OptionalTensors: case ArgKind::NestedTensors: case ArgKind::Ints:
    case ArgKind::IntLists: case ArgKind::Floats: case ArgKind::FloatLists: case ArgKind::Bools:
    case ArgKind::Strings: case ArgKind::SymInts: case ArgKind::SymBools: case ArgKind::SymFloats:
    case ArgKind::StringToArgument:
        return true;
    default:
        return false;
    }
}

void Argument::collectValueNames(std::vector<std::string>& out) const {
    switch (kind) {
    case ArgKind::Tensor:
    case ArgKind::OptionalTensor:
        if (!s.empty()) out.push_back(s);
        break;
    case ArgKind::SymInt: case ArgKind::SymBool: case ArgKind::SymFloat:
        if (isName) out.push_back(s);
        break;
    case ArgKind::CustomObj:
        out.push_back(s);
        break;
    default:
        for (const auto& e : list) e.collectValueNames(out);
    }
}

bool Argument::operator==(const Argument& o) const {
    if (kind != o.kind || i != o.i || b != o.b || isName != o.isName || s != o.s || s2 != o.s2 || key != o.key ||
        raw != o.raw || !(device == o.device) || list != o.list || imag != o.imag)
        return false;
    if (!(f == o.f || (f != f && o.f != o.f))) return false;
    if (static_cast<bool>(graph) != static_cast<bool>(o.graph)) return false;
    return !graph || *graph == *o.graph;
}

// ---------------------------------------------------------------- Target

Target Target::parse(const std::string& full) {
    Target t;
    t.full = full;
    if (!full.empty() && full[0] == '#') {
        t.kind = Kind::Extension;
        auto colon = full.find(':');
        t.ns = full.substr(1, colon == std::string::npos ? std::string::npos : colon - 1);
        if (colon != std::string::npos) t.op = full.substr(colon + 1);
        return t;
    }
    static const std::string prefix = "torch.ops.";
    if (full.rfind(prefix, 0) == 0) {
        std::string rest = full.substr(prefix.size());
        std::vector<std::string> parts;
        size_t start = 0;
        for (size_t p; (p = rest.find('.', start)) != std::string::npos; start = p + 1)
            parts.push_back(rest.substr(start, p - start));
        parts.push_back(rest.substr(start));
        if (parts.size() >= 2) {
            t.ns = parts[0];
            t.op = parts[1];
            t.overload = parts.size() >= 3 ? parts[2] : "default";
            for (size_t k = 3; k < parts.size(); ++k) t.overload += "." + parts[k];
            t.kind = t.ns == "higher_order" ? Kind::HigherOrder : Kind::Op;
            if (t.ns == "higher_order") t.overload.clear();
            return t;
        }
    }
    if (full.rfind("_operator.", 0) == 0 || full.rfind("math.", 0) == 0 || full.rfind("torch.sym_", 0) == 0 ||
        full.rfind("operator.", 0) == 0 || full == "builtins.getattr") {
        t.kind = Kind::Symbolic;
        auto dot = full.rfind('.');
        t.ns = full.substr(0, dot);
        t.op = full.substr(dot + 1);
        return t;
    }
    t.kind = Kind::Unknown;
    return t;
}

std::string Target::shortName() const {
    if (kind == Kind::Op) return ns + "." + op + "." + overload;
    if (kind == Kind::HigherOrder) return "higher_order." + op;
    return full;
}

std::string Target::qualifiedOp() const {
    if (kind == Kind::Op) return ns + "::" + op + (overload == "default" ? "" : "." + overload);
    return full;
}

// ---------------------------------------------------------------- NodeMeta

namespace {

// Splits on `sep` at bracket depth 0 (module paths can hold "[0]", "(a,b)" ...).
std::vector<std::string> splitTopLevel(const std::string& text, char sep) {
    std::vector<std::string> out;
    int depth = 0;
    std::string cur;
    for (char c : text) {
        if (c == '(' || c == '[' || c == '{') ++depth;
        if (c == ')' || c == ']' || c == '}') depth = depth > 0 ? depth - 1 : 0;
        if (c == sep && depth == 0) {
            out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    out.push_back(cur);
    return out;
}

std::string trim(const std::string& s) {
    size_t a = s.find_first_not_of(" \t\r\n");
    if (a == std::string::npos) return {};
    size_t b = s.find_last_not_of(" \t\r\n");
    return s.substr(a, b - a + 1);
}

// Parses `File "x.py", line 12, in forward` + the following code line.
std::vector<StackFrame> parseFrames(const std::string& trace) {
    std::vector<StackFrame> frames;
    std::istringstream in(trace);
    std::string line;
    while (std::getline(in, line)) {
        std::string t = trim(line);
        if (t.rfind("File \"", 0) == 0) {
            StackFrame f;
            auto q = t.find('"', 6);
            if (q == std::string::npos) continue;
            f.file = t.substr(6, q - 6);
            auto lp = t.find("line ", q);
            if (lp != std::string::npos) f.line = std::atoi(t.c_str() + lp + 5);
            auto ip = t.find(", in ", q);
            if (ip != std::string::npos) f.function = t.substr(ip + 5);
            frames.push_back(f);
        } else if (!frames.empty() && frames.back().code.empty() && !t.empty()) {
            frames.back().code = t;
        }
    }
    return frames;
}

} // namespace

void NodeMeta::parseFromRaw() {
    stackTrace.reset();
    frames.clear();
    moduleStack.reset();
    sourceFnStack.reset();
    torchFn.reset();
    custom.reset();
    if (auto it = raw.find("stack_trace"); it != raw.end()) {
        stackTrace = it->second;
        frames = parseFrames(it->second);
    }
    if (auto it = raw.find("nn_module_stack"); it != raw.end()) {
        std::vector<ModuleStackEntry> entries;
        if (!it->second.empty()) {
            for (const auto& entry : splitTopLevel(it->second, ';')) {
                if (entry.empty()) continue;
                ModuleStackEntry e;
                // old form: key:(path,type)
                auto colon = entry.find(":(");
                if (colon != std::string::npos && entry.back() == ')' && entry.find(',') > colon) {
                    e.key = entry.substr(0, colon);
                    auto inner = splitTopLevel(entry.substr(colon + 2, entry.size() - colon - 3), ',');
                    if (!inner.empty()) e.path = trim(inner[0]);
                    if (inner.size() > 1) e.type = trim(inner.back());
                } else {
                    auto parts = splitTopLevel(entry, ',');
                    e.key = parts.size() > 0 ? parts[0] : "";
                    e.type = parts.size() > 2 ? parts.back() : "";
                    if (parts.size() > 2) {
                        // the path is everything between the first and last top-level comma
                        for (size_t k = 1; k + 1 < parts.size(); ++k) e.path += (k > 1 ? "," : "") + parts[k];
                    } else if (parts.size() == 2) {
                        e.path = parts[1];
                    }
                }
                entries.push_back(std::move(e));
            }
        }
        moduleStack = std::move(entries);
    }
    auto sf = raw.find("source_fn_stack");
    if (sf == raw.end()) sf = raw.find("source_fn");
    if (sf != raw.end()) {
        std::vector<SourceFnEntry> entries;
        if (!sf->second.empty()) {
            for (const auto& entry : splitTopLevel(sf->second, ';')) {
                if (entry.empty()) continue;
                auto comma = entry.find(',');
                entries.push_back({entry.substr(0, comma), comma == std::string::npos ? "" : entry.substr(comma + 1)});
            }
        }
        sourceFnStack = std::move(entries);
    }
    if (auto it = raw.find("torch_fn"); it != raw.end()) torchFn = it->second;
    if (auto it = raw.find("custom"); it != raw.end()) custom = it->second;
}

// ---------------------------------------------------------------- Node

const NamedArgument* Node::input(const std::string& argName) const {
    for (const auto& in : inputs)
        if (in.name == argName) return &in;
    return nullptr;
}

std::vector<std::string> Node::outputNames() const {
    std::vector<std::string> names;
    for (const auto& o : outputs) o.collectValueNames(names);
    return names;
}

std::vector<std::string> Node::outputSlots() const {
    std::vector<std::string> slots;
    for (const auto& o : outputs) {
        if (o.kind == ArgKind::Tensors || o.kind == ArgKind::OptionalTensors) {
            for (const auto& e : o.list) slots.push_back(e.kind == ArgKind::None ? std::string() : e.s);
        } else if (o.kind == ArgKind::Tensor || o.kind == ArgKind::SymInt || o.kind == ArgKind::OptionalTensor) {
            slots.push_back(o.s);
        } else {
            slots.emplace_back();
        }
    }
    return slots;
}

// ---------------------------------------------------------------- signature kinds

const char* inputKindName(InputKind k) {
    switch (k) {
    case InputKind::UserInput: return "USER_INPUT";
    case InputKind::Parameter: return "PARAMETER";
    case InputKind::Buffer: return "BUFFER";
    case InputKind::TensorConstant: return "CONSTANT_TENSOR";
    case InputKind::CustomObj: return "CUSTOM_OBJ";
    case InputKind::Token: return "TOKEN";
    case InputKind::ConstantInput: return "USER_INPUT";
    }
    return "?";
}

const char* outputKindName(OutputKind k) {
    switch (k) {
    case OutputKind::UserOutput: return "USER_OUTPUT";
    case OutputKind::LossOutput: return "LOSS_OUTPUT";
    case OutputKind::BufferMutation: return "BUFFER_MUTATION";
    case OutputKind::ParameterMutation: return "PARAMETER_MUTATION";
    case OutputKind::GradientToParameter: return "GRADIENT_TO_PARAMETER";
    case OutputKind::GradientToUserInput: return "GRADIENT_TO_USER_INPUT";
    case OutputKind::UserInputMutation: return "USER_INPUT_MUTATION";
    case OutputKind::Token: return "TOKEN";
    }
    return "?";
}

const char* containerKindName(ContainerKind k) {
    switch (k) {
    case ContainerKind::Pt2Archive: return "PT2 archive";
    case ContainerKind::LegacyZip: return "legacy zip";
    case ContainerKind::Builder: return "built in code";
    }
    return "?";
}

// ---------------------------------------------------------------- storage and tensors

std::shared_ptr<Storage> Storage::fromBytes(std::vector<std::byte> bytes) {
    auto owned = std::make_shared<std::vector<std::byte>>(std::move(bytes));
    auto st = std::make_shared<Storage>();
    st->data = owned->data();
    st->size = owned->size();
    st->owner = owned;
    return st;
}

int64_t TensorData::numel() const {
    int64_t n = 1;
    for (auto s : sizes) n *= s;
    return n;
}

bool TensorData::isContiguous() const {
    int64_t expected = 1;
    for (size_t k = sizes.size(); k-- > 0;) {
        if (sizes[k] == 1) continue;
        if (k >= strides.size() || strides[k] != expected) return false;
        expected *= sizes[k];
    }
    return true;
}

const std::byte* TensorData::dataPtr() const {
    if (!storage || !storage->data) return nullptr;
    return storage->data + storageOffset * elementSize(dtype);
}

bool TensorData::fitsStorage() const {
    if (sizes.size() != strides.size() || storageOffset < 0) return false;
    int64_t es = elementSize(dtype);
    if (es == 0) return false;
    if (numel() == 0) return true;
    int64_t maxIndex = storageOffset;
    for (size_t k = 0; k < sizes.size(); ++k) {
        if (sizes[k] < 0 || strides[k] < 0) return false;
        maxIndex += (sizes[k] - 1) * strides[k];
    }
    return storage && static_cast<uint64_t>((maxIndex + 1) * es) <= storage->size;
}

std::vector<std::byte> TensorData::contiguousBytes() const {
    const int64_t es = elementSize(dtype);
    const int64_t n = numel();
    std::vector<std::byte> out(static_cast<size_t>(n * es));
    const std::byte* base = dataPtr();
    if (!base || n == 0 || !fitsStorage()) return out;
    if (isContiguous()) {
        std::memcpy(out.data(), base, out.size());
        return out;
    }
    std::vector<int64_t> idx(sizes.size(), 0);
    for (int64_t e = 0; e < n; ++e) {
        int64_t off = 0;
        for (size_t k = 0; k < sizes.size(); ++k) off += idx[k] * strides[k];
        std::memcpy(out.data() + e * es, base + off * es, es);
        for (size_t k = sizes.size(); k-- > 0;) {
            if (++idx[k] < sizes[k]) break;
            idx[k] = 0;
        }
    }
    return out;
}

// ---------------------------------------------------------------- Program

bool Program::isTrainingDialect() const {
    for (const auto& v : verifiers)
        if (v == "TRAINING") return true;
    return false;
}

const TensorData* Program::stateTensorFor(const InputSpec& spec) const {
    switch (spec.kind) {
    case InputKind::Parameter:
    case InputKind::Buffer: {
        if (auto it = weights.find(spec.target); it != weights.end()) return &it->second;
        if (auto it = constants.find(spec.target); it != constants.end() && it->second.kind == Value::Kind::Tensor)
            return &it->second.tensor;
        return nullptr;
    }
    case InputKind::TensorConstant: {
        if (auto it = constants.find(spec.target); it != constants.end() && it->second.kind == Value::Kind::Tensor)
            return &it->second.tensor;
        if (auto it = weights.find(spec.target); it != weights.end()) return &it->second;
        return nullptr;
    }
    default:
        return nullptr;
    }
}

namespace {

std::string compareTensors(const std::string& what, const TensorData& a, const TensorData& b) {
    if (a.dtype != b.dtype) return what + ": dtype " + dtypeName(a.dtype) + " vs " + dtypeName(b.dtype);
    if (a.sizes != b.sizes) return what + ": sizes differ";
    if (a.contiguousBytes() != b.contiguousBytes()) return what + ": bytes differ";
    return {};
}

std::string compareValues(const std::string& what, const Value& a, const Value& b) {
    if (a.kind != b.kind) return what + ": kind differs";
    switch (a.kind) {
    case Value::Kind::Tensor: return compareTensors(what, a.tensor, b.tensor);
    case Value::Kind::Int: return a.i == b.i ? "" : what + ": int differs";
    case Value::Kind::Float: return a.f == b.f ? "" : what + ": float differs";
    case Value::Kind::Bool: return a.b == b.b ? "" : what + ": bool differs";
    case Value::Kind::String: case Value::Kind::Opaque: return a.s == b.s ? "" : what + ": text differs";
    case Value::Kind::None: return {};
    }
    return {};
}

} // namespace

std::string compareProgramsDetail(const Program& a, const Program& b) {
    if (a.graph.nodes.size() != b.graph.nodes.size())
        return "node count " + std::to_string(a.graph.nodes.size()) + " vs " + std::to_string(b.graph.nodes.size());
    for (size_t k = 0; k < a.graph.nodes.size(); ++k)
        if (!(a.graph.nodes[k] == b.graph.nodes[k])) return "node #" + std::to_string(k) + " '" + a.graph.nodes[k].name + "' differs";
    if (!(a.graph == b.graph)) return "graph inputs, outputs or value tables differ";
    if (!(a.signature == b.signature)) return "graph signature differs";
    if (a.rangeConstraints != b.rangeConstraints) return "range constraints differ";
    if (a.moduleCallGraph != b.moduleCallGraph) return "module call graph differs";
    if (a.verifiers != b.verifiers) return "verifiers differ";
    if (a.weights.size() != b.weights.size()) return "weight count differs";
    for (const auto& [name, t] : a.weights) {
        auto it = b.weights.find(name);
        if (it == b.weights.end()) return "weight '" + name + "' missing";
        if (auto d = compareTensors("weight '" + name + "'", t, it->second); !d.empty()) return d;
    }
    if (a.constants.size() != b.constants.size()) return "constant count differs";
    for (const auto& [name, v] : a.constants) {
        auto it = b.constants.find(name);
        if (it == b.constants.end()) return "constant '" + name + "' missing";
        if (auto d = compareValues("constant '" + name + "'", v, it->second); !d.empty()) return d;
    }
    if (a.sampleArgs.size() != b.sampleArgs.size()) return "sample input count differs";
    for (size_t k = 0; k < a.sampleArgs.size(); ++k)
        if (auto d = compareValues("sample input " + std::to_string(k), a.sampleArgs[k], b.sampleArgs[k]); !d.empty())
            return d;
    return {};
}

} // namespace irlens::core
