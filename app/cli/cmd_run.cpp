// irlens-cli run FILE: execute a program on the CPU engine, time every node, compare with reference
// outputs. Exit 0 fine, 1 outputs differ from --expect, 2 unusable input or a failed run.
#include "app/cli/commands.h"
#include "core/exec/engine.h"
#include "core/exec/inputs.h"
#include "core/exec/profile.h"
#include "core/io/pt2_reader.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

namespace irlens::cli {
namespace {

using namespace irlens::core;
using namespace irlens::core::exec;

struct OutputCheck {
    std::string caseName;
    std::string what;   // output name / buffer
    Comparison cmp;
};

std::string tensorStats(const Tensor& t) {
    if (t.numel() == 0) return t.shapeString() + " (empty)";
    double lo = INFINITY, hi = -INFINITY, sum = 0;
    for (int64_t i = 0; i < t.numel(); ++i) {
        double v = t.at(i);
        lo = std::min(lo, v);
        hi = std::max(hi, v);
        sum += v;
    }
    char buf[160];
    std::snprintf(buf, sizeof buf, "  min %.6g  max %.6g  mean %.6g", lo, hi, sum / static_cast<double>(t.numel()));
    return t.shapeString() + buf;
}

// Compares a run's outputs with one expected case: user outputs by position, buffers by FQN.
void compareCase(const RunResult& r, const ExpectedCase& c, std::vector<OutputCheck>& checks) {
    for (size_t k = 0; k < c.outputs.size(); ++k) {
        OutputCheck oc{c.name, c.outputs[k].name.empty() ? "output " + std::to_string(k) : c.outputs[k].name, {}};
        if (k >= r.userOutputs.size()) {
            oc.cmp.ok = false;
            oc.cmp.message = "the program has only " + std::to_string(r.userOutputs.size()) + " user outputs";
        } else {
            const EValue& v = r.outputs[static_cast<size_t>(r.userOutputs[k])];
            if (!v.isTensor()) { oc.cmp.ok = false; oc.cmp.message = "output is " + v.describe() + ", not a tensor"; }
            else oc.cmp = compareTensors(v.tensor, c.outputs[k].tensor);
        }
        checks.push_back(oc);
    }
    for (const auto& b : c.buffers) {
        OutputCheck oc{c.name, "buffer " + b.name, {}};
        bool found = false;
        for (size_t k = 0; k < r.specs.size(); ++k)
            if (r.specs[k].kind == OutputKind::BufferMutation && r.specs[k].target == b.name && r.outputs[k].isTensor()) {
                oc.cmp = compareTensors(r.outputs[k].tensor, b.tensor);
                found = true;
            }
        if (!found) { oc.cmp.ok = false; oc.cmp.message = "the program does not mutate buffer '" + b.name + "'"; }
        checks.push_back(oc);
    }
}

bool parseInt(const std::string& s, int64_t& out) {
    try {
        size_t pos = 0;
        out = std::stoll(s, &pos);
        return pos == s.size();
    } catch (...) {
        return false;
    }
}

int runRun(const std::vector<std::string>& raw) {
    Args args(raw, {"--threads", "--repeat", "--warmup", "--inputs", "--expect", "--trace", "--profile", "--seed", "--sym", "--top", "--model"});
    if (!args.error().empty()) return fail(Unusable, args.error());
    if (args.positional().size() != 1) return fail(Unusable, "usage: irlens-cli run FILE [--threads N] [--repeat K] [--inputs DIR] [--expect DIR] [--trace OUT.json] [--profile OUT.csv] [--json]");
    int64_t threads = 0, repeat = 1, warmup = -1, seed = 0, top = 10;
    if (args.has("--threads") && (!parseInt(args.value("--threads"), threads) || threads < 1 || threads > 1024))
        return fail(Unusable, "--threads needs a positive number");
    if (args.has("--repeat") && (!parseInt(args.value("--repeat"), repeat) || repeat < 1 || repeat > 100000))
        return fail(Unusable, "--repeat needs a positive number");
    if (args.has("--warmup") && (!parseInt(args.value("--warmup"), warmup) || warmup < 0)) return fail(Unusable, "--warmup needs a number >= 0");
    if (args.has("--seed") && !parseInt(args.value("--seed"), seed)) return fail(Unusable, "--seed needs a number");
    if (args.has("--top") && (!parseInt(args.value("--top"), top) || top < 0)) return fail(Unusable, "--top needs a number >= 0");
    if (warmup < 0) warmup = repeat > 1 ? 1 : 0;
    std::map<std::string, int64_t> symbols;
    if (args.has("--sym")) {
        std::string spec = args.value("--sym"); // s0=7,s1=3
        size_t start = 0;
        while (start < spec.size()) {
            size_t end = spec.find(',', start);
            std::string item = spec.substr(start, end == std::string::npos ? std::string::npos : end - start);
            auto eq = item.find('=');
            int64_t v;
            if (eq == std::string::npos || !parseInt(item.substr(eq + 1), v)) return fail(Unusable, "--sym expects NAME=VALUE[,NAME=VALUE]");
            symbols[item.substr(0, eq)] = v;
            if (end == std::string::npos) break;
            start = end + 1;
        }
    }
    const bool json = args.has("--json");

    LoadOptions lo;
    lo.modelName = args.value("--model");
    lo.checkCrc = true; // a weight whose CRC fails must not run (its outputs were ~1e30)
    auto program = loadPt2(args.positional()[0], lo);
    if (!program) return fail(Unusable, program.error());
    auto plan = ExecutionPlan::compile(*program);
    if (!plan) return fail(Unusable, plan.error());

    std::optional<ExpectedSet> expected;
    if (args.has("--expect")) {
        auto e = loadExpected(args.value("--expect"));
        if (!e) return fail(Unusable, e.error());
        expected = std::move(*e);
    }
    std::vector<EValue> inputs;
    std::string inputsFrom;
    if (args.has("--inputs")) {
        auto e = loadExpected(args.value("--inputs"));
        if (!e) return fail(Unusable, e.error());
        inputs = e->main.inputs;
        inputsFrom = args.value("--inputs");
    } else if (expected) {
        inputs = expected->main.inputs;
        inputsFrom = args.value("--expect");
    } else if ((*program)->hasSampleInputs && symbols.empty()) {
        auto s = sampleInputs(**plan);
        if (!s) return fail(Unusable, s.error());
        inputs = std::move(*s);
        inputsFrom = "archive sample inputs";
    } else {
        auto g = generateInputs(**plan, static_cast<uint64_t>(seed), symbols);
        if (!g) return fail(Unusable, g.error());
        inputs = std::move(*g);
        inputsFrom = "generated (seed " + std::to_string(seed) + ")";
    }

    Engine engine(*plan);
    RunOptions ro;
    ro.threads = static_cast<int>(threads);
    for (int64_t w = 0; w < warmup; ++w) {
        auto r = engine.run(inputs, ro);
        if (!r) return fail(Unusable, r.error());
    }
    Profile profile;
    ro.observer = &profile;
    std::optional<RunResult> last;
    for (int64_t k = 0; k < repeat; ++k) {
        auto r = engine.run(inputs, ro);
        if (!r) return fail(Unusable, r.error());
        last = std::move(*r);
    }

    std::vector<OutputCheck> checks;
    if (expected) {
        compareCase(*last, expected->main, checks);
        RunOptions plain;
        plain.threads = static_cast<int>(threads);
        for (const auto& c : expected->extra) {
            auto r = engine.run(c.inputs, plain);
            if (!r) return fail(Unusable, "case '" + c.name + "': " + r.error());
            compareCase(*r, c, checks);
        }
    }
    bool allOk = std::all_of(checks.begin(), checks.end(), [](const OutputCheck& c) { return c.cmp.ok; });

    if (args.has("--trace")) {
        std::ofstream out(args.value("--trace"));
        out << profile.chromeTraceJson();
        if (!out) return fail(Unusable, "cannot write " + args.value("--trace"));
    }
    if (args.has("--profile")) {
        std::ofstream out(args.value("--profile"));
        out << profile.csv();
        if (!out) return fail(Unusable, "cannot write " + args.value("--profile"));
    }

    auto nodes = profile.nodes();
    std::sort(nodes.begin(), nodes.end(), [](const auto& a, const auto& b) { return a.medianNs > b.medianNs; });
    const double medianMs = static_cast<double>(profile.medianWallNs()) / 1e6;
    std::vector<int64_t> walls = profile.wallNs();
    std::sort(walls.begin(), walls.end());

    if (json) {
        nlohmann::json j;
        j["file"] = args.positional()[0];
        j["threads"] = last->threads;
        j["repeat"] = repeat;
        j["warmup"] = warmup;
        j["median_ms"] = medianMs;
        j["min_ms"] = static_cast<double>(walls.front()) / 1e6;
        j["max_ms"] = static_cast<double>(walls.back()) / 1e6;
        j["peak_bytes"] = profile.peakBytes();
        j["inputs_from"] = inputsFrom;
        j["outputs"] = nlohmann::json::array();
        for (size_t k = 0; k < last->outputs.size(); ++k) {
            const auto& v = last->outputs[k];
            j["outputs"].push_back({{"name", last->specs[k].name}, {"kind", outputKindName(last->specs[k].kind)},
                                    {"value", v.isTensor() ? v.tensor.shapeString() : v.describe()}});
        }
        j["nodes"] = nlohmann::json::array();
        for (const auto& n : profile.nodes())
            j["nodes"].push_back({{"name", n.name}, {"op", n.op}, {"module", n.modulePath}, {"median_us", n.medianNs / 1000.0},
                                  {"bytes", n.bytes}, {"flops", n.flops}, {"gflops", n.gflops()}});
        if (expected) {
            j["expect"] = {{"ok", allOk}, {"checks", nlohmann::json::array()}};
            for (const auto& c : checks)
                j["expect"]["checks"].push_back({{"case", c.caseName}, {"output", c.what}, {"ok", c.cmp.ok}, {"max_abs", c.cmp.maxAbs},
                                                 {"max_rel", c.cmp.maxRel}, {"message", c.cmp.message}});
        }
        std::printf("%s\n", j.dump().c_str());
    } else {
        std::printf("program   %s (%zu nodes)\n", args.positional()[0].c_str(), (*plan)->graph().nodes.size());
        std::printf("inputs    %s\n", inputsFrom.c_str());
        for (size_t k = 0; k < last->outputs.size(); ++k) {
            const auto& v = last->outputs[k];
            std::printf("output    %-20s %-16s %s\n", last->specs[k].name.c_str(), outputKindName(last->specs[k].kind),
                        v.isTensor() ? tensorStats(v.tensor).c_str() : v.describe().c_str());
        }
        std::printf("time      median %.3f ms over %lld runs (min %.3f, max %.3f), %d threads\n", medianMs,
                    static_cast<long long>(repeat), walls.front() / 1e6, walls.back() / 1e6, last->threads);
        std::printf("memory    peak %.2f MiB allocated by the engine\n", static_cast<double>(profile.peakBytes()) / (1024.0 * 1024.0));
        if (top > 0 && !nodes.empty()) {
            std::printf("top nodes (median):\n");
            for (size_t k = 0; k < nodes.size() && k < static_cast<size_t>(top); ++k) {
                const auto& n = nodes[k];
                std::printf("  %9.3f ms %5.1f%%  %-28s %-44s %s", n.medianNs / 1e6,
                            medianMs > 0 ? 100.0 * n.medianNs / 1e6 / medianMs : 0.0, n.name.c_str(), n.op.c_str(), n.modulePath.c_str());
                if (n.flops > 0) std::printf("  %.2f GFLOP/s", n.gflops());
                std::printf("\n");
            }
        }
        for (const auto& c : checks) {
            std::printf("expect    %-5s %-24s %s  max abs %.3g  max rel %.3g%s%s\n", c.caseName.c_str(), c.what.c_str(),
                        c.cmp.ok ? "ok      " : "MISMATCH", c.cmp.maxAbs, c.cmp.maxRel, c.cmp.ok ? "" : "  ", c.cmp.message.c_str());
        }
    }
    return allOk ? Ok : CheckFailed;
}

const CommandRegistration reg({"run", "run FILE [--threads N] [--repeat K] [--inputs DIR] [--expect DIR] [--trace F] [--profile F] [--json]",
                               "execute on the CPU engine, time every node, compare with reference outputs", runRun});

} // namespace
} // namespace irlens::cli
