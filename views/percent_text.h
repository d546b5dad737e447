#pragma once
// Percentages in the panes' text. A share or a difference that rounds to zero prints as "0.0", never
// "-0.0": a sign on nothing reads as a loss that is not there.

#include <QString>

#include <cmath>

namespace irlens::views {

/// `percent` rounded to `decimals` digits ("12.5"); no sign on a value that rounds to zero.
inline QString percentText(double percent, int decimals = 1) {
    const double scale = std::pow(10.0, decimals);
    double rounded = std::round(percent * scale) / scale;
    if (rounded == 0.0) rounded = 0.0; // -0.0 compares equal to 0.0: this drops its sign
    return QString::number(rounded, 'f', decimals);
}

/// A change, signed: "+3.2", "-0.4", and "0.0" when it rounds to nothing.
inline QString signedPercentText(double percent, int decimals = 1) {
    const QString text = percentText(percent, decimals);
    return text.startsWith('-') || text.toDouble() == 0.0 ? text : QLatin1Char('+') + text;
}

} // namespace irlens::views
