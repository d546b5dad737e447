#include "core/compare/divergence.h"

#include "core/exec/engine.h"
#include "core/exec/inputs.h"
#include "core/exec/run_compare.h"
#include "core/ir/value_index.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_map>

namespace irlens::core {
namespace {

using exec::EValue;
using exec::Tensor;

/// Every node's tensor values by name after one run: the program with each node output made a graph
/// output (the engine keeps graph outputs alive), run once.
using ValueMap = std::unordered_map<std::string, Tensor>;

ProgramPtr withEveryValueAnOutput(const Program& p, std::vector<std::string>& added) {
    auto probe = std::make_shared<Program>(p);
    std::unordered_map<std::string, bool> already;
    for (const auto& o : p.graph.outputs)
        if (o.kind == ArgKind::Tensor) already[o.s] = true;
    for (const auto& n : p.graph.nodes)
        for (const auto& name : n.outputNames()) {
            if (!p.graph.tensorMeta(name) || already[name]) continue;
            already[name] = true;
            added.push_back(name);
            probe->graph.outputs.push_back(Argument::tensor(name));
            OutputSpec spec;
            spec.kind = OutputKind::UserOutput;
            spec.arg = Argument::tensor(name);
            probe->signature.outputSpecs.push_back(spec);
        }
    return probe;
}

Result<ValueMap> runKeepingValues(const Program& program, const std::vector<EValue>& inputs, int threads, const char* side) {
    std::vector<std::string> added;
    ProgramPtr probe = withEveryValueAnOutput(program, added);
    auto run = exec::compileAndRun(probe, inputs, threads);
    if (!run) return run.status().withContext(std::string("the ") + side + " program");
    ValueMap values;
    const Graph& g = probe->graph;
    for (size_t k = 0; k < g.outputs.size() && k < run->outputs.size(); ++k)
        if (g.outputs[k].kind == ArgKind::Tensor && run->outputs[k].isTensor()) values[g.outputs[k].s] = run->outputs[k].tensor;
    return values;
}

// The inputs both programs run on: the main case of `options.expectedDir`, else the left program's
// sample inputs, else inputs generated from its meta (the same choice as `irlens-cli run`).
Result<std::vector<EValue>> pickInputs(const ProgramPtr& left, const DivergenceOptions& options, std::string& source) {
    auto plan = exec::ExecutionPlan::compile(left, true);
    if (!plan) return plan.status().withContext("the left program cannot run");
    exec::InputRequest request;
    if (!options.expectedDir.empty()) request.inputPaths = {options.expectedDir};
    IRLENS_ASSIGN_OR_RETURN(picked, exec::pickInputs(**plan, request));
    source = options.expectedDir.empty() ? picked.from + " of the left program" : "model.expected/ main case (" + picked.from + ")";
    return std::move(picked.values);
}

/// The error of the right value against the left one (same number of elements; views of another
/// shape are read in C order).
ValueComparison compareValues(const Tensor& left, const Tensor& right, const DivergenceOptions& options) {
    ValueComparison c;
    c.error = measureError(right, left);
    c.elements = c.error.elements;
    c.maxAbs = c.error.maxAbs;
    c.relative = c.error.normRel;
    c.agree = withinTolerance(c.error, Tolerance{options.tolerance, options.atol});
    return c;
}

std::string firstTensorOutput(const Graph& g, const Node& n) {
    for (const auto& name : n.outputNames())
        if (g.tensorMeta(name)) return name;
    return {};
}

/// The right node whose value stands for the left node's: the one node of a structural pair, else
/// the last of its nodes with the left value's shape, preferring its dtype (a decomposition computes
/// the value last; a quantized node's last is the dequantize after it, as PT2E's numeric debugger
/// compares).
int representative(const ProgramMatch& m, const NodePair& p, const Tensor& leftValue, const ValueMap& right) {
    int sameShape = -1;
    for (size_t k = p.right.size(); k-- > 0;) {
        const Node& n = m.right->graph.nodes[static_cast<size_t>(p.right[k])];
        auto it = right.find(firstTensorOutput(m.right->graph, n));
        if (it == right.end() || it->second.sizes() != leftValue.sizes()) continue;
        if (it->second.dtype() == leftValue.dtype()) return p.right[k];
        if (sameShape < 0) sameShape = p.right[k];
    }
    return sameShape;
}

} // namespace

std::string Divergence::summary(const ProgramMatch& match) const {
    char buf[512];
    const ValueComparison* d = firstDivergent();
    if (!d) {
        std::snprintf(buf, sizeof buf, "no divergence: %zu matched values agree (%zu not comparable)", compared.size(), skipped);
        return buf;
    }
    const NodePair& p = match.pairs[static_cast<size_t>(d->pair)];
    const Node& n = match.left->graph.nodes[static_cast<size_t>(p.left)];
    std::string module = n.meta.moduleStack && !n.meta.moduleStack->empty() ? n.meta.moduleStack->back().path : "";
    std::snprintf(buf, sizeof buf, "first divergence at %s (%s%s%s): max abs %s, normwise rel %s, SQNR %s dB; %zu matched values before it agree",
                  n.name.c_str(), n.target.shortName().c_str(), module.empty() ? "" : ", ", module.c_str(), formatMeasure(d->maxAbs).c_str(),
                  formatMeasure(d->relative).c_str(), formatMeasure(d->error.sqnrDb).c_str(), static_cast<size_t>(first));
    return buf;
}

/// The producers of the divergent node, followed through each node's first tensor argument, while
/// they are matched and agree.
static std::vector<int> agreeingChain(const ProgramMatch& m, int pairIndex, const std::unordered_map<int, const ValueComparison*>& byPair) {
    const Graph& g = m.left->graph;
    const ValueIndex values(g);
    std::vector<int> chain;
    int node = m.pairs[static_cast<size_t>(pairIndex)].left;
    while (node >= 0) {
        int next = -1;
        for (const auto& in : g.nodes[static_cast<size_t>(node)].inputs) {
            std::vector<std::string> names;
            in.arg.collectValueNames(names);
            for (const auto& v : names)
                if (const int p = values.producer(v); p >= 0 && g.tensorMeta(v)) { next = p; break; }
            if (next >= 0) break;
        }
        if (next < 0) break;
        const int pi = m.leftPair[static_cast<size_t>(next)];
        auto c = byPair.find(pi);
        if (c == byPair.end() || !c->second->agree) break;
        chain.push_back(pi);
        node = next;
    }
    std::reverse(chain.begin(), chain.end());
    return chain;
}

Result<Divergence> findDivergence(const ProgramMatch& match, const DivergenceOptions& options) {
    Divergence out;
    auto inputs = pickInputs(match.left, options, out.inputs);
    if (!inputs) return inputs.status().withContext("choosing the inputs");
    auto lv = runKeepingValues(*match.left, *inputs, options.threads, "left");
    if (!lv) return lv.status();
    auto rv = runKeepingValues(*match.right, *inputs, options.threads, "right");
    if (!rv) return rv.status();
    for (size_t pi = 0; pi < match.pairs.size(); ++pi) {
        const NodePair& p = match.pairs[pi];
        if (p.left < 0 || p.right.empty()) continue;
        auto a = lv->find(firstTensorOutput(match.left->graph, match.left->graph.nodes[static_cast<size_t>(p.left)]));
        const int r = a == lv->end() ? -1 : representative(match, p, a->second, *rv);
        if (r < 0) { ++out.skipped; continue; }
        const Tensor& b = rv->at(firstTensorOutput(match.right->graph, match.right->graph.nodes[static_cast<size_t>(r)]));
        ValueComparison c = compareValues(a->second, b, options);
        c.pair = static_cast<int>(pi);
        c.rightNode = r;
        if (!c.agree && out.first < 0) out.first = static_cast<int>(out.compared.size());
        out.compared.push_back(c);
    }
    std::unordered_map<int, const ValueComparison*> byPair;
    for (const auto& c : out.compared) byPair[c.pair] = &c;
    if (const ValueComparison* d = out.firstDivergent()) out.agreeingPath = agreeingChain(match, d->pair, byPair);
    for (const auto& o : match.left->signature.outputSpecs) {
        if (o.kind != OutputKind::UserOutput || o.arg.kind != ArgKind::Tensor) continue;
        for (size_t k = 0; k < match.left->graph.nodes.size(); ++k)
            if (firstTensorOutput(match.left->graph, match.left->graph.nodes[k]) == o.arg.s)
                if (auto c = byPair.find(match.leftPair[k]); c != byPair.end() && !c->second->agree) out.outputsAgree = false;
    }
    return out;
}

} // namespace irlens::core
