#pragma once
// What a benchmark prints about where it ran: the CPU, the load average, the GEMM library and the
// fp32 peak measured on this machine; and medians with their spread.

#include "core/exec/engine.h"
#include "core/exec/machine_roofs.h"

#ifdef IRLENS_HAVE_DNNL
#include <oneapi/dnnl/dnnl.h>
#endif

#ifdef IRLENS_HAVE_MIMALLOC
#include <mimalloc.h>
#endif

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
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

inline std::string cpuModel() { return core::exec::cpuModelName(); }

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
    return core::exec::gemmLibraryName() + " (single-threaded calls, TBB splits the work)";
#else
    return core::exec::gemmLibraryName() + " (no oneDNN)";
#endif
}

/// The allocator behind malloc in this process: mimalloc when the build links it (IRLENS_MIMALLOC)
/// and a block from malloc lies in its heap, else the C library's.
inline std::string allocatorName() {
#ifdef IRLENS_HAVE_MIMALLOC
    const int v = mi_version(); // 209 for 2.0.9
    void* probe = std::malloc(64);
    const bool answering = mi_is_in_heap_region(probe);
    std::free(probe);
    return "mimalloc " + std::to_string(v / 100) + "." + std::to_string(v / 10 % 10) + "." + std::to_string(v % 10) +
           (answering ? "" : " linked, but malloc is not redirected to it");
#else
    return "glibc malloc";
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

/// The CPU clock /proc/cpuinfo reports (MHz of the first core; 0 when absent). On a VM it is the
/// nominal clock the hypervisor passes on, not a measured one.
inline double cpuMhz() {
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("cpu MHz", 0) == 0) {
            auto colon = line.find(':');
            return colon == std::string::npos ? 0 : std::atof(line.c_str() + colon + 1);
        }
    return 0;
}

/// fp32 FLOPs per cycle and core from the instruction set: two FMA pipes of 8 lanes with AVX2 (16
/// with AVX-512), each FMA two FLOPs. An estimate for the nominal-peak line, not a measurement.
inline int flopsPerCycle() {
    std::ifstream in("/proc/cpuinfo");
    std::string flags;
    for (std::string line; std::getline(in, line);)
        if (line.rfind("flags", 0) == 0) { flags = line + " "; break; }
    if (flags.find(" avx512f ") != std::string::npos) return 64;
    if (flags.find(" fma ") != std::string::npos && flags.find(" avx2 ") != std::string::npos) return 32;
    return 8;
}

/// How many cores `threads` busy threads actually get: the same fixed loop timed alone, then on
/// `threads` threads at once; threads x (time alone / time together). A VM whose host is busy, or
/// another process here, gives fewer than asked, and a multi-thread ratio measured then says nothing.
inline double coresAvailable(int threads) {
    auto spin = [] {
        volatile double x = 0;
        for (long i = 0; i < 60'000'000; ++i) x = x + static_cast<double>(i) * 0.5;
    };
    auto timed = [&](int n) {
        auto t0 = std::chrono::steady_clock::now();
        std::vector<std::thread> pool;
        for (int k = 0; k < n; ++k) pool.emplace_back(spin);
        for (auto& t : pool) t.join();
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    double alone = 1e9, together = 1e9;
    for (int r = 0; r < 3; ++r) {
        alone = std::min(alone, timed(1));
        together = std::min(together, timed(threads));
    }
    return together > 0 ? threads * alone / together : 0;
}

} // namespace irlens::bench
