#pragma once
// Runs a program in a child process and measures it as a user sees it: wall time from start to
// exit and the child's own peak resident memory (its ru_maxrss), stopped past a time limit.

#include <chrono>
#include <csignal>
#include <cstdio>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace irlens::testing {

struct ChildUsage {
    int exitCode = -1;      // -1: did not start, or did not exit normally
    double seconds = 0;
    double cpuSeconds = 0;  // user and system time of the child (what a loaded machine does not inflate)
    double peakMiB = 0;
    bool timedOut = false;  // stopped (SIGKILL) after the time limit
};

/// Runs `args` (args[0] a path to an executable); its standard output goes to /dev/null, its standard
/// error to `errPath` ("" for /dev/null). The peak includes what the calling process held when it forked
/// (see runInChild).
inline ChildUsage runMeasured(const std::vector<std::string>& args, double limitSeconds, const std::string& errPath = {}) {
    using Clock = std::chrono::steady_clock;
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ChildUsage r;
    const auto t0 = Clock::now();
    const pid_t child = fork();
    if (child < 0) return r;
    if (child == 0) {
        std::FILE* out = std::fopen("/dev/null", "w");
        std::FILE* err = errPath.empty() ? out : std::fopen(errPath.c_str(), "w");
        if (out) dup2(fileno(out), 1);
        if (err) dup2(fileno(err), 2);
        execv(argv[0], argv.data());
        _exit(127);
    }
    int status = 0;
    rusage usage{};
    for (;;) {
        if (wait4(child, &status, WNOHANG, &usage) == child) break;
        if (std::chrono::duration<double>(Clock::now() - t0).count() > limitSeconds) {
            kill(child, SIGKILL);
            wait4(child, &status, 0, &usage);
            r.timedOut = true;
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    auto secondsOf = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
    r.cpuSeconds = secondsOf(usage.ru_utime) + secondsOf(usage.ru_stime);
    r.peakMiB = static_cast<double>(usage.ru_maxrss) / 1024.0;
    r.exitCode = !r.timedOut && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

/// Runs `fn` in a forked child and says whether it returned true. Work that grows this process (building
/// a big program to write it) is done there and its memory goes with the child: a process started later
/// by runMeasured reports the peak of what this one held when it forked (ru_maxrss counts the pages a
/// process held before it called exec), so this one must stay small.
template <class Fn>
bool runInChild(Fn&& fn) {
    const pid_t child = fork();
    if (child < 0) return false;
    if (child == 0) _exit(fn() ? 0 : 1);
    int status = 0;
    if (waitpid(child, &status, 0) != child) return false;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

} // namespace irlens::testing
