#pragma once
// One self-contained HTML file that shows a program as irlens shows it: the graph with module groups
// that open and close, op colours and shapes, every node's metadata on a click, search, the signature
// and the verifier's findings; with a run, the profile table, the heatmap and the flame graph; with
// reference values, the numerics table and its overlay; with a second program, both graphs with the
// differences marked. The page holds its data as JSON and draws it with its own inline script and
// style: it loads nothing from anywhere, so it opens in any browser, offline, attached to a bug report.

#include "core/compare/numeric_run.h"
#include "core/compare/program_match.h"
#include "core/ir/program.h"
#include "core/verify/diagnostic.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace irlens::core {

/// A profiled run as the report shows it: one median time per node of the top-level graph.
struct ReportRun {
    int threads = 1;
    int runs = 0;
    int64_t medianWallNs = 0;
    std::vector<int64_t> nodeNs;  // per graph node; -1: did not run
    std::string inputsFrom;       // "archive sample inputs", "generated (seed 0)" ...
    std::string verdict;          // the outputs against the reference, "" when none was given
};

struct HtmlReportOptions {
    std::string title;                          // the file it was made from
    std::vector<Diagnostic> diagnostics;        // the verifier's findings
    std::optional<ReportRun> run;
    const NumericRun* numerics = nullptr;       // values compared with a reference (runNumerics)
    const ProgramMatch* match = nullptr;        // the program compared with match->right
    std::string compareTitle;                   // the file of match->right
};

/// The report as one HTML document.
std::string writeHtmlReport(const Program& program, const HtmlReportOptions& options);

} // namespace irlens::core
