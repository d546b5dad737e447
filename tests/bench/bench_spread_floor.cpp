// bench_spread_floor: how often bench_engine's spread criterion holds on this machine for a program
// that does exactly the same work in every run, against a longer one that does too.
//
//   bench_spread_floor [--pairs SHORT:LONG,...] [--threads 1,2] [--trials N] [--repeat N] [--rounds R]
//
// bench_engine calls irlens steady at two threads when its max/median and p90/median are at or under
// PyTorch's in the same run. This bench times two stand-ins of fixed work instead of the two sides:
// a chain of dependent multiply-adds on registers (no memory traffic, no allocation, no system call),
// sized once to SHORT and LONG milliseconds. At two threads each run splits its work in halves: the
// calling thread does one, a helper thread that spins between runs (it never sleeps, as OpenMP's teams
// spin between parallel regions) the other, and the run ends when both are done. Everything else is
// bench_engine's protocol: R rounds of N/R runs of each side in turn, each side warmed up before its
// runs as bench_engine warms irlens up (at least 3 runs and 2 ms), and its criterion: a side's
// max/median and p90/median (bench_stats.h, steadinessOf), the shorter one passing when both are at or
// under the longer one's (with rounds of 10 runs or fewer the p90 is the round's maximum).
// Whatever makes one stand-in's runs slower than another's is the machine: interrupts, the hypervisor
// taking a virtual CPU away, other tenants. A trial is one such comparison; the bench prints in how many
// trials the shorter stand-in's spread was at or under the longer one's, both sides' median max/med,
// and the product of the pass rates over the pairs of each thread count: the chance, on this machine,
// that a program of constant work meets the criterion on all those pairs in one run.
//
// First it prints how often the machine stops a lone thread for a short while: a chain cut into 3 us
// pieces, the share of pieces that took over 1.3 x the median piece and the median gap between them.
//
// The default pairs are the two-thread medians of the README's table (irlens, PyTorch), in model order;
// by default 20 trials per pair, at 2 threads, of 30 runs a side in 3 rounds.
#include "bench_machine.h"
#include "bench_stats.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

using irlens::bench::splitList;
using irlens::bench::Steadiness;
using irlens::bench::steadinessOf;
using irlens::bench::summarize;
using irlens::bench::threadList;
using Clock = std::chrono::steady_clock;

namespace {

constexpr double kPieceUs = 3.0;    // the lone thread's pieces
constexpr double kSlowPiece = 1.3;  // a piece this many times the median one counts as stopped

double msSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

// `steps` dependent multiply-adds (the callers store the result in a volatile, so the work is done).
double chain(long steps) {
    double x = 1.0;
    for (long i = 0; i < steps; ++i) x = x * 1.0000001 + 1e-9;
    return x;
}

// The stand-ins' runner: one thread, or the calling thread and a spinning helper splitting each run.
class Runner {
public:
    explicit Runner(int threads) : threads_(threads) {
        if (threads_ > 1) helper_ = std::thread([this] { helperLoop(); });
    }
    ~Runner() {
        if (!helper_.joinable()) return;
        quit_.store(true, std::memory_order_release);
        helper_.join();
    }
    Runner(const Runner&) = delete;
    Runner& operator=(const Runner&) = delete;

    // One run of `steps` steps of work; its wall time in ms.
    double run(long steps) {
        const auto t0 = Clock::now();
        if (threads_ == 1) {
            sink_ = chain(steps);
        } else {
            helperSteps_.store(steps / 2, std::memory_order_relaxed);
            helperDone_.store(false, std::memory_order_relaxed);
            generation_.fetch_add(1, std::memory_order_release);
            sink_ = chain(steps - steps / 2);
            while (!helperDone_.load(std::memory_order_acquire)) {
            }
        }
        return msSince(t0);
    }
    // Steps for a run of `ms` milliseconds: the median of a few runs sized at about a millisecond.
    long stepsFor(double ms) {
        const long probe = 1'000'000;
        std::vector<double> t;
        for (int k = 0; k < 9; ++k) t.push_back(run(probe));
        return std::max(1L, static_cast<long>(ms / summarize(t).median * static_cast<double>(probe)));
    }

private:
    void helperLoop() {
        unsigned seen = 0;
        while (!quit_.load(std::memory_order_acquire)) {
            const unsigned g = generation_.load(std::memory_order_acquire);
            if (g == seen) continue;
            seen = g;
            helperSink_ = chain(helperSteps_.load(std::memory_order_relaxed));
            helperDone_.store(true, std::memory_order_release);
        }
    }

    int threads_;
    std::thread helper_;
    std::atomic<unsigned> generation_{0};
    std::atomic<long> helperSteps_{0};
    std::atomic<bool> helperDone_{false};
    std::atomic<bool> quit_{false};
    volatile double sink_ = 0, helperSink_ = 0; // each thread's last result, so the work is done
};

// One side of a round: bench_engine's warm-up, then `n` timed runs.
std::vector<double> side(Runner& r, long steps, int n) {
    irlens::bench::warmUp([&] { r.run(steps); });
    std::vector<double> ms;
    for (int k = 0; k < n; ++k) ms.push_back(r.run(steps));
    return ms;
}

struct Pair {
    double shortMs = 0, longMs = 0;
};

struct Options {
    std::vector<Pair> pairs = {{0.007, 0.022}, {14.6, 21.0}, {7.45, 11.7}, {2.96, 4.01}, {1.06, 1.71}, {3.24, 11.3}, {10.7, 22.2}};
    std::vector<int> threadCounts = {2};
    int trials = 20;
    int repeat = 30;
    int rounds = 3;
};

bool parseArgs(int argc, char** argv, Options& o) {
    for (int k = 1; k < argc; ++k) {
        const std::string a = argv[k];
        if (a == "--pairs" && k + 1 < argc) {
            o.pairs.clear();
            for (const auto& p : splitList(argv[++k])) {
                const auto colon = p.find(':');
                if (colon == std::string::npos) return false;
                Pair pair{std::atof(p.substr(0, colon).c_str()), std::atof(p.substr(colon + 1).c_str())};
                if (!(pair.shortMs > 0) || !(pair.longMs > 0)) return false;
                o.pairs.push_back(pair);
            }
            if (o.pairs.empty()) return false;
        } else if (a == "--threads" && k + 1 < argc) o.threadCounts = threadList(argv[++k]);
        else if (a == "--trials" && k + 1 < argc) o.trials = std::max(1, std::atoi(argv[++k]));
        else if (a == "--repeat" && k + 1 < argc) o.repeat = std::max(1, std::atoi(argv[++k]));
        else if (a == "--rounds" && k + 1 < argc) o.rounds = std::max(1, std::atoi(argv[++k]));
        else return false;
    }
    o.rounds = std::min(o.rounds, o.repeat);
    return !o.threadCounts.empty();
}

// How often the machine stops a lone thread briefly: kPieceUs pieces of the chain for about 0.2 s.
void printShortStops(Runner& lone) {
    const long steps = lone.stepsFor(kPieceUs / 1000.0);
    std::vector<double> us;
    const auto start = Clock::now();
    while (msSince(start) < 200.0) us.push_back(lone.run(steps) * 1000.0);
    const double med = summarize(us).median;
    std::vector<double> gapsUs;
    double sinceLast = 0;
    int slow = 0;
    bool seenOne = false;
    for (double t : us) {
        sinceLast += t;
        if (t <= kSlowPiece * med) continue;
        ++slow;
        if (seenOne) gapsUs.push_back(sinceLast);
        seenOne = true;
        sinceLast = 0;
    }
    std::printf("short stops of a lone thread: %d of %zu pieces of %.1f us (median) over %.1fx the median (%.1f %%)", slow, us.size(), med,
                kSlowPiece, 100.0 * slow / static_cast<double>(us.size()));
    if (!gapsUs.empty()) std::printf(", median gap between them %.0f us", summarize(gapsUs).median);
    std::printf("\n");
}

} // namespace

int main(int argc, char** argv) {
    Options opt;
    if (!parseArgs(argc, argv, opt)) {
        std::fprintf(stderr, "usage: bench_spread_floor [--pairs SHORT:LONG,...] [--threads 1,2] [--trials N] [--repeat N] [--rounds R]\n");
        return 2;
    }
    std::printf("machine: %s; load average %s\n", irlens::bench::cpuModel().c_str(), irlens::bench::loadAverage().c_str());
    {
        Runner lone(1);
        printShortStops(lone);
    }
    std::printf("%d trials of %d runs a side in %d rounds; spread = largest round max and p90 / median of all runs, "
                "med = the trials' median max/med\n", opt.trials, opt.repeat, opt.rounds);
    std::printf("%-10s %-10s %3s  %-16s %-10s %-10s\n", "short ms", "long ms", "thr", "short <= long", "short med", "long med");
    for (int threads : opt.threadCounts) {
        Runner runner(threads);
        double allPass = 1.0;
        for (const Pair& p : opt.pairs) {
            const long shortSteps = runner.stepsFor(p.shortMs), longSteps = runner.stepsFor(p.longMs);
            int passes = 0;
            std::vector<double> shortSpreads, longSpreads;
            for (int t = 0; t < opt.trials; ++t) {
                std::vector<std::vector<double>> s, l;
                for (int round = 0; round < opt.rounds; ++round) {
                    const int n = opt.repeat * (round + 1) / opt.rounds - opt.repeat * round / opt.rounds;
                    s.push_back(side(runner, shortSteps, n));
                    l.push_back(side(runner, longSteps, n));
                }
                const Steadiness a = steadinessOf(s), b = steadinessOf(l);
                shortSpreads.push_back(a.maxOverMedian);
                longSpreads.push_back(b.maxOverMedian);
                passes += a.atOrUnder(b);
            }
            const double rate = passes / static_cast<double>(opt.trials);
            allPass *= rate;
            char share[32];
            std::snprintf(share, sizeof share, "%d of %d", passes, opt.trials);
            std::printf("%-10.3f %-10.3f %3d  %-16s %-10.2f %-10.2f\n", p.shortMs, p.longMs, threads, share, summarize(shortSpreads).median,
                        summarize(longSpreads).median);
            std::fflush(stdout);
        }
        std::printf("all %zu pairs at %d thread%s in one run: %.2g (product of the pass rates)", opt.pairs.size(), threads,
                    threads == 1 ? "" : "s", allPass);
        if (allPass > 0) std::printf(", about one run in %.0f", 1.0 / allPass);
        std::printf("\n");
    }
    return 0;
}
