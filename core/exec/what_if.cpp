#include "core/exec/what_if.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace irlens::core::exec {

namespace {

bool hasPrefix(const std::string& s, const std::string& prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

bool opMatches(const Target& t, const std::string& op) {
    if (t.key() == op || t.shortName() == op) return true;
    if (t.kind != Target::Kind::Op) return false;
    return t.op() == op || t.ns() + "." + t.op() == op || t.ns() + "::" + t.op() == op;
}

bool moduleMatches(const std::string& modulePath, const std::string& path) {
    return !path.empty() && (modulePath == path || hasPrefix(modulePath, path + "."));
}

enum class SelectorKind { Node, Op, Module };

std::vector<int> nodesWhere(const ExecutionPlan& plan, SelectorKind kind, const std::string& name) {
    std::vector<int> out;
    for (const PlanNode& pn : plan.graph().nodes) {
        const bool hit = kind == SelectorKind::Node ? pn.node->name == name
                         : kind == SelectorKind::Op ? opMatches(pn.node->target, name)
                                                    : moduleMatches(pn.modulePath, name);
        if (hit) out.push_back(pn.index);
    }
    return out;
}

} // namespace

Result<WhatIfSpec> parseWhatIf(const std::string& text) {
    const size_t eq = text.rfind('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
        return Status::error("what-if '" + text + "': expected SELECTOR=FACTOR, e.g. convolution=0.5 or module:layer4=0");
    const std::string number = text.substr(eq + 1);
    char* end = nullptr;
    const double factor = std::strtod(number.c_str(), &end);
    if (end != number.c_str() + number.size() || !std::isfinite(factor) || factor < 0)
        return Status::error("what-if '" + text + "': the factor '" + number + "' must be a number >= 0 (0 makes the nodes free)");
    return WhatIfSpec{text.substr(0, eq), factor};
}

Result<std::vector<int>> selectNodes(const ExecutionPlan& plan, const std::string& selector) {
    struct Prefix {
        std::string text, what;
        SelectorKind kind;
    };
    static const Prefix kPrefixes[] = {{"node:", "node", SelectorKind::Node}, {"op:", "op", SelectorKind::Op},
                                       {"module:", "module", SelectorKind::Module}};
    for (const Prefix& p : kPrefixes) {
        if (!hasPrefix(selector, p.text)) continue;
        std::vector<int> nodes = nodesWhere(plan, p.kind, selector.substr(p.text.size()));
        if (nodes.empty()) return Status::error("what-if: '" + selector + "' names no " + p.what + " of the program");
        return nodes;
    }
    for (SelectorKind kind : {SelectorKind::Op, SelectorKind::Module, SelectorKind::Node}) {
        std::vector<int> nodes = nodesWhere(plan, kind, selector);
        if (!nodes.empty()) return nodes;
    }
    return Status::error("what-if: '" + selector + "' names no op, module or node of the program "
                         "(ops as aten.convolution.default or convolution, modules by path such as layer4.0, node:NAME)");
}

Result<std::vector<double>> nodeFactors(const ExecutionPlan& plan, const std::vector<WhatIfSpec>& specs) {
    std::vector<double> factor(plan.graph().nodes.size(), 1.0);
    for (const WhatIfSpec& spec : specs) {
        IRLENS_ASSIGN_OR_RETURN(nodes, selectNodes(plan, spec.selector));
        for (int k : nodes) factor[static_cast<size_t>(k)] *= spec.factor;
    }
    return factor;
}

Result<std::vector<int64_t>> scaledTimes(const ExecutionPlan& plan, const std::vector<int64_t>& nodeNs,
                                         const std::vector<WhatIfSpec>& specs) {
    IRLENS_ASSIGN_OR_RETURN(factor, nodeFactors(plan, specs));
    return scaleTimes(nodeNs, factor);
}


Result<WhatIfResult> whatIf(const ExecutionPlan& plan, const MeasuredRun& run, const std::vector<WhatIfSpec>& specs, int workers) {
    if (run.runs == 0) return Status::error("what-if needs a measured run: run the program with profiling first");
    WhatIfResult r;
    IRLENS_ASSIGN_OR_RETURN(factor, nodeFactors(plan, specs));
    r.nodeNs = scaleTimes(run.nodeNs, factor);
    std::vector<bool> named(factor.size(), false);
    for (const WhatIfSpec& spec : specs) {
        const auto nodes = selectNodes(plan, spec.selector); // checked by nodeFactors above
        for (int k : *nodes) named[static_cast<size_t>(k)] = true;
    }
    r.scaledNodes = static_cast<int>(std::count(named.begin(), named.end(), true));
    r.baseline = predictRun(plan.graph(), run, workers);
    r.predicted = predictRun(plan.graph(), run, workers, factor);
    r.baselinePath = criticalPath(plan.graph(), run.nodeNs);
    r.path = criticalPath(plan.graph(), r.nodeNs);
    return r;
}

} // namespace irlens::core::exec
