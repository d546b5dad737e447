#pragma once
// Small conversions every pane needs, in one place (the views compile in unity batches, where two
// files' private copies of the same helper collide).

#include <QString>

#include <cstdint>
#include <string>

namespace irlens::views {

/// A std::string (UTF-8) as a QString.
inline QString q(const std::string& s) { return QString::fromStdString(s); }
/// A C string (UTF-8, null for none) as a QString.
inline QString q(const char* s) { return QString::fromUtf8(s ? s : ""); }

/// Nanoseconds as milliseconds with three decimals ("1.250"), for table cells.
inline QString msCell(int64_t ns) { return QString::number(static_cast<double>(ns) / 1e6, 'f', 3); }

} // namespace irlens::views
