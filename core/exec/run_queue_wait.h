#pragma once
// How long a set of threads waited on a run queue: runnable, while another task had their core.
// Linux keeps that per thread, in ns, as the second field of /proc/self/task/TID/schedstat. A
// profiled run marks it before and reads it after for the threads that ran its nodes and parts (each
// joins the set when it first runs one in a profiled run), so a slow run can be told apart into the
// graph's own time and the time other processes held the engine's cores: on a shared machine the
// slowest of 30 runs is often one in which a thread of the engine sat behind another task for a
// scheduler slice (docs/benchmarks.md). Where the kernel keeps no schedstat, or off Linux, nothing
// is measured.

#include <cstdint>
#include <mutex>
#include <vector>

namespace irlens::core::exec {

class RunQueueWait {
public:
    RunQueueWait();
    ~RunQueueWait();
    RunQueueWait(const RunQueueWait&) = delete;
    RunQueueWait& operator=(const RunQueueWait&) = delete;

    /// Whether this system reports the wait (looked at once per process).
    static bool available();

    /// Adds the calling thread to the set; a thread already in it is not added twice. Thread-safe,
    /// and cheap when called again soon (a look-up in a short thread-local list, no lock).
    void addCallingThread();
    /// Adds thread `tid` of this process, once. Thread-safe.
    void addThread(long tid);

    /// Notes each thread's wait so far; no allocation once the set stops growing.
    void mark();
    /// The wait since mark(), summed over the threads it saw (a thread added since, or ended since,
    /// counts nothing); 0 when nothing was read.
    int64_t waitedSinceMark() const;

private:
    const uint64_t m_id;  // tells this set from any other in a thread's list, even one at the same address
    mutable std::mutex m_mutex;
    std::vector<long> m_tids;     // the added threads
    std::vector<int> m_fds;       // and their open schedstat files (-1: could not be opened)
    std::vector<int64_t> m_marks; // each one's wait at mark() (-1: not read)
};

} // namespace irlens::core::exec
