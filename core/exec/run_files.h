#pragma once
// The files a profiled run can be saved as, written the same by `irlens-cli run` and the GUI's
// File › Export run: the profile (Profile::csv), the Chrome trace (chrome_trace.h), and the two
// tables below, the memory curve and the critical path, as CSV. Sizes are bytes and times
// microseconds, so a script can sum and plot them without parsing units.

#include "core/exec/critical_path.h"
#include "core/exec/measured_run.h"
#include "core/exec/memory_timeline.h"

#include <string>

namespace irlens::core::exec {

/// The memory curve of `timeline` (of `plan`), one row per node that ran, in execution order:
/// `step,node,op,module,weights,inputs,activations,workspace,total,activations_after`; `total` is
/// the other four added up, and the peak is the row with the highest total.
std::string memoryCurveCsv(const ExecutionPlan& plan, const MemoryTimeline& timeline);

/// The critical path of `run` (critical_path.h, on its per-node median times), one row per node
/// along the path: `position,node,op,module,self_us,cumulative_us`; the last row's cumulative time
/// is the path's length.
std::string criticalPathCsv(const ExecutionPlan& plan, const MeasuredRun& run);

} // namespace irlens::core::exec
