#include "app/cli/roofline_report.h"

#include "core/exec/memory_budget.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace irlens::cli {

using namespace irlens::core;
using namespace irlens::core::exec;

namespace {

const char* boundName(const NodeRoof& r) {
    if (!r.movesData()) return "view";
    return r.computeBound ? "compute" : "memory";
}

std::vector<const NodeRoof*> slowestFirst(const Roofline& roofline) {
    std::vector<const NodeRoof*> rows;
    for (const NodeRoof& r : roofline.nodes) rows.push_back(&r);
    std::stable_sort(rows.begin(), rows.end(), [](const NodeRoof* a, const NodeRoof* b) { return a->ns > b->ns; });
    return rows;
}

int nearRoofNodes(const Roofline& roofline) {
    return static_cast<int>(std::count_if(roofline.nodes.begin(), roofline.nodes.end(), [](const NodeRoof& r) { return r.nearRoof(); }));
}

// Where the roofs came from, then what to know about them.
std::string provenance(const MachineRoofs& m) {
    std::string where = m.cachePath.empty() ? std::string("not cached") : "cached in " + m.cachePath;
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.2f", m.measureSeconds);
    std::string text = m.fromCache ? "from the cache (" + m.cachePath + "), measured " + m.measuredAt
                                   : "measured now in " + std::string(seconds) + " s, " + where;
    text += " (--measure-roofs measures again)";
    if (!m.cacheNote.empty()) text += "; " + m.cacheNote;
    if (m.busyWhenMeasured()) {
        char busy[160];
        std::snprintf(busy, sizeof busy, "; measured on a busy machine (load average %.1f on %d CPUs): the roofs are likely low", m.loadAverage,
                      m.cpus);
        text += busy;
    }
    return text;
}

} // namespace

Result<Roofline> rooflineOfRun(const ExecutionPlan& plan, const MeasuredRun& run, bool remeasure) {
    RoofOptions options;
    options.remeasure = remeasure;
    auto roofs = machineRoofs(run.threads, options);
    if (!roofs) return roofs.status();
    return roofline(plan, run, *roofs);
}

void printRoofline(const ExecutionPlan& plan, const Roofline& roofline) {
    const MachineRoofs& m = roofline.roofs;
    std::printf("roofs     %d thread%s on %s: peak %.1f GFLOP/s (%s GEMM %lld^3 through the engine), bandwidth %.1f GB/s "
                "(triad over %s, last-level cache %s); ridge %.2f FLOP/byte\n",
                m.threads, m.threads > 1 ? "s" : "", m.cpu.c_str(), m.peakGflops, m.gemmLibrary.c_str(), static_cast<long long>(m.gemmSize),
                m.bandwidthGBs, formatBytes(m.triadBytes).c_str(), m.llcBytes > 0 ? formatBytes(m.llcBytes).c_str() : "unknown",
                m.ridgeIntensity());
    std::printf("          %s\n", provenance(m).c_str());
    std::printf("roofline  %.1f%% of the node time (%.3f of %.3f ms) in nodes at >= %.0f%% of their attainable rate (%d of %zu nodes)\n",
                100.0 * roofline.nearRoofShare(), static_cast<double>(roofline.nearRoofNs) / 1e6, static_cast<double>(roofline.totalNs) / 1e6,
                100.0 * kNearRoofShare, nearRoofNodes(roofline), roofline.nodes.size());
    std::printf("  %-28s %-34s %9s %10s %10s %8s %10s %10s %7s  %s\n", "node", "op", "ms", "MFLOP", "KiB moved", "FLOP/B", "attainable",
                "achieved", "% roof", "bound");
    for (const NodeRoof* r : slowestFirst(roofline)) {
        const PlanNode& pn = plan.graph().nodes[static_cast<size_t>(r->node)];
        char roof[16] = "-";
        if (r->movesData()) std::snprintf(roof, sizeof roof, "%.1f", 100.0 * r->share);
        std::printf("  %-28s %-34s %9.3f %10.3f %10.1f %8.2f %10.1f %10.1f %7s  %s\n", pn.node->name.c_str(), pn.node->target.shortName().c_str(),
                    static_cast<double>(r->ns) / 1e6, r->flops / 1e6, static_cast<double>(r->bytes) / 1024.0, r->intensity,
                    r->attainableGflops, r->achievedGflops, roof, boundName(*r));
    }
}

nlohmann::json rooflineJson(const ExecutionPlan& plan, const Roofline& roofline) {
    const MachineRoofs& m = roofline.roofs;
    nlohmann::json roofs = {{"cpu", m.cpu}, {"threads", m.threads}, {"gemm_library", m.gemmLibrary}, {"peak_gflops", m.peakGflops},
                            {"bandwidth_gbs", m.bandwidthGBs}, {"ridge_flop_per_byte", m.ridgeIntensity()}, {"llc_bytes", m.llcBytes},
                            {"triad_bytes", m.triadBytes}, {"gemm_size", m.gemmSize}, {"measured_at", m.measuredAt},
                            {"measure_seconds", m.measureSeconds}, {"from_cache", m.fromCache}, {"cache_path", m.cachePath},
                            {"cache_note", m.cacheNote}, {"load_average", m.loadAverage}, {"cpus", m.cpus},
                            {"busy_when_measured", m.busyWhenMeasured()}};
    nlohmann::json nodes = nlohmann::json::array();
    for (const NodeRoof* r : slowestFirst(roofline)) {
        const PlanNode& pn = plan.graph().nodes[static_cast<size_t>(r->node)];
        nodes.push_back({{"name", pn.node->name}, {"op", pn.node->target.shortName()}, {"module", pn.modulePath},
                         {"ms", static_cast<double>(r->ns) / 1e6}, {"flops", r->flops}, {"bytes_moved", r->bytes},
                         {"flop_per_byte", r->intensity}, {"attainable_gflops", r->attainableGflops}, {"achieved_gflops", r->achievedGflops},
                         {"roof_percent", r->movesData() ? nlohmann::json(100.0 * r->share) : nlohmann::json()}, {"bound", boundName(*r)}});
    }
    return {{"roofs", roofs}, {"near_roof_threshold", kNearRoofShare}, {"near_roof_share", roofline.nearRoofShare()},
            {"near_roof_nodes", nearRoofNodes(roofline)}, {"node_ms", static_cast<double>(roofline.totalNs) / 1e6}, {"nodes", nodes}};
}

} // namespace irlens::cli
