#include "core/io/fx_printer.h"

#include "core/ir/fx_names.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <unordered_map>

namespace irlens::core {

std::string pythonFloatRepr(double value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
    if (value == 0) return std::signbit(value) ? "-0.0" : "0.0";
    // Shortest digits that read back to the same double (what Python's repr does).
    char buf[64];
    int precision = 1;
    for (; precision <= 17; ++precision) {
        std::snprintf(buf, sizeof buf, "%.*e", precision - 1, value);
        if (std::strtod(buf, nullptr) == value) break;
    }
    std::string text = buf;
    bool negative = text[0] == '-';
    if (negative) text.erase(0, 1);
    auto ePos = text.find('e');
    int exponent = std::atoi(text.c_str() + ePos + 1);
    std::string digits;
    for (size_t k = 0; k < ePos; ++k)
        if (text[k] != '.') digits += text[k];
    while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
    std::string out;
    if (exponent >= -4 && exponent < 16) {
        if (exponent < 0) {
            out = "0." + std::string(static_cast<size_t>(-exponent - 1), '0') + digits;
        } else if (static_cast<int>(digits.size()) <= exponent + 1) {
            out = digits + std::string(static_cast<size_t>(exponent + 1 - static_cast<int>(digits.size())), '0') + ".0";
        } else {
            out = digits.substr(0, static_cast<size_t>(exponent + 1)) + "." + digits.substr(static_cast<size_t>(exponent + 1));
        }
    } else {
        out = digits.substr(0, 1);
        if (digits.size() > 1) out += "." + digits.substr(1);
        char exp[16];
        std::snprintf(exp, sizeof exp, "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
        out += exp;
    }
    return negative ? "-" + out : out;
}

namespace {

// ---------------------------------------------------------------- FX nodes

struct FxArg {
    enum Kind { Ref, Text, List, Tuple, Dict } kind = Text;
    int ref = -1;
    std::string text;
    std::vector<FxArg> items;
    std::vector<std::string> keys; // Dict
    std::string repr;              // Text: Python's repr where it differs from str (strings, devices)
};

struct FxNode {
    std::string name;
    std::string op;     // placeholder, get_attr, call_function
    std::string target; // as printed
    std::vector<FxArg> args;
    std::vector<std::pair<std::string, FxArg>> kwargs;
    int users = 0;
};

FxArg text(std::string t) { FxArg a; a.text = std::move(t); return a; }

// Python's repr of a str: single quotes, backslash and quote escaped.
std::string pythonStringRepr(const std::string& s) {
    std::string out = "'";
    for (char c : s) {
        if (c == '\\' || c == '\'') out += '\\';
        if (c == '\n') { out += "\\n"; continue; }
        out += c;
    }
    return out + "'";
}

FxArg stringArg(const std::string& s) { FxArg a = text(s); a.repr = pythonStringRepr(s); return a; }

// repr(torch.device("cuda:0")) is device(type='cuda', index=0)
FxArg deviceArg(const std::string& d) {
    FxArg a = text(d);
    const auto colon = d.find(':');
    a.repr = colon == std::string::npos ? "device(type='" + d + "')"
                                        : "device(type='" + d.substr(0, colon) + "', index=" + d.substr(colon + 1) + ")";
    return a;
}

class GraphPrinter {
public:
    GraphPrinter(const Graph& graph, const Program* program, const FxPrintOptions& options)
        : m_graph(graph), m_program(program), m_options(options) {}

    std::string print(const std::string& title) {
        const FxArg ret = build();
        std::string s = "graph():";
        for (const auto& n : m_nodes) s += "\n    " + formatNode(n);
        s += "\n    return " + format(ret);
        s += "\n";
        if (!title.empty()) s = "\n# " + title + "\n" + s;
        if (m_options.printSubgraphs)
            for (const auto& [name, sub] : m_subgraphs)
                s += GraphPrinter(*sub, nullptr, m_options).print(title.empty() ? name : title + "." + name);
        return s;
    }

    /// Builds the FX nodes and the return value (for the text, the code and the table).
    FxArg build() {
        forEachFxNode(m_graph, m_program, [this](const FxGraphNode& fx) { addFxNode(fx); });
        FxArg ret = outputArg();
        countUsers(ret);
        return ret;
    }

    /// `GraphModule.code`'s forward() (torch/fx/graph.py CodeGen._gen_python_code).
    std::vector<FxLine> code() {
        const FxArg ret = build();
        const auto lastUses = lastUsesByUser(ret);
        std::vector<FxLine> out;
        std::string params;
        for (const auto& n : m_nodes)
            if (n.op == "placeholder") params += ", " + n.name;
        out.push_back({"def forward(self" + params + "):", ""});
        for (size_t k = 0; k < m_nodes.size(); ++k) {
            const FxNode& n = m_nodes[k];
            if (n.op == "placeholder") continue;
            std::string line = "    " + n.name + " = " + codeOf(n);
            std::vector<int> dead = lastUses[k];
            if (n.users == 0) dead.push_back(static_cast<int>(k)); // kept for a side effect: freed at once
            if (!dead.empty()) {
                line += ";  ";
                for (int d : dead) line += m_nodes[size_t(d)].name + " = ";
                line += "None";
            }
            out.push_back({std::move(line), n.name});
        }
        out.push_back({"    return " + format(ret, false, true), "output"});
        return out;
    }

    /// `graph.print_tabular()`: opcode, name, target, args, kwargs as tabulate's "simple" table.
    std::vector<FxLine> tabular() {
        const FxArg ret = build();
        std::vector<std::array<std::string, 5>> rows;
        std::vector<std::string> names;
        for (const auto& n : m_nodes) {
            rows.push_back({n.op, n.name, tabularTarget(n), format(argsTuple(n), false, true), format(kwargsDict(n), false, true)});
            names.push_back(n.name);
        }
        FxArg outArgs;
        outArgs.kind = FxArg::Tuple;
        outArgs.items = {ret};
        rows.push_back({"output", "output", "output", format(outArgs, false, true), "{}"});
        names.push_back("output");
        return tabulate({"opcode", "name", "target", "args", "kwargs"}, rows, names);
    }

private:
    // For each FX node, the values whose last use it is, in the order its arguments name them.
    std::vector<std::vector<int>> lastUsesByUser(const FxArg& ret) const {
        std::vector<std::vector<int>> byUser(m_nodes.size());
        std::vector<bool> seen(m_nodes.size(), false);
        std::vector<int> refs;
        orderedRefs(ret, refs);
        for (int r : refs) seen[size_t(r)] = true; // the return keeps them: never freed
        for (size_t k = m_nodes.size(); k-- > 0;) {
            refs.clear();
            for (const auto& a : m_nodes[k].args) orderedRefs(a, refs);
            for (const auto& [key, a] : m_nodes[k].kwargs) orderedRefs(a, refs);
            for (int r : refs) {
                if (seen[size_t(r)]) continue;
                seen[size_t(r)] = true;
                byUser[k].push_back(r);
            }
        }
        return byUser;
    }

    void orderedRefs(const FxArg& a, std::vector<int>& out) const {
        if (a.kind == FxArg::Ref && std::find(out.begin(), out.end(), a.ref) == out.end()) out.push_back(a.ref);
        for (const auto& i : a.items) orderedRefs(i, out);
    }

    // The right-hand side of a node's line: operators of the _operator module as Python operators.
    std::string codeOf(const FxNode& n) const {
        if (n.op == "get_attr") return "self." + n.target;
        static const std::map<std::string, std::string> binary = {
            {"add", " + "}, {"sub", " - "}, {"mul", " * "}, {"floordiv", " // "}, {"truediv", " / "}, {"mod", " % "},
            {"pow", " ** "}, {"lshift", " << "}, {"rshift", " >> "}, {"and_", " & "}, {"or_", " | "}, {"xor", " ^ "},
            {"eq", " == "}, {"ne", " != "}, {"lt", " < "}, {"gt", " > "}, {"le", " <= "}, {"ge", " >= "}, {"matmul", " @ "}};
        static const std::map<std::string, std::string> unary = {{"neg", "-"}, {"pos", "+"}, {"invert", "~"}};
        if (n.target.rfind("operator.", 0) == 0 && n.kwargs.empty()) {
            const std::string op = n.target.substr(9);
            if (op == "getitem" && n.args.size() == 2) return format(n.args[0], false, true) + "[" + format(n.args[1], false, true) + "]";
            if (auto b = binary.find(op); b != binary.end() && n.args.size() == 2)
                return format(n.args[0], false, true) + b->second + format(n.args[1], false, true);
            if (auto u = unary.find(op); u != unary.end() && n.args.size() == 1) return u->second + format(n.args[0], false, true);
        }
        std::string s;
        for (const auto& a : n.args) s += (s.empty() ? "" : ", ") + format(a, false, true);
        for (const auto& [k, v] : n.kwargs) s += (s.empty() ? "" : ", ") + k + " = " + format(v, false, true);
        return n.target + "(" + s + ")";
    }

    // str(node.target): an OpOverload prints without its torch.ops. prefix, a builtin as Python shows it.
    static std::string tabularTarget(const FxNode& n) {
        if (n.op != "call_function") return n.target;
        if (n.target.rfind("torch.ops.", 0) == 0) return n.target.substr(10);
        if (n.target.rfind("operator.", 0) == 0) return "<built-in function " + n.target.substr(9) + ">";
        return n.target;
    }

    // tabulate's "simple" format: each column as wide as its widest cell and at least its header plus
    // two, two spaces between columns, a dash rule under the headers; trailing blanks dropped.
    static std::vector<FxLine> tabulate(const std::array<std::string, 5>& headers, const std::vector<std::array<std::string, 5>>& rows,
                                        const std::vector<std::string>& names) {
        std::array<size_t, 5> width{};
        for (size_t c = 0; c < 5; ++c) {
            width[c] = headers[c].size() + 2;
            for (const auto& r : rows) width[c] = std::max(width[c], r[c].size());
        }
        auto join = [&](const std::array<std::string, 5>& cells) {
            std::string s;
            for (size_t c = 0; c < 5; ++c) s += (c ? "  " : "") + cells[c] + std::string(width[c] - std::min(width[c], cells[c].size()), ' ');
            while (!s.empty() && s.back() == ' ') s.pop_back();
            return s;
        };
        std::array<std::string, 5> rule;
        for (size_t c = 0; c < 5; ++c) rule[c] = std::string(width[c], '-');
        std::vector<FxLine> out = {{join(headers), ""}, {join(rule), ""}};
        for (size_t k = 0; k < rows.size(); ++k) out.push_back({join(rows[k]), names[k], rows[k][0] == "placeholder"});
        return out;
    }

    int addFx(FxNode n) {
        m_nodes.push_back(std::move(n));
        return static_cast<int>(m_nodes.size()) - 1;
    }

    // The printer's FX node for one node of the deserializer's FX graph (core/ir/fx_names.h).
    void addFxNode(const FxGraphNode& fx) {
        FxNode n;
        n.name = fx.name;
        n.op = "call_function";
        switch (fx.kind) {
        case FxGraphNode::Kind::Placeholder:
            n.op = "placeholder";
            n.target = fx.name;
            break;
        case FxGraphNode::Kind::GetAttr:
            n.op = "get_attr";
            n.target = fx.subgraph->s;
            // the latest get_attr of a name is the one the next call's arguments fetch
            m_getAttrs[fx.subgraph->s] = fx.index;
            if (fx.subgraph->graph()) m_subgraphs.emplace_back(fx.name, fx.subgraph->graph().get());
            break;
        case FxGraphNode::Kind::Call:
            n.target = targetText(fx.node->target);
            splitInputs(*fx.node, n);
            break;
        case FxGraphNode::Kind::GetItem:
            n.target = "operator.getitem";
            n.args = {nodeRef(fx.parent), text(std::to_string(fx.item))};
            break;
        }
        const int index = addFx(std::move(n));
        if (!fx.value.empty()) m_values[fx.value] = index;
    }

    static FxArg nodeRef(int index) {
        FxArg r;
        r.kind = FxArg::Ref;
        r.ref = index;
        return r;
    }

    FxArg convert(const Argument& a) {
        auto list = [&](FxArg::Kind kind) {
            FxArg out;
            out.kind = kind;
            for (const auto& e : a.list) out.items.push_back(convert(e));
            return out;
        };
        switch (a.kind) {
        case ArgKind::None: return text("None");
        case ArgKind::Tensor: case ArgKind::OptionalTensor: case ArgKind::CustomObj:
            if (a.kind == ArgKind::OptionalTensor && a.s.empty()) return text("None");
            return ref(a.s);
        case ArgKind::Int: case ArgKind::ScalarType: case ArgKind::MemoryFormat: case ArgKind::Layout:
            if (a.kind == ArgKind::ScalarType) return text("torch." + dtypeName(static_cast<ScalarType>(a.i)));
            if (a.kind == ArgKind::MemoryFormat) return text(memoryFormatName(static_cast<int>(a.i)));
            if (a.kind == ArgKind::Layout) return text(layoutName(static_cast<int>(a.i)));
            return text(std::to_string(a.i));
        case ArgKind::Float: return text(pythonFloatRepr(a.f));
        case ArgKind::Bool: return text(a.b ? "True" : "False");
        case ArgKind::String: return stringArg(a.s);
        case ArgKind::Complex: return text("(" + pythonFloatRepr(a.f) + (a.imag < 0 ? "-" : "+") + pythonFloatRepr(std::fabs(a.imag)) + "j)");
        case ArgKind::SymInt: case ArgKind::SymBool: case ArgKind::SymFloat:
            if (a.isName) return ref(a.s);
            if (a.kind == ArgKind::SymInt) return text(std::to_string(a.i));
            if (a.kind == ArgKind::SymBool) return text(a.b ? "True" : "False");
            return text(pythonFloatRepr(a.f));
        case ArgKind::Device: return deviceArg(a.device().toString());
        case ArgKind::Graph: {
            const auto getAttr = m_getAttrs.find(a.s);
            return getAttr == m_getAttrs.end() ? text(a.s) : nodeRef(getAttr->second);
        }
        case ArgKind::Operator: return text(Target::parse(a.s).kind == Target::Kind::Op ? Target::parse(a.s).shortName() : a.s);
        case ArgKind::StringToArgument: {
            FxArg d;
            d.kind = FxArg::Dict;
            for (const auto& e : a.list) {
                d.keys.push_back(e.key());
                Argument v = e;
                v.setKey({});
                d.items.push_back(convert(v));
            }
            return d;
        }
        case ArgKind::Opaque: return text(a.raw());
        default: return list(FxArg::List);
        }
    }

    FxArg ref(const std::string& valueName) {
        auto it = m_values.find(valueName);
        if (it == m_values.end()) return text("%" + valueName); // dangling: the verifier reports it
        return nodeRef(it->second);
    }

    static std::string targetText(const Target& t) {
        if (t.kind == Target::Kind::Symbolic) {
            // FX prints builtins of the _operator module as operator.<name>
            if (t.ns() == "_operator") return "operator." + t.op();
            return t.full;
        }
        return t.full;
    }

    void splitInputs(const Node& node, FxNode& fx) {
        const auto& t = node.target;
        if (t.kind == Target::Kind::HigherOrder) {
            for (const auto& in : node.inputs) {
                FxArg a = convert(in.arg);
                if (in.name.empty()) fx.args.push_back(std::move(a));
                else fx.kwargs.emplace_back(in.name, std::move(a));
            }
            return;
        }
        if (t.kind == Target::Kind::Symbolic) {
            for (const auto& in : node.inputs) fx.args.push_back(convert(in.arg));
            return;
        }
        const OpSchema* schema = m_options.schemaLookup ? m_options.schemaLookup(t) : nullptr;
        if (!schema) {
            for (const auto& in : node.inputs) {
                FxArg a = convert(in.arg);
                if (in.kind == ArgumentKind::Keyword) fx.kwargs.emplace_back(in.name, std::move(a));
                else fx.args.push_back(std::move(a));
            }
            return;
        }
        // The deserializer walks the schema: a recorded kind decides; otherwise required non-keyword-only
        // arguments are positional and the rest keywords.
        std::set<std::string> used;
        for (const auto& sa : schema->args) {
            const NamedArgument* in = node.input(sa.name);
            if (!in) continue;
            used.insert(sa.name);
            FxArg a = convert(in->arg);
            bool positional = in->kind == ArgumentKind::Positional || (in->kind != ArgumentKind::Keyword && !sa.defaultValue && !sa.kwargOnly);
            if (in->kind == ArgumentKind::Keyword && fxReservedName(sa.name) && !sa.defaultValue && !sa.kwargOnly) positional = true;
            if (positional) fx.args.push_back(std::move(a));
            else fx.kwargs.emplace_back(sa.name, std::move(a));
        }
        for (const auto& in : node.inputs) // arguments the schema does not name: keep them visible
            if (!used.count(in.name)) fx.kwargs.emplace_back(in.name, convert(in.arg));
    }

    FxArg outputArg() {
        FxArg ret;
        ret.kind = FxArg::Tuple;
        for (const auto& o : m_graph.outputs) ret.items.push_back(convert(o));
        if (m_graph.isSingleTensorReturn && ret.items.size() == 1) return ret.items[0];
        return ret;
    }

    void collectRefs(const FxArg& a, std::set<int>& out) const {
        if (a.kind == FxArg::Ref) out.insert(a.ref);
        for (const auto& i : a.items) collectRefs(i, out);
    }

    void countUsers(const FxArg& ret) {
        for (const auto& n : m_nodes) {
            std::set<int> refs;
            for (const auto& a : n.args) collectRefs(a, refs);
            for (const auto& [k, a] : n.kwargs) collectRefs(a, refs);
            for (int r : refs) ++m_nodes[r].users;
        }
        std::set<int> refs;
        collectRefs(ret, refs);
        for (int r : refs) ++m_nodes[r].users;
    }

    // torch/fx/node.py _format_arg, with Node reprs ("%name" inside args; bare names in `return`). With
    // `repr`, Python's repr of the values as code and str(tuple) show them: quoted strings and dict keys.
    std::string format(const FxArg& a, bool percent = false, bool repr = false) const {
        switch (a.kind) {
        case FxArg::Ref: return (percent ? "%" : "") + m_nodes[a.ref].name;
        case FxArg::Text: return repr && !a.repr.empty() ? a.repr : a.text;
        case FxArg::List: case FxArg::Tuple: {
            std::string s = a.kind == FxArg::List ? "[" : "(";
            for (size_t k = 0; k < a.items.size(); ++k) s += (k ? ", " : "") + format(a.items[k], percent, repr);
            if (a.kind == FxArg::Tuple && a.items.size() == 1) s += ",";
            return s + (a.kind == FxArg::List ? "]" : ")");
        }
        case FxArg::Dict: {
            std::string s = "{";
            for (size_t k = 0; k < a.items.size(); ++k)
                s += (k ? ", " : "") + (repr ? pythonStringRepr(a.keys[k]) : a.keys[k]) + ": " + format(a.items[k], percent, repr);
            return s + "}";
        }
        }
        return {};
    }

    static FxArg argsTuple(const FxNode& n) {
        FxArg args;
        args.kind = FxArg::Tuple;
        args.items = n.args;
        return args;
    }

    static FxArg kwargsDict(const FxNode& n) {
        FxArg kwargs;
        kwargs.kind = FxArg::Dict;
        for (const auto& [k, v] : n.kwargs) {
            kwargs.keys.push_back(k);
            kwargs.items.push_back(v);
        }
        return kwargs;
    }

    std::string formatNode(const FxNode& n) const {
        std::string head = "%" + n.name + " : [num_users=" + std::to_string(n.users) + "] = " + n.op + "[target=" + n.target + "]";
        if (n.op != "call_function") return head;
        return head + "(args = " + format(argsTuple(n), true) + ", kwargs = " + format(kwargsDict(n), true) + ")";
    }

    const Graph& m_graph;
    const Program* m_program;
    const FxPrintOptions& m_options;
    std::vector<FxNode> m_nodes;
    std::unordered_map<std::string, int> m_values; // serialized value name -> FX node
    std::unordered_map<std::string, int> m_getAttrs; // subgraph attribute -> its latest get_attr FX node
    std::vector<std::pair<std::string, const Graph*>> m_subgraphs;
};

} // namespace

std::string printFxGraph(const Program& program, const FxPrintOptions& options) {
    return GraphPrinter(program.graph, &program, options).print({});
}

std::string printFxGraph(const Graph& graph, const FxPrintOptions& options) {
    return GraphPrinter(graph, nullptr, options).print({});
}

std::vector<FxLine> printFxCode(const Program& program, const FxPrintOptions& options) {
    return GraphPrinter(program.graph, &program, options).code();
}

std::vector<FxLine> printFxCode(const Graph& graph, const FxPrintOptions& options) { return GraphPrinter(graph, nullptr, options).code(); }

std::vector<FxLine> printFxTabular(const Program& program, const FxPrintOptions& options) {
    return GraphPrinter(program.graph, &program, options).tabular();
}

std::vector<FxLine> printFxTabular(const Graph& graph, const FxPrintOptions& options) {
    return GraphPrinter(graph, nullptr, options).tabular();
}

} // namespace irlens::core
