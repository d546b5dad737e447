// irlens-cli print FILE [--signature | --code | --tabular]: the FX text of the graph, as print(ep.graph)
// shows it; its forward() as GraphModule.code prints it; or graph.print_tabular()'s table.
#include "app/cli/commands.h"

#include "core/io/fx_printer.h"
#include "core/io/signature_printer.h"
#include "core/ops/op_registry.h"

#include <cstdio>

namespace irlens::cli {
namespace {

int runPrint(const Args& args) {
    bool example = args.has("--example");
    if (!example && args.positional().size() != 1) return fail(Unusable, args.usage());
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

const CommandRegistration registeredPrint({
    .name = "print",
    .forms = {"FILE [--signature | --code | --tabular] [--model NAME]", "--example [--signature | --code | --tabular]"},
    .summary = "the graph as print(ep.graph) shows it, its forward() code, its print_tabular() table, or the graph signature",
    .operands = {{"FILE", "the .pt2 program to print"}},
    .flags = {{"--signature", "", "the graph signature: inputs and outputs with their kinds, as ep.graph_signature prints"},
              {"--code", "", "the graph's forward(), as GraphModule.code prints it"},
              {"--tabular", "", "the table graph.print_tabular() prints"},
              modelFlag(), exampleFlag()},
    .exits = {exitDone("printed"), exitUnusable()},
    .run = runPrint,
});

} // namespace
} // namespace irlens::cli
