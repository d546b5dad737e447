#pragma once
// What the front ends show of a tensor value: its element count, the min, max, mean and standard
// deviation of its finite elements, and how many are NaN or infinite (the CLI's `run` lines, the
// GUI's Outputs pane and numeric views read the same numbers).

#include "core/exec/tensor.h"

#include <cstdint>
#include <string>

namespace irlens::core::exec {

struct OutputSummary {
    int64_t count = 0;    // elements read (at most the limit given)
    double min = 0, max = 0, mean = 0, std = 0; // over the finite elements read (0 when there are none)
    int64_t nan = 0, posInf = 0, negInf = 0;
    int64_t finite() const { return count - nan - posInf - negInf; }
};

/// Reads the first `maxElements` elements in C order (all of them by default).
OutputSummary summarizeOutput(const Tensor& t, int64_t maxElements = INT64_MAX);

/// "[4, 16]  min -1.2  max 0.98  mean 0.0012", "[0] (empty)", with "  3 NaN, 1 +inf of 64" when some
/// elements are not finite.
std::string outputSummaryLine(const Tensor& t);

} // namespace irlens::core::exec
