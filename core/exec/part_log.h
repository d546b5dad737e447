#pragma once
// Where a node's parts ran: a kernel splits its node over the workers (kernels/util/parts.h), and a
// profiled run keeps, for each part a worker other than the node's own thread ran, which worker, which
// node and when. The trace draws them on the worker's track, so a graph run in graph order (every node
// on the calling thread) still shows the workers at work and the values that crossed to them.
//
// The engine keeps one PartLog per run and names, on the thread that runs a node, the node whose
// parts are being split (PartLog::Scope); forEachPart and forEachRange time the parts that run
// elsewhere. Each worker appends to a list of its own: no lock, and after the first runs no
// allocation either, nor in gathering them at the end of a run. A worker that logs a part also joins
// the run's set of threads whose run-queue wait is read (run_queue_wait.h).

#include "core/exec/run_queue_wait.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace irlens::core::exec {

struct PartTiming {
    int node = -1;        // index in the plan's node list
    int thread = 0;       // worker slot in the arena
    int64_t startNs = 0;  // since the start of the run (in the run's ticks while it lasts)
    int64_t endNs = 0;
};

class PartLog {
public:
    /// The run's clock: ticks since its start, as the node timings read it.
    using Clock = int64_t (*)(const void* context);

    /// Empties the log for a run of `workers` workers timed by `clock`; the workers that log a part
    /// join `threads` (none: null).
    void start(int workers, Clock clock, const void* context, RunQueueWait* threads = nullptr) {
        m_clock = clock;
        m_context = context;
        m_threads = threads;
        if (m_perSlot.size() < static_cast<std::size_t>(workers)) m_perSlot.resize(static_cast<std::size_t>(workers));
        for (auto& list : m_perSlot) list.clear();
    }
    int64_t now() const { return m_clock(m_context); }
    /// Called by the worker in slot `t.thread` only.
    void add(const PartTiming& t) {
        if (m_threads) m_threads->addCallingThread();
        if (t.thread >= 0 && static_cast<std::size_t>(t.thread) < m_perSlot.size()) m_perSlot[static_cast<std::size_t>(t.thread)].push_back(t);
    }
    /// Every part of the run, worker by worker, in a list the log keeps for the next run; call after
    /// the run.
    std::vector<PartTiming>& gathered() {
        m_gathered.clear();
        for (const auto& list : m_perSlot) m_gathered.insert(m_gathered.end(), list.begin(), list.end());
        return m_gathered;
    }

    /// The log and node of the parts split on this thread; no log: parts are not timed.
    struct Scope {
        PartLog* log = nullptr;
        int node = -1;
    };
    static Scope& current() {
        thread_local Scope scope;
        return scope;
    }

private:
    Clock m_clock = nullptr;
    const void* m_context = nullptr;
    RunQueueWait* m_threads = nullptr;
    std::vector<std::vector<PartTiming>> m_perSlot;
    std::vector<PartTiming> m_gathered;
};

/// Names `node` as the one whose parts this thread splits into `log` until the scope ends; with no
/// log it leaves the thread's scope as it is.
class PartScope {
public:
    PartScope(PartLog* log, int node) : m_named(log != nullptr) {
        if (!m_named) return;
        m_saved = PartLog::current();
        PartLog::current() = {log, node};
    }
    ~PartScope() {
        if (m_named) PartLog::current() = m_saved;
    }
    PartScope(const PartScope&) = delete;
    PartScope& operator=(const PartScope&) = delete;

private:
    bool m_named;
    PartLog::Scope m_saved;
};

} // namespace irlens::core::exec
