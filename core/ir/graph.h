#pragma once
// A graph: its nodes in order, inputs and outputs, and the tables of value metadata.

#include "core/ir/argument.h"
#include "core/ir/node_meta.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace irlens::core {

struct Node {
    std::string name;  // the serialized `name` if present, else derived from the first output
    Target target;
    std::vector<NamedArgument> inputs;
    std::vector<Argument> outputs;
    NodeMeta meta;
    std::optional<bool> isHopSingleTensorReturn;
    bool hasSerializedName = false;
    /// For nodes made by a decomposition step: the name of the node it replaced.
    std::string derivedFrom;

    const NamedArgument* input(const std::string& argName) const;
    /// Names of the values this node defines (tensor and sym outputs, list outputs flattened).
    std::vector<std::string> outputNames() const;
    /// One entry per output slot, as getitem indexes them: tensor lists flattened, "" for None or a
    /// slot that names no value.
    std::vector<std::string> outputSlots() const;
    bool operator==(const Node& o) const {
        return name == o.name && target == o.target && inputs == o.inputs && outputs == o.outputs &&
               meta == o.meta && isHopSingleTensorReturn == o.isHopSingleTensorReturn;
    }
};

struct CustomObjMeta {
    std::string name;
    std::string classFqn;
    bool operator==(const CustomObjMeta&) const = default;
};

struct Graph {
    std::vector<Argument> inputs;
    std::vector<Argument> outputs;
    std::vector<Node> nodes;
    std::map<std::string, TensorMeta> tensorValues;
    std::map<std::string, SymInt> symIntValues;
    std::map<std::string, SymBool> symBoolValues;
    std::map<std::string, SymFloat> symFloatValues;
    std::map<std::string, CustomObjMeta> customObjValues;
    bool isSingleTensorReturn = false;

    const TensorMeta* tensorMeta(const std::string& name) const {
        auto it = tensorValues.find(name);
        return it == tensorValues.end() ? nullptr : &it->second;
    }
    bool operator==(const Graph&) const = default;
};

} // namespace irlens::core
