// What the program's nodes do: higher-order ops and their branches, mutations, the ops outside Core
// ATen with the rule that lowers each, and what the Prims level would make of the rest.
#include "core/teach/explain_internal.h"

#include "core/decomp/rules.h"
#include "core/ops/op_registry.h"

#include <map>

namespace irlens::core::teach::detail {

namespace {

// "relu, mul" for a subgraph's first nodes.
std::string opsOf(const Graph& g, size_t shown = 4) {
    std::string out;
    for (size_t k = 0; k < g.nodes.size() && k < shown; ++k) out += (k ? ", " : "") + g.nodes[k].target.op();
    if (g.nodes.size() > shown) out += ", …";
    return out.empty() ? "no node" : out;
}

std::vector<ExplainLink> valueLinks(const ExplainContext& ctx, const Argument& arg) {
    std::vector<std::string> names;
    arg.collectValueNames(names);
    std::vector<ExplainLink> out;
    for (const auto& n : names) out.push_back({n, ctx.targetOf(n)});
    return out;
}

void explainCond(const ExplainContext& ctx, const Node& node, SentenceWriter& s) {
    // cond(pred, true_fn, false_fn, operands): the branches are serialized inline as subgraphs
    const auto& in = node.inputs;
    std::vector<const Argument*> branches;
    for (const auto& a : in)
        if (a.arg.kind == ArgKind::Graph) branches.push_back(&a.arg);
    s.text(": it takes the predicate ");
    const std::vector<ExplainLink> pred = in.empty() ? std::vector<ExplainLink>{} : valueLinks(ctx, in[0].arg);
    if (pred.empty()) s.text("(a constant)");
    else s.linkList(pred);
    if (branches.size() == 2 && branches[0]->graph() && branches[1]->graph()) {
        s.text(" and runs its branch " + branches[0]->s + " (" + opsOf(*branches[0]->graph()) + ") when it holds, " +
               branches[1]->s + " (" + opsOf(*branches[1]->graph()) + ") when not");
    }
    if (in.size() >= 4) {
        s.text(", on the operands ");
        s.linkList(valueLinks(ctx, in[3].arg));
    }
    s.text(". Both branches are subgraphs with placeholders of their own, one per operand, and return the same number "
           "of values (double-click the node to open one).");
}

void explainOtherHop(const Node& node, SentenceWriter& s) {
    std::vector<std::string> graphs;
    for (const auto& a : node.inputs)
        if (a.arg.kind == ArgKind::Graph && a.arg.graph()) graphs.push_back(a.arg.s + " (" + opsOf(*a.arg.graph()) + ")");
    s.text(": it holds " + counted(graphs.size(), "subgraph", "subgraphs"));
    for (size_t k = 0; k < graphs.size(); ++k) s.text((k ? ", " : ": ") + graphs[k]);
    s.text(", each a graph of its own that the op runs (double-click the node to open one).");
}

bool isInPlace(const Node& node) {
    const OpInfo* info = OpRegistry::instance().find(node.target);
    return info && info->schema.isInplace();
}

} // namespace

void explainHops(const ExplainContext& ctx, std::vector<ExplainSentence>& out) {
    bool any = false;
    for (const Node& node : ctx.program.graph.nodes) {
        if (node.target.kind != Target::Kind::HigherOrder) continue;
        any = true;
        SentenceWriter s("hops");
        s.link(node.name, "node:" + node.name).text(" is a higher-order op (" + node.target.full + ")");
        if (node.target.op() == "cond") explainCond(ctx, node, s);
        else explainOtherHop(node, s);
        out.push_back(s.done());
    }
    if (!any)
        out.push_back(SentenceWriter("hops")
                          .text("It holds no higher-order op (no cond, map or while_loop): every node is one op call, in "
                                "one graph.")
                          .done());
}

void explainMutations(const ExplainContext& ctx, std::vector<ExplainSentence>& out) {
    const Program& p = ctx.program;
    std::map<std::string, std::string> placeholderOfTarget; // state target -> placeholder
    for (const auto& spec : p.signature.inputSpecs) {
        std::vector<std::string> names;
        spec.arg.collectValueNames(names);
        if (!names.empty()) placeholderOfTarget[spec.target.empty() ? names.front() : spec.target] = names.front();
    }
    SentenceWriter s("mutations");
    size_t count = 0;
    for (const auto& spec : p.signature.outputSpecs) {
        const char* what = spec.kind == OutputKind::BufferMutation      ? "buffer"
                         : spec.kind == OutputKind::ParameterMutation   ? "parameter"
                         : spec.kind == OutputKind::UserInputMutation   ? "user input"
                                                                         : nullptr;
        if (!what) continue;
        std::vector<std::string> names;
        spec.arg.collectValueNames(names);
        if (names.empty()) continue;
        s.text(count++ ? "; " : "It updates state, returned as mutation outputs before the user outputs so that the "
                                "caller writes each one back: ");
        s.link(names.front(), ctx.targetOf(names.front())).text(" becomes " + std::string(what) + " " + spec.target + " (");
        if (auto it = placeholderOfTarget.find(spec.target); it != placeholderOfTarget.end())
            s.link(it->second, "in:" + it->second).text(", ");
        s.text(std::string(outputKindName(spec.kind)) + ")");
    }
    if (count) out.push_back(s.text(".").done());
    std::vector<ExplainLink> inPlace;
    for (const Node& n : p.graph.nodes)
        if (isInPlace(n)) inPlace.push_back({n.name, "node:" + n.name});
    if (!inPlace.empty()) {
        SentenceWriter w("mutations");
        w.linkList(inPlace).text(inPlace.size() == 1 ? " works" : " work");
        w.text(" in place: the training IR keeps such ops, Core ATen is functional and run_decompositions() replaces them "
               "by their functional variants.");
        out.push_back(w.done());
    }
    if (!count && inPlace.empty())
        out.push_back(SentenceWriter("mutations")
                          .text("It mutates nothing: no mutation output, no in-place op; it only computes its outputs.")
                          .done());
}

namespace {

struct OpGroup {
    const Node* first = nullptr;
    std::vector<ExplainLink> nodes;
};

// Nodes grouped by op, in the order the ops first appear, filtered by level.
std::vector<OpGroup> groupsAt(const Program& p, bool (*keep)(const Node&)) {
    std::map<std::string, size_t> index;
    std::vector<OpGroup> out;
    for (const Node& n : p.graph.nodes) {
        if (!keep(n)) continue;
        auto [it, fresh] = index.emplace(n.target.key(), out.size());
        if (fresh) out.push_back({&n, {}});
        out[it->second].nodes.push_back({n.name, "node:" + n.name});
    }
    return out;
}

bool isNonCoreAten(const Node& n) {
    if (n.target.kind != Target::Kind::Op || n.target.ns() != "aten") return false;
    const IrLevel level = OpRegistry::instance().levelOf(n.target);
    return level == IrLevel::Training || level == IrLevel::Unknown;
}

bool isCoreAten(const Node& n) { return OpRegistry::instance().levelOf(n.target) == IrLevel::CoreAten; }

} // namespace

void explainNonCoreOps(const ExplainContext& ctx, std::vector<ExplainSentence>& out) {
    const std::vector<OpGroup> groups = groupsAt(ctx.program, isNonCoreAten);
    if (groups.empty()) {
        out.push_back(SentenceWriter("ops").text("Every ATen op it calls is in the Core ATen opset.").done());
        return;
    }
    out.push_back(SentenceWriter("ops")
                      .text(counted(groups.size(), "op it calls is", "ops it calls are") +
                            " not in the Core ATen opset; stepping to Core ATen rewrites " +
                            (groups.size() == 1 ? "it:" : "them:"))
                      .done());
    for (const OpGroup& g : groups) {
        SentenceWriter s("ops");
        s.text(g.first->target.shortName() + " (" + counted(g.nodes.size(), "node", "nodes") + ": ").linkList(g.nodes).text(")");
        if (const DecompRule* rule = findRule(*g.first, DecompStage::ToCore)) s.text(" decomposes as " + rule->title + ".");
        else if (auto why = whyNoRule(g.first->target, DecompStage::ToCore)) s.text(": " + *why + ".");
        else s.text(": irlens does not know this op.");
        out.push_back(s.done());
    }
}

void explainPrimsOutlook(const ExplainContext& ctx, std::vector<ExplainSentence>& out) {
    const std::vector<OpGroup> groups = groupsAt(ctx.program, isCoreAten);
    if (groups.empty()) return;
    std::vector<std::pair<const OpGroup*, std::string>> lowered, stay;
    for (const OpGroup& g : groups) {
        if (const DecompRule* rule = findRule(*g.first, DecompStage::ToPrims)) lowered.push_back({&g, rule->title});
        else stay.push_back({&g, whyNoRule(g.first->target, DecompStage::ToPrims).value_or("no prim")});
    }
    SentenceWriter s("prims");
    s.text("Stepped on to Prims, " + std::to_string(lowered.size()) + " of its " +
           counted(groups.size(), "Core ATen op", "Core ATen ops") +
           " would become prims, with every type promotion and broadcast made explicit");
    for (size_t k = 0; k < lowered.size() && k < 4; ++k)
        s.text(k ? "; " : " (").link(lowered[k].first->first->name, "node:" + lowered[k].first->first->name).text(": " + lowered[k].second);
    if (lowered.size() > 4) s.text("; …");
    if (!lowered.empty()) s.text(")");
    if (!stay.empty()) {
        s.text(", and " + counted(stay.size(), "stays an ATen call", "stay ATen calls"));
        for (size_t k = 0; k < stay.size() && k < 3; ++k)
            s.text(k ? "; " : " (").link(stay[k].first->first->name, "node:" + stay[k].first->first->name).text(": " + stay[k].second);
        if (stay.size() > 3) s.text("; …");
        s.text(")");
    }
    out.push_back(s.text(".").done());
}

} // namespace irlens::core::teach::detail
