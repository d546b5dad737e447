#include "core/ir/program.h"

namespace irlens::core {

const char* containerKindName(ContainerKind k) {
    switch (k) {
    case ContainerKind::Pt2Archive: return "PT2 archive";
    case ContainerKind::LegacyZip: return "legacy zip";
    case ContainerKind::Builder: return "built in code";
    }
    return "?";
}


bool Program::isTrainingDialect() const {
    for (const auto& v : verifiers)
        if (v == "TRAINING") return true;
    return false;
}

const TensorData* Program::stateTensorFor(const InputSpec& spec) const {
    switch (spec.kind) {
    case InputKind::Parameter:
    case InputKind::Buffer: {
        if (auto it = weights.find(spec.target); it != weights.end()) return &it->second;
        if (auto it = constants.find(spec.target); it != constants.end() && it->second.kind == Value::Kind::Tensor)
            return &it->second.tensor;
        return nullptr;
    }
    case InputKind::TensorConstant: {
        if (auto it = constants.find(spec.target); it != constants.end() && it->second.kind == Value::Kind::Tensor)
            return &it->second.tensor;
        if (auto it = weights.find(spec.target); it != weights.end()) return &it->second;
        return nullptr;
    }
    default:
        return nullptr;
    }
}

namespace {

std::string tensorDataDifference(const std::string& what, const TensorData& a, const TensorData& b) {
    if (a.dtype != b.dtype) return what + ": dtype " + dtypeName(a.dtype) + " vs " + dtypeName(b.dtype);
    if (a.sizes != b.sizes) return what + ": sizes differ";
    if (a.contiguousBytes() != b.contiguousBytes()) return what + ": bytes differ";
    return {};
}

std::string compareValues(const std::string& what, const Value& a, const Value& b) {
    if (a.kind != b.kind) return what + ": kind differs";
    switch (a.kind) {
    case Value::Kind::Tensor: return tensorDataDifference(what, a.tensor, b.tensor);
    case Value::Kind::Int: return a.i == b.i ? "" : what + ": int differs";
    case Value::Kind::Float: return a.f == b.f ? "" : what + ": float differs";
    case Value::Kind::Bool: return a.b == b.b ? "" : what + ": bool differs";
    case Value::Kind::String: case Value::Kind::Opaque: return a.s == b.s ? "" : what + ": text differs";
    case Value::Kind::None: return {};
    }
    return {};
}

} // namespace

std::string compareProgramsDetail(const Program& a, const Program& b) {
    if (a.graph.nodes.size() != b.graph.nodes.size())
        return "node count " + std::to_string(a.graph.nodes.size()) + " vs " + std::to_string(b.graph.nodes.size());
    for (size_t k = 0; k < a.graph.nodes.size(); ++k)
        if (!(a.graph.nodes[k] == b.graph.nodes[k])) return "node #" + std::to_string(k) + " '" + a.graph.nodes[k].name + "' differs";
    if (!(a.graph == b.graph)) return "graph inputs, outputs or value tables differ";
    if (!(a.signature == b.signature)) return "graph signature differs";
    if (a.rangeConstraints != b.rangeConstraints) return "range constraints differ";
    if (a.moduleCallGraph != b.moduleCallGraph) return "module call graph differs";
    if (a.verifiers != b.verifiers) return "verifiers differ";
    if (a.weights.size() != b.weights.size()) return "weight count differs";
    for (const auto& [name, t] : a.weights) {
        auto it = b.weights.find(name);
        if (it == b.weights.end()) return "weight '" + name + "' missing";
        if (auto d = tensorDataDifference("weight '" + name + "'", t, it->second); !d.empty()) return d;
    }
    if (a.constants.size() != b.constants.size()) return "constant count differs";
    for (const auto& [name, v] : a.constants) {
        auto it = b.constants.find(name);
        if (it == b.constants.end()) return "constant '" + name + "' missing";
        if (auto d = compareValues("constant '" + name + "'", v, it->second); !d.empty()) return d;
    }
    if (a.sampleArgs.size() != b.sampleArgs.size()) return "sample input count differs";
    for (size_t k = 0; k < a.sampleArgs.size(); ++k)
        if (auto d = compareValues("sample input " + std::to_string(k), a.sampleArgs[k], b.sampleArgs[k]); !d.empty())
            return d;
    return {};
}

} // namespace irlens::core
