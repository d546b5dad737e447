// irlens-cli decompose FILE --to core|prims [--only OP] [--check] [--tolerance T] [-o OUT.pt2]:
// steps the program down to Core ATen or Prims, prints each step (rewrites, verifier, meta check),
// optionally runs the original and the result on the sample inputs and compares, and saves.
#include "app/cli/commands.h"
#include "core/decomp/decomp_session.h"
#include "core/io/pt2_reader.h"
#include "core/io/pt2_writer.h"

#include <cstdio>
#include <cstdlib>
#include <map>

namespace irlens::cli {
namespace {

using namespace irlens::core;

void printStep(const DecompStep& s) {
    std::printf("%s (%s): %zu -> %zu nodes, %zu rewrites, %.1f ms\n", s.title.c_str(), decompStageName(s.stage), s.nodesBefore,
                s.nodesAfter, s.applied.size(), s.millis);
    std::printf("  verifier: %zu errors, %zu warnings; meta check: %zu mismatches\n", s.verifyErrors, s.verifyWarnings, s.metaMismatches);
    for (const auto& d : s.diagnostics)
        if (d.severity == Severity::Error) std::printf("  %s\n", formatDiagnostic(d).c_str());
    if (s.numeric) std::printf("  numeric: %s%s\n", s.numeric->summary().c_str(), s.flagged() ? "  ABOVE TOLERANCE" : "");
    else if (!s.numericNote.empty()) std::printf("  numeric: not run (%s)\n", s.numericNote.c_str());
    std::map<std::string, int> byRule;
    for (const auto& a : s.applied) ++byRule[a.rule ? a.rule->title : a.oldTarget];
    for (const auto& [title, n] : byRule) std::printf("  %4d x %s\n", n, title.c_str());
    for (const auto& k : s.skipped) std::printf("  kept %s: %s\n", k.node.c_str(), k.reason.c_str());
}

int runDecompose(const Args& args) {
    const std::string usage = args.usage();
    if (args.positional().size() != 1) return fail(Unusable, usage);
    const std::string to = args.value("--to");
    if (to != "core" && to != "prims") return fail(Unusable, "--to must be 'core' or 'prims'; " + usage);
    double tolerance = 1e-5;
    if (args.has("--tolerance")) {
        char* end = nullptr;
        const std::string t = args.value("--tolerance");
        tolerance = std::strtod(t.c_str(), &end);
        if (!end || *end || tolerance < 0) return fail(Unusable, "--tolerance expects a non-negative number, got '" + t + "'");
    }

    LoadOptions load;
    load.modelName = args.value("--model");
    auto loaded = loadPt2(args.positional()[0], load);
    if (!loaded) return fail(Unusable, loaded.error());

    DecompSessionOptions options;
    options.numericCheck = args.has("--check");
    options.tolerance = tolerance;
    options.threads = 0;
    DecompSession session(*loaded, options);

    std::vector<DecompStage> stages{DecompStage::ToCore};
    if (to == "prims") stages.push_back(DecompStage::ToPrims);
    bool flagged = false;
    for (auto stage : stages) {
        Result<const DecompStep*> step = Status::ok();
        if (args.has("--only")) {
            bool any = false;
            for (const auto& c : session.candidates(stage)) any = any || c.target == args.value("--only") || c.target.find("." + args.value("--only") + ".") != std::string::npos;
            if (!any) continue;
            step = session.stepOp(args.value("--only"), stage);
        } else {
            step = session.stepAll(stage);
        }
        if (!step) return fail(Unusable, step.error());
        printStep(**step);
        flagged = flagged || (*step)->flagged() || (options.numericCheck && !(*step)->numeric && !(*step)->applied.empty());
    }
    std::map<std::string, int> kept;
    for (const auto& b : session.blocked(stages.back())) ++kept[b.target + ": " + b.reason];
    if (!kept.empty()) std::printf("stays:\n");
    for (const auto& [why, n] : kept) std::printf("  %4d x %s\n", n, why.c_str());

    if (options.numericCheck && session.current() != session.original()) {
        auto total = compareOutputs(session.original(), session.current(), tolerance, 0);
        if (total) {
            std::printf("check (original vs result): %s%s\n", total->summary().c_str(), total->withinTolerance() ? "" : "  ABOVE TOLERANCE");
            flagged = flagged || !total->withinTolerance();
        } else {
            std::printf("check (original vs result): could not run: %s\n", total.error().c_str());
            flagged = true;
        }
    }
    if (args.has("-o")) {
        Status st = savePt2(*session.current(), args.value("-o"));
        if (!st) return fail(Unusable, st.message());
        std::printf("saved %s\n", args.value("-o").c_str());
    }
    return flagged ? CheckFailed : Ok;
}

const CommandRegistration registeredDecompose({
    .name = "decompose",
    .forms = {"FILE --to core|prims [--only OP] [--check] [--tolerance T] [-o OUT.pt2] [--model NAME]"},
    .summary = "step the program down to Core ATen or Prims (verifier and meta re-run; --check compares outputs)",
    .details = "Prints each step: the rewrites by rule, the verifier's and the meta check's findings, and what stays "
               "and why.",
    .operands = {{"FILE", "the .pt2 program to decompose"}},
    .flags = {{"--to", "LEVEL", "core (Core ATen) or prims (through Core ATen); required", ValueKind::Choice, {"core", "prims"}},
              {"--only", "OP", "decompose the nodes of this op only (its key or its bare name, e.g. addmm)"},
              {"--check", "", "run the original and each result on the sample inputs and compare their outputs"},
              {"--tolerance", "T", "the largest output difference --check accepts (default 1e-05)"},
              {"-o", "OUT.pt2", "save the decomposed program", ValueKind::File},
              modelFlag()},
    .exits = {exitDone("decomposed (and with --check, the outputs agree)"),
              {CheckFailed, "--check found outputs beyond the tolerance, or could not compare them"},
              exitUnusable()},
    .run = runDecompose,
});

} // namespace
} // namespace irlens::cli
