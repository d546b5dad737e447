// The program's shape: dialect, inputs by kind, dynamic dimensions, outputs and the verifier's
// verdict (explain_ops.cpp: what its nodes do).
#include "core/teach/explain_internal.h"

#include "core/ir/free_symbols.h"
#include "core/verify/verifier.h"

#include <map>
#include <set>

namespace irlens::core::teach {

namespace detail {

std::string ExplainContext::targetOf(const std::string& value) const {
    const int producer = values.producer(value);
    if (producer >= 0) return "node:" + program.graph.nodes[static_cast<size_t>(producer)].name;
    for (const auto& in : program.graph.inputs) {
        std::vector<std::string> names;
        in.collectValueNames(names);
        for (const auto& n : names)
            if (n == value) return "in:" + value;
    }
    return "out";
}

SentenceWriter& SentenceWriter::linkList(const std::vector<ExplainLink>& items, size_t shown) {
    const size_t n = std::min(items.size(), shown);
    for (size_t k = 0; k < n; ++k) {
        if (k > 0) text(k + 1 == items.size() ? " and " : ", ");
        link(items[k].text, items[k].target);
    }
    if (items.size() > n) text(", … and " + std::to_string(items.size() - n) + " more");
    return *this;
}

std::string counted(size_t n, const std::string& singular, const std::string& plural) {
    return std::to_string(n) + " " + (n == 1 ? singular : plural);
}

} // namespace detail

using detail::counted;
using detail::ExplainContext;
using detail::SentenceWriter;

namespace {

std::string dialectOf(const Program& p) { return p.verifiers.empty() ? p.dialect : p.verifiers.front(); }

void explainDialect(const ExplainContext& ctx, std::vector<ExplainSentence>& out) {
    const Program& p = ctx.program;
    const std::string dialect = dialectOf(p);
    SentenceWriter s("dialect");
    if (dialect == "TRAINING")
        s.text("The program is at the training IR (dialect TRAINING), what torch.export.export() returns: ops stay as the "
               "model called them, CompositeImplicitAutograd ones such as linear included, and may work in place; "
               "run_decompositions() lowers it to Core ATen.");
    else if (dialect == "ATEN")
        s.text("The program is at Core ATen (dialect ATEN), what run_decompositions() returns: functional, every op from "
               "the Core ATen opset or a higher-order or symbolic op.");
    else if (dialect.empty())
        s.text("The program does not record its dialect (no verifiers entry, as in the oldest files); it is checked as "
               "Core ATen.");
    else
        s.text("The program records the dialect " + dialect + ".");
    std::set<std::string> ops;
    for (const auto& n : p.graph.nodes) ops.insert(n.target.key());
    s.text(" Its graph has " + counted(p.graph.nodes.size(), "call_function node", "call_function nodes") + " calling " +
           counted(ops.size(), "distinct op", "distinct ops") + ", " +
           counted(p.graph.inputs.size(), "placeholder", "placeholders") + " and one output node.");
    out.push_back(s.done());
}

std::string placeholderOf(const InputSpec& spec) {
    std::vector<std::string> names;
    spec.arg.collectValueNames(names);
    return names.empty() ? spec.name : names.front();
}

void explainInputs(const ExplainContext& ctx, std::vector<ExplainSentence>& out) {
    const Program& p = ctx.program;
    std::vector<ExplainLink> users;
    std::vector<std::string> constants;
    std::map<InputKind, std::vector<ExplainLink>> state;
    for (const auto& spec : p.signature.inputSpecs) {
        const std::string name = placeholderOf(spec);
        if (spec.kind == InputKind::UserInput) {
            users.push_back({name, "in:" + name});
        } else if (spec.kind == InputKind::ConstantInput) {
            constants.push_back(spec.name);
        } else {
            state[spec.kind].push_back({name, "in:" + name});
        }
    }
    SentenceWriter s("inputs");
    s.text("It takes " + counted(users.size(), "user input", "user inputs") + (users.empty() ? "" : ": "));
    for (size_t k = 0; k < users.size() && k < 6; ++k) {
        s.text(k == 0 ? "" : ", ").link(users[k].text, users[k].target);
        if (const TensorMeta* m = p.graph.tensorMeta(users[k].text)) s.text(" (" + m->shortString() + ")");
    }
    if (users.size() > 6) s.text(", … and " + std::to_string(users.size() - 6) + " more");
    if (!constants.empty())
        s.text("; " + counted(constants.size(), "argument", "arguments") + " export baked in as a constant input (" +
               constants.front() + (constants.size() > 1 ? ", …" : "") + ")");
    out.push_back(s.text(".").done());

    SentenceWriter st("state");
    size_t total = 0;
    for (const auto& [kind, items] : state) total += items.size();
    if (total == 0) {
        out.push_back(st.text("It lifts no state: no parameter, buffer or constant feeds the graph.").done());
        return;
    }
    st.text("It lifts " + counted(total, "piece", "pieces") + " of state to placeholders, fed from the state dict and the "
            "constants when it runs: ");
    static const std::pair<InputKind, const char*> kinds[] = {
        {InputKind::Parameter, "parameter"}, {InputKind::Buffer, "buffer"}, {InputKind::TensorConstant, "tensor constant"},
        {InputKind::CustomObj, "custom object"}, {InputKind::Token, "effect token"}};
    bool first = true;
    for (const auto& [kind, word] : kinds) {
        auto it = state.find(kind);
        if (it == state.end()) continue;
        st.text(std::string(first ? "" : "; ") + counted(it->second.size(), word, std::string(word) + "s") + " (");
        st.linkList(it->second).text(")");
        first = false;
    }
    out.push_back(st.text(".").done());
}

std::string rangeText(const std::string& symbol, const RangeConstraint& r) {
    if (r.minVal && r.maxVal) return std::to_string(*r.minVal) + " ≤ " + symbol + " ≤ " + std::to_string(*r.maxVal);
    if (r.minVal) return symbol + " ≥ " + std::to_string(*r.minVal) + " with no upper bound";
    if (r.maxVal) return symbol + " ≤ " + std::to_string(*r.maxVal) + " with no lower bound";
    return "any value of " + symbol;
}

struct SymbolUse {
    std::vector<std::string> inputDims;   // "x dim 0"
    std::vector<ExplainLink> inputs;      // the placeholders it sizes
    std::vector<ExplainLink> nodes;       // nodes whose values it sizes
    std::optional<int64_t> hint;
};

void explainSymbols(const ExplainContext& ctx, std::vector<ExplainSentence>& out) {
    const Graph& g = ctx.program.graph;
    std::map<std::string, SymbolUse> uses;
    std::map<std::string, std::vector<std::string>> symbolsOfExpr; // each expression parsed once
    auto symbolsIn = [&symbolsOfExpr](const SymInt& s) -> const std::vector<std::string>& {
        auto it = symbolsOfExpr.find(s.expr());
        if (it == symbolsOfExpr.end()) it = symbolsOfExpr.emplace(s.expr(), freeSymbols(s.expr())).first;
        return it->second;
    };
    for (const auto& in : g.inputs) {
        if (in.kind != ArgKind::Tensor) continue;
        const TensorMeta* m = g.tensorMeta(in.s);
        for (size_t d = 0; m && d < m->sizes.size(); ++d) {
            if (!m->sizes[d].isExpr()) continue;
            for (const auto& sym : symbolsIn(m->sizes[d])) {
                SymbolUse& u = uses[sym];
                if (u.inputs.empty() || u.inputs.back().text != in.s) u.inputs.push_back({in.s, "in:" + in.s});
                u.inputDims.push_back(in.s + " dim " + std::to_string(d));
                if (!u.hint && prettySymExpr(m->sizes[d].expr()) == sym) u.hint = m->sizes[d].hint();
            }
        }
    }
    for (const auto& n : g.nodes) {
        std::set<std::string> here;
        for (const auto& v : n.outputNames()) {
            if (const TensorMeta* m = g.tensorMeta(v))
                for (const auto& size : m->sizes)
                    if (size.isExpr())
                        for (const auto& sym : symbolsIn(size)) here.insert(sym);
            if (auto it = g.symIntValues.find(v); it != g.symIntValues.end() && it->second.isExpr())
                for (const auto& sym : symbolsIn(it->second)) here.insert(sym);
        }
        for (const auto& sym : here) uses[sym].nodes.push_back({n.name, "node:" + n.name});
    }
    if (uses.empty()) {
        out.push_back(SentenceWriter("symbols")
                          .text("Every shape is static: no meta['val'] holds a symbol, so the program takes exactly the "
                                "sizes it was exported with.")
                          .done());
        return;
    }
    for (const auto& [sym, u] : uses) {
        SentenceWriter s("symbols");
        s.link(sym, "sym:" + sym).text(" is a dynamic dimension");
        if (!u.inputDims.empty()) {
            s.text(": the size of ");
            for (size_t k = 0; k < u.inputDims.size() && k < 3; ++k) {
                const std::string& dim = u.inputDims[k];
                const std::string input = dim.substr(0, dim.find(" dim "));
                s.text(k ? ", " : "").link(input, "in:" + input).text(dim.substr(input.size()));
            }
        }
        auto range = ctx.program.rangeConstraints.find(sym);
        if (range != ctx.program.rangeConstraints.end())
            s.text("; its range constraint allows " + rangeText(sym, range->second));
        else
            s.text("; it has no range constraint, which the verifier reports (EIR-Y001)");
        if (u.hint) s.text(" (exported with " + sym + " = " + std::to_string(*u.hint) + ")");
        if (!u.nodes.empty()) {
            s.text("; it sizes the values of " + counted(u.nodes.size(), "node", "nodes") + " (");
            s.linkList(u.nodes).text(")");
        }
        out.push_back(s.text(".").done());
    }
}

void explainOutputs(const ExplainContext& ctx, std::vector<ExplainSentence>& out) {
    const Program& p = ctx.program;
    std::vector<ExplainLink> users;
    size_t mutations = 0, other = 0;
    for (const auto& spec : p.signature.outputSpecs) {
        std::vector<std::string> names;
        spec.arg.collectValueNames(names);
        if (spec.kind == OutputKind::UserOutput || spec.kind == OutputKind::LossOutput) {
            if (!names.empty()) users.push_back({names.front(), ctx.targetOf(names.front())});
        } else if (spec.kind == OutputKind::BufferMutation || spec.kind == OutputKind::ParameterMutation ||
                   spec.kind == OutputKind::UserInputMutation) {
            ++mutations;
        } else {
            ++other;
        }
    }
    SentenceWriter s("outputs");
    s.text("The ").link("output", "out").text(" node returns " + counted(users.size(), "user output", "user outputs"));
    for (size_t k = 0; k < users.size() && k < 4; ++k) {
        s.text(k ? ", " : ": ").link(users[k].text, users[k].target);
        if (const TensorMeta* m = p.graph.tensorMeta(users[k].text)) s.text(" (" + m->shortString() + ")");
    }
    if (users.size() > 4) s.text(", … and " + std::to_string(users.size() - 4) + " more");
    if (mutations) s.text(", after " + counted(mutations, "mutation output", "mutation outputs"));
    if (other) s.text(", and " + counted(other, "output of another kind", "outputs of other kinds"));
    out.push_back(s.text(".").done());
}

void explainVerdict(const ExplainContext& ctx, std::vector<ExplainSentence>& out) {
    const std::vector<Diagnostic> found = verify(ctx.program);
    const DiagnosticCounts counts = countDiagnostics(found);
    SentenceWriter s("verifier");
    if (found.empty()) {
        out.push_back(s.text("The verifier finds nothing against the spec: no error, no warning.").done());
        return;
    }
    s.text("The verifier finds " + counted(counts.errors, "error", "errors") + ", " +
           counted(counts.warnings, "warning", "warnings") + " and " + counted(counts.infos, "note", "notes"));
    std::map<std::string, std::vector<ExplainLink>> byRule;
    for (const auto& d : found) {
        auto& nodes = byRule[d.ruleId];
        if (d.graph.empty() && !d.node.empty() && d.node != "output") nodes.push_back({d.node, ctx.targetOf(d.node)});
    }
    bool first = true;
    for (const auto& [rule, nodes] : byRule) {
        s.text(first ? ": " : "; ").text(rule);
        if (!nodes.empty()) s.text(" on ").linkList(nodes, 2);
        first = false;
    }
    out.push_back(s.text(" (Diagnostics lists them).").done());
}

} // namespace

std::vector<ExplainSentence> explainProgram(const Program& program) {
    const ExplainContext ctx(program);
    std::vector<ExplainSentence> out;
    explainDialect(ctx, out);
    explainInputs(ctx, out);
    explainSymbols(ctx, out);
    detail::explainHops(ctx, out);
    detail::explainMutations(ctx, out);
    detail::explainNonCoreOps(ctx, out);
    detail::explainPrimsOutlook(ctx, out);
    explainOutputs(ctx, out);
    explainVerdict(ctx, out);
    return out;
}

std::string explanationText(const std::vector<ExplainSentence>& sentences) {
    std::string out;
    for (const auto& s : sentences) out += s.topic + ": " + s.text + "\n";
    return out;
}

} // namespace irlens::core::teach
