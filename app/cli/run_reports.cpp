#include "app/cli/run_reports.h"

#include "app/cli/roofline_report.h"

#include "core/exec/critical_path.h"
#include "core/exec/memory_budget.h"
#include "core/exec/memory_timeline.h"
#include "core/exec/schedule_model.h"
#include "core/exec/source_lines.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace irlens::cli {

using namespace irlens::core;
using namespace irlens::core::exec;

namespace {

// Points of the curve the text shows: evenly spread over the run, the peak always among them.
constexpr size_t kCurvePoints = 12;

const std::string& nodeName(const ExecutionPlan& plan, int node) { return plan.graph().nodes[static_cast<size_t>(node)].node->name; }

double ms(int64_t ns) { return static_cast<double>(ns) / 1e6; }

double percentOf(int64_t part, int64_t whole) { return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0; }

std::vector<size_t> curvePoints(const MemoryTimeline& t) {
    std::vector<size_t> points;
    const size_t n = t.steps.size();
    for (size_t i = 0; i < kCurvePoints && n > 0; ++i) points.push_back(i * (n - 1) / std::max<size_t>(1, kCurvePoints - 1));
    if (t.peakStep >= 0) points.push_back(static_cast<size_t>(t.peakStep));
    std::sort(points.begin(), points.end());
    points.erase(std::unique(points.begin(), points.end()), points.end());
    return points;
}

void printMemory(const ExecutionPlan& plan, const MeasuredRun& run, int64_t top) {
    const MemoryTimeline t = memoryTimeline(plan, run);
    if (t.peakStep < 0) return;
    const MemoryStep& peak = t.steps[static_cast<size_t>(t.peakStep)];
    std::printf("live      peak %s at node '%s' (%d of %zu): weights %s, inputs %s, activations %s, workspace %s\n",
                formatBytes(t.peakBytes).c_str(), nodeName(plan, peak.node).c_str(), t.peakStep + 1, t.steps.size(),
                formatBytes(peak.weights).c_str(), formatBytes(peak.inputs).c_str(), formatBytes(peak.activations).c_str(),
                formatBytes(peak.workspace).c_str());
    std::printf("          the engine allocates %s there (activations + workspace); it measured %s\n",
                formatBytes(t.runPeakBytes()).c_str(), formatBytes(t.measuredPeakBytes).c_str());
    std::printf("          intermediate values %s in all, %s of storage (views share): freeing after the last use saved %s\n",
                formatBytes(t.intermediateBytes).c_str(), formatBytes(t.allocatedBytes).c_str(),
                formatBytes(std::max<int64_t>(0, t.allocatedBytes - peak.activations)).c_str());
    std::printf("curve     live bytes at each node, in execution order (sizes from the graph meta):\n");
    for (size_t i : curvePoints(t)) {
        const MemoryStep& s = t.steps[i];
        std::printf("  %5zu  %-36s %12s  activations %12s  workspace %10s%s\n", i + 1, nodeName(plan, s.node).c_str(),
                    formatBytes(s.total()).c_str(), formatBytes(s.activations).c_str(), formatBytes(s.workspace).c_str(),
                    static_cast<int>(i) == t.peakStep ? "  <- peak" : "");
    }
    std::printf("live at the peak (%zu blocks, largest first):\n", t.liveAtPeak.size());
    for (size_t k = 0; k < t.liveAtPeak.size() && k < static_cast<size_t>(top); ++k) {
        const LiveTensor& l = t.liveAtPeak[k];
        std::printf("  %12s  %-10s %-22s %-28s from %-22s %-20s freed by %s\n", formatBytes(l.bytes).c_str(), memoryKindName(l.kind),
                    l.type.c_str(), l.name.c_str(), l.producer >= 0 ? l.producerName.c_str() : "-", l.modulePath.c_str(),
                    l.lastUser >= 0 ? l.lastUserName.c_str() : "(held to the end)");
    }
}

// The `top` heaviest nodes of the path, in path order.
std::vector<size_t> heaviestOnPath(const CriticalPath& path, const std::vector<int64_t>& nodeNs, int64_t top) {
    std::vector<size_t> order(path.nodes.size());
    for (size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return nodeNs[static_cast<size_t>(path.nodes[a])] > nodeNs[static_cast<size_t>(path.nodes[b])];
    });
    order.resize(std::min(order.size(), static_cast<size_t>(std::max<int64_t>(0, top))));
    std::sort(order.begin(), order.end());
    return order;
}

void printCriticalPath(const ExecutionPlan& plan, const MeasuredRun& run, const RunReports& reports, const WhatIfResult& w) {
    const CriticalPath& path = w.baselinePath;
    std::printf("critical  path of %zu nodes, %.3f ms: %.1f%% of the median wall time %.3f ms\n", path.nodes.size(), ms(path.lengthNs),
                100.0 * path.share(run.medianWallNs), ms(run.medianWallNs));
    for (size_t k : heaviestOnPath(path, run.nodeNs, reports.top)) {
        const PlanNode& pn = plan.graph().nodes[static_cast<size_t>(path.nodes[k])];
        std::printf("  %4zu/%zu  %9.3f ms  %-28s %-36s %s\n", k + 1, path.nodes.size(), ms(run.nodeNs[static_cast<size_t>(pn.index)]),
                    pn.node->name.c_str(), pn.node->target.shortName().c_str(), pn.modulePath.c_str());
    }
    const double error = percentOf(w.baseline.wallNs - run.medianWallNs, run.medianWallNs);
    std::printf("model     predicted %.3f ms on %d worker%s (replaying %zu measured runs), measured median %.3f ms: %+.1f%%\n",
                ms(w.baseline.wallNs), run.threads, run.threads > 1 ? "s" : "", run.samples.size(), ms(run.medianWallNs), error);
    if (reports.whatIf.empty()) return;
    std::string specs;
    for (const WhatIfSpec& s : reports.whatIf) {
        char factor[32];
        std::snprintf(factor, sizeof factor, "%g", s.factor);
        specs += (specs.empty() ? "" : ", ") + s.selector + "=" + factor;
    }
    std::printf("what-if   %s (%d nodes): predicted %.3f ms (%+.1f%%), critical path %.3f ms over %zu nodes\n", specs.c_str(), w.scaledNodes,
                ms(w.predicted.wallNs), percentOf(w.predicted.wallNs - w.baseline.wallNs, w.baseline.wallNs), ms(w.path.lengthNs),
                w.path.nodes.size());
}

void printByLine(const ExecutionPlan& plan, const MeasuredRun& run, int64_t top) {
    const LineProfile lp = lineProfile(plan, run.nodeNs);
    std::printf("by line   %.3f ms over %d nodes with a stack trace (%d without: %.3f ms); self at the innermost frame outside torch/\n",
                ms(lp.tracedNs), lp.tracedNodes, lp.untracedNodes, ms(lp.untracedNs));
    std::printf("  %9s %6s %9s %5s  %s\n", "self ms", "self%", "incl ms", "nodes", "line");
    for (size_t k = 0; k < lp.lines.size() && k < static_cast<size_t>(top); ++k) {
        const SourceLine& l = lp.lines[k];
        std::printf("  %9.3f %5.1f%% %9.3f %5d  %s:%d%s  %s\n", ms(l.selfNs), percentOf(l.selfNs, lp.tracedNs), ms(l.inclusiveNs), l.nodes,
                    l.file.empty() ? "(no frame)" : l.file.c_str(), l.line, l.inLibrary ? " (torch)" : "", l.code.c_str());
    }
}

nlohmann::json memoryJson(const ExecutionPlan& plan, const MeasuredRun& run) {
    const MemoryTimeline t = memoryTimeline(plan, run);
    nlohmann::json j = {{"peak_bytes", t.peakBytes}, {"weight_bytes", t.weightBytes}, {"input_bytes", t.inputBytes},
                        {"run_peak_bytes", t.runPeakBytes()}, {"measured_peak_bytes", t.measuredPeakBytes},
                        {"intermediate_bytes", t.intermediateBytes}, {"allocated_bytes", t.allocatedBytes},
                        {"unknown_sizes", t.unknownSizes}, {"steps", nlohmann::json::array()}, {"live_at_peak", nlohmann::json::array()}};
    j["peak_node"] = t.peakStep >= 0 ? nlohmann::json(nodeName(plan, t.steps[static_cast<size_t>(t.peakStep)].node)) : nlohmann::json();
    for (const MemoryStep& s : t.steps)
        j["steps"].push_back({{"node", nodeName(plan, s.node)}, {"weights", s.weights}, {"inputs", s.inputs}, {"activations", s.activations},
                              {"workspace", s.workspace}, {"activations_after", s.activationsAfter}});
    for (const LiveTensor& l : t.liveAtPeak)
        j["live_at_peak"].push_back({{"name", l.name}, {"kind", memoryKindName(l.kind)}, {"bytes", l.bytes}, {"type", l.type},
                                     {"producer", l.producerName}, {"module", l.modulePath}, {"last_user", l.lastUserName}, {"views", l.views}});
    return j;
}

nlohmann::json pathJson(const ExecutionPlan& plan, const CriticalPath& path, const std::vector<int64_t>& nodeNs) {
    nlohmann::json nodes = nlohmann::json::array();
    for (int k : path.nodes) nodes.push_back({{"name", nodeName(plan, k)}, {"us", static_cast<double>(nodeNs[static_cast<size_t>(k)]) / 1e3}});
    return {{"length_ms", ms(path.lengthNs)}, {"nodes", nodes}};
}

nlohmann::json criticalPathJson(const ExecutionPlan& plan, const MeasuredRun& run, const RunReports& reports, const WhatIfResult& w) {
    nlohmann::json j = pathJson(plan, w.baselinePath, run.nodeNs);
    j["share"] = w.baselinePath.share(run.medianWallNs);
    j["predicted_ms"] = ms(w.baseline.wallNs);
    j["measured_median_ms"] = ms(run.medianWallNs);
    j["workers"] = run.threads;
    j["replayed_runs"] = run.samples.size();
    if (reports.whatIf.empty()) return j;
    nlohmann::json specs = nlohmann::json::array();
    for (const WhatIfSpec& s : reports.whatIf) specs.push_back({{"selector", s.selector}, {"factor", s.factor}});
    j["what_if"] = {{"specs", specs}, {"scaled_nodes", w.scaledNodes}, {"predicted_ms", ms(w.predicted.wallNs)},
                    {"critical_path", pathJson(plan, w.path, w.nodeNs)}};
    return j;
}

nlohmann::json byLineJson(const ExecutionPlan& plan, const MeasuredRun& run) {
    const LineProfile lp = lineProfile(plan, run.nodeNs);
    nlohmann::json lines = nlohmann::json::array();
    for (const SourceLine& l : lp.lines)
        lines.push_back({{"file", l.file}, {"line", l.line}, {"function", l.function}, {"code", l.code}, {"library", l.inLibrary},
                         {"self_ms", ms(l.selfNs)}, {"inclusive_ms", ms(l.inclusiveNs)}, {"self_nodes", l.selfNodes}, {"nodes", l.nodes}});
    return {{"traced_ms", ms(lp.tracedNs)}, {"traced_nodes", lp.tracedNodes}, {"untraced_ms", ms(lp.untracedNs)},
            {"untraced_nodes", lp.untracedNodes}, {"lines", lines}};
}

} // namespace

Status checkRunReports(const ExecutionPlan& plan, const RunReports& reports) {
    for (const WhatIfSpec& s : reports.whatIf) IRLENS_TRY(selectNodes(plan, s.selector).status());
    return Status::ok();
}

void printRunReports(const ExecutionPlan& plan, const MeasuredRun& run, const RunReports& reports, const Roofline* roofline) {
    if (reports.memory) printMemory(plan, run, reports.top);
    if (reports.criticalPath) {
        auto w = whatIf(plan, run, reports.whatIf);
        if (w) printCriticalPath(plan, run, reports, *w);
    }
    if (reports.byLine) printByLine(plan, run, reports.top);
    if (reports.roofline && roofline) printRoofline(plan, *roofline);
}

void addRunReportsJson(const ExecutionPlan& plan, const MeasuredRun& run, const RunReports& reports, nlohmann::json& out,
                       const Roofline* roofline) {
    if (reports.memory) out["memory"] = memoryJson(plan, run);
    if (reports.criticalPath) {
        auto w = whatIf(plan, run, reports.whatIf);
        if (w) out["critical_path"] = criticalPathJson(plan, run, reports, *w);
    }
    if (reports.byLine) out["by_line"] = byLineJson(plan, run);
    if (reports.roofline && roofline) out["roofline"] = rooflineJson(plan, *roofline);
}

} // namespace irlens::cli
