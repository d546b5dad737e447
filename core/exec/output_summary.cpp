#include "core/exec/output_summary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace irlens::core::exec {

OutputSummary summarizeOutput(const Tensor& t, int64_t maxElements) {
    OutputSummary s;
    s.count = std::min(t.numel(), maxElements);
    double sum = 0, sumSq = 0;
    int64_t finite = 0;
    for (int64_t i = 0; i < s.count; ++i) {
        const double v = t.at(i);
        if (std::isnan(v)) { ++s.nan; continue; }
        if (std::isinf(v)) { ++(v > 0 ? s.posInf : s.negInf); continue; }
        s.min = finite == 0 ? v : std::min(s.min, v);
        s.max = finite == 0 ? v : std::max(s.max, v);
        sum += v;
        sumSq += v * v;
        ++finite;
    }
    if (finite > 0) {
        s.mean = sum / static_cast<double>(finite);
        s.std = std::sqrt(std::max(0.0, sumSq / static_cast<double>(finite) - s.mean * s.mean));
    }
    return s;
}

std::string outputSummaryLine(const Tensor& t) {
    if (t.numel() == 0) return t.shapeString() + " (empty)";
    const OutputSummary s = summarizeOutput(t);
    char buf[160] = "";
    if (s.finite() > 0) std::snprintf(buf, sizeof buf, "  min %.6g  max %.6g  mean %.6g", s.min, s.max, s.mean);
    std::string line = t.shapeString() + buf;
    if (s.finite() == s.count) return line;
    std::string odd;
    for (const auto& [n, what] : {std::pair{s.nan, "NaN"}, {s.posInf, "+inf"}, {s.negInf, "-inf"}})
        if (n > 0) odd += (odd.empty() ? "" : ", ") + std::to_string(n) + " " + what;
    return line + "  " + odd + " of " + std::to_string(s.count);
}

} // namespace irlens::core::exec
