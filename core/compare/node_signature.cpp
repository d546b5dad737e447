#include "core/compare/node_signature.h"

#include "core/compare/program_match.h"

#include <cstdio>
#include <unordered_map>

namespace irlens::core {
namespace {

/// How a value read by a node is described: graph inputs by their role, node outputs by their meta.
class ValueRoles {
public:
    explicit ValueRoles(const Program& p) : m_graph(p.graph) {
        int user = 0;
        for (const auto& spec : p.signature.inputSpecs) {
            std::vector<std::string> names;
            spec.arg.collectValueNames(names);
            for (const auto& n : names) {
                switch (spec.kind) {
                case InputKind::UserInput: m_roles[n] = "in" + std::to_string(user); break;
                case InputKind::Parameter: m_roles[n] = "param:" + spec.target; break;
                case InputKind::Buffer: m_roles[n] = "buffer:" + spec.target; break;
                case InputKind::TensorConstant: m_roles[n] = "const:" + spec.target; break;
                default: m_roles[n] = "input:" + spec.target; break;
                }
            }
            if (spec.kind == InputKind::UserInput) ++user;
        }
    }

    std::string describe(const std::string& name) const {
        if (auto it = m_roles.find(name); it != m_roles.end()) return it->second;
        if (const TensorMeta* m = m_graph.tensorMeta(name)) return m->shortString();
        if (auto it = m_graph.symIntValues.find(name); it != m_graph.symIntValues.end()) return "sym";
        return "value";
    }

private:
    const Graph& m_graph;
    std::unordered_map<std::string, std::string> m_roles;
};

std::string formatDouble(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

void describeArgument(const Argument& a, const ValueRoles& roles, std::string& out) {
    out += std::to_string(static_cast<int>(a.kind));
    out += ':';
    switch (a.kind) {
    case ArgKind::Tensor: case ArgKind::OptionalTensor: out += a.s.empty() ? "None" : roles.describe(a.s); break;
    case ArgKind::SymInt: case ArgKind::SymBool: case ArgKind::SymFloat:
        if (a.isName) out += roles.describe(a.s);
        else out += a.kind == ArgKind::SymFloat ? formatDouble(a.f) : std::to_string(a.kind == ArgKind::SymBool ? a.b : a.i);
        break;
    case ArgKind::Int: case ArgKind::ScalarType: case ArgKind::MemoryFormat: case ArgKind::Layout: out += std::to_string(a.i); break;
    case ArgKind::Float: out += formatDouble(a.f); break;
    case ArgKind::Complex: out += formatDouble(a.f) + "+" + formatDouble(a.imag) + "j"; break;
    case ArgKind::Bool: out += a.b ? "True" : "False"; break;
    case ArgKind::String: case ArgKind::Operator: case ArgKind::Opaque: out += a.s + a.raw(); break;
    case ArgKind::Device: out += a.device().toString(); break;
    case ArgKind::Graph: out += "graph(" + std::to_string(a.graph() ? a.graph()->nodes.size() : 0) + ")"; break;
    case ArgKind::CustomObj: out += a.s2(); break;
    default: break;
    }
    if (!a.key().empty()) out += "=" + a.key();
    if (a.isList()) {
        out += '[';
        for (const auto& e : a.list) {
            describeArgument(e, roles, out);
            out += ',';
        }
        out += ']';
    }
}

/// torch_fn is "gelu_3;builtin_function_or_method.gelu": the counter before ';' differs between exports.
std::string torchFnFunction(const NodeMeta& meta) {
    if (!meta.torchFn) return {};
    auto semi = meta.torchFn->find(';');
    return semi == std::string::npos ? *meta.torchFn : meta.torchFn->substr(semi + 1);
}

NodeSignature signatureOf(const Node& node, const Graph& graph, const ValueRoles& roles) {
    NodeSignature s;
    if (node.meta.moduleStack && !node.meta.moduleStack->empty()) {
        s.scope = node.meta.moduleStack->back().path;
        s.scopeType = node.meta.moduleStack->back().type;
    }
    s.target = node.target.full;
    for (const auto& in : node.inputs) {
        s.args += in.name + '=';
        describeArgument(in.arg, roles, s.args);
        s.args += ' ';
    }
    if (node.meta.sourceFnStack && !node.meta.sourceFnStack->empty()) s.origin = node.meta.sourceFnStack->back().target;
    s.origin += '|' + torchFnFunction(node.meta);
    for (const auto& name : node.outputNames()) {
        const TensorMeta* m = graph.tensorMeta(name);
        if (!m) continue;
        if (!s.outDtypes.empty()) { s.outDtypes += ','; s.outShapes += ';'; }
        s.outDtypes += dtypeShortName(m->dtype);
        std::string shape = m->shortString();
        s.outShapes += shape.substr(shape.find('['));
    }
    s.outKey = s.outDtypes + s.outShapes;
    s.strong = s.target + '\x1f' + s.args + '\x1f' + s.origin + '\x1f' + s.outKey;
    return s;
}

std::string shortTarget(const std::string& full) { return Target::parse(full).shortName(); }

std::string shortType(const std::string& type) {
    auto dot = type.rfind('.');
    return dot == std::string::npos ? type : type.substr(dot + 1);
}

} // namespace

std::vector<NodeSignature> nodeSignatures(const Program& program) {
    ValueRoles roles(program);
    std::vector<NodeSignature> out;
    out.reserve(program.graph.nodes.size());
    for (const auto& n : program.graph.nodes) out.push_back(signatureOf(n, program.graph, roles));
    return out;
}

unsigned signatureChanges(const NodeSignature& a, const NodeSignature& b) {
    unsigned flags = 0;
    if (a.target != b.target) flags |= ChangeTarget;
    if (a.args != b.args) flags |= ChangeArgs;
    if (a.outDtypes != b.outDtypes) flags |= ChangeDtype;
    if (a.outShapes != b.outShapes) flags |= ChangeShape;
    if (a.scope != b.scope || a.scopeType != b.scopeType) flags |= ChangeModule;
    return flags;
}

std::string describeChanges(const NodeSignature& a, const NodeSignature& b, unsigned flags) {
    std::string out;
    auto add = [&](const std::string& part) { out += (out.empty() ? "" : "; ") + part; };
    if (flags & ChangeTarget) add(shortTarget(a.target) + " -> " + shortTarget(b.target));
    if (flags & ChangeArgs) add("arguments differ");
    if (flags & ChangeDtype) add("dtype " + a.outDtypes + " -> " + b.outDtypes);
    if (flags & ChangeShape) add("shape " + a.outShapes + " -> " + b.outShapes);
    if (flags & ChangeModule) {
        if (a.scope != b.scope) add("module " + (a.scope.empty() ? "(root)" : a.scope) + " -> " + (b.scope.empty() ? "(root)" : b.scope));
        else add("module type " + shortType(a.scopeType) + " -> " + shortType(b.scopeType));
    }
    return out;
}

} // namespace irlens::core
