#pragma once
// Where a run's user inputs come from: the archive's sample inputs, a `model.expected/` folder
// (manifest.json + raw .bin arrays, also holding reference outputs), or generated from the graph
// meta with a seed, symbolic dims set by the caller within the range constraints.

#include "core/exec/plan.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace irlens::core::exec {

struct ExpectedTensor {
    std::string name;     // value name (outputs) or buffer FQN (buffer mutations)
    Tensor tensor;
};

struct ExpectedCase {
    std::string name;                   // "main", "alt", ...
    std::vector<EValue> inputs;         // user tensor inputs in order (constant inputs left out)
    std::vector<ExpectedTensor> outputs;
    std::vector<ExpectedTensor> buffers; // buffer values after one call (buffer_mutations)
};

struct ExpectedSet {
    std::string model;
    ExpectedCase main;
    std::vector<ExpectedCase> extra;
};

/// Reads a `model.expected/` folder. Errors name the file and the manifest entry.
Result<ExpectedSet> loadExpected(const std::string& dir);

/// The archive's sample inputs matched to the plan's user inputs; an error when the archive has none.
Result<std::vector<EValue>> sampleInputs(const ExecutionPlan& plan);

/// Inputs generated from the graph meta: floats ~ N(0, 1), integers in [0, 8), bools fair; symbolic
/// dims from `symbols` (name -> value), else their recorded hint, checked against range constraints.
Result<std::vector<EValue>> generateInputs(const ExecutionPlan& plan, uint64_t seed, const std::map<std::string, int64_t>& symbols = {});

struct Comparison {
    bool ok = true;
    double maxAbs = 0;
    double maxRel = 0;
    int64_t mismatches = 0;
    std::string message; // "" when ok, else what differs (shape, dtype, first bad element)
};

/// Compares element by element: floats pass when |a - e| <= atol or |a - e| <= rtol * |e|
/// (NaN matches NaN); integers and bools must be equal.
Comparison compareWithReference(const Tensor& actual, const Tensor& expected, double rtol = 1e-4, double atol = 1e-5);

/// Name of the symbol a SymInt stands for ("s0" from "s0" or from srepr "Symbol('s0', ...)"), "" if compound.
std::string symbolName(const SymInt& s);

} // namespace irlens::core::exec
