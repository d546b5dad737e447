// EIR-M006: every recorded val is the FakeTensor the op's meta function returns for the recorded inputs.
// The check itself is core/ops (checkGraphMeta); this file turns its mismatches into findings that name
// the graph and the node as the other rules do (FX name in the message, node key for selection).
#include "core/ops/meta.h"
#include "core/verify/verifier_context.h"

#include <unordered_map>

namespace irlens::core::detail {
namespace {

void reportMismatch(VerifyContext& ctx, const MetaMismatch& m, const std::string& path, const std::string& n,
                    const std::string& op) {
    if (m.field == "error") { // the node's inputs are wrong for the op: no output value is at fault
        ctx.report("EIR-M006", path, m.node,
                   "node " + n + " (" + op + "): its meta function rejects the recorded inputs: " + m.message,
                   "check the recorded metas (tensor_values) of the node's inputs against the schema of " + op + ", or re-export");
        return;
    }
    ctx.report("EIR-M006", path, m.node,
               "node " + n + " records " + m.field + " " + m.recorded + " for '" + m.value + "' but its meta function gives " +
                   m.inferred,
               "re-export, or fix the recorded tensor_values['" + m.value + "'] (" + m.field + ")");
}

void checkGraph(VerifyContext& ctx, const Graph& g, const std::string& path, int depth) {
    MetaCheckOptions options;
    options.recurseIntoSubgraphs = false; // walked here, so each finding names its graph
    const MetaCheckReport report = checkGraphMeta(g, options);
    if (!report.mismatches.empty()) {
        std::unordered_map<std::string, size_t> index;
        for (size_t k = 0; k < g.nodes.size(); ++k) index.emplace(g.nodes[k].name, k);
        for (const auto& m : report.mismatches) {
            auto it = index.find(m.node);
            const size_t k = it == index.end() ? 0 : it->second;
            const bool known = it != index.end();
            reportMismatch(ctx, m, path, known ? ctx.label(g, k) : "'" + m.node + "'",
                           known ? g.nodes[k].target.shortName() : std::string("?"));
        }
    }
    if (depth >= 64) return; // as deep as any reader nests subgraphs
    for (const auto& node : g.nodes)
        for (const auto& in : node.inputs)
            if (in.arg.kind == ArgKind::Graph && in.arg.graph())
                checkGraph(ctx, *in.arg.graph(), (path.empty() ? "" : path + ".") + node.name + "." + in.arg.s, depth + 1);
}

} // namespace

void verifyInferredMeta(VerifyContext& ctx) { checkGraph(ctx, ctx.program.graph, "", 0); }

} // namespace irlens::core::detail

namespace irlens::core {

std::vector<Diagnostic> verifyInferredMeta(const Program& program, size_t maxDiagnostics) {
    std::vector<Diagnostic> out;
    VerifyOptions options;
    options.maxDiagnostics = maxDiagnostics;
    detail::VerifyContext ctx{program, options, out};
    detail::verifyInferredMeta(ctx);
    return out;
}

} // namespace irlens::core
