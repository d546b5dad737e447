#pragma once
// The profiled run as a Chrome / Perfetto trace (the Trace Event Format's JSON), told as a story:
//
// - one complete event ("X") per node of the run whose wall time is the median, on the track of
//   the worker that ran it, named by the node, with args: op, module path, the innermost user
//   source line, input and output types ("f32[1, 64, 56, 56]"), bytes the kernel allocated, GFLOP/s,
//   and with a roofline the share of the roof, the bound and the arithmetic intensity;
// - one more complete event per stretch of parts of a node that another worker ran (a kernel splits
//   its node over the workers: kernels/util/parts.h), on that worker's track, named by the node, with
//   args `part_of` (the node) and op: a graph run in graph order on the calling thread shows its
//   workers at work too;
// - flow events from a node to each node that reads its output on another worker, or has parts there:
//   an "s" inside the producer's slice on its track, an "f" with binding point "e" inside the
//   consumer's first slice on the other track, one id per producer, consumer and track (Perfetto
//   pairs them by id, category and name, and draws the arrow between the two slices);
// - a counter track "memory" with one series, "live bytes": the memory timeline's curve
//   (memory_timeline.h), its value at each node's start, so its highest point is the timeline's peak;
// - thread and process names as metadata events.
// Timestamps are microseconds since the run's start.

#include "core/exec/plan.h"
#include "core/exec/profile.h"

#include <string>

namespace irlens::core::exec {

struct Roofline;

/// Category of the flow events (each flow's "s" and "f" share it and the name of the value that flows).
inline constexpr const char* kTraceFlowCategory = "dataflow";
/// Name of the counter event and of its one series.
inline constexpr const char* kTraceMemoryCounter = "memory";
inline constexpr const char* kTraceLiveBytes = "live bytes";

/// The trace of `profile`'s median run of `plan`; `roofline` (of the same run) adds each slice's share
/// of its roof. An empty trace (no events) before any run.
std::string chromeTrace(const ExecutionPlan& plan, const Profile& profile, const Roofline* roofline = nullptr);

} // namespace irlens::core::exec
