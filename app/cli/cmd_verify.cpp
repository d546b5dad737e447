// irlens-cli verify FILE [--json] [--core-aten] [--meta]: checks a program against the Export IR spec.
// Exit 0 when clean or only warnings, 1 on errors, 2 when the file cannot be read.
#include "app/cli/commands.h"

#include "core/verify/verifier.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace irlens::cli {
namespace {

int runVerify(const std::vector<std::string>& argv) {
    Args args(argv, {"--model"});
    if (!args.error().empty()) return fail(Unusable, args.error());
    bool example = args.has("--example");
    if (!example && args.positional().size() != 1)
        return fail(Unusable, "usage: irlens-cli verify FILE [--json] [--core-aten] [--meta] [--model NAME] | --example");
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
        for (const auto& d : diagnostics)
            j["diagnostics"].push_back({{"rule", d.ruleId}, {"severity", core::severityName(d.severity)},
                                        {"graph", d.graph}, {"node", d.node}, {"message", d.message}, {"fix", d.fix}});
        std::string text = j.dump(2) + "\n";
        std::fwrite(text.data(), 1, text.size(), stdout);
    } else {
        for (const auto& d : diagnostics) std::printf("%s\n", core::formatDiagnostic(d).c_str());
        std::printf("%s: %zu error(s), %zu warning(s), %zu info\n", source.c_str(), counts.errors, counts.warnings,
                    counts.infos);
    }
    return counts.errors ? CheckFailed : Ok;
}

CommandRegistration registration({"verify", "verify FILE [--json] [--core-aten] [--meta] [--model NAME]",
                                  "check a program against the Export IR spec (exit 1 on errors)", runVerify});

} // namespace
} // namespace irlens::cli
