// Decomposing to prims: resnet18 and tiny_gpt (training IR where there is one) all the way to prims,
// with meta inference for every new node, the meta re-check and the verifier after each level.
// Goal: <= 100 ms per program. Prints node counts before/after and the median of N runs.
//
//   bench_decomp [runs]        (needs ../shared; set IRLENS_SHARED_DIR otherwise)

#include "core/decomp/decomp_session.h"
#include "core/io/pt2_reader.h"
#include "bench_stats.h"
#include "support/shared_fixtures.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <thread>
#include <vector>

using namespace irlens::core;

int main(int argc, char** argv) {
    int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 9;
    if (!irlens::testing::haveShared()) {
        std::printf("bench_decomp: ../shared/fixtures not found (set IRLENS_SHARED_DIR)\n");
        return 0;
    }
    std::printf("bench_decomp: %d runs each, median; %u hardware threads (the decomposition is single-threaded)\n", runs,
                std::thread::hardware_concurrency());
    for (const char* rel : {"generated/resnet18/model.pt2", "generated/tiny_gpt/model.training.pt2", "generated/tiny_gpt/model.pt2",
                            "generated/deep_stack/model.pt2"}) {
        auto path = irlens::testing::fixture(rel);
        if (!std::filesystem::exists(path)) continue;
        LoadOptions load;
        load.loadWeights = false; // the decomposition never reads weights
        auto program = loadPt2(path.string(), load);
        if (!program) {
            std::printf("%s: %s\n", rel, program.error().c_str());
            continue;
        }
        std::vector<double> total, rewriteOnly;
        size_t before = (*program)->graph.nodes.size(), core = 0, prims = 0;
        for (int r = 0; r < runs; ++r) {
            DecompSession session(*program);
            auto t0 = std::chrono::steady_clock::now();
            auto a = session.stepAll(DecompStage::ToCore);
            auto b = session.stepAll(DecompStage::ToPrims);
            auto t1 = std::chrono::steady_clock::now();
            if (!a || !b) {
                std::printf("%s: %s\n", rel, (!a ? a.error() : b.error()).c_str());
                return 1;
            }
            core = (*a)->nodesAfter;
            prims = (*b)->nodesAfter;
            total.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
            rewriteOnly.push_back((*a)->millis + (*b)->millis);
        }
        const double totalMs = irlens::bench::median(total), rewriteMs = irlens::bench::median(rewriteOnly);
        std::printf("%-40s nodes %5zu -> core %5zu -> prims %5zu   median %7.1f ms (rewrite+meta %6.1f ms, checks %6.1f ms)%s\n", rel, before,
                    core, prims, totalMs, rewriteMs, totalMs - rewriteMs, totalMs <= 100 ? "" : "  (above the 100 ms goal)");
    }
    return 0;
}
