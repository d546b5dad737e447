#pragma once
// How a kernel splits one node over the workers. A node's parts run on the calling thread and on
// whichever workers are free; the calling thread runs parts itself until none is left, so a node never
// waits for a worker that has not started (a worker the system took off its core, or one still waking
// up), only for parts a worker has already begun. The wait is isolated: a thread waiting for the last
// part of its node never picks up a task of another node, whose whole run would then hold this node's
// end back (a 1 us view waiting behind a 2 ms GEMM on the critical path).
// In a profiled run, each part another worker runs is timed for the trace (part_log.h).

#include "core/exec/part_log.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <cstdint>

namespace irlens::core::exec {

namespace parts_detail {

/// The thread a node's parts are split from, when they are timed (-1 when not).
inline int splittingThread(const PartLog::Scope& scope) { return scope.log ? tbb::this_task_arena::current_thread_index() : -1; }

/// Runs one part; with a log, one that runs on a worker other than `caller` is timed into it.
template <class F>
void runPart(const PartLog::Scope& scope, int caller, F&& part) {
    const int self = scope.log ? tbb::this_task_arena::current_thread_index() : caller;
    if (self == caller) {
        part();
        return;
    }
    const int64_t start = scope.log->now();
    part();
    scope.log->add({scope.node, self, start, scope.log->now()});
}

} // namespace parts_detail

/// body(k) for every part k in [0, parts).
template <class F>
void forEachPart(int64_t parts, F&& body) {
    if (parts <= 1) {
        if (parts == 1) body(int64_t(0));
        return;
    }
    const PartLog::Scope scope = PartLog::current();
    tbb::this_task_arena::isolate([&] {
        const int caller = parts_detail::splittingThread(scope);
        tbb::parallel_for(int64_t(0), parts, [&](int64_t k) { parts_detail::runPart(scope, caller, [&] { body(k); }); });
    });
}

/// body(begin, end) over [0, n) in ranges of at least `grain`, split across the free workers.
template <class F>
void forEachRange(int64_t n, int64_t grain, F&& body) {
    const PartLog::Scope scope = PartLog::current();
    tbb::this_task_arena::isolate([&] {
        const int caller = parts_detail::splittingThread(scope);
        tbb::parallel_for(tbb::blocked_range<int64_t>(0, n, grain), [&](const tbb::blocked_range<int64_t>& r) {
            parts_detail::runPart(scope, caller, [&] { body(r.begin(), r.end()); });
        });
    });
}

} // namespace irlens::core::exec
