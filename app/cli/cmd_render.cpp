// irlens-cli render FILE -o OUT.svg|.png [--collapse auto|none|top]: the graph drawn headless, through
// the same visible graph (modules, chips) as the GUI, with Graphviz's own renderers (no Qt).
#include "app/cli/commands.h"

#include "core/io/pt2_reader.h"
#include "core/layout/graph_layout.h"

#include <cstdio>
#include <fstream>

namespace irlens::cli {
namespace {

std::string extensionOf(const std::string& path) {
    auto dot = path.rfind('.');
    if (dot == std::string::npos) return {};
    std::string ext = path.substr(dot + 1);
    for (auto& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext;
}

int runRender(const Args& args) {
    if (args.positional().size() != 1 || !args.has("-o")) return fail(Unusable, args.usage());
    const std::string out = args.value("-o");
    const std::string format = extensionOf(out);
    if (format != "svg" && format != "png" && format != "pdf" && format != "dot")
        return fail(Unusable, "cannot tell the format of '" + out + "': use .svg, .png, .pdf or .dot");
    const std::string collapse = args.value("--collapse", "auto");
    if (collapse != "auto" && collapse != "none" && collapse != "top")
        return fail(Unusable, "--collapse must be auto, none or top (got '" + collapse + "')");

    core::LoadOptions options;
    options.loadWeights = false; // drawing needs the graph only
    auto program = core::loadPt2(args.positional().front(), options);
    if (!program) return fail(Unusable, program.error());
    const core::Program& p = **program;
    auto tree = core::ModuleTree::build(p.graph);
    core::CollapseState state = collapse == "none" ? core::CollapseState::allExpanded(tree)
                              : collapse == "top"  ? core::CollapseState::topLevel()
                                                   : core::CollapseState::automatic(tree, static_cast<int>(p.graph.nodes.size()));
    auto rendered = core::renderGraphviz(p.graph, &p.signature, tree, state, format);
    if (!rendered) return fail(Unusable, rendered.error());
    std::ofstream f(out, std::ios::binary | std::ios::trunc);
    if (!f) return fail(Unusable, "cannot write '" + out + "'");
    f.write(rendered->data(), static_cast<std::streamsize>(rendered->size()));
    if (!f) return fail(Unusable, "could not write all of '" + out + "' (disk full?)");
    std::printf("%s: %zu nodes, %zu module groups open\n", out.c_str(), p.graph.nodes.size(), state.expanded().size());
    return Ok;
}

const CommandRegistration registeredRender({
    .name = "render",
    .forms = {"FILE -o OUT.svg|.png [--collapse auto|none|top]"},
    .summary = "draw the graph headless (modules collapsed above 1,500 nodes by default)",
    .details = "The graph as the window draws it (modules, weight chips), laid out and drawn by Graphviz; no display needed.",
    .operands = {{"FILE", "the .pt2 program to draw"}},
    .flags = {{"-o", "OUT", "the drawing to write; its extension picks the format: .svg, .png, .pdf or .dot (required)",
               ValueKind::File},
              {"--collapse", "MODE", "auto: modules closed above 1,500 nodes (the default); none: every module open; top: "
                                     "each top-level module one closed box", ValueKind::Choice, {"auto", "none", "top"}}},
    .exits = {exitDone("drawn"), exitUnusable()},
    .run = runRender,
});

} // namespace
} // namespace irlens::cli
