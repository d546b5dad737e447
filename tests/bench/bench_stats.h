#pragma once
// What every benchmark repeats: timing a run N times, the median and spread of the times (Timing
// and summarize from bench_machine.h, with the machine and its load), the comma lists of the command line;
// bench_engine's warm-up and spread criterion, which bench_spread_floor applies to stand-ins.

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

/// bench_engine's warm-up before each side's timed runs in a round (torch_bench.py's --warmup for
/// PyTorch): untimed runs until there were at least kWarmupRuns and they took at least kWarmupMs.
constexpr int kWarmupRuns = 3;
constexpr double kWarmupMs = 2.0;

/// Calls `run` as that warm-up asks; returns how many times.
template <class F>
int warmUp(F&& run) {
    const auto start = std::chrono::steady_clock::now();
    int runs = 0;
    while (runs < kWarmupRuns || std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() < kWarmupMs) {
        run();
        ++runs;
    }
    return runs;
}

/// The spread of a side's runs against its median: max/median and p90/median.
struct Steadiness {
    double maxOverMedian = 0, p90OverMedian = 0;
    /// bench_engine's criterion: both at or under the other side's.
    bool atOrUnder(const Steadiness& other) const {
        return maxOverMedian <= other.maxOverMedian && p90OverMedian <= other.p90OverMedian;
    }
};

/// A round's p90 as torch_bench.py takes it: the sorted runs' element at floor(0.9 n), the maximum
/// itself when a round has 10 runs or fewer.
inline double roundP90(std::vector<double> ms) {
    std::sort(ms.begin(), ms.end());
    return ms[std::min(ms.size() - 1, static_cast<size_t>(0.9 * static_cast<double>(ms.size())))];
}

/// A side's spread as torch_bench.py's per-call summaries give PyTorch's: the largest round maximum
/// and the largest round p90, over the median of all runs. `rounds` holds each round's run times.
inline Steadiness steadinessOf(const std::vector<std::vector<double>>& rounds) {
    Steadiness s;
    std::vector<double> all;
    for (const auto& r : rounds) all.insert(all.end(), r.begin(), r.end());
    if (all.empty()) return s;
    const double med = summarize(all).median;
    if (med <= 0) return s;
    for (const auto& r : rounds) {
        if (r.empty()) continue;
        s.maxOverMedian = std::max(s.maxOverMedian, *std::max_element(r.begin(), r.end()) / med);
        s.p90OverMedian = std::max(s.p90OverMedian, roundP90(r) / med);
    }
    return s;
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
