#pragma once
// How a kernel splits one node over the workers. A node's parts run on the calling thread and on
// whichever workers are free; the calling thread runs parts itself until none is left, so a node never
// waits for a worker that has not started (a worker the system took off its core, or one still waking
// up), only for parts a worker has already begun. The wait is isolated: a thread waiting for the last
// part of its node never picks up a task of another node, whose whole run would then hold this node's
// end back (a 1 us view waiting behind a 2 ms GEMM on the critical path).

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <cstdint>

namespace irlens::core::exec {

/// body(k) for every part k in [0, parts).
template <class F>
void forEachPart(int64_t parts, F&& body) {
    if (parts <= 1) {
        if (parts == 1) body(int64_t(0));
        return;
    }
    tbb::this_task_arena::isolate([&] { tbb::parallel_for(int64_t(0), parts, [&](int64_t k) { body(k); }); });
}

/// body(begin, end) over [0, n) in ranges of at least `grain`, split across the free workers.
template <class F>
void forEachRange(int64_t n, int64_t grain, F&& body) {
    tbb::this_task_arena::isolate([&] {
        tbb::parallel_for(tbb::blocked_range<int64_t>(0, n, grain), [&](const tbb::blocked_range<int64_t>& r) { body(r.begin(), r.end()); });
    });
}

} // namespace irlens::core::exec
