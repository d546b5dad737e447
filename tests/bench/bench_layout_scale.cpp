// bench_layout_scale [FLAT_CAP_SECONDS] — big graphs, side by side in one run: deep_stack, llama_deep and a
// 100,000-node program built here (6,250 transformer-like blocks with nn_module_stack). Per program:
// load (or build), module tree + repeated-block detection, the collapsed layout a first frame shows,
// the fully expanded layout (what the GUI asks for: composed per module above kComposedLayoutBoxes
// boxes) with its peak memory, a search over every node, and one flat `dot` run over the fully
// expanded graph in a child process, stopped at the cap (default 120 s). Not a test: run by hand.
#include "bench_machine.h"
#include "core/io/pt2_reader.h"
#include "core/layout/collapse_state.h"
#include "core/layout/composed_layout.h"
#include "core/layout/graph_layout.h"
#include "core/layout/module_fold.h"
#include "support/peak_memory.h"
#include "support/shared_fixtures.h"
#include "support/synthetic_program.h"
#include "views/graph/graph_navigation.h"

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <thread>

using namespace irlens;
using irlens::testing::peakRssMb;
using irlens::testing::resetPeakRss;
using Clock = std::chrono::steady_clock;

namespace {

double msSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

double timeMs(const std::function<void()>& fn) {
    const auto t0 = Clock::now();
    fn();
    return msSince(t0);
}


struct FlatRun {
    double seconds = -1; // -1: did not finish within the cap
    double peakMb = -1;
    bool failed = false;
};

/// One flat dot run over the fully expanded graph in a child process (dot cannot be interrupted in
/// this one), killed at the cap. The child's peak memory includes the program it inherited.
FlatRun flatDot(const core::Program& p, const core::ModuleTree& tree, int capSeconds) {
    int fds[2];
    if (pipe(fds) != 0) return {-1, -1, true};
    const pid_t child = fork();
    if (child == 0) {
        close(fds[0]);
        core::LayoutOptions options;
        options.method = core::LayoutMethod::Flat;
        const auto t0 = Clock::now();
        auto r = core::layoutGraph(p.graph, &p.signature, tree, core::CollapseState::allExpanded(tree), options);
        const double s = r.isOk() ? msSince(t0) / 1000 : -2;
        [[maybe_unused]] auto written = write(fds[1], &s, sizeof s);
        _exit(0);
    }
    close(fds[1]);
    FlatRun run;
    const auto t0 = Clock::now();
    int status = 0;
    while (waitpid(child, &status, WNOHANG) == 0) {
        if (msSince(t0) > capSeconds * 1000.0) {
            kill(child, SIGKILL);
            waitpid(child, &status, 0);
            close(fds[0]);
            return run;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    double s = -2;
    if (read(fds[0], &s, sizeof s) != sizeof s) s = -2;
    close(fds[0]);
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage); // the largest child so far: runs go from small to big
    run.seconds = s;
    run.failed = s < 0;
    run.peakMb = static_cast<double>(usage.ru_maxrss) / 1024.0;
    return run;
}

void measure(const std::string& name, core::ProgramPtr program, double loadMs, int capSeconds) {
    const core::Program& p = *program;
    core::ModuleTree tree;
    int largestFold = 0;
    const double treeMs = timeMs([&] { tree = core::ModuleTree::build(p.graph); });
    const double foldMs = timeMs([&] {
        auto folds = core::ModuleFolds::detect(p.graph, &p.signature, tree);
        for (const auto& f : folds.folds()) largestFold = std::max(largestFold, f.count());
    });
    const FlatRun flat = flatDot(p, tree, capSeconds);
    const double collapsedMs = timeMs([&] {
        auto r = core::layoutGraph(p.graph, &p.signature, tree, core::CollapseState::automatic(tree, static_cast<int>(p.graph.nodes.size())));
        if (!r) std::fprintf(stderr, "%s collapsed: %s\n", name.c_str(), r.error().c_str());
    });
    resetPeakRss();
    const double before = peakRssMb();
    size_t boxes = 0;
    const double fullMs = timeMs([&] {
        auto r = core::layoutGraph(p.graph, &p.signature, tree, core::CollapseState::allExpanded(tree));
        if (r) boxes = (*r)->boxes.size();
        else std::fprintf(stderr, "%s expanded: %s\n", name.c_str(), r.error().c_str());
    });
    const double fullMb = peakRssMb() - before;
    size_t hits = 0;
    const double searchMs = timeMs([&] {
        views::NodeSearchIndex index(p.graph, tree);
        hits = index.search("mm", false).size();
    });
    char flatText[64];
    if (flat.failed) std::snprintf(flatText, sizeof flatText, "failed (Graphviz error)");
    else if (flat.seconds < 0) std::snprintf(flatText, sizeof flatText, "> %d s", capSeconds);
    else std::snprintf(flatText, sizeof flatText, "%.1f s, %.0f MB", flat.seconds, flat.peakMb);
    std::printf("| %s | %zu | %.0f | %.0f | %.0f (x%d) | %.0f | %.0f (%zu boxes, +%.0f MB) | %.0f (%zu hits) | %s |\n",
                name.c_str(), p.graph.nodes.size(), loadMs, treeMs, foldMs, largestFold, collapsedMs, fullMs, boxes, fullMb,
                searchMs, hits, flatText);
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv) {
    const int cap = argc > 1 ? std::max(1, std::atoi(argv[1])) : 120;
    std::printf("machine: %s, load average %s, hardware threads %u (the composed layout's TBB pool; dot runs one at a "
                "time)\n\n",
                bench::cpuModel().c_str(), bench::loadAverage().c_str(), std::thread::hardware_concurrency());
    std::printf("| program | nodes | load ms | module tree ms | repeated blocks ms (largest group) | collapsed layout ms "
                "| fully expanded layout ms | search \"mm\" ms | one flat dot run (fully expanded, cap %d s) |\n"
                "|---|---|---|---|---|---|---|---|---|\n", cap);
    std::fflush(stdout);
    if (testing::haveShared()) {
        for (const char* name : {"deep_stack", "llama_deep"}) {
            core::LoadOptions options;
            options.loadWeights = false; // the layout needs the graph only, as the GUI's first frame
            core::ProgramPtr program;
            const double loadMs = timeMs([&] {
                auto r = core::loadPt2(testing::fixture(std::string("generated/") + name + "/model.pt2").string(), options);
                if (r) program = *r;
            });
            if (program) measure(name, program, loadMs, cap);
            else std::printf("| %s | could not load | | | | | | | |\n", name);
        }
    } else {
        std::printf("(../shared/fixtures not found: set IRLENS_SHARED_DIR for deep_stack and llama_deep)\n");
    }
    core::ProgramPtr big;
    const double buildMs = timeMs([&] { big = testing::makeTransformerStack(6250); });
    measure("synthetic 100k (6,250 blocks)", big, buildMs, cap);
    return 0;
}
