// irlens-cli dot FILE -o OUT.dot [--no-weights]: the flat graph as Graphviz DOT.
#include "app/cli/commands.h"

#include "core/io/dot_export.h"

#include <cstdio>
#include <fstream>

namespace irlens::cli {
namespace {

int runDot(const Args& args) {
    bool example = args.has("--example");
    if ((!example && args.positional().size() != 1) || !args.has("-o")) return fail(Unusable, args.usage());
    auto loaded = loadProgramArg(args, false /* the graph only */);
    if (!loaded) return fail(Unusable, loaded.error());
    core::ProgramPtr program = loaded.value();
    core::DotOptions options;
    options.includeWeights = !args.has("--no-weights");
    std::string dot = core::exportDot(*program, options);
    std::string outPath = args.value("-o");
    std::ofstream out(outPath, std::ios::binary);
    if (!out) return fail(Unusable, "cannot write '" + outPath + "'");
    out << dot;
    if (!out.flush()) return fail(Unusable, "writing '" + outPath + "' failed");
    return Ok;
}

const CommandRegistration registeredDot({
    .name = "dot",
    .forms = {"FILE -o OUT.dot [--no-weights] [--model NAME]", "--example -o OUT.dot [--no-weights]"},
    .summary = "the graph as Graphviz DOT",
    .details = "The flat graph, every node and edge, for Graphviz or other tools; render draws it laid out with its modules.",
    .operands = {{"FILE", "the .pt2 program to export"}},
    .flags = {{"-o", "OUT.dot", "the DOT file to write (required)", ValueKind::File},
              {"--no-weights", "", "leave out the placeholders of parameters, buffers and constants"},
              modelFlag(), exampleFlag()},
    .exits = {exitDone("written"), exitUnusable()},
    .run = runDot,
});

} // namespace
} // namespace irlens::cli
