// The Document's verifier job: runs core's verifier on a worker and publishes the findings.
#include "views/document.h"

#include "core/verify/verifier.h"

#include <QFutureWatcher>
#include <QtConcurrent>

namespace irlens::views {

using namespace irlens::core;

namespace {

std::vector<DiagnosticRow> rowsOf(const std::vector<core::Diagnostic>& found) {
    std::vector<DiagnosticRow> out;
    for (const auto& d : found) {
        DiagnosticRow v;
        v.severity = d.severity == Severity::Error ? DiagnosticRow::Severity::Error
                   : d.severity == Severity::Warning ? DiagnosticRow::Severity::Warning : DiagnosticRow::Severity::Info;
        v.rule = QString::fromStdString(d.ruleId);
        v.node = QString::fromStdString(d.node);
        v.graph = QString::fromStdString(d.graph);
        v.message = QString::fromStdString(d.message);
        if (!d.fix.empty()) v.message += QStringLiteral(" — fix: ") + QString::fromStdString(d.fix);
        out.push_back(std::move(v));
    }
    return out;
}

} // namespace

void Document::checkInferredMeta() {
    if (!m_program) return;
    const quint64 generation = m_programGeneration;
    ProgramPtr program = m_program;
    auto future = QtConcurrent::run(workerPool(), [program] { return verifyInferredMeta(*program); });
    auto* watcher = new QFutureWatcher<std::vector<core::Diagnostic>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation != m_programGeneration) return;
        // the findings replace an earlier check's, next to the verifier's own
        std::vector<DiagnosticRow> rows;
        for (const auto& d : m_diagnostics)
            if (d.rule != QLatin1String("EIR-M006")) rows.push_back(d);
        std::vector<DiagnosticRow> found = rowsOf(watcher->result());
        m_metaChecked = static_cast<int>(found.size());
        rows.insert(rows.end(), found.begin(), found.end());
        setDiagnostics(std::move(rows));
        Q_EMIT metaChecked(m_metaChecked);
    });
    watcher->setFuture(future);
}

void Document::startVerify() {
    if (!m_program) return;
    const quint64 generation = m_programGeneration;
    ProgramPtr program = m_program;
    m_verifying = true;
    auto future = QtConcurrent::run(workerPool(), [program] { return verify(*program); });
    auto* watcher = new QFutureWatcher<std::vector<core::Diagnostic>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation != m_programGeneration) return; // another program since
        m_verifying = false;
        setDiagnostics(rowsOf(watcher->result()));
    });
    watcher->setFuture(future);
}

void Document::setDiagnosticsWithheld(bool withheld) {
    if (withheld == m_withheld) return;
    m_withheld = withheld;
    std::vector<DiagnosticRow>& from = withheld ? m_diagnostics : m_withheldRows;
    (withheld ? m_withheldRows : m_diagnostics) = std::move(from);
    from.clear();
    Q_EMIT diagnosticsChanged();
}

QString Document::verifierSummary() const {
    if (!m_program) return {};
    if (m_verifying) return tr("verifying…");
    if (m_withheld) return tr("verifier: findings hidden until the exercise is answered");
    int errors = 0, warnings = 0;
    for (const auto& d : m_diagnostics) {
        errors += d.severity == DiagnosticRow::Severity::Error;
        warnings += d.severity == DiagnosticRow::Severity::Warning;
    }
    // the infos too, so that the three add up to the Diagnostics dock's count
    const int infos = static_cast<int>(m_diagnostics.size()) - errors - warnings;
    QString text = tr("verifier: %1 errors, %2 warnings").arg(errors).arg(warnings);
    if (infos > 0) text += tr(", %1 infos").arg(infos);
    return text;
}

} // namespace irlens::views
