#pragma once
// What every benchmark repeats: timing a run N times, the median and spread of the times (Timing
// and summarize from bench_machine.h, with the machine and its load), the comma lists of the command line.

#include "bench_machine.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

namespace irlens::bench {

using Spread = Timing; // median, min and max (bench_machine.h)

inline Spread spread(std::vector<double> v) { return summarize(std::move(v)); }
inline double median(std::vector<double> v) { return summarize(std::move(v)).median; }

/// Milliseconds of each of `runs` calls of `f` (after `warmup` untimed ones); stops at the first call
/// that returns false, and then returns what was timed before it.
template <class F>
std::vector<double> timeRunsMs(int runs, F&& f, int warmup = 0) {
    using Clock = std::chrono::steady_clock;
    std::vector<double> ms;
    for (int k = 0; k < warmup; ++k)
        if (!f()) return ms;
    for (int k = 0; k < runs; ++k) {
        const auto t0 = Clock::now();
        if (!f()) break;
        ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    return ms;
}

/// "a,b,,c" -> {"a", "b", "c"}.
inline std::vector<std::string> splitList(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    for (std::string item; std::getline(ss, item, ',');)
        if (!item.empty()) out.push_back(item);
    return out;
}

/// "1,2" -> {1, 2}; each at least 1.
inline std::vector<int> threadList(const std::string& s) {
    std::vector<int> out;
    for (const auto& t : splitList(s)) out.push_back(std::max(1, std::atoi(t.c_str())));
    return out;
}

} // namespace irlens::bench
