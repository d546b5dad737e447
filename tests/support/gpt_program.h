#pragma once
// A tiny GPT-shaped program built with the project's builder, for tests that need tiny_gpt's shape
// (blocks.N modules with attention and MLP children, a softmax per block, weights, stack traces) when
// ../shared is absent: h [8, 16] -> per block: attention (mm, t, mm, _softmax, mm, add) and MLP (mm,
// gelu, add) -> head mm. Runs on the engine.

#include "support/numeric_programs.h"

#include <string>

namespace irlens::testing {

inline core::ProgramPtr makeTinyGptLike(int blocks = 2) {
    using namespace irlens::core;
    ProgramBuilder b("tiny_gpt_like");
    const TensorMeta act = makeTensorMeta(ScalarType::Float32, std::vector<int64_t>{8, 16});
    const TensorMeta scores = makeTensorMeta(ScalarType::Float32, std::vector<int64_t>{8, 8});
    int line = 10;
    auto in = [&](NodeBuilder n, const std::string& block, const std::string& child, const std::string& type) {
        n.module("L__self__", "", "models.TinyGPT");
        if (!block.empty()) n.module("L__self__" + block, block, "models.Block");
        if (!child.empty()) n.module("L__self__" + block + "_" + child, block + "." + child, type);
        n.stackTrace("  File \"/home/user/gpt.py\", line " + std::to_string(line++) + ", in forward\n    x = self.step(x)");
    };
    std::string h = b.userInput("x", act);
    for (int k = 0; k < blocks; ++k) {
        const std::string block = "blocks." + std::to_string(k), s = "_" + std::to_string(k);
        const std::string wq = b.parameter("p_blocks_" + std::to_string(k) + "_attn_wq", block + ".attn.wq",
                                           makeSeededTensor({16, 16}, 100 + k, 0.25f));
        const std::string w1 = b.parameter("p_blocks_" + std::to_string(k) + "_mlp_w1", block + ".mlp.w1",
                                           makeSeededTensor({16, 16}, 200 + k, 0.25f));
        const char* attn = "models.Attention";
        in(b.call("torch.ops.aten.mm.default", "q" + s).arg("self", h).arg("mat2", wq).out(act), block, "attn", attn);
        in(b.call("torch.ops.aten.t.default", "t" + s).arg("self", h).out(act), block, "attn", attn);
        in(b.call("torch.ops.aten.mm.default", "scores" + s).arg("self", "q" + s).arg("mat2", "t" + s).out(scores), block, "attn", attn);
        in(b.call("torch.ops.aten._softmax.default", "softmax" + s)
               .arg("self", "scores" + s).arg("dim", Argument::integer(-1)).arg("half_to_float", Argument::boolean(false)).out(scores),
           block, "attn", attn);
        in(b.call("torch.ops.aten.mm.default", "attn" + s).arg("self", "softmax" + s).arg("mat2", h).out(act), block, "attn", attn);
        in(b.call("torch.ops.aten.add.Tensor", "res" + s).arg("self", h).arg("other", "attn" + s).out(act), block, "", "");
        const char* mlp = "models.MLP";
        in(b.call("torch.ops.aten.mm.default", "fc" + s).arg("self", "res" + s).arg("mat2", w1).out(act), block, "mlp", mlp);
        in(b.call("torch.ops.aten.gelu.default", "gelu" + s).arg("self", "fc" + s).out(act), block, "mlp", mlp);
        in(b.call("torch.ops.aten.add.Tensor", "out" + s).arg("self", "res" + s).arg("other", "gelu" + s).out(act), block, "", "");
        h = "out" + s;
    }
    const std::string head = b.parameter("p_head_weight", "head.weight", makeSeededTensor({16, 16}, 300, 0.25f));
    in(b.call("torch.ops.aten.mm.default", "logits").arg("self", h).arg("mat2", head).out(act), "", "head", "torch.nn.modules.linear.Linear");
    b.userOutput("logits");
    return builtOrDie(b.build());
}

} // namespace irlens::testing
