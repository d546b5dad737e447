#include "core/exec/output_summary.h"

#include <algorithm>
#include <cstdio>

namespace irlens::core::exec {

OutputSummary summarizeOutput(const Tensor& t, int64_t maxElements) {
    OutputSummary s;
    s.count = std::min(t.numel(), maxElements);
    double sum = 0;
    for (int64_t i = 0; i < s.count; ++i) {
        const double v = t.at(i);
        s.min = i == 0 ? v : std::min(s.min, v);
        s.max = i == 0 ? v : std::max(s.max, v);
        sum += v;
    }
    s.mean = s.count > 0 ? sum / static_cast<double>(s.count) : 0.0;
    return s;
}

std::string outputSummaryLine(const Tensor& t) {
    if (t.numel() == 0) return t.shapeString() + " (empty)";
    const OutputSummary s = summarizeOutput(t);
    char buf[160];
    std::snprintf(buf, sizeof buf, "  min %.6g  max %.6g  mean %.6g", s.min, s.max, s.mean);
    return t.shapeString() + buf;
}

} // namespace irlens::core::exec
