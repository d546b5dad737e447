#include "core/compare/measures.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace irlens::core {
namespace {

using exec::Tensor;

constexpr double kInf = std::numeric_limits<double>::infinity();

// Reads the elements of a tensor in C order as doubles: typed pointer walks for contiguous tensors of
// the common dtypes, Tensor::at (which resolves strides per element) for the rest.
class ElementReader {
public:
    explicit ElementReader(const Tensor& t) : m_t(t), m_fast(t.isContiguous()), m_p(t.raw()) {}
    double operator()(int64_t k) const {
        if (!m_fast) return m_t.at(k);
        switch (m_t.dtype()) {
        case ScalarType::Float32: return reinterpret_cast<const float*>(m_p)[k];
        case ScalarType::Float64: return reinterpret_cast<const double*>(m_p)[k];
        case ScalarType::Int64: return static_cast<double>(reinterpret_cast<const int64_t*>(m_p)[k]);
        case ScalarType::Int32: return reinterpret_cast<const int32_t*>(m_p)[k];
        case ScalarType::Bool: return reinterpret_cast<const bool*>(m_p)[k] ? 1.0 : 0.0;
        default: return m_t.at(k);
        }
    }

private:
    const Tensor& m_t;
    bool m_fast;
    const std::byte* m_p;
};

bool exactType(ScalarType t) { return isIntegralType(t, true); }

} // namespace

NodeError measureError(const Tensor& actual, const Tensor& reference) {
    NodeError e;
    e.elements = std::min(actual.numel(), reference.numel());
    e.exact = exactType(actual.dtype()) && exactType(reference.dtype());
    const ElementReader a(actual), r(reference);
    double sumDD = 0, sumRR = 0, sumAA = 0, sumAR = 0;
    bool nonFiniteMismatch = false;
    for (int64_t k = 0; k < e.elements; ++k) {
        const double x = a(k), y = r(k);
        if (x == y || (std::isnan(x) && std::isnan(y))) {
            if (std::isfinite(x)) {
                sumRR += y * y;
                sumAA += x * x;
                sumAR += x * y;
            }
            continue;
        }
        ++e.differing;
        if (!std::isfinite(x) || !std::isfinite(y)) {
            nonFiniteMismatch = true;
            continue;
        }
        const double d = std::fabs(x - y);
        e.maxAbs = std::max(e.maxAbs, d);
        if (y != 0) e.maxRel = std::max(e.maxRel, d / std::fabs(y));
        sumDD += d * d;
        sumRR += y * y;
        sumAA += x * x;
        sumAR += x * y;
    }
    if (nonFiniteMismatch) {
        e.maxAbs = e.maxRel = e.normRel = kInf;
        e.cosine = 0;
        e.sqnrDb = -kInf;
        return e;
    }
    e.normRel = sumDD == 0 ? 0 : sumRR == 0 ? kInf : std::sqrt(sumDD / sumRR);
    if (sumAA == 0 && sumRR == 0) e.cosine = 1;
    else if (sumAA == 0 || sumRR == 0) e.cosine = 0;
    else e.cosine = std::clamp(sumAR / std::sqrt(sumAA * sumRR), -1.0, 1.0);
    e.sqnrDb = sumDD == 0 ? kInf : sumRR == 0 ? -kInf : 10 * std::log10(sumRR / sumDD);
    return e;
}

bool withinTolerance(const NodeError& e, const Tolerance& tol) {
    if (e.exact) return e.differing == 0;
    return e.differing == 0 || e.maxAbs <= tol.atol || e.normRel <= tol.normRel;
}

namespace {

// Everything but the histogram, in one pass over the elements.
ValueStats momentsOf(const Tensor& t) {
    ValueStats s;
    s.elements = t.numel();
    const ElementReader read(t);
    double sum = 0, sumSq = 0;
    for (int64_t k = 0; k < s.elements; ++k) {
        const double x = read(k);
        if (!std::isfinite(x)) {
            if (std::isnan(x)) ++s.nonFinite.nan;
            else if (x > 0) ++s.nonFinite.posInf;
            else ++s.nonFinite.negInf;
            if (s.nonFinite.first < 0) s.nonFinite.first = k;
            continue;
        }
        if (s.finite == 0 || x < s.min) s.min = x;
        if (s.finite == 0 || x > s.max) s.max = x;
        ++s.finite;
        sum += x;
        sumSq += x * x;
    }
    if (s.finite > 0) {
        const double n = static_cast<double>(s.finite);
        s.mean = sum / n;
        s.std = std::sqrt(std::max(0.0, sumSq / n - s.mean * s.mean));
    }
    return s;
}

void fillHistogram(ValueStats& s, const Tensor& t, int bins, double lo, double hi) {
    s.lo = lo;
    s.hi = hi;
    s.histogram.assign(static_cast<size_t>(std::max(1, bins)), 0);
    const double width = hi > lo ? (hi - lo) / static_cast<double>(s.histogram.size()) : 1.0;
    const ElementReader read(t);
    for (int64_t k = 0; k < s.elements; ++k) {
        const double x = read(k);
        if (!std::isfinite(x)) continue;
        const auto bin = static_cast<size_t>(std::clamp((x - lo) / width, 0.0, static_cast<double>(s.histogram.size() - 1)));
        ++s.histogram[bin];
    }
}

} // namespace

FiniteCount countNonFinite(const Tensor& t) {
    if (!isFloatingType(t.dtype())) return {};
    return momentsOf(t).nonFinite;
}

ValueStats valueStatsOf(const Tensor& t, int bins) {
    ValueStats s = momentsOf(t);
    fillHistogram(s, t, bins, s.min, s.max);
    return s;
}

std::pair<ValueStats, ValueStats> valueStatsOfPair(const Tensor& value, const Tensor& reference, int bins) {
    ValueStats a = momentsOf(value), r = momentsOf(reference);
    double lo = a.min, hi = a.max;
    if (a.finite == 0) lo = r.min, hi = r.max;
    else if (r.finite > 0) lo = std::min(lo, r.min), hi = std::max(hi, r.max);
    fillHistogram(a, value, bins, lo, hi);
    fillHistogram(r, reference, bins, lo, hi);
    return {std::move(a), std::move(r)};
}

std::string indexText(int64_t flat, const exec::Shape& sizes) {
    std::vector<int64_t> idx(sizes.size(), 0);
    for (size_t k = sizes.size(); k-- > 0;) {
        if (sizes[k] <= 0) continue;
        idx[k] = flat % sizes[k];
        flat /= sizes[k];
    }
    std::string out = "[";
    for (size_t k = 0; k < idx.size(); ++k) out += (k ? ", " : "") + std::to_string(idx[k]);
    return out + "]";
}

std::string formatMeasure(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

} // namespace irlens::core
