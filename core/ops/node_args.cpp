#include "core/ops/node_args.h"

#include <cstdlib>

namespace irlens::core {

namespace {

std::string trimQuotes(std::string s) {
    if (s.size() >= 2 && (s.front() == '\'' || s.front() == '"') && s.back() == s.front()) return s.substr(1, s.size() - 2);
    return s;
}

// The N of "int[2]" / "SymInt[2]?", 0 when unsized.
size_t listLength(const std::string& type) {
    auto open = type.find('[');
    if (open == std::string::npos) return 0;
    return static_cast<size_t>(std::atoi(type.c_str() + open + 1));
}

bool isNumberKind(ArgKind k) {
    return k == ArgKind::Int || k == ArgKind::Float || k == ArgKind::Bool || k == ArgKind::SymInt ||
           k == ArgKind::SymFloat || k == ArgKind::SymBool || k == ArgKind::Complex;
}

} // namespace

Argument parseDefaultValue(const std::string& text, const std::string& type) {
    if (text == "None") return Argument::none();
    if (text == "True" || text == "False") return Argument::boolean(text == "True");
    if (text == "contiguous_format") {
        Argument a;
        a.kind = ArgKind::MemoryFormat;
        a.i = static_cast<int>(MemoryFormat::Contiguous);
        return a;
    }
    if (!text.empty() && text.front() == '[') {
        std::vector<int64_t> values;
        std::string cur;
        for (char c : text.substr(1)) {
            if (c == ',' || c == ']') {
                if (!cur.empty()) values.push_back(std::atoll(cur.c_str()));
                cur.clear();
            } else if (c != ' ') {
                cur += c;
            }
        }
        return Argument::ints(values);
    }
    if (!text.empty() && (text.front() == '\'' || text.front() == '"')) return Argument::string(trimQuotes(text));
    bool isList = type.find('[') != std::string::npos;
    bool isFloat = text.find_first_of(".eE") != std::string::npos || type.rfind("float", 0) == 0;
    if (isList) {
        // `int[2] stride=1`: a bare value repeats to the declared length.
        size_t n = listLength(type);
        return Argument::ints(std::vector<int64_t>(n ? n : 1, std::atoll(text.c_str())));
    }
    if (isFloat && type.rfind("int", 0) != 0 && type.rfind("SymInt", 0) != 0) return Argument::floating(std::strtod(text.c_str(), nullptr));
    return Argument::integer(std::atoll(text.c_str()));
}

std::optional<SymInt> resolveSymInt(const Argument& a, const Graph& graph) {
    if (a.kind == ArgKind::Int) return SymInt::literal(a.i);
    if (a.kind == ArgKind::SymInt) {
        if (!a.isName) return SymInt::literal(a.i);
        auto it = graph.symIntValues.find(a.s);
        if (it != graph.symIntValues.end()) return it->second;
        return SymInt::expression(a.s);
    }
    return std::nullopt;
}

NodeArgs::NodeArgs(const Node& node, const Graph& graph, const OpSchema* schema)
    : m_node(node), m_graph(graph), m_schema(schema) {}

const Argument* NodeArgs::get(const std::string& name) const {
    for (const auto& in : m_node.inputs)
        if (in.name == name) return &in.arg;
    if (!m_schema) return nullptr;
    for (size_t i = 0; i < m_schema->args.size(); ++i) {
        const auto& sa = m_schema->args[i];
        if (sa.name != name) continue;
        // Inputs recorded without names (old files): fall back to the position.
        if (i < m_node.inputs.size() && m_node.inputs[i].name.empty()) return &m_node.inputs[i].arg;
        if (!sa.defaultValue) return nullptr;
        for (const auto& d : m_defaults)
            if (d.first == name) return &d.second;
        m_defaults.emplace_back(name, parseDefaultValue(*sa.defaultValue, sa.type));
        return &m_defaults.back().second;
    }
    return nullptr;
}

bool NodeArgs::isNone(const std::string& name) const {
    const Argument* a = get(name);
    return !a || a->kind == ArgKind::None || (a->kind == ArgKind::OptionalTensor && a->s.empty());
}

Status NodeArgs::error(const std::string& arg, const std::string& message) const {
    return Status::error("node '" + m_node.name + "' (" + m_node.target.shortName() + "): " +
                         (arg.empty() ? "" : "argument '" + arg + "': ") + message);
}

std::string NodeArgs::tensorName(const std::string& name) const {
    const Argument* a = get(name);
    if (!a) return {};
    if (a->kind == ArgKind::Tensor || (a->kind == ArgKind::OptionalTensor && !a->s.empty())) return a->s;
    return {};
}

Result<const TensorMeta*> NodeArgs::tensor(const std::string& name) const {
    std::string v = tensorName(name);
    if (v.empty()) return error(name, get(name) ? "expected a tensor" : "missing");
    const TensorMeta* m = m_graph.tensorMeta(v);
    if (!m) return error(name, "no tensor meta recorded for value '" + v + "'");
    return m;
}

const TensorMeta* NodeArgs::optTensor(const std::string& name) const {
    std::string v = tensorName(name);
    return v.empty() ? nullptr : m_graph.tensorMeta(v);
}

Result<std::vector<const TensorMeta*>> NodeArgs::tensorList(const std::string& name) const {
    const Argument* a = get(name);
    if (!a || !a->isList()) return error(name, "expected a list of tensors");
    std::vector<const TensorMeta*> out;
    for (const auto& e : a->list) {
        if (e.kind == ArgKind::None || e.s.empty()) {
            out.push_back(nullptr);
            continue;
        }
        const TensorMeta* m = m_graph.tensorMeta(e.s);
        if (!m) return error(name, "no tensor meta recorded for value '" + e.s + "'");
        out.push_back(m);
    }
    return out;
}

std::optional<int64_t> NodeArgs::optInteger(const std::string& name) const {
    const Argument* a = get(name);
    if (!a) return std::nullopt;
    if (a->kind == ArgKind::Int || (a->kind == ArgKind::SymInt && !a->isName)) return a->i;
    if (a->kind == ArgKind::Bool) return a->b ? 1 : 0;
    if (a->kind == ArgKind::SymInt) {
        auto s = resolveSymInt(*a, m_graph);
        if (s && s->isStatic()) return s->value;
    }
    return std::nullopt;
}

Result<int64_t> NodeArgs::integer(const std::string& name) const {
    auto v = optInteger(name);
    if (!v) return error(name, get(name) ? "expected an integer" : "missing");
    return *v;
}

Result<double> NodeArgs::number(const std::string& name) const {
    const Argument* a = get(name);
    if (!a) return error(name, "missing");
    switch (a->kind) {
    case ArgKind::Int: return static_cast<double>(a->i);
    case ArgKind::Float: return a->f;
    case ArgKind::Bool: return a->b ? 1.0 : 0.0;
    case ArgKind::SymInt:
        if (!a->isName) return static_cast<double>(a->i);
        break;
    case ArgKind::SymFloat:
        if (!a->isName) return a->f;
        break;
    default: break;
    }
    return error(name, "expected a number");
}

Result<bool> NodeArgs::boolean(const std::string& name) const {
    const Argument* a = get(name);
    if (!a) return error(name, "missing");
    if (a->kind == ArgKind::Bool || (a->kind == ArgKind::SymBool && !a->isName)) return a->b;
    if (a->kind == ArgKind::None) return false; // `bool? train=None`
    if (a->kind == ArgKind::Int) return a->i != 0;
    return error(name, "expected a bool");
}

std::optional<std::vector<int64_t>> NodeArgs::optInts(const std::string& name) const {
    const Argument* a = get(name);
    if (!a || a->kind == ArgKind::None) return std::nullopt;
    std::vector<int64_t> out;
    if (a->kind == ArgKind::Int) {
        // A bare int for an int[N] parameter repeats (`padding=1` for int[2]).
        size_t n = 1;
        if (m_schema)
            for (const auto& sa : m_schema->args)
                if (sa.name == name) n = std::max<size_t>(1, listLength(sa.type));
        return std::vector<int64_t>(n, a->i);
    }
    if (!a->isList()) return std::nullopt;
    for (const auto& e : a->list) {
        auto s = resolveSymInt(e, m_graph);
        if (!s || !s->isStatic()) return std::nullopt;
        out.push_back(s->value);
    }
    return out;
}

Result<std::vector<int64_t>> NodeArgs::ints(const std::string& name) const {
    auto v = optInts(name);
    if (!v) return error(name, get(name) ? "expected a list of integers" : "missing");
    return *v;
}

Result<std::vector<SymInt>> NodeArgs::symInts(const std::string& name) const {
    const Argument* a = get(name);
    if (!a) return error(name, "missing");
    std::vector<SymInt> out;
    if (a->kind == ArgKind::Int || a->kind == ArgKind::SymInt) {
        auto s = resolveSymInt(*a, m_graph);
        if (s) out.push_back(*s);
        return out;
    }
    if (!a->isList()) return error(name, "expected a list of sizes");
    for (const auto& e : a->list) {
        auto s = resolveSymInt(e, m_graph);
        if (!s) return error(name, "expected sizes (int or SymInt)");
        out.push_back(*s);
    }
    return out;
}

Result<SymInt> NodeArgs::symInt(const std::string& name) const {
    const Argument* a = get(name);
    if (!a) return error(name, "missing");
    auto s = resolveSymInt(*a, m_graph);
    if (!s) return error(name, "expected an integer size");
    return *s;
}

std::optional<ScalarType> NodeArgs::scalarType(const std::string& name) const {
    const Argument* a = get(name);
    if (!a || a->kind != ArgKind::ScalarType) return std::nullopt;
    return static_cast<ScalarType>(a->i);
}

std::string NodeArgs::string(const std::string& name, const std::string& fallback) const {
    const Argument* a = get(name);
    return a && a->kind == ArgKind::String ? a->s : fallback;
}

Result<PromotionOperand> NodeArgs::operand(const std::string& name) const {
    const Argument* a = get(name);
    if (!a) return error(name, "missing");
    if (a->kind == ArgKind::Tensor || a->kind == ArgKind::OptionalTensor) {
        auto t = tensor(name);
        if (!t) return t.status();
        return PromotionOperand::tensor((*t)->dtype, static_cast<int>((*t)->sizes.size()));
    }
    if (isNumberKind(a->kind)) {
        switch (a->kind) {
        case ArgKind::Bool: case ArgKind::SymBool: return PromotionOperand::number(TypeCategory::Bool);
        case ArgKind::Int: case ArgKind::SymInt: return PromotionOperand::number(TypeCategory::Integer);
        case ArgKind::Complex: return PromotionOperand::number(TypeCategory::Complex);
        default: return PromotionOperand::number(TypeCategory::Floating);
        }
    }
    return error(name, "expected a tensor or a number");
}

} // namespace irlens::core
