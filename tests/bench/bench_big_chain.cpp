// bench_big_chain [RUNS] [--verify N,...] [--render N,...] [--stages N,...] [--write N PATH] — the big-file
// cases of a program without modules: a chain of relus with no metadata (support/chain_program.h),
// written to a .pt2, then `irlens-cli verify` and `irlens-cli render` (SVG and PNG) on it as a user runs
// them, each in its own process: wall time, CPU time and peak resident memory (the child's rusage),
// median and spread over RUNS runs; and in this process each stage alone (load, verify, module tree,
// collapse state, visible graph, composed layout), whose time per node must stay flat as the chain grows.
// Defaults: 3 runs, verify 1,000,000 nodes, render 100,000, stages 100,000 and 1,000,000. `--write N PATH`
// only writes the chain (to time the GUI's open of it with bench_gui_first_frame PATH). Not a test: run by
// hand.
#include "bench_stats.h"
#include "core/io/pt2_reader.h"
#include "core/io/pt2_writer.h"
#include "core/layout/composed_layout.h"
#include "core/layout/visible_graph.h"
#include "core/verify/verifier.h"
#include "support/chain_program.h"
#include "support/child_usage.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

using namespace irlens;
using Clock = std::chrono::steady_clock;

constexpr double kTimeoutSeconds = 300; // a run past this is stopped and reported as such

// Writes the chain in a child process, so that this one stays small for the measured ones (runInChild).
std::string writeChain(int nodes, const std::filesystem::path& dir) {
    const auto t0 = Clock::now();
    const std::string path = (dir / ("chain_" + std::to_string(nodes) + ".pt2")).string();
    if (!testing::runInChild([&] {
            auto p = testing::makeBareChain(nodes);
            return p && core::savePt2(*p, path).isOk();
        })) {
        std::fprintf(stderr, "could not build and write the %d-node chain\n", nodes);
        return {};
    }
    std::printf("chain of %d nodes written in %.1f s: %.1f MiB\n", nodes,
                std::chrono::duration<double>(Clock::now() - t0).count(),
                static_cast<double>(std::filesystem::file_size(path)) / (1 << 20));
    return path;
}

void measure(const char* what, int nodes, int runs, const std::vector<std::string>& args) {
    std::vector<double> seconds, cpu, peaks;
    for (int k = 0; k < runs; ++k) {
        const testing::ChildUsage r = testing::runMeasured(args, kTimeoutSeconds);
        if (r.exitCode != 0) {
            std::printf("%-12s %9d  %s after %.1f s (%.1f s CPU), peak %.0f MiB\n", what, nodes,
                        r.timedOut ? "stopped" : ("exit " + std::to_string(r.exitCode)).c_str(), r.seconds, r.cpuSeconds,
                        r.peakMiB);
            return;
        }
        seconds.push_back(r.seconds);
        cpu.push_back(r.cpuSeconds);
        peaks.push_back(r.peakMiB);
    }
    const auto s = bench::spread(seconds), c = bench::spread(cpu), m = bench::spread(peaks);
    std::printf("%-12s %9d %7.2f [%.2f-%.2f] s %7.2f [%.2f-%.2f] s %6.0f [%.0f-%.0f] MiB\n", what, nodes, s.median, s.min,
                s.max, c.median, c.min, c.max, m.median, m.min, m.max);
    std::fflush(stdout);
}

// Each stage of opening, checking and laying out the chain, alone and once (median of `runs` where cheap
// enough to repeat): milliseconds and nanoseconds per node.
void stages(int nodes, int runs, const std::filesystem::path& dir) {
    const std::string file = writeChain(nodes, dir);
    if (file.empty()) return;
    auto row = [&](const char* stage, const std::vector<double>& ms, const std::string& note = {}) {
        const auto t = bench::spread(ms);
        std::printf("  %-16s %9.1f [%.1f-%.1f] ms %8.0f ns/node  %s\n", stage, t.median, t.min, t.max, t.median * 1e6 / nodes,
                    note.c_str());
        std::fflush(stdout);
    };
    core::LoadOptions options;
    options.loadWeights = false;
    core::ProgramPtr program;
    std::vector<double> ms = bench::timeRunsMs(runs, [&] {
        program.reset();
        auto p = core::loadPt2(file, options);
        if (p) program = *p;
        return static_cast<bool>(p);
    });
    row("load", ms);
    if (!program) return;
    size_t findings = 0;
    ms = bench::timeRunsMs(runs, [&] {
        findings = core::verify(*program).size();
        return true;
    });
    row("verify", ms, std::to_string(findings) + " findings (capped)");
    const core::Graph& g = program->graph;
    core::ModuleTree tree;
    ms = bench::timeRunsMs(runs, [&] { return (tree = core::ModuleTree::build(g)).size() > 0; });
    row("module tree", ms, std::to_string(tree.size()) + " module (the root)");
    core::CollapseState collapse;
    ms = bench::timeRunsMs(runs, [&] {
        collapse = core::CollapseState::automatic(tree, static_cast<int>(g.nodes.size()));
        return true;
    });
    row("collapse state", ms);
    core::VisibleGraph visible;
    ms = bench::timeRunsMs(runs, [&] {
        visible = core::buildVisibleGraph(g, &program->signature, tree, collapse);
        return !visible.items.empty();
    });
    row("visible graph", ms, std::to_string(visible.items.size()) + " boxes");
    core::ComposedLayoutStats stats;
    ms = bench::timeRunsMs(1, [&] { return core::layoutComposed(visible, tree, {}, &stats).isOk(); });
    row("composed layout", ms, std::to_string(stats.parts) + " parts, " + std::to_string(stats.distinctParts) + " laid out");
    std::filesystem::remove(file);
}

std::vector<int> sizes(const std::string& list) {
    std::vector<int> out;
    for (const auto& s : bench::splitList(list)) out.push_back(std::atoi(s.c_str()));
    return out;
}

} // namespace

int main(int argc, char** argv) {
    int runs = 3;
    std::vector<int> verifySizes{1000000}, renderSizes{100000}, stageSizes{100000, 1000000};
    for (int k = 1; k < argc; ++k) {
        const std::string a = argv[k];
        if (a == "--write" && k + 2 < argc) {
            const std::filesystem::path target(argv[k + 2]);
            auto p = testing::makeBareChain(std::atoi(argv[k + 1]));
            if (!p || !core::savePt2(*p, target.string())) return 1;
            std::printf("%s: %zu nodes\n", target.c_str(), p->graph.nodes.size());
            return 0;
        }
        if (a == "--verify" && k + 1 < argc) verifySizes = sizes(argv[++k]);
        else if (a == "--render" && k + 1 < argc) renderSizes = sizes(argv[++k]);
        else if (a == "--stages" && k + 1 < argc) stageSizes = sizes(argv[++k]);
        else runs = std::max(1, std::atoi(argv[k]));
    }
    const std::string cli = std::string(IRLENS_BINARY_DIR) + "/app/irlens-cli";
    std::printf("relu chains without metadata; irlens-cli in its own process, %d runs, median [min-max]\n", runs);
    std::printf("machine: %s, %u hardware threads, load %s\n\n", bench::cpuModel().c_str(),
                std::thread::hardware_concurrency(), bench::loadAverage().c_str());
    std::printf("%-12s %9s %22s %22s %20s\n", "command", "nodes", "wall", "CPU (user + system)", "peak RSS");
    const auto dir = std::filesystem::temp_directory_path() / ("bench_big_chain_" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    for (int n : verifySizes) {
        const std::string file = writeChain(n, dir);
        if (file.empty()) continue;
        measure("verify", n, runs, {cli, "verify", file});
        std::filesystem::remove(file);
    }
    for (int n : renderSizes) {
        const std::string file = writeChain(n, dir);
        if (file.empty()) continue;
        for (const char* ext : {"svg", "png"}) {
            const std::string out = (dir / (std::string("chain.") + ext)).string();
            measure((std::string("render .") + ext).c_str(), n, runs, {cli, "render", file, "-o", out});
            if (std::filesystem::exists(out))
                std::printf("%12s %.1f MiB\n", "", static_cast<double>(std::filesystem::file_size(out)) / (1 << 20));
        }
        std::filesystem::remove(file);
    }
    for (int n : stageSizes) {
        std::printf("\nstages in this process, %d nodes, median [min-max] of %d\n", n, runs);
        stages(n, runs, dir);
    }
    std::filesystem::remove_all(dir);
    return 0;
}
