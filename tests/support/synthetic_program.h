#pragma once
// A small program built in test code: a stack of residual blocks with parameters and module stacks,
// shaped like the generated fixtures (used where no file is needed, and before a reader exists).

#include "core/ir/program.h"

#include <memory>
#include <string>

namespace irlens::testing {

inline core::Node makeNode(const std::string& name, const std::string& target, std::vector<std::string> inputs,
                           const std::string& moduleStack) {
    core::Node n;
    n.name = name;
    n.hasSerializedName = true;
    n.target = core::Target::parse(target);
    for (auto& in : inputs) n.inputs.push_back({"", core::Argument::tensor(in), 1});
    n.outputs.push_back(core::Argument::tensor(name));
    n.meta.raw["nn_module_stack"] = moduleStack;
    n.meta.raw["stack_trace"] = "  File \"/nonexistent/model.py\", line 12, in forward\n    return self.fc(x)";
    n.meta.parseFromRaw();
    return n;
}

inline core::TensorMeta meta(std::vector<int64_t> sizes) {
    core::TensorMeta m;
    for (auto s : sizes) m.sizes.push_back(core::SymInt::literal(s));
    int64_t stride = 1;
    m.strides.resize(sizes.size());
    for (size_t k = sizes.size(); k-- > 0;) { m.strides[k] = core::SymInt::literal(stride); stride *= sizes[k]; }
    return m;
}

/// `blocks` residual blocks under "layers" (each: linear -> relu -> add), then a "head" linear.
/// Each block has a weight parameter. Node count = 3 * blocks + 1.
inline core::ProgramPtr makeBlockStack(int blocks, int width = 16) {
    auto p = std::make_shared<core::Program>();
    auto& g = p->graph;
    const std::string root = "L__self__,,models.Stack;L__self__layers,layers,torch.nn.modules.container.Sequential;";
    auto addParam = [&](const std::string& value, const std::string& fqn) {
        g.inputs.push_back(core::Argument::tensor(value));
        g.tensorValues[value] = meta({width, width});
        core::InputSpec s;
        s.kind = core::InputKind::Parameter;
        s.arg = core::Argument::tensor(value);
        s.target = fqn;
        p->signature.inputSpecs.push_back(s);
    };
    for (int b = 0; b < blocks; ++b) addParam("p_layers_" + std::to_string(b) + "_fc_weight", "layers." + std::to_string(b) + ".fc.weight");
    addParam("p_head_weight", "head.weight");
    g.inputs.push_back(core::Argument::tensor("x"));
    g.tensorValues["x"] = meta({1, width});
    core::InputSpec user;
    user.arg = core::Argument::tensor("x");
    p->signature.inputSpecs.push_back(user);

    std::string prev = "x";
    for (int b = 0; b < blocks; ++b) {
        std::string k = std::to_string(b);
        std::string block = root + "L__self__layers." + k + ",layers." + k + ",models.Block";
        std::string fc = block + ";L__self__layers." + k + ".fc,layers." + k + ".fc,torch.nn.modules.linear.Linear";
        std::string mm = "mm_" + k, relu = "relu_" + k, add = "add_" + k;
        g.nodes.push_back(makeNode(mm, "torch.ops.aten.mm.default", {prev, "p_layers_" + k + "_fc_weight"}, fc));
        g.nodes.push_back(makeNode(relu, "torch.ops.aten.relu.default", {mm}, block));
        g.nodes.push_back(makeNode(add, "torch.ops.aten.add.Tensor", {relu, prev}, block));
        for (auto* v : {&mm, &relu, &add}) g.tensorValues[*v] = meta({1, width});
        prev = add;
    }
    g.nodes.push_back(makeNode("head", "torch.ops.aten.mm.default", {prev, "p_head_weight"},
                               "L__self__,,models.Stack;L__self__head,head,torch.nn.modules.linear.Linear"));
    g.tensorValues["head"] = meta({1, width});
    g.outputs.push_back(core::Argument::tensor("head"));
    core::OutputSpec out;
    out.arg = core::Argument::tensor("head");
    p->signature.outputSpecs.push_back(out);
    return p;
}

} // namespace irlens::testing
