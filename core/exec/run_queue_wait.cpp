#include "core/exec/run_queue_wait.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <iterator>
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
    if (fd < 0) return -1;
    char buf[96];
    const ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    if (n <= 0) return -1;
    buf[n] = 0;
    long long run = 0, wait = 0;
    return std::sscanf(buf, "%lld %lld", &run, &wait) == 2 ? static_cast<int64_t>(wait) : -1;
}
#endif

} // namespace

RunQueueWait::RunQueueWait() : m_id(g_nextId.fetch_add(1)) {}

RunQueueWait::~RunQueueWait() {
#if defined(__linux__)
    for (int fd : m_fds)
        if (fd >= 0) close(fd);
#endif
}

bool RunQueueWait::available() {
#if defined(__linux__)
    static const bool reported = [] {
        const int fd = openSchedstat(gettid());
        const bool ok = waitOf(fd) >= 0;
        if (fd >= 0) close(fd);
        return ok;
    }();
    return reported;
#else
    return false;
#endif
}

void RunQueueWait::addCallingThread() {
    if (std::find(std::begin(t_recentSets), std::end(t_recentSets), m_id) != std::end(t_recentSets)) return;
    t_recentSets[t_recentNext] = m_id;
    t_recentNext = (t_recentNext + 1) % kRecentSets;
#if defined(__linux__)
    addThread(gettid());
#endif
}

void RunQueueWait::addThread(long tid) {
#if defined(__linux__)
    if (!available()) return;
    std::lock_guard<std::mutex> lock(m_mutex);
    if (std::find(m_tids.begin(), m_tids.end(), tid) != m_tids.end()) return;
    m_tids.push_back(tid);
    m_fds.push_back(openSchedstat(tid));
#else
    (void)tid;
#endif
}

void RunQueueWait::mark() {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_marks.resize(m_fds.size());
#if defined(__linux__)
    for (size_t k = 0; k < m_fds.size(); ++k) m_marks[k] = waitOf(m_fds[k]);
#endif
}

int64_t RunQueueWait::waitedSinceMark() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    int64_t sum = 0;
#if defined(__linux__)
    for (size_t k = 0; k < m_marks.size(); ++k) {
        const int64_t now = waitOf(m_fds[k]);
        if (m_marks[k] >= 0 && now >= m_marks[k]) sum += now - m_marks[k];
    }
#endif
    return sum;
}

} // namespace irlens::core::exec
