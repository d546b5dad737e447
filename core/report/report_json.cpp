#include "core/report/report_json.h"

#include "core/io/fx_printer.h"
#include "core/ir/fx_names.h"
#include "core/io/signature_printer.h"
#include "core/layout/module_fold.h"
#include "core/layout/module_tree.h"
#include "core/layout/visible_graph.h"
#include "core/ops/op_family.h"

#include <cstdio>
#include <unordered_map>

namespace irlens::core::detail {
namespace {

const char* inputKindText(InputKind kind) {
    switch (kind) {
    case InputKind::UserInput: return "user input";
    case InputKind::Parameter: return "parameter";
    case InputKind::Buffer: return "buffer";
    case InputKind::TensorConstant: return "constant";
    case InputKind::CustomObj: return "object";
    case InputKind::Token: return "token";
    case InputKind::ConstantInput: return "constant input";
    }
    return "input";
}

std::string colorText(unsigned rgb) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "#%06x", rgb & 0xffffff);
    return buf;
}

// Where each graph value comes from: a node (index >= 0) or a graph input (-(input + 1)).
class ValueSources {
public:
    explicit ValueSources(const Graph& graph) {
        for (size_t k = 0; k < graph.inputs.size(); ++k) {
            std::vector<std::string> names;
            graph.inputs[k].collectValueNames(names);
            for (const auto& n : names) m_source.emplace(n, -static_cast<int>(k) - 1);
        }
        for (size_t i = 0; i < graph.nodes.size(); ++i)
            for (const auto& n : graph.nodes[i].outputNames()) m_source.emplace(n, static_cast<int>(i));
    }
    // The distinct sources of the values an argument list reads, in order.
    template <class Args, class Get>
    nlohmann::json sourcesOf(const Args& args, Get argument) const {
        nlohmann::json out = nlohmann::json::array();
        std::vector<std::string> names;
        for (const auto& a : args) argument(a).collectValueNames(names);
        std::vector<int> seen;
        for (const auto& n : names) {
            auto it = m_source.find(n);
            if (it == m_source.end() || std::find(seen.begin(), seen.end(), it->second) != seen.end()) continue;
            seen.push_back(it->second);
            out.push_back(it->second);
        }
        return out;
    }

private:
    std::unordered_map<std::string, int> m_source;
};

std::string valuesText(const Graph& graph, const Node& node) {
    std::string text;
    for (const auto& name : node.outputNames()) {
        std::string label = valueLabel(graph, name);
        if (label.empty()) continue;
        text += (text.empty() ? "" : "\n") + name + ": " + label;
    }
    return text;
}

nlohmann::json modulesJson(const Program& program, const ModuleTree& tree) {
    const ModuleFolds folds = ModuleFolds::detect(program.graph, &program.signature, tree);
    nlohmann::json modules = nlohmann::json::array();
    for (int m = 0; m < tree.size(); ++m) {
        const ModuleInfo& info = tree.module(m);
        modules.push_back({{"p", m == 0 ? std::string() : info.label()}, {"t", info.shortType()}, {"ty", info.type},
                           {"up", info.parent}, {"ch", info.children}, {"tn", info.totalNodes}});
    }
    // A run of identical siblings is drawn once: the first instance stands for the others.
    for (const ModuleFold& fold : folds.folds()) {
        if (!fold.drawnOnce(2)) continue;
        const int shown = fold.representative();
        std::vector<std::string> names;
        for (int instance : fold.instances) names.push_back(tree.module(instance).label());
        modules[static_cast<size_t>(shown)]["fold"] = names;
        for (size_t k = 1; k < fold.instances.size(); ++k) modules[static_cast<size_t>(fold.instances[k])]["by"] = shown;
    }
    return modules;
}

} // namespace

nlohmann::json programJson(const Program& program) {
    const Graph& graph = program.graph;
    const ModuleTree tree = ModuleTree::build(graph);
    const ValueSources sources(graph);
    const std::vector<std::string> fxNames = fxNodeNames(graph);
    std::unordered_map<std::string, std::string> codeOf;
    FxPrintOptions fx;
    fx.printSubgraphs = false;
    for (const FxLine& line : printFxCode(program, fx))
        if (!line.node.empty()) codeOf[line.node] += (codeOf[line.node].empty() ? "" : "\n") + line.text;

    nlohmann::json families = nlohmann::json::array();
    for (int f = 0; f <= static_cast<int>(OpFamily::Other); ++f)
        families.push_back({{"n", opFamilyName(static_cast<OpFamily>(f))}, {"c", colorText(opFamilyColor(static_cast<OpFamily>(f)))}});

    std::unordered_map<const std::string*, int> traceIndex;
    nlohmann::json traces = nlohmann::json::array();
    nlohmann::json nodes = nlohmann::json::array();
    for (size_t i = 0; i < graph.nodes.size(); ++i) {
        const Node& node = graph.nodes[i];
        nlohmann::json n = {{"n", node.name},
                            {"t", node.target.full},
                            {"k", node.target.op().empty() ? node.target.shortName() : node.target.op()},
                            {"f", static_cast<int>(opFamilyOf(node.target))},
                            {"m", tree.moduleOfNode(static_cast<int>(i))},
                            {"i", sources.sourcesOf(node.inputs, [](const NamedArgument& a) -> const Argument& { return a.arg; })}};
        if (std::string v = valuesText(graph, node); !v.empty()) n["v"] = v;
        if (auto code = codeOf.find(fxNames[i]); code != codeOf.end()) n["c"] = code->second;
        if (const auto& trace = node.meta.stackTrace; trace && !trace->empty()) {
            auto [it, fresh] = traceIndex.emplace(trace.get(), static_cast<int>(traces.size()));
            if (fresh) traces.push_back(*trace);
            n["s"] = it->second;
        }
        if (opFamilyOf(node.target) == OpFamily::HigherOrder) n["h"] = 1;
        nodes.push_back(std::move(n));
    }

    nlohmann::json inputs = nlohmann::json::array();
    for (size_t k = 0; k < graph.inputs.size(); ++k) {
        std::vector<std::string> names;
        graph.inputs[k].collectValueNames(names);
        const std::string name = names.empty() ? graph.inputs[k].s : names.front();
        nlohmann::json in = {{"n", name}, {"kind", "user input"}};
        if (k < program.signature.inputSpecs.size()) {
            const InputSpec& spec = program.signature.inputSpecs[k];
            in["kind"] = inputKindText(spec.kind);
            if (!spec.target.empty()) in["target"] = spec.target;
        }
        if (std::string v = valueLabel(graph, name); !v.empty()) in["v"] = v;
        inputs.push_back(std::move(in));
    }

    nlohmann::json info = {{"schema", program.schemaVersion.toString()},
                           {"torch", program.torchVersion},
                           {"model", program.modelName},
                           {"nodes", graph.nodes.size()},
                           {"inputs", graph.inputs.size()}};
    if (!program.verifiers.empty()) info["dialect"] = program.verifiers.front();
    else if (!program.dialect.empty()) info["dialect"] = program.dialect;

    return {{"info", info},
            {"families", families},
            {"nodes", nodes},
            {"inputs", inputs},
            {"outputs", sources.sourcesOf(graph.outputs, [](const Argument& a) -> const Argument& { return a; })},
            {"modules", modulesJson(program, tree)},
            {"traces", traces},
            {"signature", printSignature(program)}};
}

} // namespace irlens::core::detail
