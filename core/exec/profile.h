#pragma once
// Per-node profiling: an ExecObserver that keeps every run's timings, per-node medians across
// repeats, aggregates by op and by module, and exports a Chrome trace (Perfetto opens it) and CSV.

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
    void onRunEnd(int64_t wallNs, int64_t peakBytes) override;

    int runs() const { return static_cast<int>(m_runs.size()); }
    const std::vector<std::vector<NodeTiming>>& timings() const { return m_runs; }
    const std::vector<int64_t>& wallNs() const { return m_wall; }
    int64_t medianWallNs() const;
    int64_t peakBytes() const { return m_peak; }
    int threads() const { return m_threads; }

    /// Per node, medians over all runs (nodes never executed are left out).
    std::vector<NodeProfile> nodes() const;
    std::vector<GroupProfile> byOp() const;
    /// Self time per innermost module path ("" = nodes outside any module).
    std::vector<GroupProfile> byModule() const;

    /// Chrome trace JSON of the run whose wall time is the median; events named by node with op and
    /// module path in args, one track per worker thread.
    std::string chromeTraceJson() const;
    /// node,op,module,median_us,min_us,max_us,bytes,flops,gflops
    std::string csv() const;

private:
    const ExecutionPlan* m_plan = nullptr;
    int m_threads = 1;
    std::vector<NodeTiming> m_current;
    std::vector<std::vector<NodeTiming>> m_runs;
    std::vector<int64_t> m_wall;
    int64_t m_peak = 0;
};

int64_t medianOf(std::vector<int64_t> values);

} // namespace irlens::core::exec
