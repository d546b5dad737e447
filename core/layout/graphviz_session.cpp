#include "core/layout/graphviz_session.h"

#include "core/layout/render_style.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <unordered_map>

namespace irlens::core::detail {
namespace {

char* cs(const char* s) { return const_cast<char*>(s); }

std::string inches(double points) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4f", points / 72.0);
    return buf;
}

// Graphviz label text: backslash escapes are interpreted, so escape them.
std::string escapeLabel(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '\\') out += "\\\\";
        else if (c == '"') out += "\\\"";
        else out += c;
    }
    return out;
}

GVC_t* context() {
    // Created once under the Graphviz lock held by the caller, and kept: plugin loading costs time.
    static GVC_t* gvc = gvContext();
    return gvc;
}

LPoint bezierPoint(const std::vector<LPoint>& p, size_t seg, double t) {
    const LPoint& a = p[seg * 3];
    const LPoint& b = p[seg * 3 + 1];
    const LPoint& c = p[seg * 3 + 2];
    const LPoint& d = p[seg * 3 + 3];
    double u = 1 - t;
    return {u * u * u * a.x + 3 * u * u * t * b.x + 3 * u * t * t * c.x + t * t * t * d.x,
            u * u * u * a.y + 3 * u * u * t * b.y + 3 * u * t * t * c.y + t * t * t * d.y};
}

/// dot's route of an edge, y flipped to point down from `top`; false when dot left it unrouted.
bool readSpline(Agedge_t* edge, double top, LayoutEdge& le) {
    splines* spl = ED_spl(edge);
    if (!spl || spl->size <= 0 || spl->list[0].size < 4) return false;
    // one bezier per edge in dot output (several only for concentrated edges)
    const bezier& bz = spl->list[0];
    for (int p = 0; p < bz.size; ++p) le.points.push_back({bz.list[p].x, top - bz.list[p].y});
    if (bz.eflag) {
        le.arrow = true;
        le.arrowTip = {bz.ep.x, top - bz.ep.y};
    } else if (bz.sflag) {
        std::reverse(le.points.begin(), le.points.end());
        le.arrow = true;
        le.arrowTip = {bz.sp.x, top - bz.sp.y};
    }
    return true;
}

struct AttrDefault {
    int kind;
    const char* name;
    const char* value;
};

/// Node sizes are set per node through these (created once per graph).
struct SizeAttrs {
    Agsym_t* w;
    Agsym_t* h;
};

/// The graph settings every layout shares (the full one and each local one of a composed layout).
SizeAttrs setLayoutDefaults(Agraph_t* g) {
    static constexpr AttrDefault kLayout[] = {
        {AGRAPH, "rankdir", "TB"}, {AGRAPH, "nodesep", "0.25"}, {AGRAPH, "ranksep", "0.4"},
        {AGRAPH, "fontsize", "9"}, {AGRAPH, "labeljust", "l"},  {AGRAPH, "label", ""},
        {AGNODE, "shape", "box"},  {AGNODE, "fixedsize", "true"}, {AGNODE, "label", ""},
    };
    for (const auto& d : kLayout) agattr(g, d.kind, cs(d.name), cs(d.value));
    return {agattr(g, AGNODE, cs("width"), cs("1")), agattr(g, AGNODE, cs("height"), cs("0.5"))};
}

/// Node `n<index>` of a fixed size in points.
Agnode_t* sizedNode(Agraph_t* g, const SizeAttrs& attrs, size_t index, double w, double h) {
    Agnode_t* n = agnode(g, cs(("n" + std::to_string(index)).c_str()), 1);
    agxset(n, attrs.w, cs(inches(w).c_str()));
    agxset(n, attrs.h, cs(inches(h).c_str()));
    return n;
}

struct Builder {
    LayoutResult& r;
    const ModuleTree& tree;
    const Graph* source;
    bool decorated;
    Agraph_t* g = nullptr;
    std::unordered_map<int, Agraph_t*> clusterGraph;
    std::vector<Agnode_t*> nodes;
    std::vector<Agedge_t*> edges;

    Agraph_t* clusterFor(int module) {
        if (module <= 0) return g;
        if (auto it = clusterGraph.find(module); it != clusterGraph.end()) return it->second;
        Agraph_t* parent = clusterFor(tree.module(module).parent);
        std::string name = "cluster_" + std::to_string(module);
        Agraph_t* sg = agsubg(parent, cs(name.c_str()), 1);
        const auto& mod = tree.module(module);
        std::string label = mod.label() + " · " + mod.shortType();
        agsafeset(sg, cs("label"), cs(escapeLabel(label).c_str()), cs(""));
        clusterGraph.emplace(module, sg);
        return sg;
    }

    void build() {
        g = agopen(cs("irlens"), Agdirected, nullptr);
        // what the SVG/DOT export draws on top of the geometry
        static constexpr AttrDefault kDecorated[] = {
            {AGNODE, "style", "rounded,filled"}, {AGNODE, "fillcolor", "#f0f0f0"}, {AGNODE, "fontsize", "9"},
            {AGNODE, "fontname", "Helvetica"},   {AGNODE, "peripheries", "1"},     {AGEDGE, "fontsize", "7"},
            {AGEDGE, "fontname", "Helvetica"},   {AGEDGE, "xlabel", ""},           {AGRAPH, "fontname", "Helvetica"},
            {AGRAPH, "style", "rounded"},
        };
        const SizeAttrs sizes = setLayoutDefaults(g);
        // crossing minimisation dominates on big graphs; fewer passes keep the layout interactive
        if (r.graph.items.size() > 600) agattr(g, AGRAPH, cs("mclimit"), cs("0.3"));
        if (decorated)
            for (const auto& d : kDecorated) agattr(g, d.kind, cs(d.name), cs(d.value));
        nodes.resize(r.graph.items.size());
        for (size_t k = 0; k < r.graph.items.size(); ++k) {
            const auto& item = r.graph.items[k];
            Agnode_t* n = sizedNode(g, sizes, k, item.width, item.height);
            if (item.cluster > 0) agsubnode(clusterFor(item.cluster), n, 1);
            if (decorated) decorate(n, item);
            nodes[k] = n;
        }
        edges.resize(r.graph.edges.size(), nullptr);
        for (size_t k = 0; k < r.graph.edges.size(); ++k) {
            const auto& e = r.graph.edges[k];
            Agedge_t* ae = agedge(g, nodes[static_cast<size_t>(e.from)], nodes[static_cast<size_t>(e.to)], nullptr, 1);
            if (decorated && !e.label.empty()) agsafeset(ae, cs("xlabel"), cs(escapeLabel(e.label).c_str()), cs(""));
            edges[k] = ae;
        }
    }

    void decorate(Agnode_t* n, const VisibleItem& item) {
        agsafeset(n, cs("label"), cs(escapeLabel(itemLabel(item)).c_str()), cs(""));
        agsafeset(n, cs("fillcolor"), cs(itemFill(item, source).c_str()), cs(""));
        if (item.kind == VisibleItem::Kind::Module) agsafeset(n, cs("style"), cs("rounded,filled,dashed"), cs(""));
        if (item.isHop) agsafeset(n, cs("peripheries"), cs("2"), cs(""));
    }

    void collectClusters(Agraph_t* sg, double top, int depth) {
        for (int k = 1; k <= GD_n_cluster(sg); ++k) {
            Agraph_t* c = GD_clust(sg)[k];
            int module = std::atoi(agnameof(c) + 8); // "cluster_<m>"
            boxf bb = GD_bb(c);
            LayoutCluster lc;
            lc.module = module;
            lc.box = {bb.LL.x, top - bb.UR.y, bb.UR.x - bb.LL.x, bb.UR.y - bb.LL.y};
            lc.label = moduleTitle(tree, r.graph, module);
            lc.depth = depth;
            r.clusters.push_back(std::move(lc));
            collectClusters(c, top, depth + 1);
        }
    }

    void readBack() {
        boxf bb = GD_bb(g);
        double top = bb.UR.y;
        r.bounds = {bb.LL.x, 0, bb.UR.x - bb.LL.x, bb.UR.y - bb.LL.y};
        r.boxes.resize(nodes.size());
        r.chips.assign(nodes.size(), {});
        for (size_t k = 0; k < nodes.size(); ++k) {
            pointf c = ND_coord(nodes[k]);
            double w = ND_width(nodes[k]) * 72.0, h = ND_height(nodes[k]) * 72.0;
            r.boxes[k] = {c.x - w / 2, top - c.y - h / 2, w, h};
            placeChips(r, k);
        }
        r.edges.resize(edges.size());
        for (size_t k = 0; k < edges.size(); ++k) {
            LayoutEdge& le = r.edges[k];
            le.edge = static_cast<int>(k);
            if (!readSpline(edges[k], top, le)) {
                // unrouted edge: a straight segment from bottom centre to top centre
                const auto& e = r.graph.edges[k];
                LRect a = r.boxes[static_cast<size_t>(e.from)], b = r.boxes[static_cast<size_t>(e.to)];
                LPoint p0{a.x + a.w / 2, a.y + a.h}, p1{b.x + b.w / 2, b.y - 6};
                le.points = {p0, p0, p1, p1};
                le.arrow = true;
                le.arrowTip = {b.x + b.w / 2, b.y};
            }
            le.labelPos = splineMidpoint(le.points);
        }
        collectClusters(g, top, 1);
    }
};

/// Runs dot on `g`; on failure closes `g` and says what failed ("a graph of 12 boxes").
Status layoutWithDot(GVC_t* gvc, Agraph_t* g, const std::string& what) {
    if (!gvc) {
        agclose(g);
        return Status::error("Graphviz could not be initialised (gvContext failed)");
    }
    if (gvLayout(gvc, g, "dot") != 0) {
        agclose(g);
        return Status::error("Graphviz 'dot' layout failed for " + what);
    }
    return Status::ok();
}

/// One local graph in Graphviz: boxes, and the ports pinned to the first and last rank.
struct LocalBuilder {
    const LocalGraph& in;
    Agraph_t* g = nullptr;
    std::vector<Agnode_t*> nodes;
    std::vector<Agedge_t*> edges;

    void build() {
        g = agopen(cs("local"), Agdirected, nullptr);
        const SizeAttrs sizes = setLayoutDefaults(g);
        // dot's old ranking (with the rank=min/max sets of the ports) crashed in decompose() after a
        // few hundred local runs in one process (tst_composed_layout::manyLayoutsInOneProcess);
        // newrank ranks the sets as constraints and does not
        agattr(g, AGRAPH, cs("newrank"), cs("true"));
        Agsym_t* arrowSym = agattr(g, AGEDGE, cs("arrowhead"), cs("normal"));
        Agraph_t* top = nullptr;
        Agraph_t* bottom = nullptr;
        nodes.resize(in.nodes.size());
        for (size_t k = 0; k < in.nodes.size(); ++k) {
            const auto& n = in.nodes[k];
            Agnode_t* an = sizedNode(g, sizes, k, n.w, n.h);
            if (n.role != LocalGraph::Role::Box) {
                // ports on the outer ranks: what enters comes in at the top, what leaves goes out at the bottom
                Agraph_t*& rank = n.role == LocalGraph::Role::InPort ? top : bottom;
                if (!rank) {
                    rank = agsubg(g, cs(n.role == LocalGraph::Role::InPort ? "in_ports" : "out_ports"), 1);
                    agsafeset(rank, cs("rank"), cs(n.role == LocalGraph::Role::InPort ? "min" : "max"), cs(""));
                }
                agsubnode(rank, an, 1);
            }
            nodes[k] = an;
        }
        edges.resize(in.edges.size());
        for (size_t k = 0; k < in.edges.size(); ++k) {
            const auto& e = in.edges[k];
            Agedge_t* ae = agedge(g, nodes[static_cast<size_t>(e.from)], nodes[static_cast<size_t>(e.to)], nullptr, 1);
            if (!e.arrow) agxset(ae, arrowSym, cs("none"));
            if (e.fromBottom) agsafeset(ae, cs("tailport"), cs("s"), cs(""));
            if (e.toTop) agsafeset(ae, cs("headport"), cs("n"), cs(""));
            edges[k] = ae;
        }
    }

    void readBack(LocalGeometry& out) {
        const boxf bb = GD_bb(g);
        const double top = bb.UR.y;
        out.w = bb.UR.x - bb.LL.x;
        out.h = bb.UR.y - bb.LL.y;
        out.nodes.resize(nodes.size());
        for (size_t k = 0; k < nodes.size(); ++k) {
            const pointf c = ND_coord(nodes[k]);
            const double w = in.nodes[k].w, h = in.nodes[k].h;
            out.nodes[k] = {c.x - bb.LL.x - w / 2, top - c.y - h / 2, w, h};
        }
        out.edges.resize(edges.size());
        for (size_t k = 0; k < edges.size(); ++k) {
            LayoutEdge& le = out.edges[k];
            le.edge = static_cast<int>(k);
            if (readSpline(edges[k], top, le)) {
                for (auto& p : le.points) p.x -= bb.LL.x;
                le.arrowTip.x -= bb.LL.x;
            }
        }
    }
};

} // namespace

LPoint splineMidpoint(const std::vector<LPoint>& points) {
    if (points.empty()) return {};
    const size_t segs = (points.size() - 1) / 3;
    return segs ? bezierPoint(points, segs / 2, segs % 2 ? 0.5 : 0.0) : points.front();
}

Status runLocalDot(const LocalGraph& graph, LocalGeometry& out) {
    LocalBuilder b{graph, nullptr, {}, {}};
    b.build();
    GVC_t* gvc = context();
    IRLENS_TRY(layoutWithDot(gvc, b.g, "a module of " + std::to_string(graph.nodes.size()) + " boxes"));
    b.readBack(out);
    gvFreeLayout(gvc, b.g);
    agclose(b.g);
    return Status::ok();
}

namespace {

/// Graphviz's drawing of laid-out `g` in `format`. Its bitmap renderer hands back nothing at all for a
/// drawing it cannot shrink to a bitmap's size, which must not pass for a picture.
Status renderData(GVC_t* gvc, Agraph_t* g, const std::string& format, std::string* rendered) {
    char* data = nullptr;
    unsigned int length = 0;
    Status status;
    if (gvRenderData(gvc, g, format.c_str(), &data, &length) != 0 || !data)
        status = Status::error("Graphviz cannot render format '" + format + "' on this machine");
    else if (length == 0)
        status = Status::error("Graphviz drew an empty " + format + " of this graph");
    else
        rendered->assign(data, length);
    if (data) gvFreeRenderData(data);
    return status;
}

std::string number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

/// Writes the geometry of `layout` into the attributes Graphviz's "nop2" engine keeps as they are
/// (positions in points, y up): node centres, edge splines, cluster and graph boxes.
void pinGeometry(Builder& b, const LayoutResult& layout) {
    const double height = layout.bounds.y + layout.bounds.h;
    auto point = [&](LPoint p) { return number(p.x) + "," + number(height - p.y); };
    auto box = [&](const LRect& r) {
        return number(r.x) + "," + number(height - r.y - r.h) + "," + number(r.x + r.w) + "," + number(height - r.y);
    };
    agsafeset(b.g, cs("bb"), cs(box({0, 0, layout.bounds.x + layout.bounds.w, height}).c_str()), cs(""));
    for (size_t k = 0; k < b.nodes.size(); ++k)
        agsafeset(b.nodes[k], cs("pos"), cs(point(layout.boxes[k].center()).c_str()), cs(""));
    for (const auto& c : layout.clusters)
        if (auto it = b.clusterGraph.find(c.module); it != b.clusterGraph.end())
            agsafeset(it->second, cs("bb"), cs(box(c.box).c_str()), cs(""));
    for (const auto& e : layout.edges) {
        std::string pos = e.arrow ? "e," + point(e.arrowTip) : std::string();
        for (const auto& p : e.points) pos += (pos.empty() ? "" : " ") + point(p);
        Agedge_t* edge = b.edges[static_cast<size_t>(e.edge)];
        agsafeset(edge, cs("pos"), cs(pos.c_str()), cs(""));
        // The label where the views draw it (its left end just right of labelPos, centred 1 point
        // above it, about 5 points a character). An unpinned xlabel is placed by Graphviz's own
        // search, which grew past 100 s and 5 GB on a 100,000-edge chain; a pinned one costs nothing.
        const std::string& label = layout.graph.edges[static_cast<size_t>(e.edge)].label;
        if (!label.empty())
            agsafeset(edge, cs("xlp"),
                      cs(point({e.labelPos.x + 3 + (static_cast<double>(label.size()) * 5.0 + 8) / 2, e.labelPos.y - 1}).c_str()),
                      cs(""));
    }
}

} // namespace

Status renderLaidOut(const LayoutResult& layout, const ModuleTree& tree, const Graph* source, const std::string& format,
                     std::string* rendered) {
    LayoutResult shell; // the Builder reads the graph only
    shell.graph = layout.graph;
    Builder b{shell, tree, source, true, nullptr, {}, {}, {}};
    b.build();
    pinGeometry(b, layout);
    GVC_t* gvc = context();
    if (!gvc || gvLayout(gvc, b.g, "nop2") != 0) {
        agclose(b.g);
        return Status::error("Graphviz cannot draw a laid-out graph on this machine (its 'nop2' engine is missing)");
    }
    const Status status = renderData(gvc, b.g, format, rendered);
    gvFreeLayout(gvc, b.g);
    agclose(b.g);
    return status;
}

void placeChips(LayoutResult& r, size_t itemIndex) {
    const auto& item = r.graph.items[itemIndex];
    const LRect& box = r.boxes[itemIndex];
    auto& out = r.chips[itemIndex];
    double x = 6, y = itemTextHeight(item);
    for (size_t c = 0; c < item.chips.size(); ++c) {
        double cw = chipWidth(item.chips[c]);
        if (x > 6 && x + cw > box.w - 6) {
            x = 6;
            y += kChipHeight + kChipGap;
        }
        out.push_back({static_cast<int>(c), {box.x + x, box.y + y, cw, kChipHeight}});
        x += cw + kChipGap;
    }
}

Status runDot(LayoutResult& result, const ModuleTree& tree, const Graph* source, bool decorated,
              const std::string& renderFormat, std::string* rendered) {
    auto t0 = std::chrono::steady_clock::now();
    Builder b{result, tree, source, decorated, nullptr, {}, {}, {}};
    b.build();
    GVC_t* gvc = context();
    IRLENS_TRY(layoutWithDot(gvc, b.g, "a graph of " + std::to_string(result.graph.items.size()) + " boxes"));
    b.readBack();
    Status status;
    if (!renderFormat.empty() && rendered) status = renderData(gvc, b.g, renderFormat, rendered);
    gvFreeLayout(gvc, b.g);
    agclose(b.g);
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return status;
}

} // namespace irlens::core::detail
