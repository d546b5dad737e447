#include "core/exec/run_queue_wait.h"

#include <algorithm>
#include <iterator>
#include <atomic>
#include <cstdio>
#include <string>

#if defined(__linux__)
#include <fcntl.h>
#include <unistd.h>
#endif

namespace irlens::core::exec {

namespace {

std::atomic<uint64_t> g_nextId{1};

// The sets the calling thread was last added to: the fast path of addCallingThread. A set that has
// dropped out of it looks the thread up by id under its lock.
constexpr size_t kRecentSets = 8;
thread_local uint64_t t_recentSets[kRecentSets] = {};
thread_local size_t t_recentNext = 0;

#if defined(__linux__)
int openSchedstat(long tid) {
    const std::string path = "/proc/self/task/" + std::to_string(tid) + "/schedstat";
    return open(path.c_str(), O_RDONLY | O_CLOEXEC);
}

// The run-queue wait in one open schedstat file ("run_ns wait_ns timeslices"); -1 when unreadable.
int64_t waitOf(int fd) {
    char buf[96];
    const ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    if (n <= 0) return -1;
    buf[n] = 0;
    long long run = 0, wait = 0;
    return std::sscanf(buf, "%lld %lld", &run, &wait) == 2 ? static_cast<int64_t>(wait) : -1;
}
#endif

} // namespace

RunQueueWait::RunQueueWait() : m_id(g_nextId.fetch_add(1)) {
#if defined(__linux__)
    const int fd = openSchedstat(gettid());
    if (fd >= 0) {
        m_available = waitOf(fd) >= 0;
        close(fd);
    }
#endif
}

RunQueueWait::~RunQueueWait() {
#if defined(__linux__)
    for (int fd : m_fds)
        if (fd >= 0) close(fd);
#endif
}

void RunQueueWait::addCallingThread() {
    if (!m_available || std::find(std::begin(t_recentSets), std::end(t_recentSets), m_id) != std::end(t_recentSets)) return;
    t_recentSets[t_recentNext] = m_id;
    t_recentNext = (t_recentNext + 1) % kRecentSets;
#if defined(__linux__)
    const long tid = gettid();
    std::lock_guard<std::mutex> lock(m_mutex);
    if (std::find(m_tids.begin(), m_tids.end(), tid) != m_tids.end()) return;
    m_tids.push_back(tid);
    m_fds.push_back(openSchedstat(tid));
#endif
}

std::vector<int64_t> RunQueueWait::read() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    std::vector<int64_t> waits;
    waits.reserve(m_fds.size());
#if defined(__linux__)
    for (int fd : m_fds) waits.push_back(fd >= 0 ? waitOf(fd) : -1);
#endif
    return waits;
}

int64_t RunQueueWait::waitedBetween(const std::vector<int64_t>& before, const std::vector<int64_t>& after) {
    int64_t sum = 0;
    for (size_t k = 0; k < std::min(before.size(), after.size()); ++k)
        if (before[k] >= 0 && after[k] >= before[k]) sum += after[k] - before[k];
    return sum;
}

} // namespace irlens::core::exec
