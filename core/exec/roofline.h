#pragma once
// How close each node of a run came to this machine's roofs (machine_roofs.h).
//
// Per node that ran:
// - FLOPs: the profiler's estimate from the run's own values (flops.cpp), the median run's.
// - Bytes moved: every distinct tensor the node reads plus every tensor it writes, sized from the
//   graph's tensor meta. Views move nothing: a node whose kernel allocated no bytes in the measured
//   run and writes no input in place (view, permute, expand, a reshape that needed no copy: the
//   memory timeline's rule) and a node fusion folded into another node's kernel count 0. Weights
//   count as read; a value read twice counts once. Values with symbolic sizes count 0.
// - Arithmetic intensity: FLOPs per byte moved.
// - The least time the roofs allow, max(FLOPs / peak, bytes / bandwidth); the attainable rate
//   min(peak, intensity x bandwidth) is FLOPs over that time.
// - Share of the roof: that least time over the measured (median) time, which for a node doing
//   arithmetic is its achieved rate over its attainable one. A node without FLOPs that still moves
//   bytes (a copy, a cat, an embedding) is measured against the bandwidth roof alone.
// - Bound: memory below the ridge intensity (peak / bandwidth), compute at or above it.
//
// The bandwidth roof is main memory's (the triad streams more than the last-level cache holds), so
// a node whose data sits in cache can pass 100 %: it is then faster than memory could feed it.

#include "core/exec/machine_roofs.h"
#include "core/exec/measured_run.h"
#include "core/exec/plan.h"

#include <cstdint>
#include <vector>

namespace irlens::core::exec {

/// A node "near its roof": at or above this share of its attainable rate.
inline constexpr double kNearRoofShare = 0.7;

struct NodeRoof {
    int node = -1;              // plan node index
    int64_t ns = 0;             // median time
    double flops = 0;
    int64_t bytes = 0;          // read + written (0 for views and folded nodes)
    double intensity = 0;       // FLOP / byte (0 without bytes)
    double attainableGflops = 0;// min(peak, intensity x bandwidth); 0 without FLOPs
    double achievedGflops = 0;  // flops / ns
    double roofNs = 0;          // the least time the roofs allow
    double share = 0;           // roofNs / ns: achieved over attainable (1 = on the roof)
    bool computeBound = false;  // intensity at or above the ridge
    bool movesData() const { return bytes > 0 || flops > 0; }
    bool nearRoof() const { return share >= kNearRoofShare; }
};

struct Roofline {
    MachineRoofs roofs;
    std::vector<NodeRoof> nodes;  // every node that ran, in plan order
    int64_t totalNs = 0;          // sum of the nodes' median times
    int64_t nearRoofNs = 0;       // of that, in nodes at >= kNearRoofShare of their roof
    /// Share of the run's node time spent in nodes near their roof (0 without nodes).
    double nearRoofShare() const { return totalNs > 0 ? static_cast<double>(nearRoofNs) / static_cast<double>(totalNs) : 0.0; }
    /// The entry of plan node `node`, or null when it did not run.
    const NodeRoof* find(int node) const;
};

/// Whether `pn` moves no bytes: folded into another node's kernel, or its kernel allocated nothing
/// (`allocatedBytes`, NodeTiming::bytes; < 0 unknown) without writing an input in place, so it
/// returned a view of its input.
bool movesNoBytes(const PlanNode& pn, int64_t allocatedBytes);

/// Bytes node `pn` of `g` moves: its distinct tensor inputs read plus its tensor outputs written,
/// from the meta; 0 when movesNoBytes.
int64_t bytesMoved(const PlanGraph& g, const PlanNode& pn, int64_t allocatedBytes);

/// The roofline of `run` (medians and FLOPs per node) on `roofs`.
Roofline roofline(const ExecutionPlan& plan, const MeasuredRun& run, const MachineRoofs& roofs);

} // namespace irlens::core::exec
