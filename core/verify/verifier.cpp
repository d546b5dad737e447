#include "core/verify/verifier.h"

#include "core/ir/fx_names.h"
#include "core/ops/op_registry.h"
#include "core/verify/verifier_context.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace irlens::core {

namespace detail {
namespace {

std::string join(const std::vector<std::string>& parts, const std::string& sep) {
    std::string out;
    for (size_t k = 0; k < parts.size(); ++k) out += (k ? sep : "") + parts[k];
    return out;
}

} // namespace

std::string nodeLabel(const Node& node, const std::string& fxName) {
    if (fxName == node.name || !node.hasSerializedName) return "'" + fxName + "'";
    return "'" + fxName + "' (recorded as '" + node.name + "')";
}

namespace {

// ---------------------------------------------------------------- meta

std::string describeOutputs(const std::vector<Argument>& outs) {
    std::vector<std::string> parts;
    for (const auto& o : outs) {
        switch (o.kind) {
        case ArgKind::Tensor: parts.push_back("Tensor"); break;
        case ArgKind::Tensors: case ArgKind::OptionalTensors: parts.push_back("Tensor[]"); break;
        case ArgKind::None: parts.push_back("None"); break;
        case ArgKind::SymInt: case ArgKind::Int: parts.push_back("SymInt"); break;
        case ArgKind::SymBool: case ArgKind::Bool: parts.push_back("SymBool"); break;
        case ArgKind::SymFloat: case ArgKind::Float: parts.push_back("SymFloat"); break;
        default: parts.push_back("other");
        }
    }
    return "(" + join(parts, ", ") + ")";
}

// The kind one schema return asks for: "Tensor", "Tensor?", "Tensor[]", "SymInt", "SymBool", "SymFloat" or "".
std::string returnKind(std::string type) {
    std::string clean;
    int depth = 0;
    for (char c : type) { // drop alias annotations: Tensor(a!) -> Tensor
        if (c == '(') ++depth;
        else if (c == ')') depth = depth > 0 ? depth - 1 : 0;
        else if (depth == 0 && c != ' ') clean += c;
    }
    if (clean == "Tensor") return "Tensor";
    if (clean == "Tensor?") return "Tensor?";
    if (clean.rfind("Tensor", 0) == 0 && clean.find("[]") != std::string::npos) return "Tensor[]";
    if (clean == "SymInt" || clean == "int") return "SymInt";
    if (clean == "SymBool" || clean == "bool") return "SymBool";
    if (clean == "SymFloat" || clean == "float") return "SymFloat";
    return {};
}

bool outputMatches(const std::string& kind, const Argument& o) {
    if (kind == "Tensor") return o.kind == ArgKind::Tensor;
    if (kind == "Tensor?") return o.kind == ArgKind::Tensor || o.kind == ArgKind::None || o.kind == ArgKind::OptionalTensor;
    if (kind == "Tensor[]") return o.kind == ArgKind::Tensors || o.kind == ArgKind::OptionalTensors;
    if (kind == "SymInt") return o.kind == ArgKind::SymInt || o.kind == ArgKind::Int;
    if (kind == "SymBool") return o.kind == ArgKind::SymBool || o.kind == ArgKind::Bool;
    if (kind == "SymFloat") return o.kind == ArgKind::SymFloat || o.kind == ArgKind::Float;
    return true; // Scalar and friends: anything
}

// Every value a node defines needs its val (tensor_values / sym_*_values).
void needVal(VerifyContext& ctx, const Graph& g, const Node& node, const Argument& o, const std::string& path,
             const NodeRef& n) {
    if (o.kind == ArgKind::Tensor || (o.kind == ArgKind::OptionalTensor && !o.s.empty())) {
        if (!g.tensorValues.count(o.s))
            ctx.report("EIR-M002", path, node.name,
                       "node " + n + " defines tensor '" + o.s + "' but the graph has no tensor_values entry (val) for it",
                       "record its FakeTensor meta (dtype, sizes, strides, device) in tensor_values['" + o.s + "']");
    } else if ((o.kind == ArgKind::SymInt || o.kind == ArgKind::SymBool || o.kind == ArgKind::SymFloat) && o.isName) {
        bool found = o.kind == ArgKind::SymInt ? g.symIntValues.count(o.s) > 0
                   : o.kind == ArgKind::SymBool ? g.symBoolValues.count(o.s) > 0 : g.symFloatValues.count(o.s) > 0;
        if (!found)
            ctx.report("EIR-M002", path, node.name,
                       "node " + n + " defines symbolic value '" + o.s + "' but the graph has no sym value entry (val) for it",
                       "record it in sym_int_values / sym_bool_values / sym_float_values");
    } else {
        for (const auto& e : o.list) needVal(ctx, g, node, e, path, n);
    }
}

void checkVal(VerifyContext& ctx, const Graph& g, const Node& node, const std::string& path, const NodeRef& n) {
    const std::string& key = node.name;
    for (const auto& o : node.outputs) needVal(ctx, g, node, o, path, n);

    const Target& t = node.target;
    if (t.kind == Target::Kind::Symbolic) {
        bool ok = node.outputs.size() == 1 && (node.outputs[0].kind == ArgKind::SymInt || node.outputs[0].kind == ArgKind::SymBool ||
                                               node.outputs[0].kind == ArgKind::SymFloat);
        if (!ok)
            ctx.report("EIR-M005", path, key,
                       "node " + n + " is the symbolic op '" + t.full + "' but records " + describeOutputs(node.outputs) +
                           " instead of one symbolic value",
                       "record a single as_sym_int / as_sym_bool / as_sym_float output");
        return;
    }
    if (t.kind != Target::Kind::Op) return;
    const OpInfo* info = OpRegistry::instance().find(t);
    if (!info) return;
    const auto& returns = info->schema.returns;
    std::vector<std::string> kinds;
    for (const auto& r : returns) kinds.push_back(returnKind(r.type));
    bool ok = true;
    if (returns.empty()) {
        ok = node.outputs.empty() || (node.outputs.size() == 1 && node.outputs[0].kind == ArgKind::None);
    } else if (node.outputs.size() != returns.size()) {
        ok = false;
    } else {
        for (size_t k = 0; k < returns.size(); ++k) ok = ok && outputMatches(kinds[k], node.outputs[k]);
    }
    if (!ok) {
        std::vector<std::string> expected;
        for (size_t k = 0; k < kinds.size(); ++k) expected.push_back(kinds[k].empty() ? returns[k].type : kinds[k]);
        ctx.report("EIR-M005", path, key,
                   "node " + n + " (" + heldName(t) + ") returns (" + join(expected, ", ") + ") but records " +
                       describeOutputs(node.outputs),
                   "record one output per schema return (unused tuple elements still get a name such as '" + key +
                       "_unused_1')");
    }
}

void checkMetaPresence(VerifyContext& ctx, const Node& node, const std::string& path, const NodeRef& n) {
    const std::string& key = node.name;
    // on a graph without metadata every node has all three: no message is built once no more are kept
    if (!node.meta.stackTrace && ctx.room())
        ctx.report("EIR-M001", path, key, "node " + n + " has no stack_trace in its metadata",
                   "export with the original source available; the trace links the node to the line that made it");
    if (!node.meta.moduleStack && ctx.room())
        ctx.report("EIR-M003", path, key, "node " + n + " has no nn_module_stack in its metadata",
                   "keep nn_module_stack when transforming the graph (copy the meta of the node you replace)");
    if (!node.meta.sourceFnStack && ctx.room())
        ctx.report("EIR-M004", path, key, "node " + n + " has no source_fn_stack in its metadata",
                   "keep source_fn_stack when transforming the graph (copy the meta of the node you replace)");
}

// cond(pred, true_graph, false_graph, operands): both branches take the operands and return alike.
// `n` is the node's label: a cond node is 'cond' as in the FX text, never the 'getitem' that holds its result.
void checkCond(VerifyContext& ctx, const Node& node, const std::string& path, const NodeRef& n) {
    std::vector<const Argument*> positional;
    for (const auto& in : node.inputs)
        if (in.name.empty()) positional.push_back(&in.arg);
    if (positional.size() != 4) return; // an unusual call: nothing to compare reliably
    const Argument* branches[2] = {positional[1], positional[2]};
    size_t operands = positional[3]->list.size();
    size_t outputs[2] = {0, 0};
    for (int b = 0; b < 2; ++b) {
        if (branches[b]->kind != ArgKind::Graph || !branches[b]->graph()) return;
        const Graph& g = *branches[b]->graph();
        outputs[b] = g.outputs.size();
        if (g.inputs.size() != operands)
            ctx.report("EIR-S012", path, node.name,
                       "cond node " + n + " passes " + std::to_string(operands) + " operand(s) but its branch '" +
                           branches[b]->s + "' takes " + std::to_string(g.inputs.size()),
                       "make every branch take exactly the operands list, in order");
    }
    if (outputs[0] != outputs[1])
        ctx.report("EIR-S012", path, node.name,
                   "cond node " + n + ": branch '" + branches[0]->s + "' returns " + std::to_string(outputs[0]) +
                       " value(s) but '" + branches[1]->s + "' returns " + std::to_string(outputs[1]),
                   "both branches must return the same number of values with the same metas");
}

// ---------------------------------------------------------------- structure

/// Who defines each value of one graph: its placeholders, and the first node defining each other value.
/// Names are views of the graph's own strings (it outlives the run); hashed, as a graph may hold a
/// million values.
struct Definitions {
    std::unordered_set<std::string_view> placeholders;
    std::unordered_map<std::string_view, size_t> producer;

    /// The producer of `v`, or SIZE_MAX for none.
    size_t producerOf(std::string_view v) const {
        auto it = producer.find(v);
        return it == producer.end() ? SIZE_MAX : it->second;
    }
};

Definitions collectDefinitions(VerifyContext& ctx, const Graph& g, const std::string& path) {
    Definitions defs;
    for (const auto& in : g.inputs)
        in.forEachValueName([&](const std::string& name) {
            if (!defs.placeholders.insert(name).second)
                ctx.report("EIR-S007", path, name, "placeholder '" + name + "' is defined twice",
                           "give every graph input its own name");
        });
    defs.producer.reserve(g.nodes.size());
    for (size_t k = 0; k < g.nodes.size(); ++k) {
        const Node& node = g.nodes[k];
        for (const auto& out : node.outputs)
            out.forEachValueName([&](const std::string& v) {
                if (defs.placeholders.count(v)) {
                    ctx.report("EIR-S003", path, node.name,
                               "node " + ctx.label(g, k) + " defines '" + v + "', a name already taken by a placeholder "
                               "(a placeholder after a non-placeholder node)",
                               "rename the node's output; placeholders are the graph inputs and come first");
                } else if (auto [it, added] = defs.producer.emplace(v, k); !added) {
                    ctx.report("EIR-S007", path, node.name,
                               "node " + ctx.label(g, k) + " defines '" + v + "', which node " + ctx.label(g, it->second) +
                                   " already defines",
                               "give each value a unique name");
                }
            });
    }
    return defs;
}

/// A subgraph argument: only higher-order ops take one, and it must be attached (then it is verified too).
void checkSubgraphInput(VerifyContext& ctx, const Node& node, const Argument& arg, const std::string& path,
                        const NodeRef& n) {
    if (node.target.kind != Target::Kind::HigherOrder)
        ctx.report("EIR-S010", path, node.name,
                   "node " + n + " (" + heldName(node.target) + ") takes the submodule '" + arg.s +
                       "'; only higher-order ops take subgraphs",
                   "pass tensors to ordinary ops; wrap control flow in a higher-order op (cond, map, ...)");
    if (!arg.graph())
        ctx.report("EIR-S010", path, node.name,
                   "node " + n + " refers to submodule '" + arg.s + "' but no graph is attached",
                   "serialize the subgraph inline (as_graph {name, graph})");
    else
        verifyGraph(ctx, *arg.graph(), (path.empty() ? "" : path + ".") + node.name + "." + arg.s, false);
}

/// Whether node `node` defines value `v` itself.
bool definesItself(const Node& node, std::string_view v) {
    bool found = false;
    for (const auto& o : node.outputs) o.forEachValueName([&](const std::string& name) { found = found || name == v; });
    return found;
}

/// Every value node `k` reads is defined before it (a placeholder or an earlier node); returns the later
/// producers it reads (forward reads, which can make a cycle).
std::vector<size_t> checkReads(VerifyContext& ctx, const Graph& g, size_t k, const Definitions& defs,
                               const std::string& path) {
    const Node& node = g.nodes[k];
    std::vector<size_t> forward;
    std::vector<std::string_view> reported; // each name once; a node reads a handful
    for (const auto& in : node.inputs) {
        if (in.arg.kind == ArgKind::Graph) checkSubgraphInput(ctx, node, in.arg, path, NodeRef(ctx, g, k));
        in.arg.forEachValueName([&](const std::string& v) {
            const size_t producer = defs.producerOf(v);
            if (producer < k && !definesItself(node, v)) return; // the usual case: made by an earlier node
            if (defs.placeholders.count(v) || std::find(reported.begin(), reported.end(), v) != reported.end()) return;
            reported.push_back(v);
            if (definesItself(node, v)) {
                ctx.report("EIR-S008", path, node.name, "node " + ctx.label(g, k) + " uses its own output '" + v + "'",
                           "read the value from the node that produced it before this one");
            } else if (producer == SIZE_MAX) {
                ctx.report("EIR-S006", path, node.name,
                           "node " + ctx.label(g, k) + " reads '" + v + "', which no placeholder or node defines",
                           "define '" + v + "' as a graph input or an earlier node's output, or fix the name");
            } else {
                ctx.report("EIR-S005", path, node.name,
                           "node " + ctx.label(g, k) + " reads '" + v + "' before node " + ctx.label(g, producer) +
                               " defines it",
                           "order the nodes topologically (producers before consumers)");
                forward.push_back(producer);
            }
        });
    }
    return forward;
}

/// Cycles, only possible through forward reads: follows every dependency (backward ones too) with an
/// iterative DFS (a hostile file can hold a very long chain) and reports each cycle once.
void checkCycles(VerifyContext& ctx, const Graph& g, const Definitions& defs, const std::string& path) {
    std::vector<std::vector<size_t>> deps(g.nodes.size());
    for (size_t k = 0; k < g.nodes.size(); ++k)
        for (const auto& in : g.nodes[k].inputs)
            in.arg.forEachValueName([&](const std::string& v) {
                if (const size_t p = defs.producerOf(v); p != SIZE_MAX && p != k) deps[k].push_back(p);
            });
    std::vector<int> state(g.nodes.size(), 0); // 0 new, 1 on stack, 2 done
    std::vector<std::pair<size_t, size_t>> frames; // (node, next dependency)
    std::set<size_t> inReportedCycle;
    for (size_t root = 0; root < g.nodes.size(); ++root) {
        if (state[root] != 0) continue;
        frames.push_back({root, 0});
        state[root] = 1;
        while (!frames.empty()) {
            auto& [k, next] = frames.back();
            if (next >= deps[k].size()) {
                state[k] = 2;
                frames.pop_back();
                continue;
            }
            size_t d = deps[k][next++];
            if (state[d] == 1 && !inReportedCycle.count(d)) {
                std::vector<std::string> names;
                size_t from = 0;
                while (from < frames.size() && frames[from].first != d) ++from;
                for (size_t f = from; f < frames.size(); ++f) {
                    names.push_back(ctx.fxName(g, frames[f].first));
                    inReportedCycle.insert(frames[f].first);
                }
                names.push_back(ctx.fxName(g, d));
                ctx.report("EIR-S009", path, g.nodes[d].name,
                           "nodes form a cycle: " + join(names, " -> ") + " (each reads the next one's output)",
                           "break the cycle; an exported graph is a DAG");
            } else if (state[d] == 0) {
                state[d] = 1;
                frames.push_back({d, 0});
            }
        }
    }
}

void checkOutputs(VerifyContext& ctx, const Graph& g, const Definitions& defs, const std::string& path) {
    for (const auto& o : g.outputs)
        o.forEachValueName([&](const std::string& v) {
            if (!defs.placeholders.count(v) && !defs.producer.count(v))
                ctx.report("EIR-S004", path, "output", "the graph returns '" + v + "', which no placeholder or node defines",
                           "return a value the graph computes, or fix the name");
        });
}

} // namespace

const GraphNames& VerifyContext::namedUpTo(const Graph& g, size_t k) {
    GraphNames& names = m_names[&g];
    if (k < names.fx.size()) return names;
    // Name at least twice as far as before (findings usually come in runs); past a quarter of the
    // graph, the whole of it, which needs no copy of the nodes.
    size_t upTo = std::min(g.nodes.size(), std::max({k + 1, 2 * names.fx.size(), size_t(1024)}));
    if (upTo > g.nodes.size() / 4) upTo = g.nodes.size();
    std::vector<std::string> fx;
    if (upTo == g.nodes.size()) {
        fx = fxNodeNames(g);
    } else {
        Graph prefix;
        prefix.inputs = g.inputs;
        prefix.nodes.assign(g.nodes.begin(), g.nodes.begin() + static_cast<std::ptrdiff_t>(upTo));
        fx = fxNodeNames(prefix);
    }
    // appended, never replaced: a message may hold one label while it asks for a later one
    for (size_t j = names.fx.size(); j < fx.size(); ++j) {
        names.labels.push_back(nodeLabel(g.nodes[j], fx[j]));
        names.fx.push_back(std::move(fx[j]));
    }
    return names;
}

void verifyGraph(VerifyContext& ctx, const Graph& g, const std::string& path, bool topLevel) {
    const Definitions defs = collectDefinitions(ctx, g, path);
    bool anyForward = false;
    for (size_t k = 0; k < g.nodes.size(); ++k) {
        const Node& node = g.nodes[k];
        const NodeRef n(ctx, g, k);
        checkTarget(ctx, node, path, n);
        if (node.target.kind == Target::Kind::HigherOrder && node.target.op() == "cond") checkCond(ctx, node, path, n);
        anyForward = !checkReads(ctx, g, k, defs, path).empty() || anyForward;
        checkVal(ctx, g, node, path, n);
        checkPrimOperands(ctx, g, node, path, n);
        if (topLevel && ctx.options.checkMetaPresence) checkMetaPresence(ctx, node, path, n);
    }
    if (anyForward) checkCycles(ctx, g, defs, path);
    checkOutputs(ctx, g, defs, path);
}

} // namespace detail

std::vector<Diagnostic> verify(const Program& program, const VerifyOptions& options) {
    std::vector<Diagnostic> out;
    detail::VerifyContext ctx{program, options, out};
    detail::verifyGraph(ctx, program.graph, "", true);
    detail::verifySignature(ctx);
    detail::verifyPlaceholders(ctx);
    detail::verifyBufferMutations(ctx);
    detail::verifySampleInputs(ctx);
    detail::verifySampleRanges(ctx);
    detail::verifySymbols(ctx);
    detail::verifyValues(ctx);
    if (options.checkInferredMeta) detail::verifyInferredMeta(ctx);
    return out;
}

DiagnosticCounts countDiagnostics(const std::vector<Diagnostic>& diagnostics) {
    DiagnosticCounts c;
    for (const auto& d : diagnostics) {
        if (d.severity == Severity::Error) ++c.errors;
        else if (d.severity == Severity::Warning) ++c.warnings;
        else ++c.infos;
    }
    return c;
}

} // namespace irlens::core
