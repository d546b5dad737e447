#include "core/layout/incremental_layout.h"

#include "core/layout/graph_layout.h"
#include "core/layout/graphviz_session.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

namespace irlens::core {
namespace {

constexpr double kClusterPad = 8.0;
constexpr double kClusterTitle = 20.0; // room for the module label above the first box

LRect unite(const LRect& a, const LRect& b) {
    if (a.w <= 0 && a.h <= 0) return b;
    if (b.w <= 0 && b.h <= 0) return a;
    const double x0 = std::min(a.x, b.x), y0 = std::min(a.y, b.y);
    const double x1 = std::max(a.x + a.w, b.x + b.w), y1 = std::max(a.y + a.h, b.y + b.h);
    return {x0, y0, x1 - x0, y1 - y0};
}

bool overlaps(const LRect& a, const LRect& b, double slack = 0.5) {
    return a.x + a.w > b.x + slack && b.x + b.w > a.x + slack && a.y + a.h > b.y + slack && b.y + b.h > a.y + slack;
}

struct UnionFind {
    std::vector<int> parent;
    explicit UnionFind(size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
    int find(int x) {
        while (parent[static_cast<size_t>(x)] != x) x = parent[static_cast<size_t>(x)] = parent[static_cast<size_t>(parent[static_cast<size_t>(x)])];
        return x;
    }
    void join(int a, int b) { parent[static_cast<size_t>(find(a))] = find(b); }
};

/// One replacement: the boxes it removed (old indices), the boxes it adds (new indices) and their
/// local geometry from dot.
struct Region {
    std::vector<int> removed;
    std::vector<int> added;
    LRect anchor;              // union of the removed boxes (updated as other regions push it)
    LayoutResult local;        // dot on the added boxes only
    std::vector<int> localOf;  // new item index -> index in local.graph.items (-1 outside)
    LRect placed;              // where the added boxes went
};

/// How placing one region moved the rest: down below its old bottom, aside within its band.
struct Shift {
    double threshold = 0;       // old bottom of the anchor: everything starting below moves down
    double down = 0;
    double bandTop = 0, bandBottom = 0;
    double centerX = 0;
    double left = 0, right = 0;

    LPoint point(LPoint p) const {
        if (p.y >= threshold) return {p.x, p.y + down};
        if (p.y >= bandTop && p.y <= bandBottom) return {p.x < centerX ? p.x - left : p.x + right, p.y};
        return p;
    }
    LRect box(LRect b) const {
        if (b.y >= threshold - 0.5) {
            b.y += down;
        } else if (b.y < bandBottom && b.y + b.h > bandTop) {
            b.x += b.x + b.w / 2 < centerX ? -left : right;
        }
        return b;
    }
};

LayoutEdge freshEdge(int index, const LRect& from, const LRect& to) {
    LayoutEdge e;
    e.edge = index;
    const LPoint p0{from.x + from.w / 2, from.y + from.h};
    const LPoint tip{to.x + to.w / 2, to.y};
    const LPoint p1{tip.x, tip.y - 6};
    const double bend = std::max(24.0, std::abs(p1.y - p0.y) / 2);
    e.points = {p0, {p0.x, p0.y + bend}, {p1.x, p1.y - bend}, p1};
    e.arrow = true;
    e.arrowTip = tip;
    e.labelPos = {(p0.x + p1.x) / 2, (p0.y + p1.y) / 2};
    return e;
}

std::vector<int> clusterChain(const ModuleTree& tree, int module) {
    std::vector<int> chain;
    for (int m = module; m > 0 && m < tree.size(); m = tree.module(m).parent) chain.push_back(m);
    return chain;
}

} // namespace

NodeReplacementMap replacementsBetween(const Graph& before, const Graph& after) {
    std::unordered_set<std::string> inBefore, inAfter;
    for (const auto& n : before.nodes) inBefore.insert(n.name);
    for (const auto& n : after.nodes) inAfter.insert(n.name);
    NodeReplacementMap map;
    for (const auto& n : after.nodes)
        if (!inBefore.count(n.name) && !n.derivedFrom.empty() && inBefore.count(n.derivedFrom) &&
            !inAfter.count(n.derivedFrom))
            map[n.derivedFrom].push_back(n.name);
    for (const auto& n : before.nodes)
        if (!inAfter.count(n.name) && !n.derivedFrom.empty() && inAfter.count(n.derivedFrom) &&
            !inBefore.count(n.derivedFrom))
            map[n.name].push_back(n.derivedFrom);
    return map;
}

namespace {

/// Which boxes of the previous drawing stand again in the next one (matched by item id).
struct BoxMatch {
    std::vector<int> oldOfNew; // new item -> old item, -1 for a new box
    std::vector<char> oldKept; // old item survives
    std::vector<int> removed;  // old items gone
    std::vector<int> added;    // new items without an old box
};

BoxMatch matchBoxes(const LayoutResult& previous, const VisibleGraph& next) {
    const size_t nOld = previous.graph.items.size(), nNew = next.items.size();
    BoxMatch m;
    m.oldOfNew.assign(nNew, -1);
    m.oldKept.assign(nOld, 0);
    for (size_t k = 0; k < nNew; ++k)
        if (auto it = previous.graph.itemOfId.find(next.items[k].id); it != previous.graph.itemOfId.end()) {
            m.oldOfNew[k] = it->second;
            m.oldKept[static_cast<size_t>(it->second)] = 1;
        }
    for (size_t k = 0; k < nOld; ++k)
        if (!m.oldKept[k]) m.removed.push_back(static_cast<int>(k));
    for (size_t k = 0; k < nNew; ++k)
        if (m.oldOfNew[k] < 0) m.added.push_back(static_cast<int>(k));
    return m;
}

/// Groups removed and added boxes into regions: union-find over [old removed..., new added...], joined
/// by the replacement map and by edges between new boxes.
Result<std::vector<Region>> groupRegions(const LayoutResult& previous, const VisibleGraph& next, const BoxMatch& m,
                                         const NodeReplacementMap& replaced) {
    const size_t nOld = previous.graph.items.size();
    UnionFind uf(nOld + next.items.size());
    auto newKey = [nOld](int n) { return static_cast<int>(nOld) + n; };
    for (const auto& [oldName, news] : replaced) {
        auto o = previous.graph.itemOfId.find(oldName);
        if (o == previous.graph.itemOfId.end() || m.oldKept[static_cast<size_t>(o->second)]) continue;
        for (const auto& name : news)
            if (auto n = next.itemOfId.find(name); n != next.itemOfId.end() && m.oldOfNew[static_cast<size_t>(n->second)] < 0)
                uf.join(o->second, newKey(n->second));
    }
    for (const auto& e : next.edges)
        if (m.oldOfNew[static_cast<size_t>(e.from)] < 0 && m.oldOfNew[static_cast<size_t>(e.to)] < 0)
            uf.join(newKey(e.from), newKey(e.to));
    std::unordered_map<int, size_t> regionOfRoot;
    std::vector<Region> regions;
    auto regionFor = [&](int key) -> Region& {
        auto [it, fresh] = regionOfRoot.emplace(uf.find(key), regions.size());
        if (fresh) regions.emplace_back();
        return regions[it->second];
    };
    for (int o : m.removed) regionFor(o).removed.push_back(o);
    for (int n : m.added) regionFor(newKey(n)).added.push_back(n);
    for (const auto& r : regions)
        if (!r.added.empty() && r.removed.empty())
            return Status::error("incremental layout: new box '" + next.items[static_cast<size_t>(r.added.front())].id +
                                 "' replaces nothing on screen");
    for (auto& r : regions)
        for (int o : r.removed) r.anchor = unite(r.anchor, previous.boxes[static_cast<size_t>(o)]);
    return regions;
}

/// Fills a region's local graph with its added boxes and the edges between them. True when dot must
/// place them (a lone box needs no layout).
bool buildLocalGraph(Region& r, const VisibleGraph& next) {
    r.localOf.assign(next.items.size(), -1);
    for (int n : r.added) {
        r.localOf[static_cast<size_t>(n)] = static_cast<int>(r.local.graph.items.size());
        VisibleItem item = next.items[static_cast<size_t>(n)];
        item.cluster = 0; // module frames are redrawn around the placed boxes
        r.local.graph.items.push_back(std::move(item));
    }
    for (const auto& e : next.edges) {
        const int a = r.localOf[static_cast<size_t>(e.from)], b = r.localOf[static_cast<size_t>(e.to)];
        if (a < 0 || b < 0) continue;
        VisibleEdge le = e;
        le.from = a;
        le.to = b;
        r.local.graph.edges.push_back(std::move(le));
    }
    if (r.local.graph.items.size() == 1 && r.local.graph.edges.empty()) {
        const auto& item = r.local.graph.items.front();
        r.local.boxes = {{0, 0, item.width, item.height}};
        return false;
    }
    return true;
}

/// Local layouts of every region, the dot runs all in one Graphviz job.
Status layoutRegions(std::vector<Region>& regions, const VisibleGraph& next, const ModuleTree& tree,
                     const IncrementalLayoutOptions& options) {
    std::vector<size_t> needDot;
    for (size_t k = 0; k < regions.size(); ++k)
        if (!regions[k].added.empty() && buildLocalGraph(regions[k], next)) needDot.push_back(k);
    if (needDot.empty()) return Status::ok();
    Status status;
    const bool ran = runGraphvizJob([&] {
        for (size_t k : needDot) {
            if (options.cancel && options.cancel->load()) {
                status = Status::error("layout cancelled");
                return;
            }
            status = detail::runDot(regions[k].local, tree, nullptr, false, {}, nullptr);
            if (!status) return;
        }
    }, options.cancel);
    if (!ran) return Status::error("layout cancelled");
    return status;
}

/// Boxes while the regions are put in: the kept old boxes (by old index, moved by every push) and the
/// new boxes placed so far.
struct Placement {
    std::vector<LRect> oldBoxes;
    std::vector<LRect> newBoxes;
    std::vector<char> placed;
    std::vector<Shift> shifts;

    LPoint shifted(LPoint p) const {
        for (const auto& s : shifts) p = s.point(p);
        return p;
    }
};

/// The push that makes room for region `r` placed at `r.placed`: down by the extra height, and the
/// boxes beside it aside only as far as needed to clear it.
Shift shiftFor(const Region& r, const Placement& pl, const BoxMatch& m, double gap) {
    const LRect& a = r.anchor;
    Shift s;
    s.threshold = a.y + a.h;
    s.down = std::max(0.0, r.placed.h - a.h);
    s.bandTop = r.placed.y;
    s.bandBottom = r.placed.y + r.placed.h;
    s.centerX = a.x + a.w / 2;
    auto need = [&](const LRect& b) {
        const bool inBand = b.y < s.threshold - 0.5 && b.y < s.bandBottom && b.y + b.h > s.bandTop;
        if (!inBand) return;
        if (b.x + b.w / 2 < s.centerX) s.left = std::max(s.left, b.x + b.w + gap - r.placed.x);
        else s.right = std::max(s.right, r.placed.x + r.placed.w + gap - b.x);
    };
    for (size_t o = 0; o < pl.oldBoxes.size(); ++o)
        if (m.oldKept[o]) need(pl.oldBoxes[o]);
    for (size_t n = 0; n < pl.newBoxes.size(); ++n)
        if (pl.placed[n]) need(pl.newBoxes[n]);
    s.left = std::max(0.0, s.left);
    s.right = std::max(0.0, s.right);
    return s;
}

/// Puts each region's local layout where its removed boxes were, bottom-most first (so that the
/// anchors of the regions above are not yet moved by pushes), pushing the rest out of the way.
Placement placeRegions(std::vector<Region>& regions, const LayoutResult& previous, const BoxMatch& m, size_t nNew,
                       double gap) {
    Placement pl;
    pl.oldBoxes = previous.boxes;
    pl.newBoxes.assign(nNew, LRect{});
    pl.placed.assign(nNew, 0);
    std::vector<size_t> order(regions.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return regions[a].anchor.y > regions[b].anchor.y; });
    for (size_t k : order) {
        Region& r = regions[k];
        if (r.added.empty()) continue;
        LRect local;
        for (const auto& b : r.local.boxes) local = unite(local, b);
        const LRect& a = r.anchor;
        const double dx = a.x + a.w / 2 - (local.x + local.w / 2), dy = a.y - local.y;
        r.placed = {local.x + dx, a.y, local.w, local.h};
        const Shift s = shiftFor(r, pl, m, gap);
        for (size_t o = 0; o < pl.oldBoxes.size(); ++o)
            if (m.oldKept[o]) pl.oldBoxes[o] = s.box(pl.oldBoxes[o]);
        for (size_t n = 0; n < nNew; ++n)
            if (pl.placed[n]) pl.newBoxes[n] = s.box(pl.newBoxes[n]);
        for (size_t other : order)
            if (other != k) regions[other].anchor = s.box(regions[other].anchor);
        for (int n : r.added) {
            LRect b = r.local.boxes[static_cast<size_t>(r.localOf[static_cast<size_t>(n)])];
            pl.newBoxes[static_cast<size_t>(n)] = {b.x + dx, b.y + dy, b.w, b.h};
            pl.placed[static_cast<size_t>(n)] = 1;
        }
        pl.shifts.push_back(s);
    }
    return pl;
}

/// Kept boxes: their moved old geometry, resized in place (centre and top kept) if their text changed.
void placeKeptBoxes(Placement& pl, const BoxMatch& m, const VisibleGraph& next) {
    for (size_t n = 0; n < next.items.size(); ++n) {
        if (m.oldOfNew[n] < 0) continue;
        const LRect& o = pl.oldBoxes[static_cast<size_t>(m.oldOfNew[n])];
        const auto& item = next.items[n];
        // dot rounds sizes through inches: an unchanged box keeps its old geometry to the bit
        if (std::abs(item.width - o.w) < 0.5 && std::abs(item.height - o.h) < 0.5) pl.newBoxes[n] = o;
        else pl.newBoxes[n] = {o.x + o.w / 2 - item.width / 2, o.y, item.width, item.height};
    }
}

/// Routes the edges of the next graph: kept edges follow their ends, edges inside a region come from
/// its local layout, the rest are drawn fresh between the boxes.
class EdgeRouter {
public:
    EdgeRouter(const LayoutResult& previous, const VisibleGraph& next, const std::vector<Region>& regions,
               const BoxMatch& m, const Placement& pl)
        : m_prev(previous), m_next(next), m_regions(regions), m_match(m), m_pl(pl) {
        const auto& oldItems = previous.graph.items;
        for (size_t k = 0; k < previous.graph.edges.size() && k < previous.edges.size(); ++k) {
            const auto& e = previous.graph.edges[k];
            m_oldEdge.emplace(std::make_pair(oldItems[static_cast<size_t>(e.from)].id, oldItems[static_cast<size_t>(e.to)].id),
                              static_cast<int>(k));
        }
        m_regionOfNew.assign(next.items.size(), -1);
        m_localEdge.resize(regions.size());
        for (size_t k = 0; k < regions.size(); ++k) {
            for (int n : regions[k].added) m_regionOfNew[static_cast<size_t>(n)] = static_cast<int>(k);
            for (const auto& le : regions[k].local.edges) {
                const auto& ve = regions[k].local.graph.edges[static_cast<size_t>(le.edge)];
                m_localEdge[k].emplace(std::make_pair(ve.from, ve.to), &le);
            }
        }
    }

    LayoutEdge route(size_t k) const {
        LayoutEdge out;
        if (keptEdge(k, out) || localEdge(k, out)) return out;
        const auto& ve = m_next.edges[k];
        return freshEdge(static_cast<int>(k), box(ve.from), box(ve.to));
    }

private:
    const LRect& box(int n) const { return m_pl.newBoxes[static_cast<size_t>(n)]; }

    bool keptEdge(size_t k, LayoutEdge& out) const {
        const auto& ve = m_next.edges[k];
        const size_t from = static_cast<size_t>(ve.from), to = static_cast<size_t>(ve.to);
        if (m_match.oldOfNew[from] < 0 || m_match.oldOfNew[to] < 0) return false;
        auto it = m_oldEdge.find({m_next.items[from].id, m_next.items[to].id});
        if (it == m_oldEdge.end()) return false;
        const LayoutEdge& pe = m_prev.edges[static_cast<size_t>(it->second)];
        const LRect& fo = m_prev.boxes[static_cast<size_t>(m_match.oldOfNew[from])];
        const LRect& to0 = m_prev.boxes[static_cast<size_t>(m_match.oldOfNew[to])];
        const LRect& fb = box(ve.from);
        const LRect& tb = box(ve.to);
        out = pe;
        out.edge = static_cast<int>(k);
        for (auto& p : out.points) p = m_pl.shifted(p);
        out.labelPos = m_pl.shifted(out.labelPos);
        // the ends ride with their boxes exactly (a point-wise shift may differ near a border)
        const double fdx = fb.x + fb.w / 2 - (fo.x + fo.w / 2), fdy = fb.y + fb.h - (fo.y + fo.h); // leaves from the bottom
        const double tdx = tb.x + tb.w / 2 - (to0.x + to0.w / 2), tdy = tb.y - to0.y;
        const size_t np = out.points.size();
        for (size_t i = 0; i < std::min<size_t>(2, np); ++i) out.points[i] = {pe.points[i].x + fdx, pe.points[i].y + fdy};
        for (size_t i = np >= 4 ? np - 2 : np; i < np; ++i) out.points[i] = {pe.points[i].x + tdx, pe.points[i].y + tdy};
        out.arrowTip = {pe.arrowTip.x + tdx, pe.arrowTip.y + tdy};
        return true;
    }

    bool localEdge(size_t k, LayoutEdge& out) const {
        const auto& ve = m_next.edges[k];
        const size_t from = static_cast<size_t>(ve.from), to = static_cast<size_t>(ve.to);
        if (m_regionOfNew[from] < 0 || m_regionOfNew[from] != m_regionOfNew[to]) return false;
        const size_t rk = static_cast<size_t>(m_regionOfNew[from]);
        const Region& r = m_regions[rk];
        auto it = m_localEdge[rk].find({r.localOf[from], r.localOf[to]});
        const LRect& lf = r.local.boxes[static_cast<size_t>(r.localOf[from])];
        const LRect& lt = r.local.boxes[static_cast<size_t>(r.localOf[to])];
        const LRect& fb = box(ve.from);
        const LRect& tb = box(ve.to);
        const double dx = fb.x - lf.x, dy = fb.y - lf.y;
        // dot's own routing, when the region moved as one piece (it always does unless pushed apart)
        if (it == m_localEdge[rk].end() || std::abs(tb.x - lt.x - dx) >= 0.01 || std::abs(tb.y - lt.y - dy) >= 0.01)
            return false;
        out = *it->second;
        out.edge = static_cast<int>(k);
        for (auto& p : out.points) p = {p.x + dx, p.y + dy};
        out.arrowTip = {out.arrowTip.x + dx, out.arrowTip.y + dy};
        out.labelPos = {out.labelPos.x + dx, out.labelPos.y + dy};
        return true;
    }

    const LayoutResult& m_prev;
    const VisibleGraph& m_next;
    const std::vector<Region>& m_regions;
    const BoxMatch& m_match;
    const Placement& m_pl;
    std::map<std::pair<std::string, std::string>, int> m_oldEdge;
    std::vector<int> m_regionOfNew;
    std::vector<std::map<std::pair<int, int>, const LayoutEdge*>> m_localEdge;
};

LRect padForFrame(const LRect& b) {
    return {b.x - kClusterPad, b.y - kClusterTitle, b.w + 2 * kClusterPad, b.h + kClusterTitle + kClusterPad};
}

/// Module frames: the old frame (moved), grown to hold its boxes; inner frames first, outer ones
/// grown around them; returned outermost first.
std::vector<LayoutCluster> frameModules(const LayoutResult& previous, const VisibleGraph& next, const ModuleTree& tree,
                                        const Placement& pl) {
    std::unordered_map<std::string, LRect> oldFrame;
    for (const auto& c : previous.clusters) {
        LRect b = c.box;
        LPoint top = pl.shifted({b.x, b.y}), bottom = pl.shifted({b.x + b.w, b.y + b.h});
        oldFrame[c.label] = {top.x, top.y, std::max(0.0, bottom.x - top.x), std::max(0.0, bottom.y - top.y)};
    }
    std::unordered_map<int, LRect> frame;
    for (size_t n = 0; n < next.items.size(); ++n)
        for (int m : clusterChain(tree, next.items[n].cluster)) frame[m] = unite(frame[m], padForFrame(pl.newBoxes[n]));
    std::vector<int> modules = next.clusters;
    std::sort(modules.begin(), modules.end(), [&](int a, int b) {
        if (a <= 0 || a >= tree.size() || b <= 0 || b >= tree.size()) return a < b;
        return tree.module(a).depth > tree.module(b).depth;
    });
    std::vector<LayoutCluster> clusters;
    for (int m : modules) {
        if (m <= 0 || m >= tree.size()) continue;
        const auto& mod = tree.module(m);
        LayoutCluster c;
        c.module = m;
        c.label = moduleTitle(tree, next, m);
        c.depth = mod.depth;
        c.box = frame[m];
        if (auto it = oldFrame.find(c.label); it != oldFrame.end()) c.box = unite(c.box, it->second);
        if (mod.parent > 0) frame[mod.parent] = unite(frame[mod.parent], padForFrame(c.box));
        clusters.push_back(std::move(c));
    }
    std::stable_sort(clusters.begin(), clusters.end(),
                     [](const LayoutCluster& a, const LayoutCluster& b) { return a.depth < b.depth; });
    return clusters;
}

/// Boxes that would overlap (a push that met a tall neighbour, a grown module box): the caller gives
/// up on placing locally.
Status checkOverlaps(const std::vector<LRect>& boxes, const VisibleGraph& next) {
    std::vector<size_t> byX(boxes.size());
    std::iota(byX.begin(), byX.end(), 0);
    std::sort(byX.begin(), byX.end(), [&](size_t a, size_t b) { return boxes[a].x < boxes[b].x; });
    for (size_t i = 0; i < byX.size(); ++i) {
        const LRect& a = boxes[byX[i]];
        for (size_t j = i + 1; j < byX.size() && boxes[byX[j]].x < a.x + a.w; ++j)
            if (overlaps(a, boxes[byX[j]]))
                return Status::error("incremental layout: '" + next.items[byX[i]].id + "' and '" + next.items[byX[j]].id +
                                     "' would overlap");
    }
    return Status::ok();
}

/// The drawing's bounds (the old ones pushed down, grown to every box and frame), the chips, and the
/// regions the step touched.
void finishResult(LayoutResult& result, const LayoutResult& previous, const std::vector<Region>& regions,
                  const Placement& pl) {
    LRect bounds = previous.bounds;
    const LPoint bottom = pl.shifted({bounds.x + bounds.w, bounds.y + bounds.h});
    bounds.h = std::max(bounds.h, bottom.y - bounds.y);
    for (const auto& b : result.boxes) bounds = unite(bounds, b);
    for (const auto& c : result.clusters) bounds = unite(bounds, c.box);
    result.bounds = bounds;
    result.chips.assign(result.boxes.size(), {});
    for (size_t n = 0; n < result.boxes.size(); ++n) detail::placeChips(result, n);
    for (const auto& r : regions) {
        if (r.added.empty()) continue;
        LRect u;
        for (int n : r.added) u = unite(u, result.boxes[static_cast<size_t>(n)]);
        result.touchedRegions.push_back(u);
    }
    result.incrementalSteps = previous.incrementalSteps + 1;
}

Status checkPreconditions(const LayoutResult& previous, const IncrementalLayoutOptions& options) {
    if (options.cancel && options.cancel->load()) return Status::error("layout cancelled");
    if (previous.boxes.size() != previous.graph.items.size())
        return Status::error("incremental layout: the previous layout is incomplete");
    if (previous.incrementalSteps >= options.maxSteps)
        return Status::error("incremental layout: " + std::to_string(previous.incrementalSteps) +
                             " steps since the last full layout");
    return Status::ok();
}

} // namespace

Result<LayoutPtr> layoutIncremental(const LayoutResult& previous, VisibleGraph next, const ModuleTree& tree,
                                    const NodeReplacementMap& replaced, const IncrementalLayoutOptions& options) {
    const auto t0 = std::chrono::steady_clock::now();
    IRLENS_TRY(checkPreconditions(previous, options));
    const BoxMatch match = matchBoxes(previous, next);
    const size_t nOld = previous.graph.items.size();
    if (static_cast<double>(match.removed.size()) > options.maxChangedShare * static_cast<double>(nOld) &&
        match.removed.size() > 4)
        return Status::error("incremental layout: " + std::to_string(match.removed.size()) + " boxes replaced by " +
                             std::to_string(match.added.size()) + " is too big a change to place locally");
    auto grouped = groupRegions(previous, next, match, replaced);
    if (!grouped) return grouped.status();
    std::vector<Region> regions = std::move(*grouped);
    IRLENS_TRY(layoutRegions(regions, next, tree, options));

    Placement pl = placeRegions(regions, previous, match, next.items.size(), options.gap);
    placeKeptBoxes(pl, match, next);
    auto result = std::make_shared<LayoutResult>();
    const EdgeRouter router(previous, next, regions, match, pl);
    result->edges.resize(next.edges.size());
    for (size_t k = 0; k < next.edges.size(); ++k) result->edges[k] = router.route(k);
    result->clusters = frameModules(previous, next, tree, pl);
    IRLENS_TRY(checkOverlaps(pl.newBoxes, next));
    result->boxes = std::move(pl.newBoxes);
    result->graph = std::move(next);
    finishResult(*result, previous, regions, pl);
    keepEdgeLabelsOffTitles(*result);
    linkFrames(*result, tree);
    result->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (options.cancel && options.cancel->load()) return Status::error("layout cancelled");
    return LayoutPtr(std::move(result));
}

} // namespace irlens::core
