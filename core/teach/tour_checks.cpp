// The checks of the tour's tasks (the stops themselves are in tour_stops.cpp).
#include "core/teach/tour.h"

#include "core/ops/op_registry.h"

#include <algorithm>
#include <cctype>

namespace irlens::core::teach {

namespace {

std::string lowered(std::string s) {
    s.erase(0, s.find_first_not_of(" \t"));
    s.erase(s.find_last_not_of(" \t") + 1);
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

const Node* nodeNamed(const Program& p, const std::string& name) {
    for (const auto& n : p.graph.nodes)
        if (n.name == name) return &n;
    return nullptr;
}

const InputSpec* inputSpecOf(const Program& p, const std::string& value) {
    for (const auto& spec : p.signature.inputSpecs) {
        std::vector<std::string> names;
        spec.arg.collectValueNames(names);
        if (!names.empty() && names.front() == value) return &spec;
    }
    return nullptr;
}

bool hasSymbolicVal(const Graph& g, const Node& n) {
    for (const auto& v : n.outputNames())
        if (const TensorMeta* m = g.tensorMeta(v))
            for (const auto& s : m->sizes)
                if (s.isExpr()) return true;
    return false;
}

bool ranIn(const Node& n, const std::string& path) {
    if (!n.meta.moduleStack) return false;
    for (const auto& e : *n.meta.moduleStack)
        if (e.path == path) return true;
    return false;
}

std::string innermostModule(const Node& n) {
    if (!n.meta.moduleStack || n.meta.moduleStack->empty() || n.meta.moduleStack->back().path.empty()) return "the root module";
    return n.meta.moduleStack->back().path;
}

bool isInPlaceCall(const Node& n) {
    const OpInfo* info = OpRegistry::instance().find(n.target);
    return info && info->schema.isInplace();
}

// The node whose value the output spec of kind BUFFER_MUTATION with `target` names ("" for none).
std::string mutationProducer(const Program& p, const std::string& target) {
    for (const auto& spec : p.signature.outputSpecs) {
        if (spec.kind != OutputKind::BufferMutation || spec.target != target) continue;
        std::vector<std::string> names;
        spec.arg.collectValueNames(names);
        for (const auto& n : p.graph.nodes)
            for (const auto& v : n.outputNames())
                if (!names.empty() && v == names.front()) return n.name;
    }
    return {};
}

// The verdict of a task that asks for a selected node: `ok` says whether the node fits, `why` what it is.
template <class Fits, class Why>
TourVerdict judgeNode(const TourStop& stop, const TourState& state, Fits fits, Why why) {
    if (!state.program || !state.subgraphOf.empty()) return {};
    if (!state.selectedItem.empty())
        return {false, "That is a placeholder or the output, not a call_function node. " + std::string(stop.hint)};
    const Node* n = nodeNamed(*state.program, state.selectedNode);
    if (!n) return {};
    if (fits(*n)) return {true, {}};
    return {false, "Not " + n->name + ": " + why(*n) + ". " + stop.hint};
}

TourVerdict judgeAnswer(const TourStop& stop, const TourState& state) {
    if (!state.program || state.answer.empty()) return {};
    const auto expected = expectedAnswers(stop, *state.program);
    if (std::find(expected.begin(), expected.end(), lowered(state.answer)) != expected.end()) return {true, {}};
    return {false, "\"" + state.answer + "\" is not it. " + stop.hint};
}

TourVerdict judgeInput(const TourStop& stop, const TourState& state) {
    if (!state.program || !state.subgraphOf.empty()) return {};
    if (state.selectedItem.rfind("in:", 0) != 0) {
        if (!state.selectedNode.empty() || state.selectedItem == "out")
            return {false, "That is not a placeholder. " + std::string(stop.hint)};
        return {};
    }
    const std::string value = state.selectedItem.substr(3);
    const InputSpec* spec = inputSpecOf(*state.program, value);
    if (spec && stop.arg == std::string(inputKindName(spec->kind))) return {true, {}};
    return {false, "Not " + value + ": it is a " + (spec ? inputKindName(spec->kind) : "graph") + " input. " + stop.hint};
}

} // namespace

std::vector<std::string> expectedAnswers(const TourStop& stop, const Program& program) {
    if (stop.check != TourCheck::Answer) return {};
    const std::string arg = stop.arg;
    if (arg == "dialect") return {lowered(program.verifiers.empty() ? program.dialect : program.verifiers.front())};
    if (arg.rfind("count:", 0) == 0) {
        const std::string kind = arg.substr(6);
        size_t n = 0;
        for (const auto& spec : program.signature.inputSpecs) n += kind == inputKindName(spec.kind);
        return {std::to_string(n)};
    }
    if (arg.rfind("max:", 0) == 0) {
        auto it = program.rangeConstraints.find(arg.substr(4));
        if (it == program.rangeConstraints.end()) return {};
        if (!it->second.maxVal) return {"inf", "infinity", "oo", "∞", "none"};
        return {std::to_string(*it->second.maxVal)};
    }
    std::vector<std::string> out;
    if (arg.rfind("one of:", 0) == 0) {
        std::string rest = arg.substr(7);
        for (size_t start = 0; start <= rest.size();) {
            size_t comma = rest.find(',', start);
            if (comma == std::string::npos) comma = rest.size();
            out.push_back(lowered(rest.substr(start, comma - start)));
            start = comma + 1;
        }
    }
    return out;
}

TourVerdict checkStop(const TourStop& stop, const TourState& state) {
    const std::string arg = stop.arg;
    const Program* p = state.program;
    switch (stop.check) {
    case TourCheck::Answer: return judgeAnswer(stop, state);
    case TourCheck::SelectInputOfKind: return judgeInput(stop, state);
    case TourCheck::SelectNode:
        return judgeNode(stop, state, [&](const Node& n) { return n.name == arg; },
                         [](const Node& n) { return "it calls " + n.target.shortName(); });
    case TourCheck::SelectNodeWithTarget:
        return judgeNode(stop, state, [&](const Node& n) { return n.target.key() == arg; },
                         [](const Node& n) { return "it calls " + n.target.shortName(); });
    case TourCheck::SelectNodeWithKwargs:
        return judgeNode(stop, state,
                         [](const Node& n) {
                             return std::any_of(n.inputs.begin(), n.inputs.end(), [](const NamedArgument& a) { return a.kind == ArgumentKind::Keyword; });
                         },
                         [](const Node&) { return std::string("it passes every argument positionally (kwargs = {})"); });
    case TourCheck::SelectNodeInModule:
        return judgeNode(stop, state, [&](const Node& n) { return ranIn(n, arg); },
                         [](const Node& n) { return "it ran in " + innermostModule(n); });
    case TourCheck::SelectSymbolicNode:
        return judgeNode(stop, state, [p](const Node& n) { return hasSymbolicVal(p->graph, n); },
                         [](const Node&) { return std::string("every size of its val is a number"); });
    case TourCheck::SelectInPlaceNode:
        return judgeNode(stop, state, isInPlaceCall, [](const Node& n) { return n.target.shortName() + " returns a new value"; });
    case TourCheck::SelectMutationOf: {
        const std::string producer = p ? mutationProducer(*p, arg) : std::string();
        return judgeNode(stop, state, [&](const Node& n) { return !producer.empty() && n.name == producer; },
                         [&](const Node&) { return "its value is not what is written back to " + arg; });
    }
    case TourCheck::NodeDecomposed: return {p && !nodeNamed(*p, arg), {}};
    case TourCheck::EnterSubgraph: return {state.subgraphOf == arg, {}};
    case TourCheck::ShowRule: return {state.ruleShown == arg, {}};
    }
    return {};
}

} // namespace irlens::core::teach
