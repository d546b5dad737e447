// irlens-cli report FILE -o OUT.html [--run] [--reference REF] [--compare B]: one self-contained HTML
// file of the program (core/report), for a CI artefact or a bug report.
#include "app/cli/commands.h"

#include "core/report/report_job.h"

#include <chrono>
#include <cstdio>
#include <fstream>

namespace irlens::cli {
namespace {

int runReport(const Args& args) {
    if (args.positional().size() != 1 || !args.has("-o")) return fail(Unusable, args.usage());
    core::ReportRequest request;
    request.file = args.positional().front();
    request.run = args.has("--run");
    int64_t repeat = request.repeat, threads = request.threads;
    if (auto s = args.count("--repeat", 1, 100000, repeat); !s) return fail(Unusable, s.message());
    if (auto s = args.count("--threads", 1, 1024, threads); !s) return fail(Unusable, s.message());
    request.repeat = static_cast<int>(repeat);
    request.threads = static_cast<int>(threads);
    request.inputs.inputPaths = args.values("--inputs");
    request.reference = args.value("--reference");
    request.compareWith = args.value("--compare");
    const std::string out = args.value("-o");

    const auto start = std::chrono::steady_clock::now();
    auto html = core::makeHtmlReport(request);
    if (!html) return fail(Unusable, html.error());
    std::ofstream f(out, std::ios::binary | std::ios::trunc);
    if (!f) return fail(Unusable, "cannot write '" + out + "'");
    f.write(html->data(), static_cast<std::streamsize>(html->size()));
    f.close();
    if (!f) return fail(Unusable, "could not write all of '" + out + "' (disk full?)");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%s: %.1f KiB in %.2f s\n", out.c_str(), static_cast<double>(html->size()) / 1024.0, seconds);
    return Ok;
}

const CommandRegistration registeredReport({
    .name = "report",
    .forms = {"FILE -o OUT.html [--run [--repeat K] [--threads N]] [--inputs PATH ...] [--reference REF] [--compare B]"},
    .summary = "one self-contained HTML file of the program: graph, nodes, findings; a run's profile, numerics, differences",
    .details = "The file holds its data, script and style inline and loads nothing, so it opens offline in any browser: "
               "the graph with module groups that open and close, op colours, every node's metadata on a click, search, "
               "the signature and the verifier's findings linked to their nodes. --run adds the profile table, the "
               "heatmap and the flame graph; --reference the numerics table and overlay; --compare both graphs with "
               "the differences marked.",
    .operands = {{"FILE", "the .pt2 program to report on"}},
    .flags = {{"-o", "OUT.html", "the report to write (required)", ValueKind::File},
              {"--run", "", "run the program on the CPU engine and add the profile, heatmap and flame graph"},
              {"--repeat", "K", "with --run: timed runs after one warm-up; medians are shown (default 5)"},
              {"--threads", "N", "with --run: worker threads (default: every core)"},
              {"--inputs", "PATH", "the user inputs for --run and --reference (as `run --inputs`); takes every path up "
                                   "to the next flag", ValueKind::File, {}, true},
              {"--reference", "REF", "compare every node's value with REF (.safetensors, a .pt dict or a folder of .npy, "
                                     "keyed by node name) and add the numerics table and overlay", ValueKind::File},
              {"--compare", "B", "match the program with B node by node and show both graphs, differences marked",
               ValueKind::Pt2File}},
    .exits = {exitDone("written"), exitUnusable()},
    .run = runReport,
});

} // namespace
} // namespace irlens::cli
