#pragma once
// Small conversions every pane needs, in one place (the views compile in unity batches, where two
// files' private copies of the same helper collide).

#include <QString>
#include <QStringList>
#include <QTextDocument>

#include <cstdint>
#include <string>

namespace irlens::views {

/// A std::string (UTF-8) as a QString.
inline QString q(const std::string& s) { return QString::fromStdString(s); }
/// A C string (UTF-8, null for none) as a QString.
inline QString q(const char* s) { return QString::fromUtf8(s ? s : ""); }

/// Nanoseconds as milliseconds with three decimals ("1.250"), for table cells.
inline QString msCell(int64_t ns) { return QString::number(static_cast<double>(ns) / 1e6, 'f', 3); }

/// A tooltip that wraps: a plain text with a line over 80 characters as rich text, which Qt's tooltip
/// wraps (at about 80 average characters, under 600 px), its line breaks and indentation kept; short
/// plain tips and rich text as they are. Every long tooltip of the views goes through it.
inline QString wrappedTip(const QString& tip) {
    if (Qt::mightBeRichText(tip)) return tip;
    bool longLine = false;
    for (const QString& line : tip.split('\n')) longLine = longLine || line.size() > 80;
    if (!longLine) return tip;
    return QStringLiteral("<qt><p style='white-space:pre-wrap'>") + tip.toHtmlEscaped() + QStringLiteral("</p></qt>");
}

} // namespace irlens::views
