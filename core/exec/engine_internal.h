#pragma once
// What Engine (engine.cpp) and Stepper (stepper.cpp) share: the state of a run and the execution of
// one node, so that stepping runs each node exactly as the engine does. Not part of the interface.

#include "core/exec/engine.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace irlens::core::exec::engine_detail {

using Clock = std::chrono::steady_clock;

// State of one run of one graph.
struct GraphRun {
    const PlanGraph& g;
    std::vector<EValue> slots;
    std::unique_ptr<std::atomic<int>[]> remaining;   // uses left per slot
    std::unique_ptr<std::atomic<int>[]> pending;     // predecessors left per node
};

struct RunShared {
    const RunOptions& options;
    int threads = 1;
    std::shared_ptr<AllocTracker> tracker;
    Clock::time_point start;
    std::atomic<int> done{0};
    std::atomic<bool> failed{false};
    ExecObserver* observer = nullptr;   // top-level nodes only
    NodeTiming* timings = nullptr;      // per node, in ticks since tick0 while the run lasts
    bool tsc = false;                   // ticks are TSC cycles (else ns since start)
    int64_t tick0 = 0;
    std::mutex errorMutex;
    Status error;
    int total = 0;
    PartLog* parts = nullptr;           // the parts workers ran of top-level nodes, while observed
    RunQueueWait* queueWait = nullptr;  // each thread that runs a task of an observed run joins it
    bool oneThreadBooks = false;        // only the calling thread runs nodes (kernels may still split):
                                        // use counts and progress need no locked instructions

    void fail(Status s) {
        std::lock_guard lock(errorMutex);
        if (!failed.exchange(true)) error = std::move(s);
    }
    bool cancelled() const { return options.cancel && options.cancel->load(std::memory_order_relaxed); }
};

// Where a worker stands in time while profiling: the end of the last node it ran (or the moment it
// started its task) and its slot in the arena, both taken once per task instead of once per node.
struct WorkerClock {
    int64_t boundary = 0;
    int thread = 0;
};

int64_t nowNs(Clock::time_point start);
/// Empties the slots and sets the use and predecessor counts of a run of `run.g`.
void initRun(GraphRun& run);
/// Executes one node: binds its arguments, calls its kernel (which may run subgraphs), maps the
/// outputs onto slots, releases inputs and records progress and timing. False when the run must stop
/// (the error is in `shared`).
bool execNode(GraphRun& run, const PlanNode& pn, RunShared& shared, bool topLevel, WorkerClock& clock);
/// Fills the input slots: user inputs in order, parameters and buffers from `state` (else the archive's).
Status bindInputs(const ExecutionPlan& plan, const std::map<std::string, Tensor>& state, const std::vector<EValue>& userInputs,
                  GraphRun& run);
/// The graph outputs in order; with `state`, buffer and parameter mutations are written back into it.
void collectOutputs(const ExecutionPlan& plan, const GraphRun& run, RunResult& result, std::map<std::string, Tensor>* state);

} // namespace irlens::core::exec::engine_detail
