#include "core/layout/composed_layout.h"

#include "core/layout/graph_layout.h"
#include "core/layout/graphviz_session.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>

namespace irlens::core {
namespace {

using detail::LocalGeometry;
using detail::LocalGraph;

constexpr double kFramePad = 8.0;    // a module frame's margin around its content (as the incremental layout)
constexpr double kFrameTitle = 20.0; // room for the module's title above its content
constexpr double kRootPad = 4.0;
constexpr double kPortSize = 2.0;

/// A node of a part's local graph: one of its elements, or the port of one.
enum class Slot { Element = 0, InPort = 1, OutPort = 2 };
using SlotKey = std::pair<int, int>; // (Slot, element)

/// One piece of an edge's way: a local edge of one part.
struct Piece {
    int part = -1;
    SlotKey from, to;
};

/// One open module (or window, or the root) and its local graph.
struct Part {
    int module = -1;                 // ModuleTree index: 0 the root, -1 a window (no frame drawn)
    int parent = -1;
    int depth = 0;
    std::vector<int> elements;       // item index, or -(part + 1) for a child part
    std::set<SlotKey> ports;
    std::set<std::pair<SlotKey, SlotKey>> edges;
    std::map<SlotKey, int> local;    // slot -> local node index
    std::map<std::pair<int, int>, int> localEdge; // (local from, local to) -> local edge index
    int geometry = -1;               // index into the shared geometries
};

/// A laid-out part, shared by every part of the same content.
struct PartGeometry {
    LocalGeometry local;
    double padX = 0, padTop = 0;
    double w = 0, h = 0;             // the part's frame (content plus margins), whole points
};

int encodePart(int part) { return -(part + 1); }
int decodePart(int element) { return -element - 1; }

double distance(LPoint a, LPoint b) { return std::hypot(a.x - b.x, a.y - b.y); }

LayoutEdge straightEdge(const LRect& a, const LRect& b, bool arrow) {
    LayoutEdge e;
    const LPoint p0{a.x + a.w / 2, a.y + a.h}, tip{b.x + b.w / 2, b.y};
    const LPoint p1 = arrow ? LPoint{tip.x, tip.y - 6} : tip;
    e.points = {p0, p0, p1, p1};
    e.arrow = arrow;
    e.arrowTip = tip;
    return e;
}

/// Appends `next` to `path`, joined by a straight segment from the end of one to the start of the other.
void joinSpline(std::vector<LPoint>& path, const std::vector<LPoint>& next) {
    if (path.empty()) {
        path = next;
        return;
    }
    path.push_back(path.back());
    path.push_back(next.front());
    path.insert(path.end(), next.begin(), next.end());
}

/// A module holding one box needs no dot run, and no ranks for its ports: what enters comes straight
/// down through the frame's title strip (`top` points), what leaves goes straight down through its
/// bottom margin.
LocalGeometry singleBoxGeometry(const LocalGraph& g, double top, double bottom) {
    LocalGeometry out;
    const LRect box{0, 0, g.nodes.front().w, g.nodes.front().h};
    const double cx = box.w / 2;
    out.w = box.w;
    out.h = box.h;
    out.nodes.assign(g.nodes.size(), box);
    for (size_t k = 1; k < g.nodes.size(); ++k)
        out.nodes[k] = g.nodes[k].role == LocalGraph::Role::InPort ? LRect{cx, -top, 0, 0} : LRect{cx, box.h + bottom, 0, 0};
    for (size_t e = 0; e < g.edges.size(); ++e) {
        const auto& ge = g.edges[e];
        const LRect& from = out.nodes[static_cast<size_t>(ge.from)];
        const LRect& to = out.nodes[static_cast<size_t>(ge.to)];
        const LPoint p0{cx, from.y + from.h}, tip{cx, to.y};
        const LPoint p1 = ge.arrow ? LPoint{cx, tip.y - std::min(6.0, (tip.y - p0.y) / 2)} : tip;
        LayoutEdge& le = out.edges.emplace_back();
        le.edge = static_cast<int>(e);
        le.points = {p0, p0, p1, p1};
        le.arrow = ge.arrow;
        le.arrowTip = tip;
    }
    return out;
}

class Composer {
public:
    Composer(VisibleGraph graph, const ModuleTree& tree, const ComposedLayoutOptions& options)
        : m_tree(tree), m_options(options) {
        m_result = std::make_shared<LayoutResult>();
        m_result->graph = std::move(graph);
    }

    Result<LayoutPtr> run(ComposedLayoutStats* stats) {
        const auto t0 = std::chrono::steady_clock::now();
        buildParts();
        splitWideParts();
        computeDepths();
        routeEdges();
        IRLENS_TRY(layoutParts());
        compose();
        keepEdgeLabelsOffTitles(*m_result);
        linkFrames(*m_result, m_tree);
        m_result->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (stats) *stats = {static_cast<int>(m_parts.size()), static_cast<int>(m_geometries.size()), m_dotSeconds};
        if (cancelled()) return Status::error("layout cancelled");
        return LayoutPtr(std::move(m_result));
    }

private:
    const VisibleGraph& graph() const { return m_result->graph; }
    bool cancelled() const { return m_options.cancel && m_options.cancel->load(); }

    int partOfModule(int module) {
        if (auto it = m_partOfModule.find(module); it != m_partOfModule.end()) return it->second;
        const int parent = module > 0 ? partOfModule(m_tree.module(module).parent) : -1;
        const int p = static_cast<int>(m_parts.size());
        m_parts.push_back({});
        m_parts.back().module = module;
        m_parts.back().parent = parent;
        m_partElement.push_back(-1);
        if (parent >= 0) addElement(parent, encodePart(p));
        m_partOfModule.emplace(module, p);
        return p;
    }

    void addElement(int part, int element) {
        auto& elements = m_parts[static_cast<size_t>(part)].elements;
        if (element >= 0) {
            m_itemPart[static_cast<size_t>(element)] = part;
            m_itemElement[static_cast<size_t>(element)] = static_cast<int>(elements.size());
        } else {
            m_parts[static_cast<size_t>(decodePart(element))].parent = part;
            m_partElement[static_cast<size_t>(decodePart(element))] = static_cast<int>(elements.size());
        }
        elements.push_back(element);
    }

    /// A part per open module, made when its first item comes: elements stay in graph order.
    void buildParts() {
        const size_t n = graph().items.size();
        m_itemPart.assign(n, 0);
        m_itemElement.assign(n, 0);
        partOfModule(0);
        for (size_t k = 0; k < n; ++k) addElement(partOfModule(graph().items[k].cluster), static_cast<int>(k));
    }

    /// Cuts every part with too many elements into windows of consecutive elements (windows of
    /// windows when there are still too many): no dot run sees more than maxPartBoxes boxes.
    void splitWideParts() {
        const size_t maxBoxes = static_cast<size_t>(std::max(2, m_options.maxPartBoxes));
        const size_t window = static_cast<size_t>(std::clamp(m_options.windowBoxes, 1, m_options.maxPartBoxes));
        for (size_t p = 0; p < m_parts.size(); ++p) {
            while (m_parts[p].elements.size() > maxBoxes) {
                std::vector<int> elements = std::move(m_parts[p].elements);
                m_parts[p].elements.clear();
                for (size_t a = 0; a < elements.size(); a += window) {
                    const int w = static_cast<int>(m_parts.size());
                    m_parts.push_back({});
                    m_partElement.push_back(-1);
                    addElement(static_cast<int>(p), encodePart(w));
                    for (size_t b = a; b < std::min(elements.size(), a + window); ++b) addElement(w, elements[b]);
                }
            }
        }
    }

    void computeDepths() {
        std::vector<int> queue{0};
        m_order.clear();
        for (size_t q = 0; q < queue.size(); ++q) {
            const int p = queue[q];
            m_order.push_back(p);
            for (int e : m_parts[static_cast<size_t>(p)].elements)
                if (e < 0) {
                    m_parts[static_cast<size_t>(decodePart(e))].depth = m_parts[static_cast<size_t>(p)].depth + 1;
                    queue.push_back(decodePart(e));
                }
        }
    }

    /// Each edge climbs from both ends to the part holding both: out through a port of every part
    /// it leaves, across the common part, in through a port of every part it enters.
    void routeEdges() {
        m_pieces.assign(graph().edges.size(), {});
        for (size_t k = 0; k < graph().edges.size(); ++k) {
            const auto& ve = graph().edges[k];
            int a = m_itemPart[static_cast<size_t>(ve.from)], ae = m_itemElement[static_cast<size_t>(ve.from)];
            int b = m_itemPart[static_cast<size_t>(ve.to)], be = m_itemElement[static_cast<size_t>(ve.to)];
            std::vector<Piece> down; // the entering pieces, innermost first
            auto& up = m_pieces[k];
            auto climb = [&](int& part, int& element, Slot port, std::vector<Piece>& into) {
                Piece piece{part, {static_cast<int>(Slot::Element), element}, {static_cast<int>(port), element}};
                if (port == Slot::InPort) std::swap(piece.from, piece.to);
                into.push_back(piece);
                element = m_partElement[static_cast<size_t>(part)];
                part = m_parts[static_cast<size_t>(part)].parent;
            };
            while (depthOf(a) > depthOf(b)) climb(a, ae, Slot::OutPort, up);
            while (depthOf(b) > depthOf(a)) climb(b, be, Slot::InPort, down);
            while (a != b) {
                climb(a, ae, Slot::OutPort, up);
                climb(b, be, Slot::InPort, down);
            }
            up.push_back({a, {static_cast<int>(Slot::Element), ae}, {static_cast<int>(Slot::Element), be}});
            up.insert(up.end(), down.rbegin(), down.rend());
            for (const auto& piece : up) {
                Part& part = m_parts[static_cast<size_t>(piece.part)];
                for (const SlotKey& s : {piece.from, piece.to})
                    if (s.first != static_cast<int>(Slot::Element)) part.ports.insert(s);
                part.edges.insert({piece.from, piece.to});
            }
        }
    }

    int depthOf(int part) const { return m_parts[static_cast<size_t>(part)].depth; }

    /// The part's local graph (its child parts must have their geometry) and the key that says
    /// which other parts have the same one.
    LocalGraph localGraph(Part& part, std::vector<int64_t>& key) const {
        LocalGraph g;
        key = {part.module < 0 ? 0 : part.module == 0 ? 1 : 2};
        for (size_t e = 0; e < part.elements.size(); ++e) {
            const int el = part.elements[e];
            LocalGraph::Node node;
            if (el >= 0) {
                node.w = graph().items[static_cast<size_t>(el)].width;
                node.h = graph().items[static_cast<size_t>(el)].height;
                key.insert(key.end(), {0, std::llround(node.w * 16), std::llround(node.h * 16)});
            } else {
                const int geometry = m_parts[static_cast<size_t>(decodePart(el))].geometry;
                const PartGeometry& child = m_geometries[static_cast<size_t>(geometry)];
                node.w = child.w;
                node.h = child.h;
                key.insert(key.end(), {1, geometry, 0});
            }
            part.local.emplace(SlotKey{static_cast<int>(Slot::Element), static_cast<int>(e)}, static_cast<int>(g.nodes.size()));
            g.nodes.push_back(node);
        }
        for (const auto& port : part.ports) {
            part.local.emplace(port, static_cast<int>(g.nodes.size()));
            g.nodes.push_back({kPortSize, kPortSize,
                               port.first == static_cast<int>(Slot::InPort) ? LocalGraph::Role::InPort : LocalGraph::Role::OutPort});
            key.insert(key.end(), {3, port.first, port.second});
        }
        auto isChildPart = [&](const SlotKey& s) {
            return s.first == static_cast<int>(Slot::Element) && part.elements[static_cast<size_t>(s.second)] < 0;
        };
        for (const auto& [from, to] : part.edges) {
            const int a = part.local.at(from), b = part.local.at(to);
            // the arrowhead belongs to the edge's last piece, the one that ends on a box
            const bool arrow = to.first == static_cast<int>(Slot::Element) && !isChildPart(to);
            part.localEdge.emplace(std::make_pair(a, b), static_cast<int>(g.edges.size()));
            // a child module's ports are on its bottom and top ranks: the piece outside meets them there,
            // not on the module's side (the joint would cut across the module's boxes)
            g.edges.push_back({a, b, arrow, isChildPart(from), isChildPart(to)});
            key.insert(key.end(), {4, a, b, arrow});
        }
        return g;
    }

    Status layoutParts();
    Status layoutLevel(const std::vector<int>& level);
    PartGeometry finishGeometry(const Part& part, LocalGeometry local, const LocalGraph& g) const;
    void compose();
    LayoutEdge composeEdge(size_t k, const std::vector<LPoint>& content) const;

    const ModuleTree& m_tree;
    const ComposedLayoutOptions& m_options;
    std::shared_ptr<LayoutResult> m_result;
    std::vector<Part> m_parts;
    std::vector<int> m_partElement;   // part -> its element index in its parent
    std::vector<int> m_itemPart, m_itemElement;
    std::unordered_map<int, int> m_partOfModule;
    std::vector<int> m_order;         // parts, parents before children
    std::vector<std::vector<Piece>> m_pieces;
    std::vector<PartGeometry> m_geometries;
    std::map<std::vector<int64_t>, int> m_geometryOfKey;
    double m_dotSeconds = 0;
    int m_partsDone = 0;
};

/// Bottom-up, one depth at a time: the parts of a level need their children's sizes.
Status Composer::layoutParts() {
    int maxDepth = 0;
    for (const auto& p : m_parts) maxDepth = std::max(maxDepth, p.depth);
    std::vector<std::vector<int>> levels(static_cast<size_t>(maxDepth) + 1);
    for (size_t p = 0; p < m_parts.size(); ++p) levels[static_cast<size_t>(m_parts[p].depth)].push_back(static_cast<int>(p));
    for (int d = maxDepth; d >= 0; --d) {
        if (cancelled()) return Status::error("layout cancelled");
        IRLENS_TRY(layoutLevel(levels[static_cast<size_t>(d)]));
        m_partsDone += static_cast<int>(levels[static_cast<size_t>(d)].size());
        if (m_options.progress) m_options.progress(m_partsDone, static_cast<int>(m_parts.size()));
    }
    return Status::ok();
}

/// The local graphs of one level (in parallel), then one dot run per distinct graph, all in one
/// Graphviz job: dot keeps process-wide state, so its runs cannot overlap.
Status Composer::layoutLevel(const std::vector<int>& level) {
    std::vector<LocalGraph> graphs(level.size());
    std::vector<std::vector<int64_t>> keys(level.size());
    tbb::parallel_for(size_t(0), level.size(), [&](size_t i) {
        graphs[i] = localGraph(m_parts[static_cast<size_t>(level[i])], keys[i]);
    });
    std::vector<size_t> fresh; // indices into `level` of the first part of each new key
    for (size_t i = 0; i < level.size(); ++i) {
        auto [it, added] = m_geometryOfKey.emplace(std::move(keys[i]), static_cast<int>(m_geometries.size() + fresh.size()));
        if (added) fresh.push_back(i);
        m_parts[static_cast<size_t>(level[i])].geometry = it->second;
    }
    if (fresh.empty()) return Status::ok();
    std::vector<LocalGeometry> local(fresh.size());
    std::vector<size_t> needDot;
    for (size_t f = 0; f < fresh.size(); ++f) {
        const Part& part = m_parts[static_cast<size_t>(level[fresh[f]])];
        if (part.module > 0 && part.elements.size() == 1) local[f] = singleBoxGeometry(graphs[fresh[f]], kFrameTitle, kFramePad);
        else needDot.push_back(f);
    }
    Status status;
    const auto t0 = std::chrono::steady_clock::now();
    const bool ran = needDot.empty() || runGraphvizJob([&] {
        for (size_t k = 0; k < needDot.size(); ++k) {
            if (!status) return;
            if (cancelled()) status = Status::error("layout cancelled");
            else status = detail::runLocalDot(graphs[fresh[needDot[k]]], local[needDot[k]]);
            // the level's parts counted in proportion to its dot runs done
            if (m_options.progress)
                m_options.progress(m_partsDone + static_cast<int>((k + 1) * level.size() / needDot.size()), static_cast<int>(m_parts.size()));
        }
    }, m_options.cancel);
    m_dotSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!ran) return Status::error("layout cancelled");
    IRLENS_TRY(status);
    for (size_t f = 0; f < fresh.size(); ++f)
        m_geometries.push_back(finishGeometry(m_parts[static_cast<size_t>(level[fresh[f]])], std::move(local[f]), graphs[fresh[f]]));
    return Status::ok();
}

/// Margins around the content (a frame's title, none for a window), edges dot left unrouted drawn
/// straight, and the size rounded up to whole points (dot keeps node sizes in points).
PartGeometry Composer::finishGeometry(const Part& part, LocalGeometry local, const LocalGraph& g) const {
    PartGeometry pg;
    double padBottom = 0;
    if (part.module > 0) {
        // the margins count from the boxes, not the ports: the rank of the ports that enter may sit
        // in the title strip and the one of those that leave in the bottom margin, which saves a
        // rank gap of every edge at every module border it crosses
        double top = local.h, bottom = 0;
        for (size_t k = 0; k < part.elements.size(); ++k) {
            top = std::min(top, local.nodes[k].y);
            bottom = std::max(bottom, local.nodes[k].y + local.nodes[k].h);
        }
        pg.padX = kFramePad;
        pg.padTop = std::max(kPortSize, kFrameTitle - top);
        padBottom = std::max(kPortSize, kFramePad - (local.h - bottom));
    } else if (part.module == 0) {
        pg.padX = pg.padTop = padBottom = kRootPad;
    }
    for (size_t e = 0; e < local.edges.size(); ++e) {
        const auto& ge = g.edges[e];
        const LRect& from = local.nodes[static_cast<size_t>(ge.from)];
        const LRect& to = local.nodes[static_cast<size_t>(ge.to)];
        auto& points = local.edges[e].points;
        if (points.empty()) {
            local.edges[e] = straightEdge(from, to, ge.arrow);
            local.edges[e].edge = static_cast<int>(e);
        } else if (!local.edges[e].arrow && distance(points.back(), from.center()) < distance(points.front(), from.center())) {
            // dot may hand back a reversed edge (one that closes a cycle) from head to tail; without an
            // arrowhead nothing flags it, and the pieces must join end to start
            std::reverse(points.begin(), points.end());
        }
    }
    pg.w = std::ceil(local.w + 2 * pg.padX);
    pg.h = std::ceil(local.h + pg.padTop + padBottom);
    pg.local = std::move(local);
    return pg;
}

/// Top-down: each part's content is placed where its parent put its box.
void Composer::compose() {
    LayoutResult& r = *m_result;
    std::vector<LPoint> origin(m_parts.size()), content(m_parts.size());
    for (int p : m_order) {
        const Part& part = m_parts[static_cast<size_t>(p)];
        const PartGeometry& pg = m_geometries[static_cast<size_t>(part.geometry)];
        content[static_cast<size_t>(p)] = {origin[static_cast<size_t>(p)].x + pg.padX, origin[static_cast<size_t>(p)].y + pg.padTop};
        for (size_t e = 0; e < part.elements.size(); ++e) {
            if (part.elements[e] >= 0) continue;
            const LRect& b = pg.local.nodes[e];
            origin[static_cast<size_t>(decodePart(part.elements[e]))] = {content[static_cast<size_t>(p)].x + b.x,
                                                                          content[static_cast<size_t>(p)].y + b.y};
        }
        if (part.module > 0) {
            const auto& mod = m_tree.module(part.module);
            r.clusters.push_back({part.module, {origin[static_cast<size_t>(p)].x, origin[static_cast<size_t>(p)].y, pg.w, pg.h},
                                  moduleTitle(m_tree, r.graph, part.module), mod.depth});
        }
    }
    const size_t n = r.graph.items.size();
    r.boxes.resize(n);
    r.chips.assign(n, {});
    tbb::parallel_for(size_t(0), n, [&](size_t k) {
        const int p = m_itemPart[k];
        const Part& part = m_parts[static_cast<size_t>(p)];
        const LRect& b = m_geometries[static_cast<size_t>(part.geometry)].local.nodes[static_cast<size_t>(m_itemElement[k])];
        r.boxes[k] = {content[static_cast<size_t>(p)].x + b.x, content[static_cast<size_t>(p)].y + b.y, b.w, b.h};
        detail::placeChips(r, k);
    });
    r.edges.resize(r.graph.edges.size());
    tbb::parallel_for(size_t(0), r.edges.size(), [&](size_t k) { r.edges[k] = composeEdge(k, content); });
    const PartGeometry& root = m_geometries[static_cast<size_t>(m_parts.front().geometry)];
    r.bounds = {0, 0, root.w, root.h};
}

/// An edge's pieces, each translated from its part's local drawing, joined into one spline.
LayoutEdge Composer::composeEdge(size_t k, const std::vector<LPoint>& content) const {
    LayoutEdge out;
    out.edge = static_cast<int>(k);
    for (const Piece& piece : m_pieces[k]) {
        const Part& part = m_parts[static_cast<size_t>(piece.part)];
        const int a = part.local.at(piece.from), b = part.local.at(piece.to);
        const LayoutEdge& le = m_geometries[static_cast<size_t>(part.geometry)].local.edges[static_cast<size_t>(part.localEdge.at({a, b}))];
        const LPoint o = content[static_cast<size_t>(piece.part)];
        std::vector<LPoint> points(le.points);
        for (auto& p : points) p = {p.x + o.x, p.y + o.y};
        joinSpline(out.points, points);
        out.arrow = le.arrow;
        out.arrowTip = {le.arrowTip.x + o.x, le.arrowTip.y + o.y};
    }
    out.labelPos = detail::splineMidpoint(out.points);
    return out;
}

} // namespace

Result<LayoutPtr> layoutComposed(VisibleGraph graph, const ModuleTree& tree, const ComposedLayoutOptions& options,
                                 ComposedLayoutStats* stats) {
    if (options.cancel && options.cancel->load()) return Status::error("layout cancelled");
    return Composer(std::move(graph), tree, options).run(stats);
}

} // namespace irlens::core
