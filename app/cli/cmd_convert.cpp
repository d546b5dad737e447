// irlens-cli convert FILE -o OUT.pt2 [--model NAME]: rewrites any .pt2 (legacy zip, 2.8 or 2.9+ archive)
// as a torch 2.9-style PT2 archive with schema 8.12, raw weights and payload configs.
#include "app/cli/commands.h"

#include "core/io/json_codec.h"
#include "core/io/pt2_reader.h"
#include "core/io/pt2_writer.h"

#include <cstdio>
#include <filesystem>

namespace irlens::cli {
namespace {

int runConvert(const Args& args) {
    if (args.positional().size() != 1 || args.value("-o").empty()) return fail(Unusable, args.usage());
    const std::string in = args.positional()[0];
    const std::string out = args.value("-o");
    std::error_code ec;
    if (std::filesystem::exists(out, ec) && std::filesystem::equivalent(in, out, ec))
        return fail(Unusable, out + ": the output would replace the input; choose another name");

    core::LoadOptions options;
    options.modelName = args.value("--model");
    auto loaded = core::loadPt2(in, options);
    if (!loaded) return fail(Unusable, loaded.error());
    const core::Program& program = **loaded;
    for (const auto& w : program.warnings) std::fprintf(stderr, "irlens-cli: warning: %s: %s\n", in.c_str(), w.c_str());

    if (core::Status s = core::savePt2(program, out); !s) return fail(Unusable, s.message());

    uint64_t bytes = 0;
    for (const auto& [name, t] : program.weights) bytes += t.storage ? t.storage->size : 0;
    std::printf("%s: %s, schema %s -> %s: PT2 archive, schema %d.%d, %zu nodes, %zu weights, %zu constants%s\n",
                in.c_str(), core::containerKindName(program.container), program.schemaVersion.toString().c_str(),
                out.c_str(), core::kEncodedSchemaMajor, core::kEncodedSchemaMinor, program.graph.nodes.size(),
                program.weights.size(), program.constants.size(), program.hasSampleInputs ? ", sample inputs" : "");
    return Ok;
}

const CommandRegistration registeredConvert({
    .name = "convert",
    .forms = {"FILE -o OUT.pt2 [--model NAME]"},
    .summary = "rewrite any .pt2 as a torch 2.9-style PT2 archive (schema 8.12)",
    .details = "Reads a legacy zip, a torch 2.8 archive or a 2.9+ archive; writes the program, its weights (raw) and its "
               "payload configs as torch 2.9 lays them out, and records irlens as the writer.",
    .operands = {{"FILE", "the .pt2 program to read"}},
    .flags = {{"-o", "OUT.pt2", "the archive to write (required; not FILE itself)", ValueKind::File}, modelFlag()},
    .exits = {exitDone("written"), exitUnusable()},
    .run = runConvert,
});

} // namespace
} // namespace irlens::cli
