#pragma once
// Makes a thread wait on a run queue, for the tests of the queued figures: a SharedCore holds the
// thread that makes it to one core, with a thread of its own spinning on that core, so the two share
// it about half and half. Threads and child processes started meanwhile inherit the affinity and
// share the core too. stop() (or the destructor), on the same thread, ends the spinner and gives the
// thread its former affinity back.

#include <sched.h>

#include <atomic>
#include <thread>

namespace irlens::testing {

class SharedCore {
public:
    SharedCore() {
        if (sched_getaffinity(0, sizeof m_saved, &m_saved) != 0) return;
        int core = -1;
        for (int c = 0; c < CPU_SETSIZE && core < 0; ++c)
            if (CPU_ISSET(c, &m_saved)) core = c;
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(core, &one);
        if (core < 0 || sched_setaffinity(0, sizeof one, &one) != 0) return;
        m_pinned = true;
        m_spinner = std::thread([this] { // inherits the one core
            volatile unsigned long n = 0;
            while (!m_stop.load(std::memory_order_relaxed)) n = n + 1;
        });
    }
    ~SharedCore() { stop(); }
    SharedCore(const SharedCore&) = delete;
    SharedCore& operator=(const SharedCore&) = delete;

    /// Whether the thread is held to one core beside the spinner.
    bool pinned() const { return m_pinned; }

    void stop() {
        m_stop = true;
        if (m_spinner.joinable()) m_spinner.join();
        if (m_pinned) sched_setaffinity(0, sizeof m_saved, &m_saved);
        m_pinned = false;
    }

private:
    cpu_set_t m_saved{};
    bool m_pinned = false;
    std::atomic<bool> m_stop{false};
    std::thread m_spinner;
};

} // namespace irlens::testing
