// irlens-cli dot FILE -o OUT.dot [--no-weights]: the flat graph as Graphviz DOT.
#include "app/cli/commands.h"

#include "core/io/dot_export.h"
#include "core/io/pt2_reader.h"
#include "core/ir/example_program.h"

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
    core::ProgramPtr program;
    if (example) {
        program = core::makeExampleProgram();
    } else {
        core::LoadOptions options;
        options.modelName = args.value("--model");
        options.loadWeights = false;
        auto loaded = core::loadPt2(args.positional()[0], options);
        if (!loaded) return fail(Unusable, loaded.error());
        program = loaded.value();
    }
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
