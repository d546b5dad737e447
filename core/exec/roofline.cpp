#include "core/exec/roofline.h"

#include "core/exec/memory_timeline.h"
#include "core/ops/op_registry.h"

#include <algorithm>
#include <set>

namespace irlens::core::exec {

namespace {

bool writesInPlace(const PlanNode& pn) {
    const OpInfo* op = OpRegistry::instance().find(pn.node->target);
    return op && op->schema.isInplace();
}

} // namespace

bool movesNoBytes(const PlanNode& pn, int64_t allocatedBytes) {
    if (pn.fusedInto >= 0) return true;
    // a kernel that allocated nothing returned (a view of) its input, unless it wrote an input in place
    return allocatedBytes == 0 && !writesInPlace(pn);
}

int64_t bytesMoved(const PlanGraph& g, const PlanNode& pn, int64_t allocatedBytes) {
    if (movesNoBytes(pn, allocatedBytes)) return 0;
    int64_t bytes = 0;
    std::set<int> read(pn.inputSlots.begin(), pn.inputSlots.end());
    for (int s : read) bytes += slotMetaBytes(g, s);
    for (const auto& slots : pn.outputSlots)
        for (int s : slots) bytes += slotMetaBytes(g, s);
    return bytes;
}

const NodeRoof* Roofline::find(int node) const {
    auto it = std::lower_bound(nodes.begin(), nodes.end(), node, [](const NodeRoof& r, int n) { return r.node < n; });
    return it != nodes.end() && it->node == node ? &*it : nullptr;
}

Roofline roofline(const ExecutionPlan& plan, const MeasuredRun& run, const MachineRoofs& roofs) {
    Roofline out;
    out.roofs = roofs;
    const PlanGraph& g = plan.graph();
    const double peak = roofs.peakGflops, bandwidth = roofs.bandwidthGBs; // FLOP/ns and byte/ns
    for (const PlanNode& pn : g.nodes) {
        const size_t k = static_cast<size_t>(pn.index);
        if (k >= run.nodeNs.size() || run.nodeNs[k] < 0) continue;
        NodeRoof r;
        r.node = pn.index;
        r.ns = run.nodeNs[k];
        r.flops = k < run.nodeFlops.size() ? run.nodeFlops[k] : 0.0;
        r.bytes = bytesMoved(g, pn, k < run.nodeBytes.size() ? run.nodeBytes[k] : -1);
        r.intensity = r.bytes > 0 ? r.flops / static_cast<double>(r.bytes) : 0.0;
        r.roofNs = std::max(peak > 0 ? r.flops / peak : 0.0, bandwidth > 0 ? static_cast<double>(r.bytes) / bandwidth : 0.0);
        r.attainableGflops = r.flops > 0 && r.roofNs > 0 ? r.flops / r.roofNs : 0.0;
        r.achievedGflops = r.ns > 0 ? r.flops / static_cast<double>(r.ns) : 0.0;
        r.share = r.ns > 0 ? r.roofNs / static_cast<double>(r.ns) : 0.0;
        r.computeBound = r.flops > 0 && (r.bytes == 0 || r.intensity >= roofs.ridgeIntensity());
        out.totalNs += r.ns;
        if (r.nearRoof()) out.nearRoofNs += r.ns;
        out.nodes.push_back(r);
    }
    return out;
}

} // namespace irlens::core::exec
