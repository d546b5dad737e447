#include "core/ir/graph.h"

namespace irlens::core {

// ---------------------------------------------------------------- Node

const NamedArgument* Node::input(const std::string& argName) const {
    for (const auto& in : inputs)
        if (in.name == argName) return &in;
    return nullptr;
}

std::vector<std::string> Node::outputNames() const {
    std::vector<std::string> names;
    for (const auto& o : outputs) o.collectValueNames(names);
    return names;
}

std::vector<std::string> Node::outputSlots() const {
    std::vector<std::string> slots;
    for (const auto& o : outputs) {
        if (o.kind == ArgKind::Tensors || o.kind == ArgKind::OptionalTensors) {
            for (const auto& e : o.list) slots.push_back(e.kind == ArgKind::None ? std::string() : e.s);
        } else if (o.kind == ArgKind::Tensor || o.kind == ArgKind::SymInt || o.kind == ArgKind::OptionalTensor) {
            slots.push_back(o.s);
        } else {
            slots.emplace_back();
        }
    }
    return slots;
}

} // namespace irlens::core
