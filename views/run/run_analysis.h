#pragma once
// What a finished run means, for the Memory, Critical path, Source lines and Roofline docks: the
// analyses of core/exec (memory_timeline.h, critical_path.h, schedule_model.h, what_if.h,
// source_lines.h, roofline.h) made once on the run's worker, kept with the plan and the measured
// times so a what-if can be asked later. Plain copies out; no engine header here (this header sits
// next to Qt's).

#include "core/ops/op_family.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace irlens::core::exec {
class ExecutionPlan;
class Profile;
}

namespace irlens::views {

struct RunAnalysis;
using RunAnalysisPtr = std::shared_ptr<const RunAnalysis>;

/// Built on the run's worker from the compiled plan and the profile of the measured runs, which it
/// keeps (the files of File › Export run are written from it).
RunAnalysisPtr analyseRun(std::shared_ptr<const core::exec::ExecutionPlan> plan, core::exec::Profile profile);

/// The files a run can be saved as, each as `irlens-cli run` writes it with the flag named
/// (core/exec/run_files.h): --profile, --trace (with each slice's share of the roof when the roofs
/// are known), --memory-csv, --critical-path-csv.
enum class RunFile { Profile, Trace, MemoryCurve, CriticalPath };
/// The text of `file` for this run.
std::string runFileText(const RunAnalysis& analysis, RunFile file);

struct MemoryPoint {
    int node = -1;
    QString name;
    int64_t weights = 0, inputs = 0, activations = 0, workspace = 0;
    int64_t total() const { return weights + inputs + activations + workspace; }
};

struct LiveBlock {
    QString name, kind, type, producer, module, lastUser;
    int producerNode = -1;
    int64_t bytes = 0;
};

struct MemorySummary {
    std::vector<MemoryPoint> curve;  // one per node, in execution order
    int peak = -1;                   // index into curve
    int64_t peakBytes = 0;
    std::vector<LiveBlock> liveAtPeak; // largest first; adds up to peakBytes
    int64_t intermediateBytes = 0;   // every intermediate value's size, views included
    int64_t allocatedBytes = 0;      // storage the nodes allocated (what never freeing would hold)
    int64_t runPeakBytes = 0;        // activations + workspace at the peak (what the engine allocates)
    int64_t measuredPeakBytes = 0;   // the engine's measured peak
};
MemorySummary memoryOf(const RunAnalysis& analysis);

struct PathSummary {
    std::vector<int> nodes;          // graph node indices along the path
    std::vector<int64_t> nodeNs;     // their times
    int64_t lengthNs = 0;
    int64_t predictedWallNs = 0;     // the scheduling model on the measured times
    int64_t measuredWallNs = 0;      // median wall time of the measured runs
    int threads = 1;
    int scaledNodes = 0;             // what-if: nodes the selector matched
    QString error;                   // what-if: the selector or factor was not understood
};
/// The critical path and the model's prediction; with `selector` ("convolution", "layer4.0",
/// "node:NAME") every matched node's time scaled by `factor` (0 = free).
PathSummary criticalPathOf(const RunAnalysis& analysis, const QString& selector = {}, double factor = 1.0);

struct LineRow {
    QString file;
    int line = 0;
    QString function, code;
    bool inLibrary = false;
    int64_t selfNs = 0, inclusiveNs = 0;
    int selfNodes = 0, nodes = 0;
};
struct LineSummary {
    std::vector<LineRow> rows;       // by self time, largest first
    int64_t tracedNs = 0, untracedNs = 0;
    int tracedNodes = 0, untracedNodes = 0;
};
LineSummary linesOf(const RunAnalysis& analysis);

/// One node that ran, against the roofs (core/exec/roofline.h's NodeRoof).
struct RoofPoint {
    int node = -1;                   // graph node index
    QString name, op;
    core::OpFamily family = core::OpFamily::Other;
    int64_t ns = 0;                  // median time
    double flops = 0;
    int64_t bytes = 0;               // moved: read + written (0 for views)
    double intensity = 0;            // FLOP / byte
    double attainableGflops = 0, achievedGflops = 0;
    double roofNs = 0;               // the least time the roofs allow
    double share = 0;                // roofNs / ns
    bool computeBound = false;
    /// Whether it has a place on a log-log plot of intensity against GFLOP/s: FLOPs, bytes and a time.
    bool onPlot() const { return flops > 0 && bytes > 0 && ns > 0; }
    bool movesData() const { return flops > 0 || bytes > 0; }
};

struct RooflineSummary {
    QString error;                   // why there are no roofs ("" when there are)
    double peakGflops = 0, bandwidthGBs = 0;
    int threads = 1;
    QString cpu;
    QString origin;                  // "measured now in 0.83 s" or "cached, measured 2025-01-31T12:00:00Z"
    QString warning;                 // the cache could not be used, or the machine was busy when measured
    std::vector<RoofPoint> points;   // every node that ran, in graph order
    int64_t totalNs = 0;             // sum of the nodes' median times
    int64_t nearRoofNs = 0;          // of that, in nodes at >= nearRoofThreshold of their roof
    double nearRoofThreshold = 0.7;
    double ridge() const { return bandwidthGBs > 0 ? peakGflops / bandwidthGBs : 0.0; }
    double nearRoofShare() const { return totalNs > 0 ? static_cast<double>(nearRoofNs) / static_cast<double>(totalNs) : 0.0; }
    /// The point of graph node `node`, null when it did not run.
    const RoofPoint* find(int node) const;
};
/// The run against this machine's roofs for its thread count (from the roofs cache, or measured on
/// the run's worker the first time).
RooflineSummary rooflineOf(const RunAnalysis& analysis);

} // namespace irlens::views
