#pragma once
// The analyses `irlens-cli run` prints after its run on request: --memory (the memory timeline),
// --critical-path with --what-if (critical path, the scheduling model's prediction, what-if
// replays), --by-line (time per source line) and --roofline (roofline_report.h). Text for people, JSON sections for scripts; the
// numbers come from core (memory_timeline.h, critical_path.h, what_if.h, source_lines.h).

#include "core/exec/measured_run.h"
#include "core/exec/roofline.h"
#include "core/exec/what_if.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <vector>

namespace irlens::cli {

struct RunReports {
    bool memory = false;
    bool criticalPath = false;  // also on with any --what-if
    bool byLine = false;
    bool roofline = false;      // also on with --measure-roofs
    bool measureRoofs = false;  // measure the roofs again instead of reading the cache
    std::vector<core::exec::WhatIfSpec> whatIf;
    int64_t top = 10;           // rows per table
    bool any() const { return memory || criticalPath || byLine || roofline; }
};

/// Checks that every --what-if names something in `plan`, before anything runs.
core::Status checkRunReports(const core::exec::ExecutionPlan& plan, const RunReports& reports);

/// The requested reports as text on stdout; `roofline` (null unless --roofline) the run's roofline.
void printRunReports(const core::exec::ExecutionPlan& plan, const core::exec::MeasuredRun& run, const RunReports& reports,
                     const core::exec::Roofline* roofline = nullptr);

/// The requested reports as JSON sections ("memory", "critical_path", "by_line", "roofline") added to `out`.
void addRunReportsJson(const core::exec::ExecutionPlan& plan, const core::exec::MeasuredRun& run, const RunReports& reports,
                       nlohmann::json& out, const core::exec::Roofline* roofline = nullptr);

} // namespace irlens::cli
