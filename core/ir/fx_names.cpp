#include "core/ir/fx_names.h"

#include <cctype>
#include <cstdlib>
#include <unordered_map>
#include <unordered_set>

namespace irlens::core {

bool fxReservedName(const std::string& name) {
    // Python keywords, builtins and FX's custom builtins: FX appends a suffix rather than shadow them.
    static const std::unordered_set<std::string> names = {
        "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def",
        "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda",
        "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
        "abs", "all", "any", "ascii", "bin", "bool", "breakpoint", "bytearray", "bytes", "callable", "chr",
        "classmethod", "compile", "complex", "copyright", "credits", "delattr", "dict", "dir", "divmod",
        "enumerate", "eval", "exec", "exit", "filter", "float", "format", "frozenset", "getattr", "globals",
        "hasattr", "hash", "help", "hex", "id", "input", "int", "isinstance", "issubclass", "iter", "len",
        "license", "list", "locals", "map", "max", "memoryview", "min", "next", "object", "oct", "open", "ord",
        "pow", "print", "property", "quit", "range", "repr", "reversed", "round", "set", "setattr", "slice",
        "sorted", "staticmethod", "str", "sum", "super", "tuple", "type", "vars", "zip",
        "inf", "nan", "NoneType", "torch", "device", "fx_pytree", "pytree"};
    return names.count(name) != 0;
}

namespace {

// torch/fx/graph.py _Namespace.create_name (the torch 2.5+ form): a name "base" or "base_<n>"; a taken
// or builtin-shadowing candidate gets the next free suffix.
class FxNameSpace {
public:
    std::string create(std::string candidate) {
        std::string base, digits;
        if (!split(candidate, base, digits)) {
            for (auto& c : candidate)
                if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) c = '_';
            if (candidate.empty()) candidate = "_unnamed";
            if (std::isdigit(static_cast<unsigned char>(candidate[0]))) candidate = "_" + candidate;
            split(candidate, base, digits);
        }
        long suffix = 0;
        if (digits.empty() || m_used.count(candidate)) {
            auto it = m_baseCount.find(candidate);
            suffix = it == m_baseCount.end() ? 0 : it->second;
            if (fxReservedName(candidate)) candidate = base + "_" + std::to_string(++suffix);
        } else {
            suffix = std::atol(digits.c_str());
        }
        while (m_used.count(candidate)) candidate = base + "_" + std::to_string(++suffix);
        m_used.insert(candidate);
        m_baseCount[base] = suffix;
        return candidate;
    }

private:
    // ^([a-zA-Z_][0-9a-zA-Z_]*?)(?:_(\d+))?$
    static bool split(const std::string& candidate, std::string& base, std::string& digits) {
        if (candidate.empty() || !(std::isalpha(static_cast<unsigned char>(candidate[0])) || candidate[0] == '_')) return false;
        for (char ch : candidate)
            if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_')) return false;
        base = candidate;
        digits.clear();
        auto underscore = candidate.rfind('_');
        if (underscore != std::string::npos && underscore >= 1 && underscore + 1 < candidate.size() &&
            candidate.find_first_not_of("0123456789", underscore + 1) == std::string::npos) {
            base = candidate.substr(0, underscore);
            digits = candidate.substr(underscore + 1);
        }
        return true;
    }

    std::unordered_set<std::string> m_used;
    std::unordered_map<std::string, long> m_baseCount;
};

// torch/fx/graph.py _snake_case: lower-cases, '_' before an upper-case letter that follows a lower-case one.
std::string snakeCase(const std::string& s) {
    std::string out;
    bool prevLower = false;
    for (char c : s) {
        bool upper = std::isupper(static_cast<unsigned char>(c));
        if (prevLower && upper) out += '_';
        out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        prevLower = std::islower(static_cast<unsigned char>(c));
    }
    return out;
}

bool isSymOutput(const Argument& output) {
    return (output.kind == ArgKind::SymInt || output.kind == ArgKind::SymBool || output.kind == ArgKind::SymFloat) &&
           output.isName;
}

class FxGraphWalk {
public:
    FxGraphWalk(const Graph& graph, const Program* program, const std::function<void(const FxGraphNode&)>& visit)
        : m_graph(graph), m_program(program), m_visit(visit) {}

    void run() {
        for (size_t k = 0; k < m_graph.inputs.size(); ++k) addPlaceholder(k);
        for (const Node& node : m_graph.nodes) {
            for (const NamedArgument& in : node.inputs) addGetAttrs(in.arg);
            addCall(node);
        }
    }

private:
    int emit(FxGraphNode& fx) {
        fx.index = m_count++;
        m_visit(fx);
        return fx.index;
    }

    void addPlaceholder(size_t k) {
        std::vector<std::string> names;
        m_graph.inputs[k].collectValueNames(names);
        std::string name;
        if (!names.empty()) name = names[0];
        else if (m_program && k < m_program->signature.inputSpecs.size()) name = m_program->signature.inputSpecs[k].name;
        if (name.empty()) name = "arg" + std::to_string(k);
        m_names.create(name); // the deserializer then forces the serialized name back
        FxGraphNode fx;
        fx.kind = FxGraphNode::Kind::Placeholder;
        fx.name = name;
        fx.graphInput = static_cast<int>(k);
        fx.value = name;
        emit(fx);
    }

    // The subgraphs a node takes, wherever they sit in its arguments, in argument order.
    void addGetAttrs(const Argument& arg) {
        if (arg.kind == ArgKind::Graph) {
            FxGraphNode fx;
            fx.kind = FxGraphNode::Kind::GetAttr;
            fx.name = m_names.create(arg.s);
            fx.subgraph = &arg;
            emit(fx);
            return;
        }
        for (const Argument& item : arg.list) addGetAttrs(item);
    }

    void addCall(const Node& node) {
        FxGraphNode fx;
        fx.kind = FxGraphNode::Kind::Call;
        fx.node = &node;
        const auto& outs = node.outputs;
        const Target& target = node.target;
        // A HOP's lone tensor output is the node itself only when the file says so; otherwise (false or
        // absent, which current loaders treat alike) the HOP returned a one-element tuple and gets a getitem.
        const bool singleTensor = outs.size() == 1 && outs[0].kind == ArgKind::Tensor &&
                                  (target.kind != Target::Kind::HigherOrder || node.isHopSingleTensorReturn.value_or(false));
        const bool singleSym = outs.size() == 1 && isSymOutput(outs[0]);
        // Symbolic (_operator.*) nodes are named after their output; an op overload returning a SymInt
        // (sym_size.int) is not a single-tensor return, so FX names it after the op unless the file named it.
        if (singleSym && target.kind == Target::Kind::Op) {
            fx.name = m_names.create(node.hasSerializedName ? node.name : snakeCase(target.op() + "." + target.overload()));
            fx.value = outs[0].s;
            emit(fx);
            return;
        }
        if (singleTensor || singleSym) {
            fx.name = m_names.create(outs[0].s);
            fx.value = outs[0].s;
            emit(fx);
            return;
        }
        const bool noValue = outs.empty() || (outs.size() == 1 && outs[0].kind == ArgKind::None);
        std::string candidate = node.name;
        if (!node.hasSerializedName || noValue) {
            // FX names the node after its target: "native_layer_norm.default" -> native_layer_norm_default
            candidate = target.kind == Target::Kind::Op ? snakeCase(target.op() + "." + target.overload())
                                                        : snakeCase(target.op().empty() ? target.full : target.op());
        }
        fx.name = m_names.create(candidate);
        const int self = emit(fx);
        if (noValue) return;
        if (outs.size() == 1 && outs[0].isList()) addGetItems(self, outs[0].list);
        else addGetItems(self, outs);
    }

    void addGetItems(int parent, const std::vector<Argument>& outputs) {
        for (size_t position = 0; position < outputs.size(); ++position) {
            const Argument& output = outputs[position];
            if (output.kind == ArgKind::None || (output.kind == ArgKind::OptionalTensor && output.s.empty())) continue;
            FxGraphNode fx;
            fx.kind = FxGraphNode::Kind::GetItem;
            fx.parent = parent;
            fx.item = position;
            if (output.isList()) {
                fx.name = m_names.create("getitem");
                addGetItems(emit(fx), output.list);
                continue;
            }
            std::vector<std::string> names;
            output.collectValueNames(names);
            if (names.empty()) continue;
            fx.name = m_names.create(names[0]);
            fx.value = names[0];
            emit(fx);
        }
    }

    const Graph& m_graph;
    const Program* m_program;
    const std::function<void(const FxGraphNode&)>& m_visit;
    FxNameSpace m_names;
    int m_count = 0;
};

} // namespace

void forEachFxNode(const Graph& graph, const Program* program, const std::function<void(const FxGraphNode&)>& visit) {
    FxGraphWalk(graph, program, visit).run();
}

std::vector<std::string> fxNodeNames(const Graph& graph) {
    std::vector<std::string> names;
    names.reserve(graph.nodes.size());
    forEachFxNode(graph, nullptr, [&names](const FxGraphNode& fx) {
        if (fx.kind == FxGraphNode::Kind::Call) names.push_back(fx.name);
    });
    return names;
}

std::map<std::string, std::string> fxValueNames(const Program& program) {
    std::map<std::string, std::string> names;
    forEachFxNode(program.graph, &program, [&names](const FxGraphNode& fx) {
        if (!fx.value.empty()) names[fx.value] = fx.name;
    });
    return names;
}

} // namespace irlens::core
