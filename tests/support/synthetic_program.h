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
    for (auto& in : inputs) n.inputs.push_back({"", core::Argument::tensor(in), core::ArgumentKind::Positional});
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

/// `blocks` transformer-like blocks under "layers" (16 nodes each: layer norm, q/k/v projections,
/// scores, softmax, attention output, residual add, layer norm, an MLP with gelu, residual add), with
/// the nn_module_stack torch.export writes (Block > Attention / MLP > Linear / LayerNorm) and a
/// weight parameter per Linear. Shapes are [8, 16] throughout ([16, 8] transposed, [8, 8] scores).
/// Node count = 16 * blocks + 1 (a head).
inline core::ProgramPtr makeTransformerStack(int blocks) {
    auto p = std::make_shared<core::Program>();
    auto& g = p->graph;
    const std::string root = "L__self__,,models.Stack;L__self__layers,layers,torch.nn.modules.container.Sequential;";
    auto addInput = [&](const std::string& value, std::vector<int64_t> shape, core::InputKind kind, const std::string& fqn) {
        g.inputs.push_back(core::Argument::tensor(value));
        g.tensorValues[value] = meta(std::move(shape));
        core::InputSpec s;
        s.kind = kind;
        s.arg = core::Argument::tensor(value);
        s.target = fqn;
        p->signature.inputSpecs.push_back(s);
    };
    addInput("x", {8, 16}, core::InputKind::UserInput, "");
    std::string prev = "x";
    for (int b = 0; b < blocks; ++b) {
        const std::string k = std::to_string(b), path = "layers." + k;
        const std::string block = root + "L__self__layers." + k + "," + path + ",models.Block";
        auto sub = [&](const std::string& stack, const std::string& name, const std::string& type) {
            return stack + ";L__self__" + path + "." + name + "," + path + "." + name + "," + type;
        };
        const std::string attn = sub(block, "attn", "models.Attention"), mlp = sub(block, "mlp", "models.MLP");
        auto add = [&](const std::string& op, const std::string& target, std::vector<std::string> in,
                       const std::string& stack, std::vector<int64_t> shape = {8, 16}) {
            const std::string name = op + "_" + k;
            g.nodes.push_back(makeNode(name, target, std::move(in), stack));
            g.tensorValues[name] = meta(std::move(shape));
            return name;
        };
        auto linear = [&](const std::string& owner, const std::string& ownerStack, const std::string& name, const std::string& in) {
            const std::string fqn = path + "." + (owner.empty() ? "" : owner + ".") + name;
            std::string value = "p_" + fqn + "_weight";
            for (auto& c : value) if (c == '.') c = '_';
            addInput(value, {16, 16}, core::InputKind::Parameter, fqn + ".weight");
            const std::string stack = ownerStack + ";L__self__" + fqn + "," + fqn + ",torch.nn.modules.linear.Linear";
            return add(name, "torch.ops.aten.mm.default", {in, value}, stack);
        };
        const std::string ln1 = add("ln1", "torch.ops.aten.layer_norm.default", {prev}, sub(block, "ln1", "torch.nn.modules.normalization.LayerNorm"));
        const std::string q = linear("attn", attn, "q_proj", ln1), kk = linear("attn", attn, "k_proj", ln1), v = linear("attn", attn, "v_proj", ln1);
        const std::string kt = add("t", "torch.ops.aten.t.default", {kk}, attn, {16, 8});
        const std::string scores = add("scores", "torch.ops.aten.mm.default", {q, kt}, attn, {8, 8});
        const std::string scaled = add("scale", "torch.ops.aten.mul.Tensor", {scores}, attn, {8, 8});
        const std::string probs = add("softmax", "torch.ops.aten._softmax.default", {scaled}, attn, {8, 8});
        const std::string mixed = add("mix", "torch.ops.aten.mm.default", {probs, v}, attn);
        const std::string o = linear("attn", attn, "o_proj", mixed);
        const std::string res1 = add("add1", "torch.ops.aten.add.Tensor", {prev, o}, block);
        const std::string ln2 = add("ln2", "torch.ops.aten.layer_norm.default", {res1}, sub(block, "ln2", "torch.nn.modules.normalization.LayerNorm"));
        const std::string up = linear("mlp", mlp, "up", ln2);
        const std::string act = add("gelu", "torch.ops.aten.gelu.default", {up}, mlp);
        const std::string down = linear("mlp", mlp, "down", act);
        prev = add("add2", "torch.ops.aten.add.Tensor", {res1, down}, block);
    }
    addInput("p_head_weight", {16, 16}, core::InputKind::Parameter, "head.weight");
    g.nodes.push_back(makeNode("head", "torch.ops.aten.mm.default", {prev, "p_head_weight"},
                               "L__self__,,models.Stack;L__self__head,head,torch.nn.modules.linear.Linear"));
    g.tensorValues["head"] = meta({8, 16});
    g.outputs.push_back(core::Argument::tensor("head"));
    core::OutputSpec out;
    out.arg = core::Argument::tensor("head");
    p->signature.outputSpecs.push_back(out);
    return p;
}

} // namespace irlens::testing
