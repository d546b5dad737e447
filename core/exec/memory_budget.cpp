#include "core/exec/memory_budget.h"

#include "core/exec/memory_timeline.h"

#include <cstdio>
#include <limits>

namespace irlens::core::exec {

namespace {

constexpr int64_t kSaturated = std::numeric_limits<int64_t>::max();

int64_t saturatingAdd(int64_t a, int64_t b) { return a > kSaturated - b ? kSaturated : a + b; }

// Bytes of a value from its meta, counting the values whose sizes are symbolic.
int64_t metaBytes(const PlanGraph& g, int slot, int& unknown) {
    bool symbolic = false;
    const int64_t bytes = slotMetaBytes(g, slot, &symbolic);
    unknown += symbolic ? 1 : 0;
    return bytes;
}

} // namespace

std::string formatBytes(int64_t bytes) {
    char buf[64];
    const double b = double(bytes);
    if (bytes >= (int64_t(1) << 30)) std::snprintf(buf, sizeof buf, "%.1f GiB", b / double(int64_t(1) << 30));
    else if (bytes >= (int64_t(1) << 20)) std::snprintf(buf, sizeof buf, "%.1f MiB", b / double(1 << 20));
    else if (bytes >= 1024) std::snprintf(buf, sizeof buf, "%.1f KiB", b / 1024.0);
    else std::snprintf(buf, sizeof buf, "%lld bytes", static_cast<long long>(bytes));
    return buf;
}

MemoryPlan planMemory(const ExecutionPlan& plan) {
    MemoryPlan mp;
    const PlanGraph& g = plan.graph();
    std::vector<int> remaining = g.useCounts;
    std::vector<int64_t> bytes(g.slotNames.size(), 0);
    std::vector<bool> owned(g.slotNames.size(), false); // allocated by the run (not archive state)
    int64_t live = 0;
    for (const PlanInput& in : plan.inputs()) {
        if (in.kind != InputKind::UserInput || in.slot < 0 || static_cast<size_t>(in.slot) >= bytes.size()) continue;
        bytes[static_cast<size_t>(in.slot)] = metaBytes(g, in.slot, mp.unknownValues);
        owned[static_cast<size_t>(in.slot)] = true;
        live = saturatingAdd(live, bytes[static_cast<size_t>(in.slot)]);
    }
    mp.inputBytes = live;
    mp.peakBytes = live;
    for (const PlanNode& pn : g.nodes) {
        std::vector<int> defined;
        for (const auto& slots : pn.outputSlots)
            for (int s : slots) {
                if (s < 0 || static_cast<size_t>(s) >= bytes.size()) continue;
                bytes[static_cast<size_t>(s)] = metaBytes(g, s, mp.unknownValues);
                owned[static_cast<size_t>(s)] = true;
                live = saturatingAdd(live, bytes[static_cast<size_t>(s)]);
                defined.push_back(s);
            }
        if (live > mp.peakBytes) {
            mp.peakBytes = live;
            mp.peakNode = pn.index;
            mp.peakNodeName = pn.node ? pn.node->name : std::string();
        }
        auto release = [&](int s) {
            if (owned[static_cast<size_t>(s)] && live != kSaturated) live -= bytes[static_cast<size_t>(s)];
            owned[static_cast<size_t>(s)] = false;
        };
        for (int s : pn.inputSlots)
            if (s >= 0 && static_cast<size_t>(s) < remaining.size() && --remaining[static_cast<size_t>(s)] == 0) release(s);
        for (int s : defined)
            if (remaining[static_cast<size_t>(s)] == 0) release(s); // never read: dropped right away
    }
    return mp;
}

Status checkMemoryBudget(const ExecutionPlan& plan, int64_t budgetBytes) {
    if (budgetBytes <= 0) return Status::ok();
    const MemoryPlan mp = planMemory(plan);
    if (mp.peakBytes <= budgetBytes) return Status::ok();
    std::string where = mp.peakNode < 0 ? std::string("for the inputs alone") : "at node '" + mp.peakNodeName + "'";
    return Status::error("memory plan needs " + formatBytes(mp.peakBytes) + " at its peak (" + where +
                         "), more than the budget of " + formatBytes(budgetBytes) +
                         "; not running (raise the memory budget or use smaller inputs)");
}

Result<RunResult> runWithinBudget(Engine& engine, const std::vector<EValue>& userInputs, const RunOptions& options,
                                  int64_t budgetBytes) {
    IRLENS_TRY(checkMemoryBudget(engine.plan(), budgetBytes));
    return engine.run(userInputs, options);
}

} // namespace irlens::core::exec
