#pragma once
// Per-node profiling: an ExecObserver that keeps every run's timings, per-node medians across
// repeats, aggregates by op and by module, and exports a Chrome trace (Perfetto opens it) and CSV.
// The engine writes each node's timing into one array reused run after run (indexed by node: one
// clock read and one store per node, nothing allocated). At the end of a run it is kept as a sample:
// every run while there are at most sampleCapacity() of them, then a uniform random sample of that
// many (reservoir), so memory stays bounded however often a program is run. Medians are over the
// samples (exact up to the capacity); minima, maxima, call counts and wall times cover every run.
// A Profile belongs to one plan.

#include "core/exec/engine.h"

#include <string>
#include <vector>

namespace irlens::core::exec {

struct NodeProfile {
    int node = 0;
    std::string name;
    std::string op;          // "aten.convolution.default"
    std::string modulePath;  // innermost nn_module_stack path
    int64_t medianNs = 0;
    int64_t minNs = 0;
    int64_t maxNs = 0;
    int64_t bytes = 0;
    double flops = 0;
    int calls = 0;           // runs that executed this node
    double gflops() const { return medianNs > 0 ? flops / static_cast<double>(medianNs) : 0.0; }
};

struct GroupProfile {
    std::string key;         // op name or module path
    int64_t selfNs = 0;      // sum of member medians
    double flops = 0;
    int calls = 0;
};

class Profile : public ExecObserver {
public:
    void onRunStart(const ExecutionPlan& plan, int threads) override;
    void onNode(const NodeTiming& timing) override;
    void onRunQueued(int64_t queuedNs) override;
    void onRunEnd(int64_t wallNs, int64_t peakBytes) override;
    NodeTiming* timingSlots() override;
    void onParts(const std::vector<PartTiming>& parts) override;

    int runs() const { return static_cast<int>(m_wall.size()); }
    /// Timings of the last finished run, one per plan node; `node` is -1 where a node did not run.
    const std::vector<NodeTiming>& lastRun() const { return m_last; }
    /// Each node's time in the last finished run, by node index; -1 where it did not run.
    std::vector<int64_t> lastRunNs() const;
    /// Runs kept as samples (all of them up to sampleCapacity()).
    int samples() const { return static_cast<int>(m_sampleWall.size()); }
    /// Most runs kept: 256, fewer for big graphs (at most about 4 M node timings in all).
    int sampleCapacity() const { return m_capacity; }
    /// Timings of sampled run k (0 <= k < samples()), one per plan node; `node` is -1 where a node did not run.
    std::vector<NodeTiming> sampleRun(int k) const;
    /// The parts of nodes that workers other than the node's own thread ran in sampled run k.
    const std::vector<PartTiming>& sampleParts(int k) const { return m_sampleParts[static_cast<size_t>(k)]; }
    /// Wall time of sampled run k.
    int64_t sampleWallNs(int k) const { return m_sampleWall[static_cast<size_t>(k)]; }
    /// The sampled run whose wall time is the median (the run the Chrome trace shows); -1 before any run.
    int medianSample() const;
    const std::vector<int64_t>& wallNs() const { return m_wall; }
    /// Per run, in the order of wallNs(): how long the engine's threads waited on a run queue, other
    /// tasks holding their cores (RunResult::queuedNs); -1 where the system did not report it.
    const std::vector<int64_t>& queuedNs() const { return m_queued; }
    /// The runs' queued time in all and in the slowest run (by wall time); `measured` is false when
    /// some run has none (the system does not report it) or there was no run.
    struct Queued {
        bool measured = false;
        int64_t totalNs = 0, slowestRunNs = 0;
    };
    Queued queued() const;
    int64_t medianWallNs() const;
    int64_t peakBytes() const { return m_peak; }
    int threads() const { return m_threads; }

    /// Per node, medians over all runs (nodes never executed are left out).
    std::vector<NodeProfile> nodes() const;
    std::vector<GroupProfile> byOp() const;
    /// Self time per innermost module path ("" = nodes outside any module).
    std::vector<GroupProfile> byModule() const;

    /// Chrome trace JSON of the run whose wall time is the median (chrome_trace.h: one track per
    /// worker with the nodes and parts of nodes it ran, flows between workers, the live-bytes
    /// counter), without roofline args.
    std::string chromeTraceJson() const;
    /// node,op,module,median_us,min_us,max_us,bytes,flops,gflops
    std::string csv() const;

private:
    const NodeTiming* sample(size_t k) const { return m_samples.data() + k * m_nodeCount; }

    const ExecutionPlan* m_plan = nullptr;
    int m_threads = 1;
    size_t m_nodeCount = 0;
    int m_capacity = 1024;
    std::vector<NodeTiming> m_current;  // written by the engine during a run
    std::vector<NodeTiming> m_last;     // the last finished run
    std::vector<NodeTiming> m_samples;  // samples() x nodes
    std::vector<int64_t> m_sampleWall;  // wall time of each sample
    std::vector<PartTiming> m_currentParts;              // the parts of the run that is ending
    std::vector<std::vector<PartTiming>> m_sampleParts;  // of each sample
    std::vector<int> m_calls;           // per node, over every run
    std::vector<int64_t> m_min, m_max;  // per node, over every run
    uint64_t m_rng = 0x9E3779B97F4A7C15ull;
    bool m_open = false;                // a run started and has not ended
    std::vector<int64_t> m_wall;
    std::vector<int64_t> m_queued;      // per run, beside m_wall
    int64_t m_currentQueued = -1;       // of the run that is ending
    int64_t m_peak = 0;
};

int64_t medianOf(std::vector<int64_t> values);

} // namespace irlens::core::exec
