#pragma once
// What the front ends show of a run's output tensor: its element count, min, max and mean (the CLI's
// `run` lines and the GUI's Outputs pane read the same numbers).

#include "core/exec/tensor.h"

#include <cstdint>
#include <string>

namespace irlens::core::exec {

struct OutputSummary {
    int64_t count = 0;    // elements read (at most the limit given)
    double min = 0, max = 0, mean = 0;
};

/// Reads the first `maxElements` elements in C order (all of them by default).
OutputSummary summarizeOutput(const Tensor& t, int64_t maxElements = INT64_MAX);

/// "[4, 16]  min -1.2  max 0.98  mean 0.0012", or "[0] (empty)".
std::string outputSummaryLine(const Tensor& t);

} // namespace irlens::core::exec
