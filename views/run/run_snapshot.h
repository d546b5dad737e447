#pragma once
// One finished run of the program on screen, immutable once published through
// Document::setRunResult: the per-node profile, the timings of the run (for the timeline) and the
// outputs with their summary numbers.

#include <algorithm>
#include <cstdint>
#include <string>

#include <QString>

#include <memory>
#include <vector>

namespace irlens::views {

// Plain copies of the engine's profile records: this header is included next to Qt's headers, where
// oneTBB's headers (pulled in by core/exec) must not appear after Qt's `emit` macro.

/// One executed top-level node.
struct RunNode {
    int node = 0;            // index in the graph's node list
    std::string name;
    std::string op;          // "aten.convolution.default"
    std::string modulePath;  // innermost nn_module_stack path
    int64_t selfNs = 0;      // median over the measured runs
    int64_t minNs = 0;       // fastest and slowest measured run
    int64_t maxNs = 0;
    int64_t coldNs = -1;     // the cold start (first run of all), -1 when it was not timed
    int64_t bytes = 0;
    double flops = 0;
    int calls = 0;           // measured runs that executed it
    std::string fusedInto;   // the node whose kernel does this one's work (a BatchNorm folded into its convolution), "" when none
};

/// When and where one node ran (for the timeline).
struct RunTiming {
    int node = 0;
    int64_t startNs = 0;
    int64_t endNs = 0;
    int thread = 0;
};

struct RunOutput {
    QString name;      // value name
    QString kind;      // "user output", "buffer mutation", ...
    QString dtype;     // "float32"
    QString shape;     // "[1, 1000]"
    int64_t count = 0; // elements summarised
    double min = 0, max = 0, mean = 0;
    QString text;      // non-tensor outputs: their value
    QString check;     // against model.expected/ when it exists: "ok (max abs …)" or what differs
};

/// One value compared with the reference (model.expected/): a plain copy of core's OutputCheck.
struct RunCheck {
    std::string caseName;   // "main", "alt", ...
    std::string what;       // the reference's output name, or "buffer NAME"
    int output = -1;        // index into RunSnapshot::outputs, -1 when the program has no such value
    bool ok = true;
    double maxAbs = 0, maxRel = 0;
    std::string message;    // what differs
};

struct RunAnalysis; // views/run/run_analysis.h: memory, critical path, time per source line

struct RunSnapshot {
    quint64 generation = 0;
    QString inputSource;                               // "sample inputs" / "generated (seed 0)"
    bool compared = false;             // the run was checked against model.expected/
    bool matches = true;               // every check passed
    QString verdict;                   // "3 of 3 values match the reference", "" when not compared
    std::vector<RunCheck> checks;      // user outputs by position and mutated buffers by name, every case
    int64_t wallNs = 0;                // median wall time of the measured runs
    int64_t wallMinNs = 0, wallMaxNs = 0;
    std::vector<int64_t> runWallNs;    // every measured run's wall time, in order
    int64_t slowestRunQueuedNs = -1;   // the time the slowest run's threads waited for cores other tasks held; -1 where not reported
    int warmup = 0;                    // runs before the measured ones
    int64_t coldWallNs = -1;           // the first run of all (the cold start), -1 without warm-up
    int64_t peakBytes = 0;
    int threads = 1;
    std::vector<RunNode> nodes;        // executed top-level nodes
    std::vector<RunTiming> timings;    // the last measured run's node timings (start/end/thread)
    std::vector<RunOutput> outputs;
    std::shared_ptr<const RunAnalysis> analysis; // nullptr when the run could not be analysed

    int runs() const { return static_cast<int>(runWallNs.size()); }
    /// Sum of node self times (the denominator of every share).
    int64_t totalSelfNs() const {
        int64_t t = 0;
        for (const auto& n : nodes) t += n.selfNs;
        return t;
    }
    /// The longest node self time: the top of the heat scale the graph and the flame graph share.
    int64_t hottestNodeNs() const {
        int64_t t = 0;
        for (const auto& n : nodes) t = std::max(t, n.selfNs);
        return t;
    }
    /// Self time of a graph node, 0 when it did not run.
    int64_t nodeNs(int node) const {
        for (const auto& n : nodes)
            if (n.node == node) return n.selfNs;
        return 0;
    }
};

using RunSnapshotPtr = std::shared_ptr<const RunSnapshot>;

} // namespace irlens::views
