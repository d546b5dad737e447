#pragma once
// What a benchmark prints about where it ran: the CPU, the load average, the GEMM library and the
// fp32 peak measured on this machine; and medians with their spread.

#include "core/exec/engine.h"

#ifdef IRLENS_HAVE_DNNL
#include <oneapi/dnnl/dnnl.h>
#endif

#include <algorithm>
#include <chrono>
#include <fstream>
#include <string>
#include <vector>

namespace irlens::bench {

struct Timing {
    double median = 0, min = 0, max = 0;
};

inline Timing summarize(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    Timing t;
    if (v.empty()) return t;
    t.min = v.front();
    t.max = v.back();
    t.median = v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
    return t;
}

inline std::string cpuModel() {
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("model name", 0) == 0) {
            auto colon = line.find(':');
            return colon == std::string::npos ? line : line.substr(colon + 2);
        }
    return "unknown CPU";
}

/// The three load averages of /proc/loadavg ("5.81 1.96 0.74").
inline std::string loadAverage() {
    std::ifstream in("/proc/loadavg");
    std::string a, b, c;
    in >> a >> b >> c;
    return a.empty() ? "unknown" : a + " " + b + " " + c;
}

/// Debian's netlib BLAS lives in .../blas/libblas.so.3; the optimised ones in openblas-*/, blis-*/, ...
inline bool isReferenceBlas(const std::string& blas) {
    return blas.find("/blas/libblas.so.3") != std::string::npos;
}

inline std::string gemmLibrary() {
#ifdef IRLENS_HAVE_DNNL
    const dnnl_version_t* v = dnnl_version();
    return "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch) +
           " (single-threaded calls, TBB splits the work)";
#else
    return "built-in loops (no oneDNN)";
#endif
}

/// Best of five one-thread sgemm 1024^3 runs in GFLOP/s: the machine's fp32 peak as the engine's
/// GEMM library reaches it (0 without oneDNN).
inline double sgemmPeakGflops() {
#ifdef IRLENS_HAVE_DNNL
    const int64_t n = 1024;
    std::vector<float> a(n * n, 0.5f), b(n * n, 0.25f), c(n * n, 0.f);
    core::exec::setLibraryThreads(1);
    double best = 0;
    for (int k = 0; k < 5; ++k) {
        auto t0 = std::chrono::steady_clock::now();
        dnnl_sgemm('N', 'N', n, n, n, 1.f, a.data(), n, b.data(), n, 0.f, c.data(), n);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        best = std::max(best, 2.0 * n * n * n / s / 1e9);
    }
    return best;
#else
    return 0;
#endif
}

} // namespace irlens::bench
