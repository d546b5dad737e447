#pragma once
// `irlens-cli run --roofline`: this machine's roofs and a row per node (FLOPs, bytes moved,
// intensity, attainable and achieved GFLOP/s, share of the roof, bound), as text or a JSON section.
// The numbers come from core (machine_roofs.h, roofline.h).

#include "core/exec/roofline.h"

#include <nlohmann/json.hpp>

namespace irlens::cli {

/// The roofline of the profiled run: the roofs for its thread count (from the cache, or measured now
/// and cached; `remeasure` measures again), each node against them.
core::Result<core::exec::Roofline> rooflineOfRun(const core::exec::ExecutionPlan& plan, const core::exec::MeasuredRun& run, bool remeasure);

/// The roofs and one row per node that ran, slowest first.
void printRoofline(const core::exec::ExecutionPlan& plan, const core::exec::Roofline& roofline);

/// The same as a JSON object (the "roofline" section).
nlohmann::json rooflineJson(const core::exec::ExecutionPlan& plan, const core::exec::Roofline& roofline);

} // namespace irlens::cli
