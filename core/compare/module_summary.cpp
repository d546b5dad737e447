// The per-module side of a comparison: op counts of every module (its descendants included) and its
// parameters' shapes and dtypes, listed where the two programs differ.
#include "core/compare/match_builder.h"

#include <algorithm>
#include <map>
#include <set>

namespace irlens::core {
namespace {

struct ModuleCounts {
    int nodes = 0;
    std::map<std::string, int> ops; // short op name -> count
};

/// Every module path a node sits in (each prefix of its stack), with inclusive op counts.
std::map<std::string, ModuleCounts> countByModule(const Program& p) {
    std::map<std::string, ModuleCounts> out;
    for (const auto& n : p.graph.nodes) {
        const std::string op = n.target.shortName();
        std::set<std::string> paths{""};
        if (n.meta.moduleStack)
            for (const auto& e : *n.meta.moduleStack) paths.insert(e.path);
        for (const auto& path : paths) {
            auto& c = out[path];
            ++c.nodes;
            ++c.ops[op];
        }
    }
    return out;
}

/// Parameter and buffer FQN -> "f32[128, 512]".
std::map<std::string, std::string> stateShapes(const Program& p) {
    std::map<std::string, std::string> out;
    for (const auto& spec : p.signature.inputSpecs) {
        if (spec.kind != InputKind::Parameter && spec.kind != InputKind::Buffer) continue;
        const TensorMeta* m = spec.arg.kind == ArgKind::Tensor ? p.graph.tensorMeta(spec.arg.s) : nullptr;
        out[spec.target] = m ? m->shortString() : "?";
    }
    return out;
}

std::string moduleOfParam(const std::string& fqn) {
    auto dot = fqn.rfind('.');
    return dot == std::string::npos ? std::string() : fqn.substr(0, dot);
}

void addParamDiffs(const Program& left, const Program& right, std::map<std::string, ModuleDiff>& diffs) {
    const auto ls = stateShapes(left), rs = stateShapes(right);
    std::set<std::string> names;
    for (const auto& [k, v] : ls) names.insert(k);
    for (const auto& [k, v] : rs) names.insert(k);
    for (const auto& fqn : names) {
        auto a = ls.find(fqn), b = rs.find(fqn);
        std::string sa = a == ls.end() ? "" : a->second, sb = b == rs.end() ? "" : b->second;
        if (sa == sb) continue;
        auto& d = diffs[moduleOfParam(fqn)];
        d.path = moduleOfParam(fqn);
        d.params.push_back({fqn, sa, sb});
    }
}

std::string describeValue(const Graph& g, const Argument& a) {
    if (a.kind != ArgKind::Tensor) return std::to_string(static_cast<int>(a.kind));
    const TensorMeta* m = g.tensorMeta(a.s);
    return m ? m->shortString() : "tensor";
}

} // namespace

std::vector<ModuleDiff> summarizeModules(const Program& left, const Program& right) {
    const auto lc = countByModule(left), rc = countByModule(right);
    std::map<std::string, ModuleDiff> diffs;
    std::set<std::string> paths;
    for (const auto& [k, v] : lc) paths.insert(k);
    for (const auto& [k, v] : rc) paths.insert(k);
    static const ModuleCounts none;
    for (const auto& path : paths) {
        auto a = lc.find(path), b = rc.find(path);
        const ModuleCounts& ca = a == lc.end() ? none : a->second;
        const ModuleCounts& cb = b == rc.end() ? none : b->second;
        std::map<std::string, std::pair<int, int>> ops;
        for (const auto& [op, n] : ca.ops) ops[op].first = n;
        for (const auto& [op, n] : cb.ops) ops[op].second = n;
        for (auto it = ops.begin(); it != ops.end();) it = it->second.first == it->second.second ? ops.erase(it) : std::next(it);
        if (ops.empty()) continue;
        ModuleDiff& d = diffs[path];
        d.path = path;
        d.opCounts = std::move(ops);
    }
    addParamDiffs(left, right, diffs);
    std::vector<ModuleDiff> out;
    for (auto& [path, d] : diffs) {
        auto a = lc.find(path), b = rc.find(path);
        d.leftNodes = a == lc.end() ? 0 : a->second.nodes;
        d.rightNodes = b == rc.end() ? 0 : b->second.nodes;
        d.onLeft = a != lc.end() || std::any_of(d.params.begin(), d.params.end(), [](const ParamDiff& p) { return !p.left.empty(); });
        d.onRight = b != rc.end() || std::any_of(d.params.begin(), d.params.end(), [](const ParamDiff& p) { return !p.right.empty(); });
        out.push_back(std::move(d));
    }
    return out;
}

std::vector<std::string> compareSignatures(const Program& left, const Program& right) {
    auto userValues = [](const Program& p, bool inputs) {
        std::vector<std::string> out;
        if (inputs) {
            for (const auto& s : p.signature.inputSpecs)
                if (s.kind == InputKind::UserInput) out.push_back(describeValue(p.graph, s.arg));
        } else {
            for (const auto& s : p.signature.outputSpecs)
                if (s.kind == OutputKind::UserOutput) out.push_back(describeValue(p.graph, s.arg));
        }
        return out;
    };
    std::vector<std::string> notes;
    for (bool inputs : {true, false}) {
        auto a = userValues(left, inputs), b = userValues(right, inputs);
        const char* what = inputs ? "user input" : "user output";
        if (a.size() != b.size()) {
            notes.push_back(std::to_string(a.size()) + " " + what + "s on the left, " + std::to_string(b.size()) + " on the right");
            continue;
        }
        for (size_t k = 0; k < a.size(); ++k)
            if (a[k] != b[k]) notes.push_back(std::string(what) + " " + std::to_string(k) + ": " + a[k] + " -> " + b[k]);
    }
    return notes;
}

} // namespace irlens::core
