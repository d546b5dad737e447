#pragma once
// A scheduling model of the engine: replays recorded node times on N workers under the engine's own
// policy (engine.cpp, runFrom), to predict a run's wall time and to ask what-if questions of it.
//
// One worker runs the whole graph in graph order, and so does predictRun for a graph the engine runs in
// graph order on any number of threads (plan.h, scheduleFor). With more, the calling worker starts with the
// first root and the other roots are spawned as tasks. A worker that finishes a node continues
// inline with the first successor that became ready; the other ready successors are spawned as tasks
// when their estimated work (PlanNode::work) reaches the engine's threshold, else kept in the
// worker's local queue, which it drains (newest first) when its chain ends. A free worker then takes
// its own newest task, else steals the oldest task of another worker; idle workers take a task as
// soon as one is spawned. What the node intervals do not hold is taken from the measured run, and
// nothing else is added: each task start costs SchedulingOverheads::taskStartNs, the run its runNs,
// and a worker other than the calling thread takes no task before its measured join (workerJoinNs).
//
// Node times are replayed as recorded, so they carry the intra-op parallelism of the measured run
// (a kernel splits over the workers that are not busy): predict for the thread count you measured.

#include "core/exec/measured_run.h"
#include "core/exec/plan.h"

#include <cstdint>
#include <vector>

namespace irlens::core::exec {

struct ScheduleOptions {
    int workers = 1;
    int64_t taskStartNs = 0;  // SchedulingOverheads::taskStartNs
    int64_t runNs = 0;        // SchedulingOverheads::runNs
    /// Per worker, when it can take its first task (SchedulingOverheads::workerJoinNs; -1: never).
    /// Workers beyond the list can from the start.
    std::vector<int64_t> workerJoinNs;
    /// Estimated work from which a ready node gets a task of its own: the engine's (plan.h).
    double spawnWork = kTaskWork;
};

struct ScheduledNode {
    int node = -1;     // -1: never scheduled (unreachable, as in a cyclic graph)
    int worker = 0;
    int64_t startNs = 0;
    int64_t endNs = 0;
};

struct SchedulePrediction {
    int64_t wallNs = 0;                // the last node's end plus runNs
    std::vector<ScheduledNode> nodes;  // one per plan node, by node index
    int tasks = 0;                     // tasks spawned (roots included)
};

/// The options that replay `run` on `workers` workers (0: as many as the run had).
ScheduleOptions scheduleOptionsFor(const MeasuredRun& run, int workers = 0);

/// Replays `nodeNs` (one time per plan node; negative = 0) on `options.workers` workers.
SchedulePrediction predictSchedule(const PlanGraph& g, const std::vector<int64_t>& nodeNs, const ScheduleOptions& options);

/// `nodeNs` with node k's time multiplied by `factors[k]` (missing factors are 1; negative times stay).
std::vector<int64_t> scaleTimes(const std::vector<int64_t>& nodeNs, const std::vector<double>& factors);

/// The model's prediction of `run`: each of its sampled runs replayed with its own node times (scaled
/// by `factors`, see scaleTimes) and overheads on `workers` workers (0: as many as the run had); the
/// replay whose wall time is the median. Without samples, the per-node times and median overheads.
SchedulePrediction predictRun(const PlanGraph& g, const MeasuredRun& run, int workers = 0, const std::vector<double>& factors = {});

} // namespace irlens::core::exec
