// irlens-cli verify FILE [--json] [--core-aten] [--meta]: checks a program against the Export IR spec.
// irlens-cli verify --rules [--json]: the rule catalogue (what each rule asks, the spec passage, an example
// that breaks it and the fix). Exit 0 when clean or only warnings, 1 on errors, 2 when the file cannot be read.
#include "app/cli/commands.h"

#include "core/verify/verifier.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace irlens::cli {
namespace {

void writeJson(const nlohmann::json& j) {
    std::string text = j.dump(2) + "\n";
    std::fwrite(text.data(), 1, text.size(), stdout);
}

int printRules(bool json) {
    const auto& rules = core::verifierRules();
    if (json) {
        nlohmann::json j = nlohmann::json::array();
        for (const auto& r : rules)
            j.push_back({{"rule", r.id}, {"title", r.title}, {"reference", r.specRef},
                         {"severity", core::severityName(r.severity)}, {"explanation", r.explanation},
                         {"passage", r.passage}, {"breaks", r.breakingExample}, {"fix", r.fix}});
        writeJson(j);
        return Ok;
    }
    for (const auto& r : rules) {
        std::printf("%s  %s (%s)\n", r.id, r.title, core::severityName(r.severity));
        std::printf("    %s\n    spec: %s\n    reference: %s\n    breaks it: %s\n    fix: %s\n\n", r.explanation, r.passage,
                    r.specRef, r.breakingExample, r.fix);
    }
    std::printf("%zu rules\n", rules.size());
    return Ok;
}

nlohmann::json diagnosticJson(const core::Diagnostic& d) {
    const core::RuleInfo* rule = core::findRule(d.ruleId);
    return {{"rule", d.ruleId}, {"title", rule ? rule->title : ""}, {"reference", rule ? rule->specRef : ""},
            {"severity", core::severityName(d.severity)}, {"graph", d.graph}, {"node", d.node},
            {"message", d.message}, {"fix", d.fix}};
}

int runVerify(const Args& args) {
    if (args.has("--rules")) {
        if (!args.positional().empty()) return fail(Unusable, "usage: irlens-cli verify --rules [--json] (no FILE)");
        return printRules(args.has("--json"));
    }
    bool example = args.has("--example");
    if (!example && args.positional().size() != 1) return fail(Unusable, args.usage());
    std::string source = example ? "built-in example" : args.positional()[0];
    auto loaded = loadProgramArg(args, true, /*checkCrc=*/true); // every record's CRC, weights included
    if (!loaded) return fail(Unusable, loaded.error());
    core::ProgramPtr program = loaded.value();
    core::VerifyOptions options;
    if (args.has("--core-aten")) options.coreAtenOnly = true;
    if (args.has("--meta")) options.checkInferredMeta = true;
    auto diagnostics = core::verify(*program, options);
    auto counts = core::countDiagnostics(diagnostics);

    if (args.has("--json")) {
        nlohmann::json j;
        j["file"] = source;
        j["errors"] = counts.errors;
        j["warnings"] = counts.warnings;
        j["infos"] = counts.infos;
        j["diagnostics"] = nlohmann::json::array();
        for (const auto& d : diagnostics) j["diagnostics"].push_back(diagnosticJson(d));
        writeJson(j);
    } else {
        for (const auto& d : diagnostics) std::printf("%s\n", core::formatDiagnostic(d).c_str());
        std::printf("%s: %zu error(s), %zu warning(s), %zu info\n", source.c_str(), counts.errors, counts.warnings,
                    counts.infos);
    }
    return counts.errors ? CheckFailed : Ok;
}

const CommandRegistration registeredVerify({
    .name = "verify",
    .forms = {"FILE [--json] [--core-aten] [--meta] [--model NAME]", "--example [--json] [--core-aten] [--meta]", "--rules [--json]"},
    .summary = "check a program against the Export IR spec (exit 1 on errors); --rules lists the rules",
    .details = "Each finding names its rule, the node and the fix. The rules follow the program's dialect: a TRAINING "
               "program may hold composite and in-place ops that an ATEN program may not. Every record's CRC is checked.",
    .operands = {{"FILE", "the .pt2 program to check"}},
    .flags = {jsonFlag("the findings"),
              {"--core-aten", "", "hold the program to the Core ATen rule whatever its dialect (as for a decomposition's output)"},
              {"--meta", "", "also infer each node's shape and dtype and report where the recorded meta disagrees"},
              {"--rules", "", "list the rules instead: what each asks, its spec passage, an example that breaks it and the fix"},
              modelFlag(), exampleFlag()},
    .exits = {exitDone("no errors (warnings and infos may be printed)"), {CheckFailed, "errors found"}, exitUnusable()},
    .run = runVerify,
});

} // namespace
} // namespace irlens::cli
