#include "core/report/report_job.h"

#include "core/compare/program_match.h"
#include "core/exec/plan.h"
#include "core/exec/profile.h"
#include "core/io/pt2_reader.h"
#include "core/verify/verifier.h"

#include <filesystem>
#include <unordered_map>

namespace irlens::core {

std::vector<int64_t> nodeTimesOf(const Graph& graph, const std::vector<exec::NodeProfile>& nodes) {
    std::unordered_map<std::string, int> index;
    for (size_t i = 0; i < graph.nodes.size(); ++i) index.emplace(graph.nodes[i].name, static_cast<int>(i));
    std::vector<int64_t> ns(graph.nodes.size(), -1);
    for (const auto& n : nodes) {
        auto it = index.find(n.name);
        if (it != index.end()) ns[static_cast<size_t>(it->second)] = n.medianNs;
    }
    return ns;
}

namespace {

Result<ReportRun> profiledRun(const ProgramPtr& program, const ReportRequest& request) {
    auto plan = exec::ExecutionPlan::compile(program);
    if (!plan) return plan.status().withContext("cannot run " + request.file);
    exec::Profile profile;
    exec::RunCompareOptions options;
    options.inputs = request.inputs;
    options.run.threads = request.threads;
    options.run.observer = &profile;
    options.warmup = 1;
    options.repeat = request.repeat < 1 ? 1 : request.repeat;
    auto compared = exec::runAndCompare(*plan, options);
    if (!compared) return compared.status().withContext("cannot run " + request.file);
    ReportRun run;
    run.threads = profile.threads();
    run.runs = profile.runs();
    run.medianWallNs = profile.medianWallNs();
    run.nodeNs = nodeTimesOf(program->graph, profile.nodes());
    run.inputsFrom = compared->inputsFrom;
    run.verdict = compared->verdict();
    return run;
}

} // namespace

Result<std::string> makeHtmlReport(const ReportRequest& request) {
    LoadOptions load;
    load.loadWeights = request.run || !request.reference.empty();
    auto program = loadPt2(request.file, load);
    if (!program) return program.status();

    HtmlReportOptions options;
    options.title = std::filesystem::path(request.file).filename().string();
    options.diagnostics = verify(**program);
    if (request.run) {
        auto run = profiledRun(*program, request);
        if (!run) return run.status();
        options.run = std::move(*run);
    }
    std::optional<NumericRun> numerics;
    if (!request.reference.empty()) {
        NumericRunOptions numeric;
        numeric.inputs = request.inputs;
        numeric.reference = request.reference;
        numeric.programLabel = request.file;
        auto done = runNumerics(*program, numeric);
        if (!done) return done.status();
        numerics = std::move(*done);
        options.numerics = &*numerics;
    }
    std::optional<ProgramMatch> match;
    if (!request.compareWith.empty()) {
        LoadOptions other;
        other.loadWeights = false;
        auto right = loadPt2(request.compareWith, other);
        if (!right) return right.status();
        match = matchStructurally(*program, *right);
        options.match = &*match;
        options.compareTitle = std::filesystem::path(request.compareWith).filename().string();
    }
    return writeHtmlReport(**program, options);
}

} // namespace irlens::core
