// bench_engine: the CPU engine side by side with eager PyTorch 1.13 (tools/pt2gen/torch_bench.py in
// ../shared), same weights and inputs (model.expected/), at 1 and 2 threads, profiling off.
//
//   bench_engine [--repeat N] [--rounds R] [--models a,b,c] [--threads 1,2] [--no-torch] [--families] [--contention]
//
// Prints the machine, its load, the GEMM libraries of both sides (PyTorch's BLAS from torch_bench.py's
// "blas" field) and the fp32 peak measured here (one-thread sgemm); then per model and thread count:
// irlens median (min-max), PyTorch median (min-max of its rounds), ratio irlens/PyTorch and the target.
// Each of the R rounds runs N/R irlens runs, then torch_bench.py with N/R runs, so drift and the load
// of a shared machine hit both sides alike. Each round warms both sides up with the same number of
// untimed runs: at least 3, and as many as irlens needs to run for kWarmupMs (the PyTorch process
// just ran over irlens's caches, as irlens did over PyTorch's, and on the VM of docs/benchmarks.md a
// run is about 30 % slower for the first few hundred microseconds after such a pause, so three runs
// of an 8 us model are not enough; PyTorch's runs are the longer, so the same count warms it up at
// least as long). No ratio is printed against the netlib reference BLAS, and
// no verdict on a multi-thread row whose threads did not get their cores (measured right after it).
// After each row's timed runs, a few profiled runs give the "near roof" column: the share of node time
// spent in nodes at >= 70 % of their attainable rate against this machine's roofs for that thread
// count (core/exec/roofline.h; the roofs are printed first, from the cache or measured).
// --families adds the achieved GFLOP/s per op family (from the same profile) next to the peak.
// Steadiness: each row also gives max/median and p90/median of both sides' timed runs, taken alike:
// torch_bench.py reports per call (per round) its median, max and p90, so each side's max is the largest
// of its rounds' maxima and its p90 the largest of their p90s (the sorted runs' element at floor(0.9 n):
// with rounds of 10 runs or fewer that is the round's maximum), over its median. --contention runs the whole comparison beside a background process of the
// bench's own that keeps one core busy half the time (5 ms of spinning, 5 ms of sleep), as another
// user of a shared machine would; it is started before the first row and stopped at the end.
#include "core/exec/engine.h"
#include "core/exec/inputs.h"
#include "core/exec/machine_roofs.h"
#include "core/exec/measured_run.h"
#include "core/exec/profile.h"
#include "core/exec/roofline.h"
#include "core/io/pt2_reader.h"
#include "core/ir/large_pages.h"
#include "bench_machine.h"
#include "bench_models.h"
#include "bench_stats.h"
#include "support/shared_fixtures.h"

#include <nlohmann/json.hpp>

#include <csignal>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using namespace irlens::core;
using namespace irlens::core::exec;
using irlens::bench::Timing;
using irlens::bench::splitList;
using irlens::bench::Steadiness;
using irlens::bench::steadinessOf;
using irlens::bench::summarize;

namespace {

// profiled runs after the timed ones, for the near-roof column and --families
constexpr int kProfiledRuns = 10;

struct TorchRun {
    double medianMs = -1, maxMs = -1, p90Ms = -1;
    std::string blas;
    std::string error;
};

// Eager PyTorch through the shared script; OPENBLAS_CORETYPE/L2_SIZE are unset for that command only.
TorchRun torchRun(const std::string& model, int threads, int repeat, int warmup) {
    TorchRun r;
    std::string script = (irlens::testing::sharedDir() / "tools" / "pt2gen" / "torch_bench.py").string();
    std::string cmd = "env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 '" + script + "' " + model + " --threads " +
                      std::to_string(threads) + " --repeat " + std::to_string(repeat) + " --warmup " + std::to_string(warmup) + " 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) { r.error = "cannot start python3"; return r; }
    std::string out;
    char buf[4096];
    while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
    int rc = pclose(p);
    auto brace = out.rfind("{\"model\"");
    if (rc != 0 || brace == std::string::npos) {
        r.error = "torch_bench.py failed: " + out.substr(0, 400);
        return r;
    }
    auto j = nlohmann::json::parse(out.substr(brace), nullptr, false);
    if (j.is_discarded() || !j.contains("median_ms")) { r.error = "unexpected torch_bench.py output"; return r; }
    r.medianMs = j["median_ms"].get<double>();
    r.maxMs = j.value("max_ms", r.medianMs);
    r.p90Ms = j.value("p90_ms", r.medianMs);
    r.blas = j.value("blas", std::string("unknown"));
    if (j.contains("max_abs_diff_vs_expected") && j["max_abs_diff_vs_expected"].is_number() && j["max_abs_diff_vs_expected"].get<double>() > 1e-3)
        r.error = "PyTorch's rebuilt model does not reproduce model.expected/";
    return r;
}

// The targets: at most 0.8 x PyTorch's median, 0.5 x on tiny_mlp, 0.95 x on transformer_layer (its
// GEMMs alone take about 87 % of PyTorch's time at the measured sgemm rate: docs/benchmarks.md).
double targetRatio(const std::string& model) {
    if (model == "tiny_mlp") return 0.5;
    if (model == "transformer_layer") return 0.95;
    return 0.8;
}

// Time and achieved GFLOP/s per op family of one profiled model run.
void printFamilies(const Profile& profile, double peakGflops) {
    std::map<std::string, std::pair<double, double>> fam; // op -> (ns, flops)
    for (const auto& g : profile.byOp()) {
        auto& f = fam[g.key];
        f.first += static_cast<double>(g.selfNs);
        f.second += g.flops;
    }
    std::vector<std::pair<std::string, std::pair<double, double>>> rows(fam.begin(), fam.end());
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.first > b.second.first; });
    double totalNs = 0, totalFlops = 0;
    for (const auto& r : rows) { totalNs += r.second.first; totalFlops += r.second.second; }
    for (const auto& [op, v] : rows) {
        if (v.first < totalNs * 0.005) continue;
        const double gf = v.first > 0 ? v.second / v.first : 0;
        std::printf("      %-44s %8.3f ms %5.1f%%  %7.1f GFLOP/s", op.c_str(), v.first / 1e6, 100.0 * v.first / totalNs, gf);
        if (v.second > 0 && peakGflops > 0) std::printf("  %5.1f%% of peak", 100.0 * gf / peakGflops);
        std::printf("\n");
    }
    const double gf = totalNs > 0 ? totalFlops / totalNs : 0;
    std::printf("      %-44s %8.3f ms        %7.1f GFLOP/s  %5.1f%% of peak (%.3f GFLOP)\n", "all nodes", totalNs / 1e6, gf,
                peakGflops > 0 ? 100.0 * gf / peakGflops : 0.0, totalFlops / 1e9);
}

// A background process that keeps one core busy half the time: 5 ms of spinning, then 5 ms of sleep,
// until it is stopped, its parent dies, or an hour has passed (the bound, should both fail).
class Contention {
public:
    Contention() {
        const pid_t parent = getpid();
        pid_ = fork();
        if (pid_ != 0) return;
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(0);
        using Clock = std::chrono::steady_clock;
        const auto end = Clock::now() + std::chrono::hours(1);
        volatile double sink = 0;
        while (Clock::now() < end) {
            const auto busyUntil = Clock::now() + std::chrono::milliseconds(5);
            while (Clock::now() < busyUntil) sink = sink + 1.0;
            usleep(5000);
        }
        _exit(0);
    }
    ~Contention() {
        if (pid_ <= 0) return;
        kill(pid_, SIGKILL);
        waitpid(pid_, nullptr, 0);
    }
    Contention(const Contention&) = delete;
    Contention& operator=(const Contention&) = delete;
    bool running() const { return pid_ > 0; }

private:
    pid_t pid_ = -1;
};

struct Options {
    int repeat = 50;
    int rounds = 3;
    std::vector<std::string> models = {"tiny_mlp", "resnet18", "mobilenet_v2", "transformer_layer", "tiny_gpt", "deep_stack", "llama_deep"};
    std::vector<int> threadCounts = {1, 2};
    bool withTorch = true;
    bool families = false;
    bool contention = false;
};

bool parseArgs(int argc, char** argv, Options& o) {
    for (int k = 1; k < argc; ++k) {
        std::string a = argv[k];
        if (a == "--repeat" && k + 1 < argc) o.repeat = std::max(1, std::atoi(argv[++k]));
        else if (a == "--rounds" && k + 1 < argc) o.rounds = std::max(1, std::atoi(argv[++k]));
        else if (a == "--models" && k + 1 < argc) o.models = splitList(argv[++k]);
        else if (a == "--threads" && k + 1 < argc) {
            o.threadCounts.clear();
            for (const auto& t : splitList(argv[++k])) o.threadCounts.push_back(std::max(1, std::atoi(t.c_str())));
        } else if (a == "--no-torch") o.withTorch = false;
        else if (a == "--families") o.families = true;
        else if (a == "--contention") o.contention = true;
        else return false;
    }
    o.rounds = std::min(o.rounds, o.repeat);
    return true;
}

} // namespace

int main(int argc, char** argv) {
    irlens::core::preferLargePages(); // as the executables do
    Options opt;
    if (!parseArgs(argc, argv, opt)) {
        std::fprintf(stderr, "usage: bench_engine [--repeat N] [--rounds R] [--models a,b] [--threads 1,2] [--no-torch] [--families] "
                             "[--contention]\n");
        return 2;
    }
    if (!irlens::testing::haveShared()) {
        std::fprintf(stderr, "bench_engine: ../shared/fixtures not found (set IRLENS_SHARED_DIR)\n");
        return 2;
    }
    const double peak = irlens::bench::sgemmPeakGflops();
    std::printf("machine: %s, %d hardware threads; load average %s\n", irlens::bench::cpuModel().c_str(), Engine::hardwareThreads(),
                irlens::bench::loadAverage().c_str());
    std::printf("irlens GEMM/convolution: %s; fp32 peak measured here: %.1f GFLOP/s (one-thread sgemm 1024^3)\n",
                irlens::bench::gemmLibrary().c_str(), peak);
    std::printf("irlens allocator: %s\n", irlens::bench::allocatorName().c_str());
    const double mhz = irlens::bench::cpuMhz();
    if (mhz > 0)
        std::printf("nominal fp32 peak: %d FLOP/cycle x %.0f MHz = %.1f GFLOP/s per core (the clock /proc/cpuinfo reports)\n",
                    irlens::bench::flopsPerCycle(), mhz, irlens::bench::flopsPerCycle() * mhz / 1e3);
    std::map<int, MachineRoofs> roofs;
    for (int threads : opt.threadCounts) {
        auto r = machineRoofs(threads);
        if (!r) {
            std::printf("roofs at %d threads: %s\n", threads, r.error().c_str());
            continue;
        }
        roofs[threads] = *r;
        std::printf("roofs at %d thread%s: peak %.1f GFLOP/s (GEMM through the engine), memory %.1f GB/s (triad); %s%s%s\n", threads,
                    threads > 1 ? "s" : "", r->peakGflops, r->bandwidthGBs, r->fromCache ? "cached, measured " : "measured now ",
                    r->fromCache ? r->measuredAt.c_str() : "", r->busyWhenMeasured() ? " (on a busy machine: low)" : "");
    }
    std::unique_ptr<Contention> contention;
    if (opt.contention) {
        contention = std::make_unique<Contention>();
        std::printf("contention: a background process keeps one core busy half the time (5 ms on, 5 ms off)%s\n",
                    contention->running() ? "" : " could not be started");
    }
    std::printf("repeat %d in %d rounds alternating irlens and PyTorch; medians in ms; near roof: share of node time in nodes at >= 70%% of "
                "their roof (%d profiled runs); max/med and p90/med: irlens | PyTorch\n", opt.repeat, opt.rounds, kProfiledRuns);
    std::printf("%-18s %3s  %9s %19s  %9s %19s  %6s  %9s  %-11s %-11s %s\n", "model", "thr", "irlens", "(min-max)", "pytorch", "(rounds min-max)",
                "ratio", "near roof", "max/med", "p90/med", "target");
    std::string blasSeen;
    bool refuse = false;
    for (const auto& m : opt.models) {
        auto model = irlens::bench::loadBenchModel(m);
        if (!model) continue;
        const auto& inputs = model->expected.main.inputs;
        for (int threads : opt.threadCounts) {
            Engine engine(model->plan);
            RunOptions plain;
            plain.threads = threads;
            std::vector<double> mine, theirs, theirMax, theirP90;
            std::vector<std::vector<double>> mineRounds;
            std::string torchErr;
            bool ok = true;
            for (int round = 0; round < opt.rounds && ok; ++round) {
                const int n = opt.repeat * (round + 1) / opt.rounds - opt.repeat * round / opt.rounds;
                // untimed runs (the same count for PyTorch's): the engine's own caches and the machine's
                const int warmup = irlens::bench::warmUp([&] { (void)engine.run(inputs, plain); });
                mineRounds.emplace_back();
                for (int k = 0; k < n && ok; ++k) {
                    auto t0 = std::chrono::steady_clock::now();
                    auto r = engine.run(inputs, plain);
                    auto t1 = std::chrono::steady_clock::now();
                    ok = r.isOk();
                    if (!ok) std::printf("%-18s run failed: %s\n", m.c_str(), r.error().c_str());
                    mine.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
                    mineRounds.back().push_back(mine.back());
                }
                if (!opt.withTorch || refuse || !torchErr.empty()) continue;
                TorchRun t = torchRun(m, threads, n, warmup);
                if (!t.error.empty()) { torchErr = t.error; continue; }
                if (blasSeen.empty()) {
                    blasSeen = t.blas;
                    std::printf("PyTorch BLAS: %s\n", blasSeen.c_str());
                    refuse = irlens::bench::isReferenceBlas(blasSeen);
                    if (refuse)
                        std::printf("PyTorch runs on the netlib reference BLAS: no ratio is reported against it "
                                    "(scripts/irlens-dev bench-deps installs an optimised one)\n");
                }
                if (!refuse) {
                    theirs.push_back(t.medianMs);
                    theirMax.push_back(t.maxMs);
                    theirP90.push_back(t.p90Ms);
                }
            }
            if (!ok) continue;
            Timing ti = summarize(mine), tt = summarize(theirs);
            // a multi-thread ratio means something only when the threads got their cores
            const double cores = threads > 1 ? irlens::bench::coresAvailable(threads) : 1.0;
            char ratio[32] = "-", torchCol[64] = "-", target[64] = "", maxCol[32] = "-", p90Col[32] = "-";
            const Steadiness mineSteady = steadinessOf(mineRounds);
            std::snprintf(maxCol, sizeof maxCol, "%.2f", mineSteady.maxOverMedian);
            std::snprintf(p90Col, sizeof p90Col, "%.2f", mineSteady.p90OverMedian);
            if (threads > 1) std::snprintf(target, sizeof target, "(%.1f of %d cores)", cores, threads);
            if (!theirs.empty()) {
                const double rt = ti.median / tt.median;
                std::snprintf(ratio, sizeof ratio, "%.2f", rt);
                std::snprintf(torchCol, sizeof torchCol, "%9.3f (%8.3f-%8.3f)", tt.median, tt.min, tt.max);
                const Steadiness theirSteady{*std::max_element(theirMax.begin(), theirMax.end()) / tt.median,
                                             *std::max_element(theirP90.begin(), theirP90.end()) / tt.median};
                std::snprintf(maxCol, sizeof maxCol, "%.2f|%.2f", mineSteady.maxOverMedian, theirSteady.maxOverMedian);
                std::snprintf(p90Col, sizeof p90Col, "%.2f|%.2f", mineSteady.p90OverMedian, theirSteady.p90OverMedian);
                const bool steady = mineSteady.atOrUnder(theirSteady);
                if (opt.contention)
                    std::snprintf(target, sizeof target, "%s %.2g, %s", rt <= targetRatio(m) ? "met" : "MISSED", targetRatio(m),
                                  steady ? "steady" : "UNSTEADY");
                else if (cores < 0.9 * threads)
                    std::snprintf(target, sizeof target, "void: %.1f of %d cores", cores, threads);
                else
                    std::snprintf(target, sizeof target, "%s %.2g, %s", rt <= targetRatio(m) ? "met" : "MISSED", targetRatio(m),
                                  steady ? "steady" : "UNSTEADY");
            }
            Profile profile;
            RunOptions observed = plain;
            observed.observer = &profile;
            for (int k = 0; k < kProfiledRuns; ++k) engine.run(inputs, observed);
            char nearRoof[16] = "-";
            if (auto r = roofs.find(threads); r != roofs.end())
                std::snprintf(nearRoof, sizeof nearRoof, "%.1f%%",
                              100.0 * roofline(*model->plan, measureRun(*model->plan, profile), r->second).nearRoofShare());
            std::printf("%-18s %3d  %9.3f (%8.3f-%8.3f)  %29s  %6s  %9s  %-11s %-11s %s\n", m.c_str(), threads, ti.median, ti.min, ti.max, torchCol,
                        ratio, nearRoof, maxCol, p90Col, target);
            if (!torchErr.empty()) std::printf("    (pytorch: %s)\n", torchErr.c_str());
            if (opt.families) printFamilies(profile, peak * (threads > 1 ? threads : 1));
            std::fflush(stdout);
        }
    }
    std::printf("load average at the end: %s\n", irlens::bench::loadAverage().c_str());
    return 0;
}
