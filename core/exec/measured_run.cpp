#include "core/exec/measured_run.h"

#include <algorithm>
#include <limits>
#include <map>

namespace irlens::core::exec {

std::vector<int> startOrder(const std::vector<NodeTiming>& timings) {
    std::vector<int> order;
    for (const NodeTiming& t : timings)
        if (t.node >= 0) order.push_back(t.node);
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        const NodeTiming& x = timings[static_cast<size_t>(a)];
        const NodeTiming& y = timings[static_cast<size_t>(b)];
        if (x.startNs != y.startNs) return x.startNs < y.startNs;
        if (x.endNs != y.endNs) return x.endNs < y.endNs;
        return a < b;
    });
    return order;
}

namespace {

// Per node, the latest end among its predecessors in `run` (`origin` for a root).
std::vector<int64_t> readyTimes(const PlanGraph& g, const std::vector<NodeTiming>& run, int64_t origin) {
    std::vector<int64_t> ready(g.nodes.size(), origin);
    for (const PlanNode& pn : g.nodes) {
        const NodeTiming& t = run[static_cast<size_t>(pn.index)];
        if (t.node < 0) continue;
        for (int s : pn.successors) ready[static_cast<size_t>(s)] = std::max(ready[static_cast<size_t>(s)], t.endNs);
    }
    return ready;
}

// The task starts of one run: a node whose interval does not begin where the previous node on its
// worker ended (the engine restarts the boundary when a worker picks up a task). A worker's first
// node is its join (SchedulingOverheads::workerJoinNs); each later task start adds to `delays` its
// delay from the moment both its inputs and its worker were ready.
void collectTaskStarts(const PlanGraph& g, const std::vector<NodeTiming>& run, int threads, std::vector<int64_t>& delays,
                       SchedulingOverheads& o) {
    o.workerJoinNs.assign(static_cast<size_t>(std::max(1, threads)), -1);
    const std::vector<int> order = startOrder(run);
    if (order.empty()) return;
    const int64_t origin = run[static_cast<size_t>(order.front())].startNs;
    const std::vector<int64_t> ready = readyTimes(g, run, origin);
    std::map<int, int64_t> workerFree; // thread -> end of its last node so far
    for (int node : order) {
        const NodeTiming& t = run[static_cast<size_t>(node)];
        auto it = workerFree.find(t.thread);
        if (it == workerFree.end()) {
            if (static_cast<size_t>(t.thread) < o.workerJoinNs.size()) o.workerJoinNs[static_cast<size_t>(t.thread)] = t.startNs - origin;
        } else if (it->second != t.startNs) {
            delays.push_back(std::max<int64_t>(0, t.startNs - std::max(it->second, ready[static_cast<size_t>(t.node)])));
        }
        workerFree[t.thread] = t.endNs;
    }
    o.workerJoinNs[0] = 0; // the calling thread starts the run
}

// Time of one run outside its node intervals: before the first node and after the last.
int64_t outsideNodes(const std::vector<NodeTiming>& run, int64_t wallNs) {
    int64_t first = std::numeric_limits<int64_t>::max(), last = 0;
    for (const NodeTiming& t : run) {
        if (t.node < 0) continue;
        first = std::min(first, t.startNs);
        last = std::max(last, t.endNs);
    }
    if (last == 0) return wallNs;
    return std::max<int64_t>(0, first) + std::max<int64_t>(0, wallNs - last);
}

// Up to kMaxReplayedRuns sampled runs, evenly spread over the range of their wall times.
std::vector<int> spreadSamples(const Profile& profile) {
    std::vector<int> order(static_cast<size_t>(profile.samples()));
    for (size_t k = 0; k < order.size(); ++k) order[k] = static_cast<int>(k);
    std::sort(order.begin(), order.end(), [&](int a, int b) { return profile.sampleWallNs(a) < profile.sampleWallNs(b); });
    if (order.size() <= static_cast<size_t>(kMaxReplayedRuns)) return order;
    std::vector<int> picked;
    for (size_t i = 0; i < static_cast<size_t>(kMaxReplayedRuns); ++i)
        picked.push_back(order[i * (order.size() - 1) / (kMaxReplayedRuns - 1)]);
    return picked;
}

SampledRun sampledRun(const ExecutionPlan& plan, const Profile& profile, int k) {
    SampledRun s;
    s.wallNs = profile.sampleWallNs(k);
    const std::vector<NodeTiming> run = profile.sampleRun(k);
    s.nodeNs.assign(plan.graph().nodes.size(), -1);
    for (const NodeTiming& t : run)
        if (t.node >= 0 && static_cast<size_t>(t.node) < s.nodeNs.size()) s.nodeNs[static_cast<size_t>(t.node)] = t.endNs - t.startNs;
    s.overheads.runNs = outsideNodes(run, s.wallNs);
    std::vector<int64_t> delays;
    collectTaskStarts(plan.graph(), run, profile.threads(), delays, s.overheads);
    s.overheads.taskStartNs = medianOf(delays);
    s.overheads.taskStarts = static_cast<int>(delays.size());
    return s;
}

SchedulingOverheads medianOverheads(const std::vector<SampledRun>& samples) {
    std::vector<int64_t> run, task;
    SchedulingOverheads o;
    for (const SampledRun& s : samples) {
        run.push_back(s.overheads.runNs);
        task.push_back(s.overheads.taskStartNs);
        o.taskStarts += s.overheads.taskStarts;
    }
    o.runNs = medianOf(run);
    o.taskStartNs = medianOf(task);
    // per worker, the median join; a worker that sat out most runs counts as never joining
    for (size_t w = 0; !samples.empty() && w < samples.front().overheads.workerJoinNs.size(); ++w) {
        std::vector<int64_t> joins;
        for (const SampledRun& s : samples) {
            const auto& j = s.overheads.workerJoinNs;
            joins.push_back(w < j.size() && j[w] >= 0 ? j[w] : std::numeric_limits<int64_t>::max());
        }
        std::sort(joins.begin(), joins.end());
        const int64_t median = joins[joins.size() / 2];
        o.workerJoinNs.push_back(median == std::numeric_limits<int64_t>::max() ? -1 : median);
    }
    return o;
}

} // namespace

MeasuredRun measureRun(const ExecutionPlan& plan, const Profile& profile) {
    MeasuredRun m;
    if (profile.samples() == 0) return m;
    const size_t n = plan.graph().nodes.size();
    m.threads = profile.threads();
    m.runs = profile.runs();
    m.medianWallNs = profile.medianWallNs();
    m.peakBytes = profile.peakBytes();
    m.nodeNs.assign(n, -1);
    m.nodeBytes.assign(n, -1);
    m.nodeFlops.assign(n, 0.0);
    for (const NodeProfile& p : profile.nodes()) {
        if (static_cast<size_t>(p.node) >= n) continue;
        m.nodeNs[static_cast<size_t>(p.node)] = p.medianNs;
        m.nodeBytes[static_cast<size_t>(p.node)] = p.bytes;
        m.nodeFlops[static_cast<size_t>(p.node)] = p.flops;
    }
    m.order = startOrder(profile.sampleRun(profile.medianSample()));
    for (int k : spreadSamples(profile)) m.samples.push_back(sampledRun(plan, profile, k));
    m.overheads = medianOverheads(m.samples);
    return m;
}

} // namespace irlens::core::exec
