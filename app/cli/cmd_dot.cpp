// irlens-cli dot FILE -o OUT.dot [--no-weights]: the flat graph as Graphviz DOT.
#include "app/cli/commands.h"

#include "core/io/dot_export.h"

#include <cstdio>
#include <fstream>

namespace irlens::cli {
namespace {

int runDot(const std::vector<std::string>& argv) {
    Args args(argv, {"--model"});
    if (!args.error().empty()) return fail(Unusable, args.error());
    bool example = args.has("--example");
    if ((!example && args.positional().size() != 1) || !args.has("-o"))
        return fail(Unusable, "usage: irlens-cli dot FILE -o OUT.dot [--no-weights] [--model NAME] | --example -o OUT.dot");
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

CommandRegistration registration({"dot", "dot FILE -o OUT.dot [--no-weights]", "the graph as Graphviz DOT", runDot});

} // namespace
} // namespace irlens::cli
