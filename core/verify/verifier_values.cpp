// Rules on what the graph records rather than how it is wired: tensor metas a program can actually
// hold (EIR-T*), well-formed targets (EIR-S013), one value per named argument (EIR-S014), and range
// constraints that are ranges (EIR-Y002). Each guards against a file that once passed verification
// and then misled the engine or the printers.
#include "core/ops/tensor_meta_check.h"
#include "core/verify/verifier_context.h"

#include <string_view>
#include <unordered_map>

namespace irlens::core::detail {

namespace {

bool isIdentifier(std::string_view s) {
    if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
    for (char c : s)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
    return true;
}

// Dot-separated identifiers ("Tensor", "Scalar_mode"); an overload is one, but parse() keeps extra parts.
bool isDottedIdentifier(std::string_view s) {
    for (size_t start = 0;;) {
        const size_t dot = s.find('.', start);
        if (!isIdentifier(s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start))) return false;
        if (dot == std::string_view::npos) return true;
        start = dot + 1;
    }
}

// Quotes a name from the file for a message: control bytes escaped, very long names cut.
std::string quoted(const std::string& s) {
    std::string out;
    for (char c : s.substr(0, 200)) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
            static const char* hex = "0123456789abcdef";
            out += "\\x";
            out += hex[static_cast<unsigned char>(c) >> 4];
            out += hex[c & 0xF];
        } else {
            out += c;
        }
    }
    return "'" + out + (s.size() > 200 ? "...'" : "'");
}

} // namespace

bool isOperatorName(const Target& t) {
    switch (t.kind) {
    case Target::Kind::Op: return isIdentifier(t.ns()) && isIdentifier(t.op()) && isDottedIdentifier(t.overload());
    case Target::Kind::HigherOrder: return isIdentifier(t.op());
    case Target::Kind::Extension: return isDottedIdentifier(t.ns()) && isDottedIdentifier(t.op());
    case Target::Kind::Symbolic: return isDottedIdentifier(t.ns()) && isIdentifier(t.op());
    case Target::Kind::Unknown: return isDottedIdentifier(t.full); // EIR-S001 reports it as unknown
    }
    return false;
}

namespace {

void checkTargetName(VerifyContext& ctx, const Node& node, const NodeRef& label, const std::string& path) {
    const Target& t = node.target;
    if (!isOperatorName(t))
        ctx.report("EIR-S013", path, node.name,
                   "node " + label + " names its target " + quoted(t.full) +
                       ", which is not an operator name (dot-separated identifiers such as torch.ops.aten.add.Tensor)",
                   "the file is damaged or crafted; re-export the program");
}

// Whether some argument name occurs twice (a node passes a handful: compared pairwise).
bool repeatsAName(const Node& node) {
    for (size_t a = 0; a < node.inputs.size(); ++a)
        for (size_t b = a + 1; b < node.inputs.size(); ++b)
            if (!node.inputs[a].name.empty() && node.inputs[a].name == node.inputs[b].name) return true;
    return false;
}

void checkNamedArguments(VerifyContext& ctx, const Node& node, const NodeRef& label, const std::string& path) {
    if (node.inputs.size() < 64 && !repeatsAName(node)) return; // the usual case: every name once
    std::unordered_map<std::string_view, size_t> seen;
    seen.reserve(node.inputs.size());
    for (const auto& in : node.inputs)
        if (!in.name.empty()) ++seen[in.name];
    // Report in argument order, each name once.
    for (const auto& in : node.inputs) {
        auto it = seen.find(in.name);
        if (in.name.empty() || it == seen.end() || it->second < 2) continue;
        ctx.report("EIR-S014", path, node.name,
                   "node " + label + " passes argument " + quoted(in.name) + " " + std::to_string(it->second) +
                       " times; a call binds each argument once (the others would be dropped silently)",
                   "pass each schema argument once");
        it->second = 0;
    }
}

void checkTensorValues(VerifyContext& ctx, const Graph& g, const std::string& path) {
    for (const auto& [name, meta] : g.tensorValues) {
        auto problem = checkTensorMeta(meta);
        if (!problem) continue;
        ctx.report(problem->ruleId, path, name, "tensor_values[" + quoted(name) + "]: " + problem->message,
                   "the file is damaged or crafted; re-export the program");
    }
}

void checkGraphValues(VerifyContext& ctx, const Graph& g, const std::string& path, int depth) {
    checkTensorValues(ctx, g, path);
    for (size_t k = 0; k < g.nodes.size(); ++k) {
        const Node& node = g.nodes[k];
        const NodeRef label(ctx, g, k); // messages name nodes as the FX text does
        checkTargetName(ctx, node, label, path);
        checkNamedArguments(ctx, node, label, path);
        if (depth >= 64) continue; // as deep as any reader nests subgraphs
        for (const auto& in : node.inputs)
            if (in.arg.kind == ArgKind::Graph && in.arg.graph())
                checkGraphValues(ctx, *in.arg.graph(), (path.empty() ? "" : path + ".") + node.name + "." + in.arg.s, depth + 1);
    }
}

} // namespace

void verifyValues(VerifyContext& ctx) {
    checkGraphValues(ctx, ctx.program.graph, "", 0);
    for (const auto& [symbol, range] : ctx.program.rangeConstraints)
        if (range.minVal && range.maxVal && *range.minVal > *range.maxVal)
            ctx.report("EIR-Y002", "", symbol,
                       "range constraint of " + quoted(symbol) + " is [" + std::to_string(*range.minVal) + ", " +
                           std::to_string(*range.maxVal) + "]: its minimum is above its maximum, so no value satisfies it",
                       "export again; torch.export records min_val <= max_val for every symbol");
}

} // namespace irlens::core::detail
