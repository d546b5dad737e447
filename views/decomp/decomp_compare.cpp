#include "views/decomp/decomp_compare.h"
#include "views/qstring_util.h"

#include "core/io/fx_printer.h"
#include "core/ops/op_registry.h"

#include <set>
#include <unordered_map>
#include <unordered_set>

namespace irlens::views {

using namespace irlens::core;

namespace {


/// Renames the values of `a` found in `names` (tensor, symbolic and custom-object references).
void renameValues(Argument& a, const std::unordered_map<std::string, std::string>& names) {
    switch (a.kind) {
    case ArgKind::Tensor:
    case ArgKind::OptionalTensor:
    case ArgKind::CustomObj:
        if (auto it = names.find(a.s); it != names.end()) a.s = it->second;
        break;
    case ArgKind::SymInt: case ArgKind::SymBool: case ArgKind::SymFloat:
        if (auto it = names.find(a.s); a.isName && it != names.end()) a.s = it->second;
        break;
    default:
        for (auto& e : a.list) renameValues(e, names);
    }
}

/// A side made of `picked` (indices into `g.nodes`, graph order). A boundary input found in
/// `shownAs` is shown (placeholder, uses, FX text) under the name it maps to.
CompareSide buildSide(const Graph& g, const std::vector<size_t>& picked,
                      const std::unordered_map<std::string, std::string>& shownAs = {}) {
    CompareSide side;
    Graph& mini = side.graph;
    std::unordered_set<std::string> produced;
    for (size_t k : picked)
        for (const auto& v : g.nodes[k].outputNames()) produced.insert(v);

    // boundary inputs: what the side reads and does not make, first use first
    std::vector<std::string> reads;
    std::set<std::string> seen;
    for (size_t k : picked)
        for (const auto& in : g.nodes[k].inputs) {
            std::vector<std::string> names;
            in.arg.collectValueNames(names);
            for (auto& n : names)
                if (!produced.count(n) && seen.insert(n).second) reads.push_back(n);
        }
    std::unordered_map<std::string, std::string> renamed; // boundary inputs shown under another name
    for (const auto& n : reads) {
        std::string shown = n;
        if (auto it = shownAs.find(n); it != shownAs.end() && !produced.count(it->second)) {
            shown = it->second;
            renamed.emplace(n, shown);
        }
        if (g.symIntValues.count(n)) {
            mini.inputs.push_back(Argument::symIntName(shown));
            mini.symIntValues[shown] = g.symIntValues.at(n);
        } else {
            mini.inputs.push_back(Argument::tensor(shown));
            if (const TensorMeta* m = g.tensorMeta(n)) mini.tensorValues[shown] = *m;
        }
        side.inputs << q(shown);
    }

    // boundary outputs: values of the side read by any other node or by the graph output
    std::unordered_set<size_t> inSide(picked.begin(), picked.end());
    std::unordered_set<std::string> readOutside;
    for (size_t k = 0; k < g.nodes.size(); ++k) {
        if (inSide.count(k)) continue;
        for (const auto& in : g.nodes[k].inputs) {
            std::vector<std::string> names;
            in.arg.collectValueNames(names);
            readOutside.insert(names.begin(), names.end());
        }
    }
    for (const auto& out : g.outputs) {
        std::vector<std::string> names;
        out.collectValueNames(names);
        readOutside.insert(names.begin(), names.end());
    }
    for (size_t k : picked) {
        Node copy = g.nodes[k];
        // no module frames: the pair is about the ops, and a frame around one box only adds noise
        copy.meta.moduleStack.reset();
        copy.meta.raw.erase("nn_module_stack");
        if (!renamed.empty())
            for (auto& in : copy.inputs) renameValues(in.arg, renamed);
        for (const auto& v : copy.outputNames()) {
            if (const TensorMeta* m = g.tensorMeta(v)) mini.tensorValues[v] = *m;
            if (auto it = g.symIntValues.find(v); it != g.symIntValues.end()) mini.symIntValues[v] = it->second;
            if (readOutside.count(v)) {
                mini.outputs.push_back(Argument::tensor(v));
                side.outputs << q(v);
            }
        }
        side.nodes << q(copy.name);
        side.ops << q(copy.target.shortName());
        mini.nodes.push_back(std::move(copy));
    }
    if (mini.outputs.empty() && !mini.nodes.empty()) // nothing reads it: show what the last node makes
        for (const auto& v : mini.nodes.back().outputNames()) {
            mini.outputs.push_back(Argument::tensor(v));
            side.outputs << q(v);
        }
    FxPrintOptions options;
    options.schemaLookup = [](const Target& t) -> const OpSchema* {
        const OpInfo* info = OpRegistry::instance().find(t);
        return info ? &info->schema : nullptr;
    };
    options.printSubgraphs = false;
    side.fxText = q(printFxGraph(mini, options));
    return side;
}

} // namespace

std::optional<DecompComparison> compareRewrite(const Program& before, const Program& after,
                                               const std::vector<AppliedRewrite>& applied, size_t index, int step) {
    if (index >= applied.size()) return std::nullopt;
    const AppliedRewrite& rewrite = applied[index];
    const Graph& gb = before.graph;
    const Graph& ga = after.graph;
    // the value of a node another rewrite replaced is carried by the last node of its replacement:
    // the after side reads it under that node's name; show the name the before side has
    std::unordered_map<std::string, std::string> oldNameOf;
    for (const auto& a : applied)
        if (!a.newNodes.empty() && !gb.tensorMeta(a.newNodes.back()) && !ga.tensorMeta(a.oldNode)) {
            const TensorMeta* was = gb.tensorMeta(a.oldNode);
            const TensorMeta* now = ga.tensorMeta(a.newNodes.back());
            if (was && now && was->shortString() == now->shortString()) oldNameOf.emplace(a.newNodes.back(), a.oldNode);
        }
    std::vector<size_t> left;
    for (size_t k = 0; k < gb.nodes.size(); ++k)
        if (gb.nodes[k].name == rewrite.oldNode) left.push_back(k);
    if (left.empty()) return std::nullopt;
    const std::unordered_set<std::string> made(rewrite.newNodes.begin(), rewrite.newNodes.end());
    std::vector<size_t> right;
    for (size_t k = 0; k < ga.nodes.size(); ++k)
        if (made.count(ga.nodes[k].name)) right.push_back(k);

    DecompComparison c;
    c.step = step;
    c.oldNode = q(rewrite.oldNode);
    c.oldTarget = q(rewrite.oldTarget);
    if (const OpInfo* info = OpRegistry::instance().find(gb.nodes[left.front()].target)) c.schema = q(info->schema.text);
    if (rewrite.rule) {
        c.rule = q(rewrite.rule->title);
        c.reference = q(rewrite.rule->reference);
        c.teaching = q(rewrite.rule->teaching);
    }
    c.before = buildSide(gb, left);
    c.after = buildSide(ga, right, oldNameOf);
    return c;
}

std::optional<RewriteRef> findRewriteOf(const DecompSession& session, const std::string& node) {
    const auto steps = session.history();
    for (size_t i = steps.size(); i-- > 0;) {
        const auto& applied = steps[i]->applied;
        for (size_t r = 0; r < applied.size(); ++r)
            for (const auto& n : applied[r].newNodes)
                if (n == node) return RewriteRef{i, r};
    }
    return std::nullopt;
}

std::optional<DecompComparison> compareInSession(const DecompSession& session, RewriteRef ref) {
    const auto steps = session.history();
    if (ref.step >= steps.size() || ref.rewrite >= steps[ref.step]->applied.size()) return std::nullopt;
    return compareRewrite(*session.snapshot(ref.step), *session.snapshot(ref.step + 1), steps[ref.step]->applied, ref.rewrite,
                          static_cast<int>(ref.step) + 1);
}

} // namespace irlens::views
