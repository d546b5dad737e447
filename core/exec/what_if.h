#pragma once
// What-if questions of a measured run: "what if every convolution took half the time", "what if
// layer4 were free". The chosen nodes' recorded times are scaled, the run replayed on the scheduling
// model (schedule_model.h) and the critical path found again. The baseline is the same model on the
// unscaled times, so a prediction is compared with a prediction, not with the noisier measurement.

#include "core/exec/critical_path.h"
#include "core/exec/measured_run.h"
#include "core/exec/schedule_model.h"

#include <string>
#include <vector>

namespace irlens::core::exec {

/// Scales the time of the nodes `selector` names by `factor` (0: free, 2: twice as slow). A selector
/// is `op:OP`, `module:PATH`, `node:NAME`, or a bare name tried as an op, then a module, then a node
/// (so `convolution` is the op even where a node has that name too).
/// An op is its key (`aten::convolution.default`), its short name (`aten.convolution.default`) or
/// its bare name (`convolution`, every overload); a module path takes its submodules too.
struct WhatIfSpec {
    std::string selector;
    double factor = 1.0;
};

/// "convolution=0.5" -> {convolution, 0.5}; an error saying what is wrong otherwise.
Result<WhatIfSpec> parseWhatIf(const std::string& text);

/// The plan nodes `selector` names (see WhatIfSpec); an error when it names none.
Result<std::vector<int>> selectNodes(const ExecutionPlan& plan, const std::string& selector);

/// Per plan node, the product of the factors of the specs that name it (1 where none does).
Result<std::vector<double>> nodeFactors(const ExecutionPlan& plan, const std::vector<WhatIfSpec>& specs);

/// `nodeNs` with each spec applied in turn (factors multiply where specs overlap).
Result<std::vector<int64_t>> scaledTimes(const ExecutionPlan& plan, const std::vector<int64_t>& nodeNs,
                                         const std::vector<WhatIfSpec>& specs);

struct WhatIfResult {
    SchedulePrediction baseline;   // the model on the measured times
    SchedulePrediction predicted;  // the model on the scaled times
    CriticalPath baselinePath;
    CriticalPath path;             // on the scaled times
    std::vector<int64_t> nodeNs;   // the scaled per-node times (MeasuredRun::nodeNs), which `path` follows
    int scaledNodes = 0;           // nodes some spec applied to
};

/// Predicts `run` on `workers` workers (0: the run's thread count) with and without `specs` (predictRun).
Result<WhatIfResult> whatIf(const ExecutionPlan& plan, const MeasuredRun& run, const std::vector<WhatIfSpec>& specs, int workers = 0);

} // namespace irlens::core::exec
