#include "core/report/html_report.h"

#include "core/io/text_util.h"
#include "core/report/report_json.h"

#include <cmath>

namespace irlens::core {
namespace detail {
// The page's style and script (core/report/assets, embedded at build time).
extern const char kReportCss[];
extern const char kReportJs[];
} // namespace detail

namespace {

nlohmann::json diagnosticsJson(const std::vector<Diagnostic>& diagnostics) {
    nlohmann::json out = nlohmann::json::array();
    for (const Diagnostic& d : diagnostics)
        out.push_back({{"r", d.ruleId}, {"s", severityName(d.severity)}, {"g", d.graph}, {"n", d.node}, {"msg", d.message}, {"fix", d.fix}});
    return out;
}

nlohmann::json runJson(const ReportRun& run) {
    return {{"threads", run.threads}, {"runs", run.runs}, {"wall", run.medianWallNs}, {"from", run.inputsFrom},
            {"verdict", run.verdict}, {"ns", run.nodeNs}};
}

// JSON has no infinity: an exact match's SQNR is written as null and shown as "inf".
nlohmann::json finite(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(); }

nlohmann::json numericsJson(const Program& program, const NumericRun& run) {
    nlohmann::json values = nlohmann::json::array();
    for (const ValueRecord& v : run.values)
        values.push_back({{"node", v.node}, {"n", v.name}, {"shape", v.shape}, {"check", valueCheckName(v.check)},
                          {"abs", finite(v.error.maxAbs)}, {"rel", finite(v.error.normRel)}, {"cos", finite(v.error.cosine)},
                          {"sqnr", finite(v.error.sqnrDb)}, {"bad", v.failed()}});
    return {{"verdict", run.verdict(program)}, {"reference", run.referencePath}, {"first", run.firstDivergent},
            {"values", values}};
}

// Per node of each side, how the match sees it ("same", "changed", "added", "removed") and its partner.
nlohmann::json compareJson(const ProgramMatch& match, const std::string& title) {
    nlohmann::json left = nlohmann::json::array(), right = nlohmann::json::array();
    left.get_ref<nlohmann::json::array_t&>().resize(match.left->graph.nodes.size());
    right.get_ref<nlohmann::json::array_t&>().resize(match.right->graph.nodes.size());
    nlohmann::json details = nlohmann::json::array();
    for (const NodePair& pair : match.pairs) {
        const int detail = static_cast<int>(details.size());
        details.push_back({{"k", matchKindName(pair.kind)}, {"d", pair.detail}, {"l", pair.left}, {"r", pair.right}});
        if (pair.left >= 0) left[static_cast<size_t>(pair.left)] = detail;
        for (int r : pair.right) right[static_cast<size_t>(r)] = detail;
    }
    nlohmann::json other = detail::programJson(*match.right);
    other["title"] = title;
    return {{"summary", match.summary()}, {"method", matchMethodName(match.method)}, {"pairs", details},
            {"left", left}, {"right", right}, {"program", other}};
}

// Text inside <script> ends at the first "</script": every "<" of the JSON (only ever inside its
// strings) is written as the escape "\u003c", which JSON.parse reads back unchanged.
std::string scriptSafe(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        if (c == '<') out += "\\u003c";
        else out += c;
    }
    return out;
}

} // namespace

std::string writeHtmlReport(const Program& program, const HtmlReportOptions& options) {
    nlohmann::json data = detail::programJson(program);
    data["title"] = options.title;
    data["diagnostics"] = diagnosticsJson(options.diagnostics);
    if (options.run) data["run"] = runJson(*options.run);
    if (options.numerics) data["numerics"] = numericsJson(program, *options.numerics);
    if (options.match && options.match->right) data["compare"] = compareJson(*options.match, options.compareTitle);

    std::string html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                       "<meta name=\"generator\" content=\"irlens\">\n<title>";
    appendXmlEscaped(html, options.title.empty() ? std::string("irlens report") : options.title + " · irlens report");
    html += "</title>\n<style>\n";
    html += detail::kReportCss;
    html += "</style></head>\n<body>\n<noscript>This report draws the program with its own inline script: allow scripts "
            "for this file.</noscript>\n<script type=\"application/json\" id=\"irlens-data\">";
    html += scriptSafe(data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    html += "</script>\n<script>\n";
    html += detail::kReportJs;
    html += "</script>\n</body></html>\n";
    return html;
}

} // namespace irlens::core
