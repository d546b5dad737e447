// bench_profile_overhead: what the profiling observer costs, side by side in one process on one
// plan and one engine. Runs are grouped in batches long enough for the clock (--batch-ms); batches
// with and without the observer alternate (ABBA order, so drift hits both alike) and the per-run
// times of all batches give medians. The overhead is median(on) / median(off) - 1; the paired
// column is the median (and range) of the on/off ratio of neighbouring batches.
//
//   bench_profile_overhead [--models a,b] [--threads 1,2] [--reps N] [--batch-ms M] [--engine-only]
//
// --engine-only observes with an array reused run after run instead of a Profile: the engine's
// per-node cost without the Profile keeping every run.
#include "core/exec/engine.h"
#include "core/exec/inputs.h"
#include "core/exec/profile.h"
#include "core/io/pt2_reader.h"
#include "bench_models.h"
#include "bench_stats.h"
#include "support/shared_fixtures.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <time.h>
#include <vector>

using namespace irlens::core;
using namespace irlens::core::exec;
using irlens::bench::loadAverage;
using irlens::bench::median;

namespace {

using Clock = std::chrono::steady_clock;

double cpuUs(clockid_t clock) {
    timespec ts{};
    clock_gettime(clock, &ts);
    return static_cast<double>(ts.tv_sec) * 1e6 + static_cast<double>(ts.tv_nsec) / 1e3;
}

// Mean time of one run over a batch of `count` runs, in microseconds (wall, and CPU time of the
// process: on a shared machine the wall clock also counts the time other jobs had the core); false
// when a run fails.
bool batch(Engine& engine, const std::vector<EValue>& inputs, const RunOptions& options, int count, double& usPerRun,
           std::string& error, double* cpuPerRun = nullptr) {
    const double c0 = cpuUs(CLOCK_PROCESS_CPUTIME_ID);
    const auto t0 = Clock::now();
    for (int k = 0; k < count; ++k) {
        auto r = engine.run(inputs, options);
        if (!r) {
            error = r.error();
            return false;
        }
    }
    usPerRun = std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / count;
    if (cpuPerRun) *cpuPerRun = (cpuUs(CLOCK_PROCESS_CPUTIME_ID) - c0) / count;
    return true;
}

// The engine's side alone: timings go to one reused array and are dropped (what a Profile adds on
// top is keeping every run).
class ReusedSlots : public ExecObserver {
public:
    void onRunStart(const ExecutionPlan& plan, int) override { m_slots.resize(plan.graph().nodes.size()); }
    void onNode(const NodeTiming&) override {}
    NodeTiming* timingSlots() override { return m_slots.data(); }

private:
    std::vector<NodeTiming> m_slots;
};

} // namespace

int main(int argc, char** argv) {
    std::vector<std::string> models = {"resnet18", "mobilenet_v2", "transformer_layer", "tiny_gpt", "tiny_mlp"};
    std::vector<int> threadCounts = {1, 2};
    int reps = 15;
    bool engineOnly = false;
    double batchMs = 40;
    for (int k = 1; k < argc; ++k) {
        const std::string a = argv[k];
        if (a == "--models" && k + 1 < argc) models = irlens::bench::splitList(argv[++k]);
        else if (a == "--threads" && k + 1 < argc) threadCounts = irlens::bench::threadList(argv[++k]);
        else if (a == "--reps" && k + 1 < argc) reps = std::max(2, std::atoi(argv[++k]));
        else if (a == "--batch-ms" && k + 1 < argc) batchMs = std::max(1.0, std::atof(argv[++k]));
        else if (a == "--engine-only") engineOnly = true;
        else {
            std::fprintf(stderr, "usage: bench_profile_overhead [--models a,b] [--threads 1,2] [--reps N] [--batch-ms M] [--engine-only]\n");
            return 2;
        }
    }
    if (!irlens::testing::haveShared()) {
        std::fprintf(stderr, "bench_profile_overhead: ../shared/fixtures not found (set IRLENS_SHARED_DIR)\n");
        return 2;
    }
    std::printf("load average at start: %s\n", loadAverage().c_str());
    std::printf("%-18s %3s %6s  %12s %21s  %12s  %9s  %24s  %9s\n", "model", "thr", "batch", "off us/run", "(min-max)", "on us/run",
                "overhead", "paired median (min-max)", "cpu ovh");
    irlens::bench::forEachModelEngine(models, threadCounts, [&](const std::string& m, const irlens::bench::BenchModel& model,
                                                                Engine& engine, int threads) {
        const auto& inputs = model.expected.main.inputs;
        RunOptions off;
        off.threads = threads;
        std::string error;
        // warm up (caches, pools, the arena) and size the batches from a measured run
        double probe = 0;
        if (!batch(engine, inputs, off, 5, probe, error) || !batch(engine, inputs, off, 5, probe, error)) {
            std::printf("%-18s run failed: %s\n", m.c_str(), error.c_str());
            return;
        }
        const int count = std::clamp(static_cast<int>(batchMs * 1000.0 / std::max(probe, 0.1)), 1, 100000);
        std::vector<double> onUs, offUs, ratios, onCpu, offCpu;
        bool ok = true;
        for (int r = 0; r < reps && ok; ++r) {
            Profile profile; // a fresh one per batch, as the GUI and the CLI use it
            ReusedSlots reused;
            RunOptions on = off;
            on.observer = engineOnly ? static_cast<ExecObserver*>(&reused) : &profile;
            double a = 0, b = 0, ca = 0, cb = 0;
            if (r % 2 == 0) ok = batch(engine, inputs, off, count, b, error, &cb) && batch(engine, inputs, on, count, a, error, &ca);
            else ok = batch(engine, inputs, on, count, a, error, &ca) && batch(engine, inputs, off, count, b, error, &cb);
            onCpu.push_back(ca);
            offCpu.push_back(cb);
            if (ok && !engineOnly && profile.runs() != count) {
                error = "the profile recorded " + std::to_string(profile.runs()) + " runs of " + std::to_string(count);
                ok = false;
            }
            onUs.push_back(a);
            offUs.push_back(b);
            ratios.push_back(b > 0 ? a / b : 1.0);
        }
        if (!ok) { std::printf("%-18s %3d  failed: %s\n", m.c_str(), threads, error.c_str()); return; }
        const auto offT = irlens::bench::spread(offUs), ratio = irlens::bench::spread(ratios);
        const double onMed = median(onUs);
        std::printf("%-18s %3d %6d  %12.1f  (%8.1f-%10.1f)  %12.1f  %+8.2f%%  %+8.2f%% (%+6.1f..%+6.1f)  %+8.2f%%\n", m.c_str(), threads,
                    count, offT.median, offT.min, offT.max, onMed, (onMed / offT.median - 1.0) * 100.0, (ratio.median - 1.0) * 100.0,
                    (ratio.min - 1.0) * 100.0, (ratio.max - 1.0) * 100.0, (median(onCpu) / median(offCpu) - 1.0) * 100.0);
    });
    std::printf("load average at end: %s\n", loadAverage().c_str());
    return 0;
}
