#include "core/decomp/rewrite_builder.h"

#include "core/ops/meta.h"
#include "core/ops/op_registry.h"
#include "core/ops/type_promotion.h"

#include <unordered_set>

namespace irlens::core {

// ---------------------------------------------------------------- names

NameTable::NameTable(const Graph& graph) {
    for (const auto& in : graph.inputs) {
        std::vector<std::string> names;
        in.collectValueNames(names);
        m_used.insert(names.begin(), names.end());
    }
    for (const auto& n : graph.nodes) {
        m_used.insert(n.name);
        for (const auto& v : n.outputNames()) m_used.insert(v);
    }
    for (const auto& [name, meta] : graph.tensorValues) m_used.insert(name);
}

std::string NameTable::fresh(const std::string& base) {
    int& next = m_next[base];
    std::string name = next == 0 ? base : base + "_" + std::to_string(next);
    while (m_used.count(name)) name = base + "_" + std::to_string(++next);
    ++next;
    m_used.insert(name);
    return name;
}

// ---------------------------------------------------------------- arguments

namespace arg {
namespace {
NamedArgument make(const std::string& name, Argument a) { return NamedArgument{name, std::move(a), ArgumentKind::Positional}; }
} // namespace
NamedArgument tensor(const std::string& name, const std::string& value) { return make(name, Argument::tensor(value)); }
NamedArgument none(const std::string& name) { return make(name, Argument::none()); }
NamedArgument integer(const std::string& name, int64_t v) { return make(name, Argument::integer(v)); }
NamedArgument floating(const std::string& name, double v) { return make(name, Argument::floating(v)); }
NamedArgument boolean(const std::string& name, bool v) { return make(name, Argument::boolean(v)); }
NamedArgument ints(const std::string& name, const std::vector<int64_t>& v) { return make(name, Argument::ints(v)); }
NamedArgument symInts(const std::string& name, const std::vector<SymInt>& v, const Graph* graph) {
    bool literal = true;
    for (const auto& s : v) literal = literal && s.isStatic();
    if (literal) {
        std::vector<int64_t> ints;
        for (const auto& s : v) ints.push_back(s.value);
        return make(name, Argument::ints(ints));
    }
    Argument a;
    a.kind = ArgKind::SymInts;
    for (const auto& s : v) {
        Argument e;
        e.kind = ArgKind::SymInt;
        if (s.isStatic()) e.i = s.value;
        else {
            e.isName = true;
            e.s = s.expr();
            if (graph)
                for (const auto& [symName, value] : graph->symIntValues)
                    if (sameSize(value, s)) { e.s = symName; break; }
        }
        a.list.push_back(e);
    }
    return make(name, a);
}
NamedArgument dtype(const std::string& name, ScalarType t) { return make(name, Argument::scalarType(t)); }
NamedArgument memoryFormat(const std::string& name, MemoryFormat f) {
    Argument a;
    a.kind = ArgKind::MemoryFormat;
    a.i = static_cast<int>(f);
    return make(name, a);
}
NamedArgument copy(const std::string& name, const Argument& a) { return make(name, a); }
NamedArgument kw(NamedArgument a) { a.kind = ArgumentKind::Keyword; return a; }
} // namespace arg

std::string atenTarget(const std::string& op, const std::string& overload) { return "torch.ops.aten." + op + "." + overload; }
std::string primsTarget(const std::string& op) { return "torch.ops.prims." + op + ".default"; }

// ---------------------------------------------------------------- builder

namespace {
const OpSchema* schemaOf(const Node& n) {
    const OpInfo* info = OpRegistry::instance().find(n.target);
    return info ? &info->schema : nullptr;
}
} // namespace

RewriteBuilder::RewriteBuilder(Graph& graph, NameTable& names, const Node& original)
    : m_graph(graph), m_names(names), m_original(original), m_args(original, graph, schemaOf(original)) {}

Result<Node> RewriteBuilder::makeNode(const std::string& target, std::vector<NamedArgument> inputs) {
    Node n;
    n.target = Target::parse(target);
    n.inputs = std::move(inputs);
    n.meta = m_original.meta;
    n.derivedFrom = m_original.name;
    n.hasSerializedName = true;
    n.name = m_names.fresh(n.target.op());
    return n;
}

Result<std::string> RewriteBuilder::call(const std::string& target, std::vector<NamedArgument> inputs) {
    auto node = makeNode(target, std::move(inputs));
    if (!node) return node.status();
    auto inferred = inferMeta(*node, m_graph);
    if (!inferred) return inferred.status().withContext("decomposing '" + m_original.name + "'");
    if (inferred->size() != 1 || (*inferred)[0].kind != InferredValue::Kind::Tensor)
        return Status::error("decomposing '" + m_original.name + "': " + target + " does not return one tensor");
    node->outputs = {Argument::tensor(node->name)};
    m_graph.tensorValues[node->name] = (*inferred)[0].meta;
    std::string name = node->name;
    m_nodes.push_back(std::move(*node));
    return name;
}

NamedArgument RewriteBuilder::sizes(const std::string& name, const std::vector<SymInt>& v) {
    bool literal = true;
    for (const auto& s : v) literal = literal && s.isStatic();
    if (literal || !m_defined) return arg::symInts(name, v, &m_graph);
    auto definedHere = [&](const std::string& n) {
        if (m_defined->count(n)) return true;
        for (const auto& node : m_nodes)
            if (node.name == n) return true;
        return false;
    };
    Argument a;
    a.kind = ArgKind::SymInts;
    for (const auto& s : v) {
        Argument e;
        e.kind = ArgKind::SymInt;
        if (s.isStatic()) {
            e.i = s.value;
            a.list.push_back(e);
            continue;
        }
        e.isName = true;
        e.s = s.expr();
        for (const auto& [symName, value] : m_graph.symIntValues)
            if (sameSize(value, s) && definedHere(symName)) { e.s = symName; break; }
        if (e.s == s.expr()) {
            // Read the size off a tensor this node can see.
            for (const auto& in : m_original.inputs) {
                if (in.arg.kind != ArgKind::Tensor) continue;
                const TensorMeta* m = m_graph.tensorMeta(in.arg.s);
                if (!m) continue;
                for (size_t d = 0; d < m->sizes.size() && e.s == s.expr(); ++d) {
                    if (!sameSize(m->sizes[d], s)) continue;
                    Node n;
                    n.target = Target::parse(atenTarget("sym_size", "int"));
                    n.inputs = {arg::tensor("self", in.arg.s), arg::integer("dim", static_cast<int64_t>(d))};
                    n.meta = m_original.meta;
                    n.derivedFrom = m_original.name;
                    n.hasSerializedName = true;
                    n.name = m_names.fresh("sym_size_int");
                    Argument out;
                    out.kind = ArgKind::SymInt;
                    out.isName = true;
                    out.s = n.name;
                    n.outputs = {out};
                    m_graph.symIntValues[n.name] = s;
                    e.s = n.name;
                    m_nodes.push_back(std::move(n));
                }
                if (e.s != s.expr()) break;
            }
        }
        a.list.push_back(e);
    }
    return NamedArgument{name, a, ArgumentKind::Positional};
}

Result<std::vector<std::string>> RewriteBuilder::callMulti(const std::string& target, std::vector<NamedArgument> inputs) {
    auto node = makeNode(target, std::move(inputs));
    if (!node) return node.status();
    auto inferred = inferMeta(*node, m_graph);
    if (!inferred) return inferred.status().withContext("decomposing '" + m_original.name + "'");
    const OpSchema* schema = schemaOf(*node);
    bool list = schema && schema->returns.size() == 1 && schema->returns[0].type.find("[]") != std::string::npos;
    std::vector<std::string> names;
    Argument listArg;
    listArg.kind = ArgKind::Tensors;
    for (const auto& v : *inferred) {
        if (v.kind != InferredValue::Kind::Tensor) return Status::error("decomposing '" + m_original.name + "': non-tensor output of " + target);
        std::string name = m_names.fresh("getitem");
        m_graph.tensorValues[name] = v.meta;
        names.push_back(name);
        if (list) listArg.list.push_back(Argument::tensor(name));
        else node->outputs.push_back(Argument::tensor(name));
    }
    if (list) node->outputs = {listArg};
    m_nodes.push_back(std::move(*node));
    return names;
}

} // namespace irlens::core
