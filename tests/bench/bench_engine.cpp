// bench_engine: the CPU engine side by side with eager PyTorch 1.13 (tools/pt2gen/torch_bench.py in
// ../shared), same weights and inputs (model.expected/), at 1 and 2 threads, profiling on.
//
//   bench_engine [--repeat N] [--models a,b,c] [--threads 1,2] [--no-torch]
//
// Prints per model and thread count: irlens median (min-max), PyTorch median, ratio irlens/PyTorch,
// and the profiling overhead (median with the observer against without).
#include "core/exec/engine.h"
#include "core/exec/inputs.h"
#include "core/exec/profile.h"
#include "core/io/pt2_reader.h"
#include "bench_models.h"
#include "support/shared_fixtures.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

using namespace irlens::core;
using namespace irlens::core::exec;

namespace {

std::vector<std::string> splitList(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    for (std::string item; std::getline(ss, item, ',');)
        if (!item.empty()) out.push_back(item);
    return out;
}

struct Timing {
    double median = 0, min = 0, max = 0;
};

Timing summarize(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    Timing t;
    if (v.empty()) return t;
    t.min = v.front();
    t.max = v.back();
    t.median = v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
    return t;
}

// Eager PyTorch through the shared script; OPENBLAS_CORETYPE/L2_SIZE are unset for that command only.
double torchMedianMs(const std::string& model, int threads, int repeat, std::string& error) {
    std::string script = (irlens::testing::sharedDir() / "tools" / "pt2gen" / "torch_bench.py").string();
    std::string cmd = "env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 '" + script + "' " + model + " --threads " +
                      std::to_string(threads) + " --repeat " + std::to_string(repeat) + " --warmup 3 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) { error = "cannot start python3"; return -1; }
    std::string out;
    char buf[4096];
    while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
    int rc = pclose(p);
    auto brace = out.rfind("{\"model\"");
    if (rc != 0 || brace == std::string::npos) {
        error = "torch_bench.py failed: " + out.substr(0, 300);
        return -1;
    }
    auto j = nlohmann::json::parse(out.substr(brace), nullptr, false);
    if (j.is_discarded() || !j.contains("median_ms")) { error = "unexpected torch_bench.py output"; return -1; }
    return j["median_ms"].get<double>();
}

} // namespace

int main(int argc, char** argv) {
    int repeat = 20;
    std::vector<std::string> models = {"resnet18", "mobilenet_v2", "transformer_layer", "tiny_gpt", "tiny_mlp"};
    std::vector<int> threadCounts = {1, 2};
    bool withTorch = true;
    for (int k = 1; k < argc; ++k) {
        std::string a = argv[k];
        if (a == "--repeat" && k + 1 < argc) repeat = std::max(1, std::atoi(argv[++k]));
        else if (a == "--models" && k + 1 < argc) models = splitList(argv[++k]);
        else if (a == "--threads" && k + 1 < argc) {
            threadCounts.clear();
            for (const auto& t : splitList(argv[++k])) threadCounts.push_back(std::max(1, std::atoi(t.c_str())));
        } else if (a == "--no-torch") withTorch = false;
        else { std::fprintf(stderr, "usage: bench_engine [--repeat N] [--models a,b] [--threads 1,2] [--no-torch]\n"); return 2; }
    }
    if (!irlens::testing::haveShared()) {
        std::fprintf(stderr, "bench_engine: ../shared/fixtures not found (set IRLENS_SHARED_DIR)\n");
        return 2;
    }
    std::printf("%-18s %3s  %12s %19s  %12s  %7s  %9s\n", "model", "thr", "irlens ms", "(min-max)", "pytorch ms", "ratio", "prof.ovh");
    for (const auto& m : models) {
        auto model = irlens::bench::loadBenchModel(m);
        if (!model) continue;
        const auto& plan = model->plan;
        const auto& inputs = model->expected.main.inputs;
        for (int threads : threadCounts) {
            Engine engine(plan);
            RunOptions plain;
            plain.threads = threads;
            for (int w = 0; w < 3; ++w) engine.run(inputs, plain);
            // interleave observed and unobserved runs so drift hits both alike
            std::vector<double> on, off;
            Profile profile;
            RunOptions observed = plain;
            observed.observer = &profile;
            bool ok = true;
            for (int k = 0; k < repeat && ok; ++k) {
                auto t0 = std::chrono::steady_clock::now();
                auto r1 = engine.run(inputs, observed);
                auto t1 = std::chrono::steady_clock::now();
                auto r2 = engine.run(inputs, plain);
                auto t2 = std::chrono::steady_clock::now();
                ok = r1.isOk() && r2.isOk();
                if (!ok) std::printf("%-18s run failed: %s\n", m.c_str(), (r1.isOk() ? r2.error() : r1.error()).c_str());
                on.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
                off.push_back(std::chrono::duration<double, std::milli>(t2 - t1).count());
            }
            if (!ok) continue;
            Timing ti = summarize(on), to = summarize(off);
            double overhead = to.median > 0 ? (ti.median / to.median - 1.0) * 100.0 : 0.0;
            double torchMs = -1;
            std::string err;
            if (withTorch) torchMs = torchMedianMs(m, threads, repeat, err);
            char ratio[32] = "-", torchCol[32] = "-";
            if (torchMs > 0) {
                std::snprintf(ratio, sizeof ratio, "%.2f", ti.median / torchMs);
                std::snprintf(torchCol, sizeof torchCol, "%.3f", torchMs);
            }
            std::printf("%-18s %3d  %12.3f  (%7.3f-%8.3f)  %12s  %7s  %+8.1f%%\n", m.c_str(), threads, ti.median, ti.min, ti.max, torchCol, ratio,
                        overhead);
            if (!err.empty()) std::printf("    (pytorch: %s)\n", err.c_str());
            std::fflush(stdout);
        }
    }
    return 0;
}
