#include "core/io/dot_export.h"

#include <map>
#include <set>

namespace irlens::core {

std::string dotEscape(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '"' || c == '\\') out += '\\';
        if (c == '\n') { out += "\\n"; continue; }
        if (static_cast<unsigned char>(c) < 0x20) continue;
        out += c;
    }
    return out;
}

namespace {

std::string valueShape(const Graph& g, const std::string& name) {
    if (const TensorMeta* m = g.tensorMeta(name)) return m->shortString();
    if (auto it = g.symIntValues.find(name); it != g.symIntValues.end()) return "SymInt " + it->second.toString();
    if (g.symBoolValues.count(name)) return "SymBool";
    if (g.symFloatValues.count(name)) return "SymFloat";
    return {};
}

std::string outputShapes(const Graph& g, const Node& n) {
    std::string out;
    for (const auto& name : n.outputNames()) {
        std::string s = valueShape(g, name);
        if (s.empty()) continue;
        out += (out.empty() ? "" : "\n") + s;
    }
    return out;
}

} // namespace

std::string exportDot(const Program& program, const DotOptions& options) {
    const Graph& g = program.graph;
    std::string dot = "digraph \"" + dotEscape(program.modelName) + "\" {\n";
    dot += "  rankdir=" + options.rankdir + ";\n";
    dot += "  node [fontname=\"Helvetica\", fontsize=10];\n  edge [fontname=\"Helvetica\", fontsize=8];\n";

    std::map<std::string, std::string> producer; // value name -> DOT node id
    for (size_t k = 0; k < g.inputs.size(); ++k) {
        std::vector<std::string> names;
        g.inputs[k].collectValueNames(names);
        if (names.empty()) continue;
        const InputSpec* spec = k < program.signature.inputSpecs.size() ? &program.signature.inputSpecs[k] : nullptr;
        bool isState = spec && spec->kind != InputKind::UserInput && spec->kind != InputKind::ConstantInput;
        if (!options.includePlaceholders || (isState && !options.includeWeights)) continue;
        std::string id = "in" + std::to_string(k);
        std::string label = names[0] + "\n" + (spec ? inputKindName(spec->kind) : "input");
        if (spec && !spec->target.empty()) label += " " + spec->target;
        std::string shape = valueShape(g, names[0]);
        if (!shape.empty()) label += "\n" + shape;
        dot += "  " + id + " [shape=ellipse, style=filled, fillcolor=\"" + (isState ? "#e8e8e8" : "#cfe8ff") +
               "\", label=\"" + dotEscape(label) + "\"];\n";
        for (const auto& n : names) producer[n] = id;
    }

    auto edge = [&](const std::string& value, const std::string& to, std::set<std::string>& seen) {
        auto it = producer.find(value);
        if (it == producer.end() || !seen.insert(value).second) return;
        std::string shape = valueShape(g, value);
        dot += "  " + it->second + " -> " + to + (shape.empty() ? "" : " [label=\"" + dotEscape(shape) + "\"]") + ";\n";
    };

    for (size_t k = 0; k < g.nodes.size(); ++k) {
        const Node& n = g.nodes[k];
        std::string id = "n" + std::to_string(k);
        std::string label = n.name + "\n" + n.target.shortName();
        std::string shapes = outputShapes(g, n);
        if (!shapes.empty()) label += "\n" + shapes;
        const char* fill = n.target.kind == Target::Kind::HigherOrder ? "#ffe0b0" : "#ffffff";
        dot += "  " + id + " [shape=box, style=\"rounded,filled\", fillcolor=\"" + fill + "\", label=\"" + dotEscape(label) + "\"];\n";
        std::set<std::string> seen;
        for (const auto& in : n.inputs) {
            std::vector<std::string> names;
            in.arg.collectValueNames(names);
            for (const auto& v : names) edge(v, id, seen);
        }
        for (const auto& v : n.outputNames()) producer[v] = id;
    }

    dot += "  output [shape=octagon, label=\"output\"];\n";
    std::set<std::string> seen;
    for (const auto& o : g.outputs) {
        std::vector<std::string> names;
        o.collectValueNames(names);
        for (const auto& v : names) edge(v, "output", seen);
    }
    dot += "}\n";
    return dot;
}

} // namespace irlens::core
