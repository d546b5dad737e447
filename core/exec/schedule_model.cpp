#include "core/exec/schedule_model.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <queue>
#include <tuple>

namespace irlens::core::exec {

namespace {

struct Worker {
    std::vector<int> local;  // cheap ready nodes this worker keeps for itself (runFrom's `local`)
    std::deque<int> tasks;   // spawned, not yet taken: the owner pops the back, thieves the front
    bool idle = false;       // joined and waiting for a task
};

// (time, worker, node): a running node's end, or a worker joining the run (node -1); the earliest
// first, ties by worker.
using Event = std::tuple<int64_t, int, int>;

class Replay {
public:
    Replay(const PlanGraph& g, const std::vector<int64_t>& nodeNs, const ScheduleOptions& o)
        : m_g(g), m_ns(nodeNs), m_o(o), m_workers(static_cast<size_t>(std::max(1, o.workers))) {
        m_out.nodes.assign(g.nodes.size(), ScheduledNode{});
        for (const PlanNode& pn : g.nodes) m_pending.push_back(pn.predecessorCount);
    }

    SchedulePrediction run() {
        if (m_g.roots.empty()) return finish();
        for (size_t k = 1; k < m_g.roots.size(); ++k) spawn(0, m_g.roots[k], 0);
        start(0, m_g.roots[0], 0);
        for (size_t w = 1; w < m_workers.size(); ++w) {
            const int64_t join = w < m_o.workerJoinNs.size() ? m_o.workerJoinNs[w] : 0;
            if (join >= 0) m_events.emplace(join, static_cast<int>(w), -1);
        }
        while (!m_events.empty()) {
            const auto [t, w, node] = m_events.top();
            m_events.pop();
            if (node < 0) join(w, t);
            else nodeDone(w, node, t);
        }
        return finish();
    }

private:
    int64_t duration(int node) const {
        return static_cast<size_t>(node) < m_ns.size() ? std::max<int64_t>(0, m_ns[static_cast<size_t>(node)]) : 0;
    }

    void start(int w, int node, int64_t t) {
        const int64_t end = t + duration(node);
        m_out.nodes[static_cast<size_t>(node)] = ScheduledNode{node, w, t, end};
        m_events.emplace(end, w, node);
    }

    // A worker's first task starts at its measured join itself (the join is that task's start).
    void join(int w, int64_t t) {
        if (!takeTask(w, t)) m_workers[static_cast<size_t>(w)].idle = true;
    }

    // A spawned task goes on its spawner's deque; an idle worker (the lowest numbered) takes it.
    void spawn(int w, int node, int64_t t) {
        m_workers[static_cast<size_t>(w)].tasks.push_back(node);
        ++m_out.tasks;
        for (size_t v = 0; v < m_workers.size(); ++v)
            if (m_workers[v].idle) {
                becomeFree(static_cast<int>(v), t);
                break;
            }
    }

    // runFrom after a node: the first newly ready successor inline, heavy others spawned, light
    // others queued locally; with no inline successor, the newest local node.
    void nodeDone(int w, int node, int64_t t) {
        int next = -1;
        Worker& me = m_workers[static_cast<size_t>(w)];
        for (int s : m_g.nodes[static_cast<size_t>(node)].successors) {
            if (--m_pending[static_cast<size_t>(s)] != 0) continue;
            if (next < 0) next = s;
            else if (m_g.nodes[static_cast<size_t>(s)].work >= m_o.spawnWork) spawn(w, s, t);
            else me.local.push_back(s);
        }
        if (next < 0 && !me.local.empty()) {
            next = me.local.back();
            me.local.pop_back();
        }
        if (next >= 0) start(w, next, t);
        else becomeFree(w, t);
    }

    // Starts at `t` the worker's own newest task, else the oldest task of another worker; false when there is none.
    bool takeTask(int w, int64_t t) {
        Worker& me = m_workers[static_cast<size_t>(w)];
        me.idle = false;
        if (!me.tasks.empty()) {
            const int node = me.tasks.back();
            me.tasks.pop_back();
            start(w, node, t);
            return true;
        }
        for (Worker& other : m_workers)
            if (!other.tasks.empty()) {
                const int node = other.tasks.front();
                other.tasks.pop_front();
                start(w, node, t);
                return true;
            }
        return false;
    }

    // A worker whose chain ended, or an idle one woken by a spawn: a task after the task start delay, else idle.
    void becomeFree(int w, int64_t t) {
        if (!takeTask(w, t + m_o.taskStartNs)) m_workers[static_cast<size_t>(w)].idle = true;
    }

    SchedulePrediction finish() {
        int64_t last = 0;
        for (const ScheduledNode& s : m_out.nodes)
            if (s.node >= 0) last = std::max(last, s.endNs);
        m_out.wallNs = last + m_o.runNs;
        return std::move(m_out);
    }

    const PlanGraph& m_g;
    const std::vector<int64_t>& m_ns;
    const ScheduleOptions& m_o;
    std::vector<Worker> m_workers;
    std::vector<int> m_pending;
    std::priority_queue<Event, std::vector<Event>, std::greater<>> m_events;
    SchedulePrediction m_out;
};

// One worker: the engine's serial loop, graph order, back to back.
SchedulePrediction serialSchedule(const PlanGraph& g, const std::vector<int64_t>& nodeNs, const ScheduleOptions& o) {
    SchedulePrediction p;
    int64_t t = 0;
    for (const PlanNode& pn : g.nodes) {
        const size_t k = static_cast<size_t>(pn.index);
        const int64_t d = k < nodeNs.size() ? std::max<int64_t>(0, nodeNs[k]) : 0;
        p.nodes.push_back(ScheduledNode{pn.index, 0, t, t + d});
        t += d;
    }
    p.wallNs = t + o.runNs;
    return p;
}

} // namespace

ScheduleOptions scheduleOptionsFor(const MeasuredRun& run, int workers) {
    ScheduleOptions o;
    o.workers = workers > 0 ? workers : std::max(1, run.threads);
    o.taskStartNs = run.overheads.taskStartNs;
    o.runNs = run.overheads.runNs;
    o.workerJoinNs = run.overheads.workerJoinNs;
    return o;
}

SchedulePrediction predictSchedule(const PlanGraph& g, const std::vector<int64_t>& nodeNs, const ScheduleOptions& options) {
    if (options.workers <= 1) return serialSchedule(g, nodeNs, options);
    return Replay(g, nodeNs, options).run();
}

std::vector<int64_t> scaleTimes(const std::vector<int64_t>& nodeNs, const std::vector<double>& factors) {
    std::vector<int64_t> out(nodeNs.size());
    for (size_t k = 0; k < nodeNs.size(); ++k) {
        const double f = k < factors.size() ? factors[k] : 1.0;
        out[k] = nodeNs[k] < 0 ? nodeNs[k] : std::llround(static_cast<double>(nodeNs[k]) * f);
    }
    return out;
}

SchedulePrediction predictRun(const PlanGraph& g, const MeasuredRun& run, int workers, const std::vector<double>& factors) {
    ScheduleOptions o = scheduleOptionsFor(run, workers);
    if (scheduleFor(g, o.workers) != GraphSchedule::TaskGraph) o.workers = 1; // graph order, the kernels split as measured
    if (run.samples.empty()) return predictSchedule(g, scaleTimes(run.nodeNs, factors), o);
    std::vector<SchedulePrediction> replays;
    for (const SampledRun& s : run.samples) {
        o.taskStartNs = s.overheads.taskStartNs;
        o.runNs = s.overheads.runNs;
        o.workerJoinNs = s.overheads.workerJoinNs;
        replays.push_back(predictSchedule(g, scaleTimes(s.nodeNs, factors), o));
    }
    std::sort(replays.begin(), replays.end(), [](const auto& a, const auto& b) { return a.wallNs < b.wallNs; });
    return std::move(replays[replays.size() / 2]);
}

} // namespace irlens::core::exec
