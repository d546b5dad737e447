#pragma once
// Numbers that say how readable a drawing is, to compare two layouts of the same graph: how often
// edges cross and how much ink they take.

#include "core/layout/layout_result.h"

namespace irlens::core {

struct LayoutQuality {
    long crossings = 0;     // crossings between edges that share no end box
    double edgeLength = 0;  // total length of every edge's curve, points
    double area = 0;        // the drawing's bounds, square points
};

/// Each edge's Bézier curve sampled as a polyline; crossings found by a sweep over the segments
/// sorted by their top (near linear on drawings taller than wide, as dot's are).
LayoutQuality measureLayoutQuality(const LayoutResult& layout);

} // namespace irlens::core
