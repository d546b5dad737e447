#pragma once
// Differential check of a decomposition step: run the program before and after on the same inputs
// with the engine and compare every user output.

#include "core/ir/program.h"
#include "core/ir/status.h"

#include <string>
#include <vector>

namespace irlens::core {

struct NumericComparison {
    double maxAbs = 0;        // max |after - before| over every output element
    double maxRel = 0;        // maxAbs / the largest |before| of that output (normwise relative error)
    double tolerance = 1e-5;  // on maxRel
    int64_t elements = 0;
    bool withinTolerance() const { return maxRel <= tolerance; }
    std::string summary() const; // "max abs 3.1e-07, max rel 2.0e-07 over 1000 values (tolerance 1e-05)"
};

namespace exec { class Tensor; }

/// Compares output tensors pairwise (same shapes required): the measure compareOutputs reports.
Result<NumericComparison> compareTensorLists(const std::vector<exec::Tensor>& before, const std::vector<exec::Tensor>& after,
                                           double tolerance = 1e-5);

/// Runs both programs on `before`'s sample inputs (the archive's example inputs) and compares the
/// user outputs. Errors when a program has no sample inputs, lacks a kernel, or shapes differ.
Result<NumericComparison> compareOutputs(ProgramPtr before, ProgramPtr after, double tolerance = 1e-5, int threads = 1);

} // namespace irlens::core
