#pragma once
// File › Export report…: the one-file HTML report (core/report) of what the window shows: the current
// program (decomposed as far as it was stepped), its findings, and the last run when it ran this program.

#include <QString>

namespace irlens::views {

class Document;

/// Writes the report to `path`; returns "" or the error to show.
QString writeDocumentReport(const Document& document, const QString& path);

} // namespace irlens::views
