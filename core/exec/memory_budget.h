#pragma once
// Resource limits for a run, checked before anything executes. The memory plan replays the graph in
// its (topological) node order: user inputs and every node's outputs are live from their definition to
// their last reader (graph outputs to the end), which is exactly when the engine allocates and releases
// them. Parameters, buffers and constants are viewed in place in the archive and cost nothing. The peak
// of that replay is what a run needs at least; parallel branches can hold a little more at once.

#include "core/exec/engine.h"

#include <cstdint>
#include <string>
#include <vector>

namespace irlens::core::exec {

struct MemoryPlan {
    int64_t peakBytes = 0;         // largest sum of live intermediate bytes (saturates at INT64_MAX)
    int peakNode = -1;             // node whose outputs make the peak (-1: the inputs alone)
    std::string peakNodeName;
    int64_t inputBytes = 0;        // user inputs
    int unknownValues = 0;         // tensors with symbolic sizes (counted as 0 bytes)
};

/// The memory plan of the top-level graph from its tensor meta (symbolic sizes count as unknown).
MemoryPlan planMemory(const ExecutionPlan& plan);

/// "1.5 GiB", "640.0 MiB", "12 bytes".
std::string formatBytes(int64_t bytes);

/// OK when the plan's peak fits `budgetBytes` (<= 0: no budget). Otherwise an error naming the peak,
/// the node where it happens and the budget.
Status checkMemoryBudget(const ExecutionPlan& plan, int64_t budgetBytes);

/// Engine::run refused before any node runs when the memory plan exceeds `budgetBytes`.
Result<RunResult> runWithinBudget(Engine& engine, const std::vector<EValue>& userInputs, const RunOptions& options,
                                  int64_t budgetBytes);

} // namespace irlens::core::exec
