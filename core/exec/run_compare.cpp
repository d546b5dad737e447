#include "core/exec/run_compare.h"

#include "core/exec/input_files.h"

#include <algorithm>

namespace irlens::core::exec {
namespace {

Result<PickedInputs> inputsFromArchive(const ExecutionPlan& plan, const InputRequest& request) {
    PickedInputs picked;
    std::string whyNotSample;
    if (plan.program().hasSampleInputs && request.symbols.empty()) {
        auto sample = sampleInputs(plan);
        if (sample) {
            picked.values = std::move(*sample);
            picked.from = "archive sample inputs";
            return picked;
        }
        whyNotSample = "; the archive's sample inputs do not fit: " + sample.error();
    }
    IRLENS_ASSIGN_OR_RETURN(generated, generateInputs(plan, request.seed, request.symbols));
    picked.values = std::move(generated);
    picked.from = "generated (seed " + std::to_string(request.seed) + ")" + whyNotSample;
    return picked;
}

OutputCheck checkUserOutput(const RunResult& run, const ExpectedCase& reference, size_t k) {
    const ExpectedTensor& want = reference.outputs[k];
    OutputCheck check{reference.name, want.name.empty() ? "output " + std::to_string(k) : want.name, -1, {}};
    if (k >= run.userOutputs.size()) {
        check.cmp.ok = false;
        check.cmp.message = "the program has only " + std::to_string(run.userOutputs.size()) + " user outputs";
        return check;
    }
    check.outputIndex = run.userOutputs[k];
    const EValue& got = run.outputs[static_cast<size_t>(check.outputIndex)];
    if (!got.isTensor()) {
        check.cmp.ok = false;
        check.cmp.message = "output is " + got.describe() + ", not a tensor";
        return check;
    }
    check.cmp = compareWithReference(got.tensor, want.tensor);
    return check;
}

OutputCheck checkBuffer(const RunResult& run, const ExpectedCase& reference, const ExpectedTensor& want) {
    OutputCheck check{reference.name, "buffer " + want.name, -1, {}};
    for (size_t k = 0; k < run.specs.size() && k < run.outputs.size(); ++k) {
        if (run.specs[k].kind != OutputKind::BufferMutation || run.specs[k].target != want.name) continue;
        check.outputIndex = static_cast<int>(k);
        if (run.outputs[k].isTensor()) {
            check.cmp = compareWithReference(run.outputs[k].tensor, want.tensor);
        } else {
            check.cmp.ok = false;
            check.cmp.message = "buffer value is " + run.outputs[k].describe() + ", not a tensor";
        }
        return check;
    }
    check.cmp.ok = false;
    check.cmp.message = "the program does not mutate buffer '" + want.name + "'";
    return check;
}

// Runs warmup times (the first seen by the cold observer) and repeat times (seen by the observer);
// the last measured run is kept.
Result<RunResult> measuredRuns(Engine& engine, const std::vector<EValue>& inputs, const RunCompareOptions& options) {
    const int runs = options.warmup + std::max(1, options.repeat);
    std::optional<RunResult> last;
    for (int k = 0; k < runs; ++k) {
        if (options.onRun) options.onRun(k, runs);
        RunOptions o = options.run;
        if (k < options.warmup) o.observer = k == 0 ? options.coldObserver : nullptr;
        IRLENS_ASSIGN_OR_RETURN(r, engine.run(inputs, o));
        if (k >= options.warmup) last = std::move(r);
    }
    return std::move(*last);
}

} // namespace

Result<PickedInputs> pickInputs(const ExecutionPlan& plan, const InputRequest& request) {
    std::optional<ExpectedSet> reference;
    if (!request.expectDir.empty()) {
        IRLENS_ASSIGN_OR_RETURN(set, loadExpected(request.expectDir));
        reference = std::move(set);
    }
    PickedInputs picked;
    if (!request.inputPaths.empty()) {
        IRLENS_ASSIGN_OR_RETURN(values, inputsFromFiles(plan, request.inputPaths, picked.from));
        picked.values = std::move(values);
    } else if (reference) {
        picked.values = reference->main.inputs;
        picked.from = request.expectDir;
    } else {
        IRLENS_ASSIGN_OR_RETURN(archive, inputsFromArchive(plan, request));
        picked = std::move(archive);
    }
    picked.reference = std::move(reference);
    return picked;
}

std::vector<OutputCheck> checkAgainstReference(const RunResult& run, const ExpectedCase& reference) {
    std::vector<OutputCheck> checks;
    for (size_t k = 0; k < reference.outputs.size(); ++k) checks.push_back(checkUserOutput(run, reference, k));
    for (const auto& b : reference.buffers) checks.push_back(checkBuffer(run, reference, b));
    return checks;
}

bool RunComparison::ok() const {
    return std::all_of(checks.begin(), checks.end(), [](const OutputCheck& c) { return c.cmp.ok; });
}

std::string RunComparison::verdict() const {
    if (!compared) return "";
    const auto bad = std::count_if(checks.begin(), checks.end(), [](const OutputCheck& c) { return !c.cmp.ok; });
    const std::string total = std::to_string(checks.size());
    if (bad == 0) return total + " of " + total + " values match the reference";
    auto first = std::find_if(checks.begin(), checks.end(), [](const OutputCheck& c) { return !c.cmp.ok; });
    return std::to_string(bad) + " of " + total + " values differ from the reference; first: " + first->caseName + " " +
           first->what + ": " + first->cmp.message;
}

Result<RunComparison> runAndCompare(std::shared_ptr<const ExecutionPlan> plan, const RunCompareOptions& options) {
    IRLENS_ASSIGN_OR_RETURN(picked, pickInputs(*plan, options.inputs));
    Engine engine(plan);
    RunComparison out;
    out.inputsFrom = picked.from;
    IRLENS_ASSIGN_OR_RETURN(last, measuredRuns(engine, picked.values, options));
    out.last = std::move(last);
    if (!picked.reference) return out;
    out.compared = true;
    out.checks = checkAgainstReference(out.last, picked.reference->main);
    out.mainChecks = out.checks.size();
    RunOptions plain = options.run;
    plain.observer = nullptr;
    plain.progress = nullptr;
    for (const auto& c : picked.reference->extra) {
        auto r = engine.run(c.inputs, plain);
        if (!r) return r.status().withContext("case '" + c.name + "'");
        auto more = checkAgainstReference(*r, c);
        out.checks.insert(out.checks.end(), more.begin(), more.end());
    }
    return out;
}

} // namespace irlens::core::exec
