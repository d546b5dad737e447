#include "core/layout/layout_quality.h"

#include <algorithm>
#include <cmath>

namespace irlens::core {
namespace {

constexpr int kSamplesPerSegment = 8;

struct Segment {
    LPoint a, b;
    int edge = -1;
    double top() const { return std::min(a.y, b.y); }
    double bottom() const { return std::max(a.y, b.y); }
};

LPoint cubicPoint(const LPoint* p, double t) {
    const double u = 1 - t;
    return {u * u * u * p[0].x + 3 * u * u * t * p[1].x + 3 * u * t * t * p[2].x + t * t * t * p[3].x,
            u * u * u * p[0].y + 3 * u * u * t * p[1].y + 3 * u * t * t * p[2].y + t * t * t * p[3].y};
}

/// The sign of the turn a -> b -> c (0 when collinear: touching or overlapping lines are no crossing).
int turn(LPoint a, LPoint b, LPoint c) {
    const double v = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
    return v > 1e-9 ? 1 : v < -1e-9 ? -1 : 0;
}

bool properlyCross(const Segment& s, const Segment& t) {
    const int d1 = turn(s.a, s.b, t.a), d2 = turn(s.a, s.b, t.b), d3 = turn(t.a, t.b, s.a), d4 = turn(t.a, t.b, s.b);
    return d1 * d2 < 0 && d3 * d4 < 0;
}

bool shareAnEnd(const LayoutResult& r, int e, int f) {
    const auto& a = r.graph.edges[static_cast<size_t>(r.edges[static_cast<size_t>(e)].edge)];
    const auto& b = r.graph.edges[static_cast<size_t>(r.edges[static_cast<size_t>(f)].edge)];
    return a.from == b.from || a.to == b.to || a.from == b.to || a.to == b.from;
}

/// Samples every edge, adding its length to `length`.
std::vector<Segment> sampleEdges(const LayoutResult& r, double& length) {
    std::vector<Segment> segments;
    for (size_t e = 0; e < r.edges.size(); ++e) {
        const auto& pts = r.edges[e].points;
        for (size_t s = 0; s + 3 < pts.size(); s += 3) {
            LPoint prev = pts[s];
            for (int k = 1; k <= kSamplesPerSegment; ++k) {
                const LPoint next = cubicPoint(&pts[s], static_cast<double>(k) / kSamplesPerSegment);
                length += std::hypot(next.x - prev.x, next.y - prev.y);
                segments.push_back({prev, next, static_cast<int>(e)});
                prev = next;
            }
        }
    }
    return segments;
}

} // namespace

LayoutQuality measureLayoutQuality(const LayoutResult& r) {
    LayoutQuality q;
    q.area = r.bounds.w * r.bounds.h;
    std::vector<Segment> segments = sampleEdges(r, q.edgeLength);
    std::sort(segments.begin(), segments.end(), [](const Segment& a, const Segment& b) { return a.top() < b.top(); });
    for (size_t i = 0; i < segments.size(); ++i) {
        const Segment& s = segments[i];
        const double left = std::min(s.a.x, s.b.x), right = std::max(s.a.x, s.b.x);
        for (size_t j = i + 1; j < segments.size() && segments[j].top() <= s.bottom(); ++j) {
            const Segment& t = segments[j];
            if (t.edge == s.edge || std::max(t.a.x, t.b.x) < left || std::min(t.a.x, t.b.x) > right) continue;
            if (properlyCross(s, t) && !shareAnEnd(r, s.edge, t.edge)) ++q.crossings;
        }
    }
    return q;
}

} // namespace irlens::core
