#include "views/report_export.h"

#include "core/report/html_report.h"
#include "core/verify/verifier.h"
#include "views/document.h"
#include "views/run/run_snapshot.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>

namespace irlens::views {

QString writeDocumentReport(const Document& document, const QString& path) {
    const core::ProgramPtr program = document.program();
    if (!program) return QCoreApplication::translate("irlens", "No program is open.");
    core::HtmlReportOptions options;
    options.title = QFileInfo(document.filePath()).fileName().toStdString();
    options.diagnostics = core::verify(*program);
    // a run of this program (a run of a program since stepped is about other nodes)
    if (const auto run = document.runResult(); run && !run->nodes.empty()) {
        core::ReportRun shown;
        shown.threads = run->threads;
        shown.runs = run->runs();
        shown.medianWallNs = run->wallNs;
        shown.inputsFrom = run->inputSource.toStdString();
        shown.verdict = run->verdict.toStdString();
        shown.nodeNs.assign(program->graph.nodes.size(), -1);
        bool same = true;
        for (const auto& n : run->nodes) {
            const size_t at = static_cast<size_t>(n.node);
            same = same && at < program->graph.nodes.size() && program->graph.nodes[at].name == n.name;
            if (same) shown.nodeNs[at] = n.selfNs;
        }
        if (same) options.run = std::move(shown);
    }
    const std::string html = core::writeHtmlReport(*program, options);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return QCoreApplication::translate("irlens", "Cannot write %1: %2").arg(path, f.errorString());
    if (f.write(html.data(), static_cast<qint64>(html.size())) != static_cast<qint64>(html.size()))
        return QCoreApplication::translate("irlens", "Could not write all of %1 (disk full?)").arg(path);
    return {};
}

} // namespace irlens::views
