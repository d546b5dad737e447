#include "core/exec/run_files.h"

#include <algorithm>
#include <cstdio>

namespace irlens::core::exec {

namespace {

// The first columns of both tables: the node's name, op and innermost module path (quoted, as
// Profile::csv writes it: module paths are the one field a user's model names freely).
std::string nodeColumns(const ExecutionPlan& plan, int node) {
    const PlanNode& pn = plan.graph().nodes[static_cast<size_t>(node)];
    std::string module;
    for (char c : pn.modulePath) module += c == '"' ? std::string("\"\"") : std::string(1, c);
    return pn.node->name + "," + pn.node->target.shortName() + ",\"" + module + "\"";
}

} // namespace

std::string memoryCurveCsv(const ExecutionPlan& plan, const MemoryTimeline& timeline) {
    std::string out = "step,node,op,module,weights,inputs,activations,workspace,total,activations_after\n";
    char buf[160];
    for (size_t k = 0; k < timeline.steps.size(); ++k) {
        const MemoryStep& s = timeline.steps[k];
        std::snprintf(buf, sizeof buf, ",%lld,%lld,%lld,%lld,%lld,%lld\n", static_cast<long long>(s.weights),
                      static_cast<long long>(s.inputs), static_cast<long long>(s.activations), static_cast<long long>(s.workspace),
                      static_cast<long long>(s.total()), static_cast<long long>(s.activationsAfter));
        out += std::to_string(k + 1) + "," + nodeColumns(plan, s.node) + buf;
    }
    return out;
}

std::string criticalPathCsv(const ExecutionPlan& plan, const MeasuredRun& run) {
    const CriticalPath path = criticalPath(plan.graph(), run.nodeNs);
    std::string out = "position,node,op,module,self_us,cumulative_us\n";
    char buf[96];
    int64_t cumulative = 0;
    for (size_t k = 0; k < path.nodes.size(); ++k) {
        const size_t node = static_cast<size_t>(path.nodes[k]);
        const int64_t self = node < run.nodeNs.size() ? std::max<int64_t>(0, run.nodeNs[node]) : 0;
        cumulative += self;
        std::snprintf(buf, sizeof buf, ",%.3f,%.3f\n", static_cast<double>(self) / 1e3, static_cast<double>(cumulative) / 1e3);
        out += std::to_string(k + 1) + "," + nodeColumns(plan, path.nodes[k]) + buf;
    }
    return out;
}

} // namespace irlens::core::exec
