#include "core/layout/svg_writer.h"

#include "core/io/text_util.h"
#include "core/layout/render_style.h"

#include <charconv>
#include <cmath>

namespace irlens::core {
namespace {

constexpr double kMargin = 4;       // around the drawing, as Graphviz leaves
constexpr double kLineHeight = 10;  // a 9-point label line, as Graphviz spaces them
constexpr double kArrowHalfWidth = 3;

class SvgOut {
public:
    explicit SvgOut(size_t reserve) { m_s.reserve(reserve); }

    SvgOut& operator<<(std::string_view text) {
        m_s += text;
        return *this;
    }
    /// A coordinate: two decimals at most, trailing zeros dropped ("12", "12.5", "-3.25").
    SvgOut& num(double v) {
        if (!std::isfinite(v)) v = 0;
        char buf[32];
        auto [end, ec] = std::to_chars(buf, buf + sizeof buf, std::round(v * 100) / 100, std::chars_format::fixed, 2);
        if (ec != std::errc()) return *this << "0";
        while (end > buf && end[-1] == '0') --end;
        if (end > buf && end[-1] == '.') --end;
        if (end == buf || (end == buf + 1 && buf[0] == '-')) return *this << "0";
        m_s.append(buf, end);
        return *this;
    }
    SvgOut& point(LPoint p) { return num(p.x + kMargin).text(",").num(p.y + kMargin); }
    /// Text content or an attribute value, XML-escaped.
    SvgOut& escaped(std::string_view text) {
        appendXmlEscaped(m_s, text);
        return *this;
    }
    SvgOut& text(std::string_view t) { return *this << t; }
    std::string take() { return std::move(m_s); }

private:
    std::string m_s;
};

void writeRect(SvgOut& out, const LRect& r, double radius, std::string_view attributes) {
    out << "<rect x=\"";
    out.num(r.x + kMargin) << "\" y=\"";
    out.num(r.y + kMargin) << "\" width=\"";
    out.num(r.w) << "\" height=\"";
    out.num(r.h) << "\" rx=\"";
    out.num(radius) << "\" " << attributes << "/>\n";
}

void writeCluster(SvgOut& out, const LayoutCluster& c) {
    out << "<g class=\"cluster\">\n";
    writeRect(out, c.box, 4, "fill=\"none\" stroke=\"black\"");
    out << "<text class=\"title\" x=\"";
    out.num(c.box.x + kMargin + 8) << "\" y=\"";
    out.num(c.box.y + kMargin + 13) << "\">";
    out.escaped(c.label) << "</text>\n</g>\n";
}

void writeItem(SvgOut& out, const VisibleItem& item, const LRect& box, const Graph* source) {
    out << "<g class=\"node\"><title>";
    out.escaped(item.id) << "</title>\n";
    std::string style = "fill=\"" + detail::itemFill(item, source) + "\" stroke=\"black\"";
    if (item.kind == VisibleItem::Kind::Module) style += " stroke-dasharray=\"5,2\"";
    writeRect(out, box, 6, style);
    if (item.isHop) // the second periphery Graphviz draws around a higher-order op
        writeRect(out, {box.x + 3, box.y + 3, box.w - 6, box.h - 6}, 4, "fill=\"none\" stroke=\"black\"");
    const std::string label = detail::itemLabel(item);
    size_t lines = 1;
    for (char c : label) lines += c == '\n';
    // lines centred as a block on the box's middle (baselines 7.2 points below each line's top)
    double baseline = box.y + box.h / 2 - static_cast<double>(lines) * kLineHeight / 2 + 7.2;
    for (size_t start = 0; start <= label.size();) {
        size_t end = label.find('\n', start);
        if (end == std::string::npos) end = label.size();
        out << "<text x=\"";
        out.num(box.x + box.w / 2 + kMargin) << "\" y=\"";
        out.num(baseline + kMargin) << "\">";
        out.escaped(std::string_view(label).substr(start, end - start)) << "</text>\n";
        baseline += kLineHeight;
        start = end + 1;
    }
    out << "</g>\n";
}

void writeEdge(SvgOut& out, const LayoutEdge& e, const std::string& label) {
    if (e.points.empty()) return;
    out << "<g class=\"edge\"><path d=\"M";
    out.point(e.points.front());
    for (size_t k = 1; k < e.points.size(); ++k) {
        out << ((k - 1) % 3 == 0 ? " C" : " ");
        out.point(e.points[k]);
    }
    out << "\"/>\n";
    if (e.arrow) {
        const LPoint base = e.points.back(), tip = e.arrowTip;
        const double dx = tip.x - base.x, dy = tip.y - base.y, len = std::hypot(dx, dy);
        const double nx = len > 0 ? -dy / len * kArrowHalfWidth : kArrowHalfWidth, ny = len > 0 ? dx / len * kArrowHalfWidth : 0;
        out << "<polygon points=\"";
        out.point(tip) << " ";
        out.point({base.x + nx, base.y + ny}) << " ";
        out.point({base.x - nx, base.y - ny}) << "\"/>\n";
    }
    if (!label.empty()) { // where the views draw it: from 3 points right of labelPos, centred on it
        out << "<text x=\"";
        out.num(e.labelPos.x + 3 + kMargin) << "\" y=\"";
        out.num(e.labelPos.y + 2.5 + kMargin) << "\">";
        out.escaped(label) << "</text>\n";
    }
    out << "</g>\n";
}

} // namespace

std::string writeLayoutSvg(const LayoutResult& layout, const Graph* source) {
    const double w = layout.bounds.x + layout.bounds.w + 2 * kMargin, h = layout.bounds.y + layout.bounds.h + 2 * kMargin;
    SvgOut out(layout.graph.items.size() * 420 + layout.edges.size() * 200 + 1024);
    out << "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"";
    out.num(w) << "pt\" height=\"";
    out.num(h) << "pt\" viewBox=\"0 0 ";
    out.num(w) << " ";
    out.num(h) << "\">\n";
    out << "<style>text{font-family:Helvetica,sans-Serif;font-size:9px}.node text{text-anchor:middle}"
           ".edge path{fill:none;stroke:black}.edge text{font-size:7px}</style>\n";
    out << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    for (const auto& c : layout.clusters) writeCluster(out, c);
    for (const auto& e : layout.edges) {
        const bool known = e.edge >= 0 && static_cast<size_t>(e.edge) < layout.graph.edges.size();
        writeEdge(out, e, known ? layout.graph.edges[static_cast<size_t>(e.edge)].label : std::string());
    }
    for (size_t k = 0; k < layout.graph.items.size() && k < layout.boxes.size(); ++k)
        writeItem(out, layout.graph.items[k], layout.boxes[k], source);
    out << "</svg>\n";
    return out.take();
}

} // namespace irlens::core
