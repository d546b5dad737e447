// irlens-cli run FILE: execute a program on the CPU engine, time every node, compare with reference
// outputs; on request, where the time and the memory went (run_reports.h). With --dump, --reference or
// --check-finite it runs node by node instead and reports every value (run_numerics.h). Exit 0 fine,
// 1 outputs differ from --expect (or a value from --reference, or a NaN is made), 2 unusable input or
// a failed run.
#include "app/cli/commands.h"
#include "app/cli/run_numerics.h"
#include "app/cli/roofline_report.h"
#include "app/cli/run_reports.h"
#include "core/exec/chrome_trace.h"
#include "core/exec/engine.h"
#include "core/exec/output_summary.h"
#include "core/exec/profile.h"
#include "core/exec/run_files.h"
#include "core/exec/run_compare.h"
#include "core/io/pt2_reader.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <optional>
#include <nlohmann/json.hpp>

namespace irlens::cli {
namespace {

using namespace irlens::core;
using namespace irlens::core::exec;

struct RunArgs {
    std::string file;
    int64_t threads = 0, repeat = 1, warmup = -1, top = 10;
    InputRequest inputs;
    bool json = false;
    std::string trace, profileCsv, memoryCsv, criticalPathCsv, model;
    RunReports reports;
    NumericFlags numeric;
};

bool parseInt(const std::string& s, int64_t& out) {
    try {
        size_t pos = 0;
        out = std::stoll(s, &pos);
        return pos == s.size();
    } catch (...) {
        return false;
    }
}

// "s0=7,s1=3" -> {s0: 7, s1: 3}; false on a malformed item.
bool parseSymbols(const std::string& spec, std::map<std::string, int64_t>& symbols) {
    size_t start = 0;
    while (start < spec.size()) {
        size_t end = spec.find(',', start);
        std::string item = spec.substr(start, end == std::string::npos ? std::string::npos : end - start);
        auto eq = item.find('=');
        int64_t v;
        if (eq == std::string::npos || !parseInt(item.substr(eq + 1), v)) return false;
        symbols[item.substr(0, eq)] = v;
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return true;
}

// --memory, --critical-path, --what-if (repeatable; implies --critical-path), --by-line, --roofline,
// --measure-roofs (implies --roofline).
Status parseReports(const Args& args, RunArgs& r) {
    r.reports.memory = args.has("--memory");
    r.reports.criticalPath = args.has("--critical-path");
    r.reports.byLine = args.has("--by-line");
    r.reports.measureRoofs = args.has("--measure-roofs");
    r.reports.roofline = args.has("--roofline") || r.reports.measureRoofs;
    r.reports.top = r.top;
    for (const std::string& text : args.values("--what-if")) {
        auto spec = parseWhatIf(text);
        if (!spec) return spec.status();
        r.reports.whatIf.push_back(*spec);
        r.reports.criticalPath = true;
    }
    return Status::ok();
}

// The command line as a RunArgs, or the usage error.
Result<RunArgs> parseRunArgs(const Args& args) {
    if (args.positional().size() != 1) {
        const auto inputs = args.values("--inputs");
        const bool swallowed = args.positional().empty() && !inputs.empty() && inputs.back().ends_with(".pt2");
        return Status::error(args.usage() + (swallowed ? " (put FILE before --inputs)" : ""));
    }
    RunArgs r;
    r.file = args.positional()[0];
    int64_t seed = 0;
    IRLENS_TRY(args.count("--threads", 1, 1024, r.threads));
    IRLENS_TRY(args.count("--repeat", 1, 100000, r.repeat));
    if (args.has("--warmup") && (!parseInt(args.value("--warmup"), r.warmup) || r.warmup < 0)) return Status::error("--warmup needs a number >= 0");
    if (args.has("--seed") && !parseInt(args.value("--seed"), seed)) return Status::error("--seed needs a number");
    if (args.has("--top") && (!parseInt(args.value("--top"), r.top) || r.top < 0)) return Status::error("--top needs a number >= 0");
    if (args.has("--sym") && !parseSymbols(args.value("--sym"), r.inputs.symbols)) return Status::error("--sym expects NAME=VALUE[,NAME=VALUE]");
    if (r.warmup < 0) r.warmup = r.repeat > 1 ? 1 : 0;
    r.inputs.seed = static_cast<uint64_t>(seed);
    r.inputs.expectDir = args.value("--expect");
    r.inputs.inputPaths = args.values("--inputs");
    r.json = args.has("--json");
    r.trace = args.value("--trace");
    r.profileCsv = args.value("--profile");
    r.memoryCsv = args.value("--memory-csv");
    r.criticalPathCsv = args.value("--critical-path-csv");
    r.model = args.value("--model");
    IRLENS_TRY(parseReports(args, r));
    IRLENS_ASSIGN_OR_RETURN(numeric, parseNumericFlags(args));
    r.numeric = std::move(numeric);
    return r;
}

Status writeFile(const std::string& path, const std::string& text) {
    if (path.empty()) return Status::ok();
    std::ofstream out(path);
    out << text;
    return out ? Status::ok() : Status::error("cannot write " + path);
}

void printJson(const RunArgs& a, const RunComparison& rc, const Profile& profile, const Profile& cold, const ExecutionPlan& plan,
               const MeasuredRun& measured, const Roofline* roofline) {
    const RunResult& last = rc.last;
    std::vector<int64_t> walls = profile.wallNs();
    std::sort(walls.begin(), walls.end());
    nlohmann::json j;
    j["file"] = a.file;
    j["threads"] = last.threads;
    j["repeat"] = a.repeat;
    j["warmup"] = a.warmup;
    j["median_ms"] = static_cast<double>(profile.medianWallNs()) / 1e6;
    j["min_ms"] = static_cast<double>(walls.front()) / 1e6;
    j["max_ms"] = static_cast<double>(walls.back()) / 1e6;
    j["cold_ms"] = cold.runs() > 0 ? nlohmann::json(static_cast<double>(cold.wallNs().front()) / 1e6) : nlohmann::json();
    // how long the engine's threads waited for cores other tasks held, in all and in the slowest run
    const Profile::Queued queued = profile.queued();
    j["queued_ms"] = queued.measured ? nlohmann::json(static_cast<double>(queued.totalNs) / 1e6) : nlohmann::json();
    j["queued_slowest_run_ms"] = queued.measured ? nlohmann::json(static_cast<double>(queued.slowestRunNs) / 1e6) : nlohmann::json();
    j["peak_bytes"] = profile.peakBytes();
    j["inputs_from"] = rc.inputsFrom;
    j["outputs"] = nlohmann::json::array();
    for (size_t k = 0; k < last.outputs.size(); ++k) {
        const auto& v = last.outputs[k];
        j["outputs"].push_back({{"name", last.specs[k].name}, {"kind", outputKindName(last.specs[k].kind)},
                                {"value", v.isTensor() ? v.tensor.shapeString() : v.describe()}});
    }
    j["nodes"] = nlohmann::json::array();
    const std::vector<int64_t> coldNs = cold.lastRunNs(); // empty without warm-up
    for (const auto& n : profile.nodes()) {
        const int64_t nodeCold = static_cast<size_t>(n.node) < coldNs.size() ? coldNs[static_cast<size_t>(n.node)] : -1;
        j["nodes"].push_back({{"name", n.name}, {"op", n.op}, {"module", n.modulePath}, {"median_us", n.medianNs / 1000.0},
                              {"min_us", n.minNs / 1000.0}, {"max_us", n.maxNs / 1000.0},
                              {"cold_us", nodeCold >= 0 ? nlohmann::json(nodeCold / 1000.0) : nlohmann::json()},
                              {"bytes", n.bytes}, {"flops", n.flops}, {"gflops", n.gflops()}});
    }
    if (rc.compared) {
        j["expect"] = {{"ok", rc.ok()}, {"verdict", rc.verdict()}, {"checks", nlohmann::json::array()}};
        for (const auto& c : rc.checks)
            j["expect"]["checks"].push_back({{"case", c.caseName}, {"output", c.what}, {"ok", c.cmp.ok}, {"max_abs", c.cmp.maxAbs},
                                             {"max_rel", c.cmp.maxRel}, {"message", c.cmp.message}});
    }
    if (a.reports.any()) addRunReportsJson(plan, measured, a.reports, j, roofline);
    std::printf("%s\n", j.dump().c_str());
}

void printTopNodes(const Profile& profile, int64_t top, double medianMs) {
    auto nodes = profile.nodes();
    std::sort(nodes.begin(), nodes.end(), [](const auto& a, const auto& b) { return a.medianNs > b.medianNs; });
    if (top <= 0 || nodes.empty()) return;
    std::printf("top nodes (median):\n");
    for (size_t k = 0; k < nodes.size() && k < static_cast<size_t>(top); ++k) {
        const auto& n = nodes[k];
        std::printf("  %9.3f ms %5.1f%%  %-28s %-44s %s", n.medianNs / 1e6, medianMs > 0 ? 100.0 * n.medianNs / 1e6 / medianMs : 0.0,
                    n.name.c_str(), n.op.c_str(), n.modulePath.c_str());
        if (n.flops > 0) std::printf("  %.2f GFLOP/s", n.gflops());
        std::printf("\n");
    }
}

void printText(const RunArgs& a, const RunComparison& rc, const Profile& profile, const Profile& cold, const ExecutionPlan& plan,
               const MeasuredRun& measured, const Roofline* roofline) {
    const RunResult& last = rc.last;
    const double medianMs = static_cast<double>(profile.medianWallNs()) / 1e6;
    std::vector<int64_t> walls = profile.wallNs();
    std::sort(walls.begin(), walls.end());
    std::printf("program   %s (%zu nodes)\n", a.file.c_str(), plan.graph().nodes.size());
    std::printf("inputs    %s\n", rc.inputsFrom.c_str());
    for (size_t k = 0; k < last.outputs.size(); ++k) {
        const auto& v = last.outputs[k];
        std::printf("output    %-20s %-16s %s\n", last.specs[k].name.c_str(), outputKindName(last.specs[k].kind),
                    v.isTensor() ? outputSummaryLine(v.tensor).c_str() : v.describe().c_str());
    }
    std::printf("time      median %.3f ms over %lld runs (min %.3f, max %.3f), %d threads\n", medianMs, static_cast<long long>(a.repeat),
                walls.front() / 1e6, walls.back() / 1e6, last.threads);
    if (const Profile::Queued queued = profile.queued(); queued.measured)
        std::printf("queued    %.3f ms in all, %.3f ms in the slowest run: the engine's threads waiting for cores other tasks held\n",
                    static_cast<double>(queued.totalNs) / 1e6, static_cast<double>(queued.slowestRunNs) / 1e6);
    if (cold.runs() > 0)
        std::printf("cold      %.3f ms: the first of %lld warm-up runs (one-time setup lands there)\n", cold.wallNs().front() / 1e6,
                    static_cast<long long>(a.warmup));
    std::printf("memory    peak %.2f MiB allocated by the engine\n", static_cast<double>(profile.peakBytes()) / (1024.0 * 1024.0));
    printTopNodes(profile, a.top, medianMs);
    if (a.reports.any()) printRunReports(plan, measured, a.reports, roofline);
    for (const auto& c : rc.checks) {
        std::printf("expect    %-5s %-24s %s  max abs %.3g  max rel %.3g%s%s\n", c.caseName.c_str(), c.what.c_str(),
                    c.cmp.ok ? "ok      " : "MISMATCH", c.cmp.maxAbs, c.cmp.maxRel, c.cmp.ok ? "" : "  ", c.cmp.message.c_str());
    }
    if (rc.compared) std::printf("verdict   %s\n", rc.verdict().c_str());
}

int runRun(const Args& args) {
    auto a = parseRunArgs(args);
    if (!a) return fail(Unusable, a.error());
    LoadOptions lo;
    lo.modelName = a->model;
    lo.checkCrc = true; // a weight whose CRC fails must not run (its outputs were ~1e30)
    auto program = loadPt2(a->file, lo);
    if (!program) return fail(Unusable, program.error());
    if (a->numeric.any()) return runNumericMode(*program, a->file, a->inputs, a->numeric, a->json, a->top);
    auto plan = ExecutionPlan::compile(*program);
    if (!plan) return fail(Unusable, plan.error());
    if (Status s = checkRunReports(**plan, a->reports); !s) return fail(Unusable, s.message());

    Profile profile, cold;
    RunCompareOptions options;
    options.inputs = a->inputs;
    options.coldObserver = &cold;
    options.run.threads = static_cast<int>(a->threads);
    options.run.observer = &profile;
    options.warmup = static_cast<int>(a->warmup);
    options.repeat = static_cast<int>(a->repeat);
    auto rc = runAndCompare(*plan, options);
    if (!rc) return fail(Unusable, rc.error());

    const MeasuredRun measured = measureRun(**plan, profile);
    // the roofs for --roofline, and for the trace's share of the roof per slice
    std::optional<Roofline> roof;
    if (a->reports.roofline || !a->trace.empty()) {
        auto r = rooflineOfRun(**plan, measured, a->reports.measureRoofs);
        if (!r && a->reports.roofline) return fail(Unusable, r.error());
        if (r) roof = std::move(*r);
        else std::fprintf(stderr, "irlens-cli: the trace has no share of the roof: %s\n", r.error().c_str());
    }
    const Roofline* roofline = roof ? &*roof : nullptr;
    if (Status s = writeFile(a->trace, chromeTrace(**plan, profile, roofline)); !s) return fail(Unusable, s.message());
    if (Status s = writeFile(a->profileCsv, profile.csv()); !s) return fail(Unusable, s.message());
    if (!a->memoryCsv.empty())
        if (Status s = writeFile(a->memoryCsv, memoryCurveCsv(**plan, memoryTimeline(**plan, measured))); !s) return fail(Unusable, s.message());
    if (!a->criticalPathCsv.empty())
        if (Status s = writeFile(a->criticalPathCsv, criticalPathCsv(**plan, measured)); !s) return fail(Unusable, s.message());
    if (a->json) printJson(*a, *rc, profile, cold, **plan, measured, roofline);
    else printText(*a, *rc, profile, cold, **plan, measured, roofline);
    return rc->ok() ? Ok : CheckFailed;
}

const CommandRegistration registeredRun({
    .name = "run",
    .forms = {"FILE [--threads N] [--repeat K] [--warmup W] [--inputs PATH ...] [--expect DIR] [--trace F] [--profile F] [--memory-csv F] [--critical-path-csv F] "
              "[--json] "
              "[--memory] [--critical-path [--what-if SELECTOR=FACTOR ...]] [--by-line] [--roofline [--measure-roofs]] [--top N] [--seed S] "
              "[--sym NAME=VALUE,...] "
              "[--model NAME]",
              "FILE [--inputs PATH ...] [--dump OUT.safetensors] [--reference REF [--tolerance T]] [--check-finite] [--json]"},
    .summary = "execute on the CPU engine, time every node, compare with reference outputs; where the time and memory go; "
               "every node's value dumped, compared with PyTorch's, its first NaN found",
    .details = "The inputs come from --inputs or --expect, else the archive's sample inputs, else they are generated from "
               "the graph's meta. Prints the outputs, the median time, the peak memory and the slowest nodes. With --dump, "
               "--reference or --check-finite the program runs once, node by node on one thread, and every node's value is "
               "written, compared with the reference values or checked for NaN and infinities instead.",
    .operands = {{"FILE", "the .pt2 program to run"}},
    .flags = {{"--threads", "N", "worker threads (default: every core)"},
              {"--repeat", "K", "timed runs; the median is reported (default 1)"},
              {"--warmup", "W", "untimed runs before them, the first reported as cold (default 1 with --repeat > 1, else 0)"},
              {"--inputs", "PATH", "the user inputs: .pt, .npy, .npz or .safetensors files (matched by name, else by position) "
                                   "or a model.expected/ folder; takes every path up to the next flag", ValueKind::File, {}, true},
              {"--expect", "DIR", "compare the outputs with this model.expected/ folder's reference, for every case it holds",
               ValueKind::Directory},
              {"--seed", "S", "the seed of generated inputs (default 0)"},
              {"--sym", "NAME=VALUE[,...]", "sizes of symbolic dimensions for generated inputs (sample inputs are not used then)"},
              {"--trace", "F", "write the timed runs as a Chrome trace (Perfetto, chrome://tracing)", ValueKind::File},
              {"--profile", "F", "write the time of every node as CSV", ValueKind::File},
              {"--memory-csv", "F", "write the memory curve as CSV: the live bytes at every node, by kind", ValueKind::File},
              {"--critical-path-csv", "F", "write the critical path as CSV: its nodes in order, with their times", ValueKind::File},
              jsonFlag("the run"),
              {"--memory", "", "the memory timeline: what is live at the peak"},
              {"--critical-path", "", "the critical path, and the run replayed on the scheduling model"},
              {"--what-if", "SELECTOR=FACTOR", "replay with the nodes SELECTOR names (op:OP, module:PATH, node:NAME or a bare "
                                               "name) taking FACTOR of their time; repeatable; implies --critical-path"},
              {"--by-line", "", "time per source line, from the nodes' stack traces"},
              {"--roofline", "", "this machine's roofs and, per node, FLOPs, bytes moved, intensity, attainable and achieved "
                                 "GFLOP/s, the share of the roof and what bounds it"},
              {"--measure-roofs", "", "measure the roofs again instead of reading them from the cache; implies --roofline"},
              {"--top", "N", "rows of the slowest-nodes table and of each report (default 10)"},
              {"--dump", "OUT.safetensors", "write every node's value, keyed by its name in print(ep.graph)", ValueKind::File},
              {"--reference", "REF", "compare every node's value with REF (.safetensors, a .pt dict or a folder of .npy, keyed by "
                                     "node name); name the first node over the tolerance", ValueKind::File},
              {"--tolerance", "T", "with --reference: the normwise relative error allowed (default 1e-4)"},
              {"--check-finite", "", "name the first node that makes a NaN or an infinity from finite inputs"},
              modelFlag()},
    .exits = {exitDone("ran (and with --expect, every output matches; with --reference, every value agrees)"),
              {CheckFailed, "an output differs from --expect's reference, a value from --reference's, or --check-finite found a "
                            "NaN or infinity made from finite inputs"},
              {Unusable, "unreadable input, bad usage or a run that failed; one line on stderr says which and why"}},
    .run = runRun,
});

} // namespace
} // namespace irlens::cli
