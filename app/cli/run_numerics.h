#pragma once
// `irlens-cli run` in its numeric mode: --dump OUT.safetensors, --reference REF [--tolerance T] and
// --check-finite run the program node by node (core/compare/numeric_run.h) and report every value
// instead of timing the run. Text for people, JSON (--json) for scripts.

#include "app/cli/commands.h"
#include "core/compare/numeric_run.h"

#include <string>
#include <vector>

namespace irlens::cli {

struct NumericFlags {
    std::string dump;
    std::string reference;
    double tolerance = core::Tolerance{}.normRel;
    bool checkFinite = false;
    bool any() const { return !dump.empty() || !reference.empty() || checkFinite; }
};

/// The numeric flags of `args`; an error for a bad --tolerance or a flag the numeric mode does not
/// take (it runs once, on one thread, without profiling).
core::Result<NumericFlags> parseNumericFlags(const Args& args);

/// Runs the numeric pass and prints it; returns the exit code (1 when a value diverges or, with
/// --check-finite, a NaN or infinity is made; 2 when the inputs, the reference or the run fail).
int runNumericMode(core::ProgramPtr program, const std::string& file, const core::exec::InputRequest& inputs, const NumericFlags& flags,
                   bool json, int64_t top);

} // namespace irlens::cli
