#pragma once
// The two roofs of a roofline: how many fp32 FLOP/s this machine reaches and how many bytes per
// second its memory streams, measured here, per thread count.
//
// - Compute: a 1024 x 1024 x 1024 float32 product run through the engine's own GEMM path (a one-node
//   `aten.mm` program on an Engine with N threads, so oneDNN's sgemm split into blocks that TBB runs,
//   as every matrix product of a real run is); the best of five runs after one warm-up.
// - Memory: a STREAM-style triad a[i] = b[i] + s * c[i] over three float arrays that together hold
//   four times the last-level cache (read from sysfs; 64 MiB at least, 1 GiB at most), split over N
//   threads; the best of five passes, counting 12 bytes per element (two reads, one write, as STREAM
//   does: the write-allocate read of `a` is not counted).
//
// Both together take about a second (0.8-1.9 s on a 2-vCPU VM at load average 7-10, most of it the
// triad's first touch and the six GEMMs). Another process busy on the same cores lowers
// both: the load average at the time is kept with the roofs (busyWhenMeasured). The result is cached in
// `$XDG_CACHE_HOME/irlens/roofs.json` (`~/.cache/irlens/` without it), one entry per CPU model,
// thread count and GEMM library, so the roofs are measured once; `remeasure` measures again and
// replaces the entry.

#include "core/ir/status.h"

#include <cstdint>
#include <string>

namespace irlens::core::exec {

struct MachineRoofs {
    std::string cpu;            // /proc/cpuinfo's model name
    std::string gemmLibrary;    // "oneDNN 3.0.0" or "built-in loops"
    int threads = 1;
    double peakGflops = 0;      // GEMM, GFLOP/s
    double bandwidthGBs = 0;    // triad, GB/s (1e9 bytes)
    int64_t llcBytes = 0;       // last-level cache of CPU 0 (0 when sysfs does not say)
    int64_t triadBytes = 0;     // the triad's three arrays together
    int64_t gemmSize = 0;       // M = N = K of the GEMM
    double measureSeconds = 0;  // how long measuring took
    double loadAverage = -1;    // the one-minute load average when measured (-1 unknown)
    int cpus = 0;               // hardware threads of the machine
    std::string measuredAt;     // UTC, "2025-01-31T12:00:00Z"
    bool fromCache = false;     // read from the cache file instead of measured now
    std::string cachePath;      // the cache file ("" when there is no cache folder)
    std::string cacheNote;      // why the cache was not used or not written ("" when all went well)
    /// FLOP per byte where the two roofs meet: below it a node is bound by memory, above by compute.
    double ridgeIntensity() const { return bandwidthGBs > 0 ? peakGflops / bandwidthGBs : 0.0; }
    /// min(peak, intensity x bandwidth), GFLOP/s.
    double attainableGflops(double flopsPerByte) const;
    /// Whether other work held the cores the measure needed (load average above the CPUs the measure
    /// left free): the roofs are then too low, and worth measuring again on an idle machine.
    bool busyWhenMeasured() const { return loadAverage >= 0 && loadAverage > cpus - threads + 0.5; }
};

struct RoofOptions {
    bool remeasure = false;     // measure even when the cache holds this machine and thread count
    std::string cacheDir;       // "" = defaultRoofCacheDir()
};

/// The roofs for `threads` threads: from the cache when it holds them, else measured and cached.
/// A cache that cannot be read or written is noted in `cacheNote`; only a failed measure is an error.
Result<MachineRoofs> machineRoofs(int threads, const RoofOptions& options = {});

/// Measures both roofs now (no cache).
Result<MachineRoofs> measureRoofs(int threads);

/// The GEMM roof alone: GFLOP/s of an n x n x n float32 product through the engine on `threads` threads.
Result<double> measureGemmGflops(int threads, int64_t n = 1024);

/// The memory roof alone: GB/s of the triad over arrays of `bytes` in all on `threads` threads.
double measureTriadGBs(int threads, int64_t bytes);

/// Size of the last-level cache of CPU 0 from sysfs (the highest-level data or unified cache); 0 when unknown.
int64_t lastLevelCacheBytes();

/// The triad's footprint for a last-level cache of `llcBytes`: four times it, within [64 MiB, 1 GiB].
int64_t triadFootprint(int64_t llcBytes);

/// /proc/cpuinfo's "model name" of the first CPU ("unknown CPU" when absent).
std::string cpuModelName();

/// The library behind float32 GEMM in this build ("oneDNN 3.0.0", "built-in loops").
std::string gemmLibraryName();

/// `$XDG_CACHE_HOME/irlens`, else `$HOME/.cache/irlens`; "" when neither is set.
std::string defaultRoofCacheDir();

} // namespace irlens::core::exec
