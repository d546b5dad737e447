#pragma once
// Runs an ExecutionPlan on a oneTBB task arena: independent branches run concurrently through a
// dependency-counting scheduler, large kernels split with parallel_for, values are released after
// their last use. Errors inside kernels come back as a Status naming the node; the cancel flag is
// checked between nodes. Per-node timing goes through an optional observer (no cost when absent).

#include "core/exec/part_log.h"
#include "core/exec/plan.h"
#include "core/exec/run_queue_wait.h"

#include <tbb/task_arena.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>


namespace irlens::core::exec {

/// One executed node of the top-level graph.
/// A node's interval runs from the previous boundary on its worker (the end of the node that ran
/// just before it on that thread, or the moment the worker picked up the task) to the end of the
/// node's own bookkeeping, so argument binding and value release count as the node's time and one
/// clock read per node suffices; on one thread the intervals tile the run.
struct NodeTiming {
    int node = 0;          // index in the plan's (= graph's) node list
    int64_t startNs = 0;   // since the start of the run
    int64_t endNs = 0;
    int thread = 0;        // worker slot in the arena (0 = the calling thread)
    int64_t bytes = 0;     // bytes the kernel allocated
    double flops = 0;      // estimate (0 when not meaningful)
};

/// Receives the timings of a run: onRunStart, then (at the end of the run, on the calling thread)
/// one onNode per executed node or one store per node into timingSlots(), onParts, then onRunEnd.
class ExecObserver {
public:
    virtual ~ExecObserver() = default;
    virtual void onRunStart(const ExecutionPlan& /*plan*/, int /*threads*/) {}
    virtual void onNode(const NodeTiming& timing) = 0;
    virtual void onRunEnd(int64_t /*wallNs*/, int64_t /*peakBytes*/) {}
    /// Before onRunEnd: how long the engine's threads waited on a run queue during the run, in ns
    /// (run_queue_wait.h); not called where the system does not report it.
    virtual void onRunQueued(int64_t /*queuedNs*/) {}
    /// Optional, asked at the end of a run: an array with one NodeTiming per plan node. When given,
    /// the engine stores each executed node's timing at the node's index instead of calling onNode.
    virtual NodeTiming* timingSlots() { return nullptr; }
    /// The parts of nodes that workers other than the node's own thread ran (part_log.h), in ns.
    virtual void onParts(const std::vector<PartTiming>& /*parts*/) {}
};

struct RunOptions {
    int threads = 0;                                    // 0 = every core
    ExecObserver* observer = nullptr;
    std::function<void(int done, int total)> progress;  // from worker threads
    const std::atomic<bool>* cancel = nullptr;
    bool stateful = false;   // write buffer mutations back into the engine's state for the next run
};

struct RunResult {
    std::vector<EValue> outputs;      // every graph output, in order (buffer mutations first, as serialized)
    std::vector<PlanOutput> specs;    // what each output is
    std::vector<int> userOutputs;     // indices of the USER_OUTPUTs
    int64_t wallNs = 0;
    int64_t peakBytes = 0;            // peak of the bytes the engine allocated during the run
    int threads = 1;
    /// An observed run's time its threads spent runnable behind other tasks, summed over the threads
    /// (run_queue_wait.h); -1 when the run was not observed or the system does not report it.
    int64_t queuedNs = -1;
};

class Engine {
public:
    explicit Engine(std::shared_ptr<const ExecutionPlan> plan);
    ~Engine();
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    /// Runs once with the user inputs in signature order (tensors, or scalars for symbolic inputs).
    Result<RunResult> run(const std::vector<EValue>& userInputs, const RunOptions& options = {});

    /// Current buffer values for stateful runs (buffer FQN -> tensor), initially the archive's.
    const std::map<std::string, Tensor>& bufferState() const { return m_state; }
    void resetState() { m_state.clear(); }
    const ExecutionPlan& plan() const { return *m_plan; }

    /// Number of hardware threads (the default).
    static int hardwareThreads();

private:
    std::shared_ptr<const ExecutionPlan> m_plan;
    std::map<std::string, Tensor> m_state;
    std::unique_ptr<tbb::task_arena> m_arena; // kept across runs: no re-initialisation per run
    int m_arenaThreads = 0;
    std::shared_ptr<AllocTracker> m_tracker = std::make_shared<AllocTracker>(); // byte counts + block pool
    std::vector<NodeTiming> m_timings; // the observed run's node timings, reused run after run
    PartLog m_parts;                   // and the parts workers ran, likewise
    RunQueueWait m_queueWait;          // the threads that ran an observed run's nodes or parts
};

/// Compiles `program` and runs it once on `threads` threads: for one-off runs (the decomposition's
/// numeric check, the comparison of two programs). Errors say whether compiling or running failed.
Result<RunResult> compileAndRun(ProgramPtr program, const std::vector<EValue>& inputs, int threads);

/// FLOP estimate of one node from its bound arguments and outputs (matrix products, convolutions,
/// pointwise ops); used by the profiler.
double estimateFlops(const PlanNode& node, std::span<const BoundValue> args, const std::vector<EValue>& outputs);

/// Sets the thread count of the GEMM/convolution library on the calling thread (oneDNN uses OpenMP here).
void setLibraryThreads(int threads);

} // namespace irlens::core::exec
