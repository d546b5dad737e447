#pragma once
// The report of a file: load it, verify it, and on request run it, compare its values with a
// reference and match it with a second program, then write the HTML (html_report.h). One job that
// `irlens-cli report` calls; the GUI writes what it has on screen through writeHtmlReport directly.

#include "core/exec/profile.h"
#include "core/exec/run_compare.h"
#include "core/ir/status.h"
#include "core/report/html_report.h"

#include <string>

namespace irlens::core {

struct ReportRequest {
    std::string file;
    bool run = false;                  // profile the program (warm-up + `repeat` measured runs)
    int repeat = 5;
    int threads = 0;                   // 0: every core
    exec::InputRequest inputs;         // where a run's inputs come from
    std::string reference;             // values keyed by node name to compare every node with ("" none)
    std::string compareWith;           // a second .pt2 to match node by node ("" none)
};

/// The report of `request.file` as HTML. Errors name the file that could not be read or the node
/// that could not run.
Result<std::string> makeHtmlReport(const ReportRequest& request);

/// A profile's per-node medians keyed by graph node (names matched), for ReportRun::nodeNs.
std::vector<int64_t> nodeTimesOf(const Graph& graph, const std::vector<exec::NodeProfile>& nodes);

} // namespace irlens::core
