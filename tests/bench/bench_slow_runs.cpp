// Which nodes make a model's slow runs slow, from the engine's own timings.
//
//   bench_slow_runs [--model NAME] [--threads T] [--runs N]
//
// Runs generated/NAME (default tiny_gpt) N times (default 200, after 5 warm-ups) at T threads
// (default 2) with an observer keeping every run's node timings. Prints the run times (min, median,
// p90, max), each of the slowest tenth of the runs with how much of its excess over the median run
// lies inside nodes (each node's time against its own median) rather than between them, and the
// nodes with the largest mean excess over the slow runs, with the thread that ran them (a node that
// splits into parts runs on the thread that started it, which then waits for the parts on the other
// workers; 0 is the calling thread), against how often they did so over all runs.
// Each slow run also shows how long the process's threads waited on a run queue during it (runnable,
// with another task on their core), from /proc/self/task/*/schedstat read around every run: the
// calling thread's wait and the other threads' (the engine's workers) apart. Excess that no thread
// waited for is the threads running slower than usual or a virtual CPU not running at all, which
// the guest sees only in the machine's steal time (/proc/stat, in 10 ms units), if the hypervisor
// reports it.
// Each slow run also shows how many timer interrupts (the LOC line of /proc/interrupts, summed over
// the machine's CPUs) arrived during it, and the runs are summed up by that count: a tick stops a
// thread for the guest's and the hypervisor's handlers and leaves its caches colder, so on a machine
// whose ticks are costly a run that takes one is slower by a fixed amount, which weighs more the
// shorter the run.

#include "bench_models.h"
#include "core/exec/run_queue_wait.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace irlens::core::exec;

namespace {

// Every run's node timings, one slot per plan node.
struct RunTimings : ExecObserver {
    std::vector<NodeTiming> slots;
    std::vector<std::vector<NodeTiming>> runs;
    std::vector<int64_t> wallNs;
    void onRunStart(const ExecutionPlan& plan, int) override { slots.assign(plan.graph().nodes.size(), NodeTiming{-1}); }
    void onNode(const NodeTiming&) override {}
    NodeTiming* timingSlots() override { return slots.data(); }
    void onRunEnd(int64_t wall, int64_t) override {
        runs.push_back(slots);
        wallNs.push_back(wall);
    }
};

double durationNs(const NodeTiming& t) { return static_cast<double>(t.endNs - t.startNs); }

// This process's threads as two run-queue sets (core/exec/run_queue_wait.h): the calling thread, and
// every other thread (the engine's workers), listed from /proc/self/task.
struct ThreadSets {
    RunQueueWait caller, others;
    size_t otherCount = 0;
    ThreadSets() {
        caller.addCallingThread();
        DIR* dir = opendir("/proc/self/task");
        if (!dir) return;
        const long self = gettid();
        while (const dirent* e = readdir(dir)) {
            const long tid = std::atol(e->d_name);
            if (tid <= 0 || tid == self) continue;
            others.addThread(tid);
            ++otherCount;
        }
        closedir(dir);
    }
};

// A /proc file kept open and read again from its start with one pread: its text, or nullptr when it
// cannot be read. `size` bounds what is read (enough for the lines the caller needs).
class ProcText {
public:
    ProcText(const char* path, size_t size) : m_fd(open(path, O_RDONLY | O_CLOEXEC)), m_buf(size) {}
    ~ProcText() {
        if (m_fd >= 0) close(m_fd);
    }
    ProcText(const ProcText&) = delete;
    ProcText& operator=(const ProcText&) = delete;

    const char* read() {
        const ssize_t n = m_fd >= 0 ? pread(m_fd, m_buf.data(), m_buf.size() - 1, 0) : -1;
        if (n <= 0) return nullptr;
        m_buf[static_cast<size_t>(n)] = 0;
        return m_buf.data();
    }

private:
    int m_fd;
    std::vector<char> m_buf;
};

// The machine's steal time so far in ms (the eighth value of /proc/stat's cpu line, in USER_HZ ticks of
// 10 ms): time the hypervisor ran something else while a virtual CPU of this guest wanted to run.
// -1 when it cannot be read.
double stealMs(ProcText& stat) {
    const char* text = stat.read();
    long long v[8] = {};
    if (!text || std::sscanf(text, "cpu %lld %lld %lld %lld %lld %lld %lld %lld", v, v + 1, v + 2, v + 3, v + 4, v + 5, v + 6, v + 7) != 8) return -1;
    return static_cast<double>(v[7]) * 1000.0 / static_cast<double>(sysconf(_SC_CLK_TCK));
}

// Timer interrupts so far, summed over the machine's CPUs (the LOC line of /proc/interrupts); -1 when
// it cannot be read.
long long timerTicks(ProcText& interrupts) {
    const char* text = interrupts.read();
    const char* line = text ? std::strstr(text, "\nLOC:") : nullptr;
    if (!line) return -1;
    long long total = 0;
    for (const char* p = line + 5;;) {
        char* end = nullptr;
        const long long v = std::strtoll(p, &end, 10);
        if (end == p) break; // the description after the per-CPU counts
        total += v;
        p = end;
    }
    return total;
}

} // namespace

int main(int argc, char** argv) {
    std::string model = "tiny_gpt";
    int threads = 2, runs = 200;
    for (int k = 1; k < argc; ++k) {
        const std::string a = argv[k];
        if (a == "--model" && k + 1 < argc) model = argv[++k];
        else if (a == "--threads" && k + 1 < argc) threads = std::max(1, std::atoi(argv[++k]));
        else if (a == "--runs" && k + 1 < argc) runs = std::max(10, std::atoi(argv[++k]));
        else {
            std::fprintf(stderr, "usage: bench_slow_runs [--model NAME] [--threads T] [--runs N]\n");
            return 2;
        }
    }
    auto m = irlens::bench::loadBenchModel(model);
    if (!m) return 1;
    Engine engine(m->plan);
    RunTimings timings;
    RunOptions options;
    options.threads = threads;
    options.observer = &timings;
    for (int w = 0; w < 5; ++w)
        if (!engine.run(m->expected.main.inputs, options)) return 1;
    timings.runs.clear();
    timings.wallNs.clear();
    ThreadSets waits; // after the warm-ups, which started the workers
    const bool queueing = RunQueueWait::available();
    ProcText stat("/proc/stat", 256), interrupts("/proc/interrupts", 64 * 1024);
    const bool ticking = timerTicks(interrupts) >= 0;
    std::vector<std::pair<int64_t, int64_t>> waited; // per run: the calling thread's, the others'
    std::vector<double> stolenMs;
    std::vector<long long> ticksIn; // per run: timer interrupts on the machine's CPUs
    for (int r = 0; r < runs; ++r) {
        const double stealBefore = stealMs(stat);
        waits.caller.mark();
        waits.others.mark();
        const long long ticksBefore = ticking ? timerTicks(interrupts) : 0; // the reads closest to the run
        auto result = engine.run(m->expected.main.inputs, options);
        const long long ticksAfter = ticking ? timerTicks(interrupts) : 0;
        waited.emplace_back(waits.caller.waitedSinceMark(), waits.others.waitedSinceMark());
        ticksIn.push_back(ticksBefore >= 0 && ticksAfter >= 0 ? ticksAfter - ticksBefore : 0);
        const double stealAfter = stealMs(stat);
        stolenMs.push_back(stealBefore >= 0 && stealAfter >= 0 ? stealAfter - stealBefore : 0);
        if (!result) {
            std::printf("%s: %s\n", model.c_str(), result.error().c_str());
            return 1;
        }
    }
    std::vector<int> order(static_cast<size_t>(runs));
    for (int r = 0; r < runs; ++r) order[static_cast<size_t>(r)] = r;
    std::sort(order.begin(), order.end(), [&](int a, int b) { return timings.wallNs[static_cast<size_t>(a)] < timings.wallNs[static_cast<size_t>(b)]; });
    auto wallMs = [&](size_t rank) { return static_cast<double>(timings.wallNs[static_cast<size_t>(order[rank])]) / 1e6; };
    const size_t n = order.size();
    std::printf("%s, %d threads, %d runs: min %.3f, median %.3f, p90 %.3f, max %.3f ms\n", model.c_str(), threads, runs, wallMs(0), wallMs(n / 2),
                wallMs(n * 9 / 10), wallMs(n - 1));

    const auto& nodes = m->plan->graph().nodes;
    std::vector<double> medianNs(nodes.size(), 0);
    for (size_t k = 0; k < nodes.size(); ++k) {
        std::vector<double> d;
        for (const auto& run : timings.runs)
            if (run[k].node >= 0) d.push_back(durationNs(run[k]));
        if (d.empty()) continue;
        std::nth_element(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(d.size() / 2), d.end());
        medianNs[k] = d[d.size() / 2];
    }
    const size_t slow = std::max<size_t>(1, n / 10);
    std::vector<double> excessNs(nodes.size(), 0);
    std::vector<int> offCaller(nodes.size(), 0);
    if (queueing)
        std::printf("slowest %zu runs: wall ms, excess over the median run ms, of it inside nodes ms; run-queue wait ms of the calling "
                    "thread, of the other %zu threads; machine steal ms%s\n", slow, waits.otherCount, ticking ? "; timer ticks" : "");
    else
        std::printf("slowest %zu runs: wall ms, excess over the median run ms, of it inside nodes ms%s\n", slow, ticking ? "; timer ticks" : "");
    double slowExcess = 0, slowCallerWait = 0, slowOthersWait = 0, slowSteal = 0;
    for (size_t s = 0; s < slow; ++s) {
        const auto& run = timings.runs[static_cast<size_t>(order[n - 1 - s])];
        double inside = 0;
        for (size_t k = 0; k < nodes.size(); ++k) {
            if (run[k].node < 0) continue;
            const double e = durationNs(run[k]) - medianNs[k];
            excessNs[k] += e;
            inside += e;
            offCaller[k] += run[k].thread != 0;
        }
        const auto& w = waited[static_cast<size_t>(order[n - 1 - s])];
        slowExcess += wallMs(n - 1 - s) - wallMs(n / 2);
        slowCallerWait += static_cast<double>(w.first) / 1e6;
        slowOthersWait += static_cast<double>(w.second) / 1e6;
        const double stolen = stolenMs[static_cast<size_t>(order[n - 1 - s])];
        slowSteal += stolen;
        if (queueing)
            std::printf("  %8.3f %8.3f %8.3f %8.3f %8.3f %6.0f", wallMs(n - 1 - s), wallMs(n - 1 - s) - wallMs(n / 2), inside / 1e6,
                        static_cast<double>(w.first) / 1e6, static_cast<double>(w.second) / 1e6, stolen);
        else
            std::printf("  %8.3f %8.3f %8.3f", wallMs(n - 1 - s), wallMs(n - 1 - s) - wallMs(n / 2), inside / 1e6);
        if (ticking) std::printf(" %6lld", ticksIn[static_cast<size_t>(order[n - 1 - s])]);
        std::printf("\n");
    }
    if (queueing) {
        double callerAll = 0, stealAll = 0;
        for (const auto& w : waited) callerAll += static_cast<double>(w.first) / 1e6;
        for (double st : stolenMs) stealAll += st;
        std::printf("slowest %zu runs together: excess %.3f ms; the calling thread waited on a run queue %.3f ms, the other threads %.3f ms, "
                    "machine steal %.0f ms (over all %zu runs: the calling thread waited %.3f ms, steal %.0f ms)\n",
                    slow, slowExcess, slowCallerWait, slowOthersWait, slowSteal, n, callerAll, stealAll);
    }
    if (ticking) {
        // The runs grouped by the timer ticks they took (0, 1, 2, 3 or more), against the median of all.
        std::printf("runs by the timer ticks they took: ticks, runs, their median, p90 and max over the median of all runs\n");
        const double all = wallMs(n / 2);
        for (int k = 0; k <= 3; ++k) {
            std::vector<double> ms;
            for (size_t r = 0; r < n; ++r)
                if (ticksIn[r] == k || (k == 3 && ticksIn[r] > 3)) ms.push_back(static_cast<double>(timings.wallNs[r]) / 1e6);
            if (ms.empty()) continue;
            std::sort(ms.begin(), ms.end());
            std::printf("  %s%d %5zu  %6.3f %6.3f %6.3f\n", k == 3 ? ">=" : "  ", k, ms.size(), ms[ms.size() / 2] / all,
                        ms[ms.size() * 9 / 10] / all, ms.back() / all);
        }
    }
    std::vector<size_t> byExcess(nodes.size());
    for (size_t k = 0; k < nodes.size(); ++k) byExcess[k] = k;
    std::sort(byExcess.begin(), byExcess.end(), [&](size_t a, size_t b) { return excessNs[a] > excessNs[b]; });
    std::printf("nodes by mean excess in the slow runs (us), their median (us), slow runs they ran off the calling thread (all runs)\n");
    for (size_t i = 0; i < std::min<size_t>(12, byExcess.size()); ++i) {
        const size_t k = byExcess[i];
        int offCallerAll = 0;
        for (const auto& run : timings.runs) offCallerAll += run[k].node >= 0 && run[k].thread != 0;
        std::printf("  %-28s %-26s %9.1f %9.1f  %d/%zu (%d/%zu)\n", nodes[k].node->name.c_str(), nodes[k].node->target.shortName().c_str(),
                    excessNs[k] / static_cast<double>(slow) / 1e3, medianNs[k] / 1e3, offCaller[k], slow, offCallerAll, n);
    }
    return 0;
}
