#pragma once
// What the analyses of a run (memory_timeline.h, critical_path.h, schedule_model.h, source_lines.h)
// read from a profiled run: one time per node, the bytes each kernel allocated, the order the nodes
// started in, and the scheduling costs that fall between node intervals. Plain values, taken once
// from a Profile, so the analyses can run on any thread while the profile keeps collecting.
//
// Two views of the node times. `nodeNs`, one time per node (its median over the runs, as
// Profile::nodes reports it), for the critical path and the line profile. And a set of whole runs
// (`samples`), each with its own node times and overheads, for the scheduling model to replay one by
// one: per-node medians drop the small delays every run has somewhere (a page fault, another process
// taking the core for a moment), so they add up to less than a typical run, while a run's own times
// add up to that run.

#include "core/exec/plan.h"
#include "core/exec/profile.h"

#include <cstdint>
#include <vector>

namespace irlens::core::exec {

/// Time a run spends outside its node intervals (NodeTiming: a node's interval starts at the previous
/// boundary on its worker, so only the gaps before a task's first node and around the run are missing).
struct SchedulingOverheads {
    /// The run's start to its first node plus its last node's end to
    /// the run's end (arena entry, spawning the roots, joining the workers).
    int64_t runNs = 0;
    /// Median delay from the moment a task could start (its node ready and its worker free) to its
    /// first node's start, over the tasks of workers already at work: taking their own next task or
    /// stealing one. 0 when the run had one thread.
    int64_t taskStartNs = 0;
    int taskStarts = 0;  // task starts that median is over
    /// Per worker slot (0 = the calling thread, always 0 here): when it started its first node, from
    /// the run's first node; -1 when it ran none. A sleeping worker is woken by the first spawned
    /// task, and on a busy machine that can take milliseconds, or longer than the whole run.
    std::vector<int64_t> workerJoinNs;
};

/// One measured run as the scheduling model replays it.
struct SampledRun {
    int64_t wallNs = 0;
    std::vector<int64_t> nodeNs;      // per plan node; -1: did not run
    SchedulingOverheads overheads;    // of this run alone
};

struct MeasuredRun {
    int threads = 1;
    int runs = 0;                     // measured runs behind the medians
    int64_t medianWallNs = 0;
    int64_t peakBytes = 0;            // the engine's measured peak (RunResult::peakBytes, max over runs)
    std::vector<int64_t> nodeNs;      // per plan node: median time over the sampled runs; -1: never ran
    std::vector<int64_t> nodeBytes;   // per plan node: bytes its kernel allocated (NodeTiming::bytes); -1: never ran
    std::vector<double> nodeFlops;    // per plan node: its FLOP estimate from the run's values (NodeTiming::flops); 0: none or never ran
    std::vector<int> order;           // the nodes that ran, by start in the median run (graph order on one thread)
    SchedulingOverheads overheads;    // medians over `samples`
    /// Up to kMaxReplayedRuns of the profile's sampled runs, spread evenly over their wall times.
    std::vector<SampledRun> samples;
};

/// Runs kept in MeasuredRun::samples: enough for a stable median, few enough to replay at once.
inline constexpr int kMaxReplayedRuns = 32;

/// The measured run of `profile`, which observed runs of `plan`. Empty (runs == 0) before any run.
MeasuredRun measureRun(const ExecutionPlan& plan, const Profile& profile);

/// The nodes that ran in `timings` (one per plan node), sorted by start (then end, then index).
std::vector<int> startOrder(const std::vector<NodeTiming>& timings);

} // namespace irlens::core::exec
