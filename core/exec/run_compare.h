#pragma once
// The one "pick the inputs, run, compare with the reference" pipeline that `irlens-cli run` and the
// GUI's Run both call, so they reach the same verdict: inputs from the user's tensor files or a
// `model.expected/` folder, else the archive's sample inputs, else generated from the graph meta; user outputs compared with the reference
// by position, buffer mutations by buffer name, for the main case and every extra case of the folder.

#include "core/exec/engine.h"
#include "core/exec/inputs.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace irlens::core::exec {

/// Where the inputs come from and what the outputs are checked against.
struct InputRequest {
    std::string expectDir;                   // a model.expected/ folder: inputs and reference ("" none)
    std::vector<std::string> inputPaths;     // tensor files or one model.expected/ folder to take the inputs from
                                             // instead (input_files.h); empty: none
    uint64_t seed = 0;                       // for generated inputs
    std::map<std::string, int64_t> symbols;  // symbolic dims for generated inputs (sample inputs are skipped then)
};

struct PickedInputs {
    std::vector<EValue> values;
    std::string from;                        // "x.pt (by position)", "DIR" (a model.expected/ folder),
                                             // "archive sample inputs", "generated (seed 0)"
    std::optional<ExpectedSet> reference;    // loaded from expectDir
};

/// Reads the folders of `request` and picks the inputs (see file comment). Errors name the folder's file.
Result<PickedInputs> pickInputs(const ExecutionPlan& plan, const InputRequest& request);

/// One compared value: a user output (by position) or a mutated buffer (by name) of one case.
struct OutputCheck {
    std::string caseName;  // "main", "alt", ...
    std::string what;      // the reference's output name ("output 0" when unnamed), or "buffer NAME"
    int outputIndex = -1;  // index into RunResult::outputs / specs of the compared value; -1 when missing
    Comparison cmp;
};

/// Compares one run with one reference case: user outputs by position, buffer mutations by buffer name.
std::vector<OutputCheck> checkAgainstReference(const RunResult& run, const ExpectedCase& reference);

struct RunCompareOptions {
    InputRequest inputs;
    RunOptions run;        // threads, observer, progress, cancel of the measured runs
    int warmup = 0;        // runs before the measured ones, not seen by run.observer
    int repeat = 1;        // measured runs (the observer sees each)
    /// Sees the first warm-up run, the cold start (one-time costs such as oneDNN primitive creation
    /// land there). Unused when warmup is 0.
    ExecObserver* coldObserver = nullptr;
    /// Called before each of the warmup + repeat runs with its 0-based number and their count.
    std::function<void(int run, int runs)> onRun;
};

struct RunComparison {
    RunResult last;                    // the last measured run of the main inputs
    std::string inputsFrom;
    bool compared = false;             // a reference was given
    std::vector<OutputCheck> checks;   // main case first, then each extra case
    size_t mainChecks = 0;             // how many of `checks` are the main case's
    bool ok() const;                   // every check passed (true when nothing was compared)
    /// "3 of 3 values match the reference", "1 of 3 values differ from the reference: ...", "" when not compared.
    std::string verdict() const;
};

/// Picks the inputs, runs the plan warmup + repeat times, then each extra reference case once
/// (unobserved), and compares. An error when the inputs cannot be read or a run fails (naming the case).
Result<RunComparison> runAndCompare(std::shared_ptr<const ExecutionPlan> plan, const RunCompareOptions& options);

} // namespace irlens::core::exec
