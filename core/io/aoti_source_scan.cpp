#include "core/io/aoti_source_scan.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>

namespace irlens::core::aoti {

namespace {

// More inputs or outputs than this in a generated file is not something torch writes; the index
// sizes a vector, so it must be bounded.
constexpr size_t kMaxIo = 1 << 16;
constexpr int kMaxSpecDepth = 64;
constexpr size_t kMaxLiteral = 4u << 20;
constexpr size_t kMaxKernels = 4096;

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

bool startsWith(std::string_view s, std::string_view head) { return s.substr(0, head.size()) == head; }

bool isIdent(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string_view identAt(std::string_view s, size_t pos) {
    size_t end = pos;
    while (end < s.size() && isIdent(s[end])) ++end;
    return s.substr(pos, end - pos);
}

std::optional<int64_t> intAt(std::string_view s) {
    s = trimmed(s);
    while (!s.empty() && s.back() == 'L') s.remove_suffix(1); // 224L
    int64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
    return v;
}

// The body of the string literal that starts at `pos` ("..." or R"delim(...)delim"), unescaped.
std::optional<std::string> literalAt(std::string_view text, size_t pos) {
    if (pos >= text.size()) return std::nullopt;
    if (text[pos] == 'R' && pos + 1 < text.size() && text[pos + 1] == '"') {
        size_t open = text.find('(', pos + 2);
        if (open == std::string_view::npos || open - pos > 18) return std::nullopt;
        std::string close = ")" + std::string(text.substr(pos + 2, open - pos - 2)) + "\"";
        size_t end = text.find(close, open + 1);
        if (end == std::string_view::npos || end - open > kMaxLiteral) return std::nullopt;
        return std::string(text.substr(open + 1, end - open - 1));
    }
    if (text[pos] != '"') return std::nullopt;
    for (size_t k = pos + 1; k < text.size() && k - pos < kMaxLiteral; ++k) {
        if (text[k] == '\\') { ++k; continue; }
        if (text[k] == '\n') return std::nullopt;
        if (text[k] == '"') return unescapeCString(text.substr(pos + 1, k - pos - 1));
    }
    return std::nullopt;
}

// What the wrapper checks about one input: its dtype and, per dimension, a value or bounds.
struct DimCheck {
    std::optional<int64_t> exact, min, max;
};
struct InputChecks {
    std::string dtype;
    std::map<size_t, DimCheck> dims;
};

std::string dimText(const DimCheck& d) {
    if (d.exact) return std::to_string(*d.exact);
    if (d.min && d.max) return std::to_string(*d.min) + ".." + std::to_string(*d.max);
    if (d.min) return ">=" + std::to_string(*d.min);
    if (d.max) return "<=" + std::to_string(*d.max);
    return "?";
}

// `<name>_size[<d>]` at `pos`: the name and the dimension.
bool sizeRefAt(std::string_view s, size_t pos, std::string& name, size_t& dim) {
    std::string_view id = identAt(s, pos);
    const std::string_view suffix = "_size";
    if (id.size() <= suffix.size() || id.substr(id.size() - suffix.size()) != suffix) return false;
    size_t after = pos + id.size();
    if (after >= s.size() || s[after] != '[') return false;
    size_t close = s.find(']', after);
    if (close == std::string_view::npos) return false;
    auto d = intAt(s.substr(after + 1, close - after - 1));
    if (!d || *d < 0 || size_t(*d) >= 64) return false;
    name = std::string(id.substr(0, id.size() - suffix.size()));
    dim = size_t(*d);
    return true;
}

// `if (3 != x_size[0])`, `if (x_size[1] < 2)`, `if (x_size[1] > 4000)`.
void scanSizeCheck(std::string_view line, std::map<std::string, InputChecks>& checks) {
    if (!startsWith(line, "if (") || line.back() != '{') return;
    std::string_view cond = line.substr(4, line.rfind(')') == std::string_view::npos ? 0 : line.rfind(')') - 4);
    std::string name;
    size_t dim = 0;
    if (size_t ne = cond.find(" != "); ne != std::string_view::npos) {
        auto v = intAt(cond.substr(0, ne));
        if (v && sizeRefAt(cond, ne + 4, name, dim)) checks[name].dims[dim].exact = *v;
        return;
    }
    for (std::string_view op : {" < ", " > "}) {
        size_t at = cond.find(op);
        if (at == std::string_view::npos || !sizeRefAt(cond, 0, name, dim)) continue;
        auto v = intAt(cond.substr(at + 3));
        if (!v) return;
        (op == " < " ? checks[name].dims[dim].min : checks[name].dims[dim].max) = *v;
        return;
    }
}

// `int32_t x_expected_dtype = aoti_torch_dtype_float32();`
void scanDtypeCheck(std::string_view line, std::map<std::string, InputChecks>& checks) {
    if (!startsWith(line, "int32_t ")) return;
    std::string_view id = identAt(line, 8);
    const std::string_view suffix = "_expected_dtype";
    if (id.size() <= suffix.size() || id.substr(id.size() - suffix.size()) != suffix) return;
    const std::string_view fn = "aoti_torch_dtype_";
    size_t at = line.find(fn);
    if (at == std::string_view::npos) return;
    checks[std::string(id.substr(0, id.size() - suffix.size()))].dtype = std::string(identAt(line, at + fn.size()));
}

// `inputs_info_[0].name = "arg0_1";`
void scanInfoName(std::string_view line, std::string_view prefix, std::vector<AotiTensorSpec>& specs) {
    if (!startsWith(line, prefix)) return;
    size_t close = line.find(']', prefix.size());
    if (close == std::string_view::npos || line.substr(close, 10) != "].name = \"") return;
    auto index = intAt(line.substr(prefix.size(), close - prefix.size()));
    auto name = literalAt(line, close + 9);
    if (!index || *index < 0 || size_t(*index) >= kMaxIo || !name) return;
    if (specs.size() <= size_t(*index)) specs.resize(size_t(*index) + 1);
    specs[size_t(*index)].name = *name;
}

// `: AOTInductorModelBase(3, 2, 0, device_str, ...)`
void scanModelBase(std::string_view line, AotiModel& m) {
    const std::string_view head = "AOTInductorModelBase(";
    size_t at = line.find(head);
    if (at == std::string_view::npos || m.numInputs >= 0) return;
    std::string_view rest = line.substr(at + head.size());
    int* fields[] = {&m.numInputs, &m.numOutputs, &m.numConstants};
    for (int* f : fields) {
        size_t comma = rest.find(',');
        auto v = intAt(rest.substr(0, comma));
        if (!v || *v < 0 || size_t(*v) >= kMaxIo) return;
        *f = int(*v);
        if (comma == std::string_view::npos) return;
        rest.remove_prefix(comma + 1);
    }
}

// `extern "C"  void cpp_fused_add_mul_0(`
void scanKernel(std::string_view line, AotiModel& m) {
    if (!startsWith(line, "extern \"C\"")) return;
    std::string_view rest = trimmed(line.substr(10));
    if (!startsWith(rest, "void ")) return;
    rest = trimmed(rest.substr(5));
    std::string_view id = identAt(rest, 0);
    if (id.empty() || rest.size() == id.size() || rest[id.size()] != '(') return;
    if (m.kernels.size() < kMaxKernels && std::find(m.kernels.begin(), m.kernels.end(), id) == m.kernels.end())
        m.kernels.emplace_back(id);
}

// The line after `// Compile cmd`: `// g++ file.cpp -D CPU_CAPABILITY_AVX2 ...`
void scanCompileCommand(std::string_view line, AotiModel& m) {
    if (!startsWith(line, "// ")) return;
    std::string_view cmd = trimmed(line.substr(3));
    if (m.compiler.empty()) {
        std::string_view first = cmd.substr(0, cmd.find(' '));
        if (size_t slash = first.rfind('/'); slash != std::string_view::npos) first.remove_prefix(slash + 1);
        m.compiler = std::string(first);
    }
    const std::string_view cap = "CPU_CAPABILITY_";
    if (size_t at = cmd.find(cap); at != std::string_view::npos && m.cpuCapability.empty())
        m.cpuCapability = std::string(identAt(cmd, at + cap.size()));
}

void applyChecks(const std::map<std::string, InputChecks>& checks, std::vector<AotiTensorSpec>& inputs) {
    for (auto& in : inputs) {
        auto it = checks.find(in.name);
        if (it == checks.end()) continue;
        in.dtype = it->second.dtype;
        if (it->second.dims.empty()) continue;
        const size_t rank = it->second.dims.rbegin()->first + 1;
        in.dims.assign(rank, "?");
        for (const auto& [d, check] : it->second.dims) in.dims[d] = dimText(check);
    }
}

} // namespace

std::string unescapeCString(std::string_view body) {
    std::string out;
    out.reserve(body.size());
    for (size_t k = 0; k < body.size(); ++k) {
        if (body[k] != '\\' || k + 1 == body.size()) { out += body[k]; continue; }
        const char c = body[++k];
        switch (c) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case '0': out += '\0'; break;
        default: out += c; break; // \" \\ \' and anything else: the character itself
        }
    }
    return out;
}

void scanGeneratedSource(std::string_view source, AotiModel& m) {
    std::map<std::string, InputChecks> checks;
    bool afterCompileCmd = false;
    size_t pos = 0;
    while (pos < source.size()) {
        size_t eol = source.find('\n', pos);
        if (eol == std::string_view::npos) eol = source.size();
        std::string_view line = trimmed(source.substr(pos, eol - pos));
        pos = eol + 1;
        if (line.empty()) continue;
        if (afterCompileCmd) { scanCompileCommand(line, m); afterCompileCmd = false; continue; }
        if (line == "// Compile cmd") { afterCompileCmd = true; continue; }
        scanModelBase(line, m);
        scanInfoName(line, "inputs_info_[", m.inputs);
        scanInfoName(line, "outputs_info_[", m.outputs);
        scanKernel(line, m);
        scanDtypeCheck(line, checks);
        scanSizeCheck(line, checks);
        for (auto [head, target] : {std::pair{std::string_view("in_spec_ = "), &m.inSpec},
                                    std::pair{std::string_view("out_spec_ = "), &m.outSpec}}) {
            if (!startsWith(line, head) || !target->empty()) continue;
            // from the full text: a raw literal may run over several lines
            const size_t literal = size_t(line.data() - source.data()) + head.size();
            if (auto body = literalAt(source, literal)) *target = *body;
        }
    }
    applyChecks(checks, m.inputs);
}

int jsonNesting(std::string_view json) {
    int depth = 0, worst = 0;
    bool inString = false;
    for (size_t k = 0; k < json.size(); ++k) {
        const char c = json[k];
        if (inString) {
            if (c == '\\') ++k;
            else if (c == '"') inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            worst = std::max(worst, ++depth);
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return worst;
}

namespace {

struct SpecPrinter {
    const std::vector<std::string>& names;
    size_t next = 0;

    std::string leaf() { return next < names.size() && !names[next].empty() ? names[next++] : (++next, "*"); }

    std::string children(const nlohmann::json& kids, int depth, const char* open, const char* close, bool tuple = false) {
        std::string s = open;
        for (size_t k = 0; k < kids.size(); ++k) s += (k ? ", " : "") + print(kids[k], depth + 1);
        if (tuple && kids.size() == 1) s += ","; // Python's one-element tuple
        return s + close;
    }

    std::string print(const nlohmann::json& node, int depth) {
        if (depth > kMaxSpecDepth || !node.is_object()) return "?";
        const auto type = node.value("type", nlohmann::json());
        const auto kids = node.value("children_spec", nlohmann::json::array());
        if (type.is_null() || !kids.is_array()) return leaf();
        const std::string t = type.is_string() ? type.get<std::string>() : "?";
        if (t == "builtins.tuple") return children(kids, depth, "(", ")", true);
        if (t == "builtins.list" || t == "torch.fx.immutable_collections.immutable_list") return children(kids, depth, "[", "]");
        if (t == "builtins.dict" || t == "collections.OrderedDict" || t == "torch.fx.immutable_collections.immutable_dict") {
            const auto ctx = node.value("context", nlohmann::json());
            nlohmann::json keys;
            if (ctx.is_string() && jsonNesting(ctx.get_ref<const std::string&>()) <= 2)
                keys = nlohmann::json::parse(ctx.get_ref<const std::string&>(), nullptr, false);
            std::string s = "{";
            for (size_t k = 0; k < kids.size(); ++k) {
                std::string key = keys.is_array() && k < keys.size() ? keys[k].dump() : "?";
                s += (k ? ", " : "") + key + ": " + print(kids[k], depth + 1);
            }
            return s + "}";
        }
        return t + children(kids, depth, "(", ")");
    }
};

} // namespace

std::string describeTreeSpec(std::string_view json, const std::vector<std::string>& leafNames) {
    if (json.empty() || jsonNesting(json) > kMaxSpecDepth) return {};
    auto doc = nlohmann::json::parse(json, nullptr, false);
    if (doc.is_discarded() || !doc.is_array() || doc.size() != 2) return {};
    SpecPrinter printer{leafNames};
    return printer.print(doc[1], 0);
}

} // namespace irlens::core::aoti
