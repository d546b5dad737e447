// irlens-cli print FILE [--signature | --code | --tabular]: the FX text of the graph, as print(ep.graph)
// shows it; its forward() as GraphModule.code prints it; or graph.print_tabular()'s table.
#include "app/cli/commands.h"

#include "core/io/fx_printer.h"
#include "core/io/signature_printer.h"
#include "core/ops/op_registry.h"

#include <cstdio>

namespace irlens::cli {
namespace {

int runPrint(const std::vector<std::string>& argv) {
    Args args(argv, {"--model"});
    if (!args.error().empty()) return fail(Unusable, args.error());
    bool example = args.has("--example");
    if (!example && args.positional().size() != 1) return fail(Unusable, "usage: irlens-cli print FILE [--signature | --code | --tabular] [--model NAME] | --example");
    auto loaded = loadProgramArg(args, false /* the graph only */);
    if (!loaded) return fail(Unusable, loaded.error());
    core::ProgramPtr program = loaded.value();
    std::string text;
    if (args.has("--signature")) {
        text = core::printSignature(*program);
    } else {
        core::FxPrintOptions options;
        options.schemaLookup = [](const core::Target& t) -> const core::OpSchema* {
            const core::OpInfo* info = core::OpRegistry::instance().find(t);
            return info ? &info->schema : nullptr;
        };
        if (args.has("--code") || args.has("--tabular")) {
            const auto lines = args.has("--code") ? core::printFxCode(*program, options) : core::printFxTabular(*program, options);
            for (const auto& l : lines) text += l.text + "\n";
        } else {
            text = core::printFxGraph(*program, options);
        }
    }
    std::fwrite(text.data(), 1, text.size(), stdout);
    return Ok;
}

CommandRegistration registration({"print", "print FILE [--signature | --code | --tabular] [--model NAME]",
                                  "the graph as print(ep.graph) shows it, its forward() code, its print_tabular() table, or the graph signature",
                                  runPrint});

} // namespace
} // namespace irlens::cli
