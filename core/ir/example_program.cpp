#include "core/ir/example_program.h"

#include "core/ir/builder.h"

#include <cmath>
#include <tuple>

namespace irlens::core {
namespace {

constexpr ScalarType F32 = ScalarType::Float32;
constexpr const char* kFile = "examples/irlens_example.py";

TensorMeta strided(const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides, ScalarType dtype = F32) {
    TensorMeta m = makeTensorMeta(dtype, sizes);
    for (size_t k = 0; k < strides.size() && k < m.strides.size(); ++k) m.strides[k] = SymInt::literal(strides[k]);
    return m;
}

TensorMeta contiguous(const std::vector<int64_t>& sizes, ScalarType dtype = F32) { return makeTensorMeta(dtype, sizes); }

// Where a node came from in the (imaginary) Python source: module path, traceback, source fn, torch fn.
struct Site {
    std::vector<std::tuple<std::string, std::string, std::string>> modules; // key, path, type (outermost first)
    std::vector<std::tuple<int, std::string, std::string>> frames;          // line, function, code
    std::string sourceName;
    std::string sourceTarget;
    std::string torchFnName;
    std::string torchFnQualified;
};

void annotate(NodeBuilder n, const Site& site) {
    std::string trace;
    for (const auto& [line, fn, code] : site.frames)
        trace += "  File \"" + std::string(kFile) + "\", line " + std::to_string(line) + ", in " + fn + "\n    " + code + "\n";
    n.stackTrace(trace);
    n.module("L__self__", "", "__main__.ExampleNet");
    for (const auto& [key, path, type] : site.modules) n.module(key, path, type);
    n.sourceFn(site.sourceName, site.sourceTarget);
    n.torchFn(site.torchFnName, site.torchFnQualified);
}

const std::tuple<int, std::string, std::string> kForwardStem{88, "forward", "x = self.stem(x)"};
const std::tuple<int, std::string, std::string> kForwardTokens{89, "forward", "t = x.flatten(2).transpose(1, 2)"};
const std::tuple<int, std::string, std::string> kForwardAttn{90, "forward", "t = self.norm(t + self.attn(t))"};
const std::tuple<int, std::string, std::string> kForwardMlp{91, "forward", "return t + self.mlp(t)"};

Site linearSite(const std::string& parentKey, const std::string& parentPath, const std::string& parentType,
                const std::string& name, int line, const std::string& code, int index,
                std::tuple<int, std::string, std::string> outer) {
    Site s;
    s.modules = {{parentKey, parentPath, parentType},
                 {parentKey + "_" + name, parentPath + "." + name, "torch.nn.modules.linear.Linear"}};
    s.frames = {outer, {line, "forward", code},
                {125, "forward", "return F.linear(input, self.weight, self.bias)"}};
    s.sourceName = "l__self___" + parentPath + "_" + name;
    s.sourceTarget = "torch.nn.modules.linear.Linear";
    s.torchFnName = "linear_" + std::to_string(index);
    s.torchFnQualified = "builtin_function_or_method.linear";
    return s;
}

} // namespace

ProgramPtr makeExampleProgram() {
    ProgramBuilder b("example");
    b.verifiers({"ATEN"});
    const int64_t C = 16, H = 16, W = 16, D = 16, Heads = 2, Hd = 8, L = 64, Hidden = 32;

    // ---- state, in the order export lifts it: parameters, then buffers, then user inputs
    b.parameter("p_stem_conv_weight", "stem.conv.weight", makeSeededTensor({C, 3, 3, 3}, 1, 0.19f));
    b.parameter("p_stem_conv_bias", "stem.conv.bias", makeSeededTensor({C}, 2, 0.19f));
    b.parameter("p_stem_bn_weight", "stem.bn.weight", makeFilledTensor({C}, 1.0f));
    b.parameter("p_stem_bn_bias", "stem.bn.bias", makeFilledTensor({C}, 0.0f));
    for (const char* p : {"q_proj", "k_proj", "v_proj", "out_proj"}) {
        std::string name = p;
        uint64_t seed = 10 + name.size() * 7 + static_cast<uint64_t>(name[0]);
        b.parameter("p_attn_" + name + "_weight", "attn." + name + ".weight", makeSeededTensor({D, D}, seed, 0.25f));
        b.parameter("p_attn_" + name + "_bias", "attn." + name + ".bias", makeSeededTensor({D}, seed + 1, 0.25f));
    }
    b.parameter("p_norm_weight", "norm.weight", makeFilledTensor({D}, 1.0f));
    b.parameter("p_norm_bias", "norm.bias", makeFilledTensor({D}, 0.0f));
    b.parameter("p_mlp_fc1_weight", "mlp.fc1.weight", makeSeededTensor({Hidden, D}, 31, 0.25f));
    b.parameter("p_mlp_fc1_bias", "mlp.fc1.bias", makeSeededTensor({Hidden}, 32, 0.25f));
    b.parameter("p_mlp_fc2_weight", "mlp.fc2.weight", makeSeededTensor({D, Hidden}, 33, 0.17f));
    b.parameter("p_mlp_fc2_bias", "mlp.fc2.bias", makeSeededTensor({D}, 34, 0.17f));
    // Running statistics as a trained BatchNorm would hold them: small means, variances near 1.
    TensorData runningVar = makeSeededTensor({C}, 4, 0.3f);
    {
        std::vector<std::byte> bytes = runningVar.contiguousBytes();
        auto* v = reinterpret_cast<float*>(bytes.data());
        for (int64_t k = 0; k < C; ++k) v[k] = 1.0f + v[k];
        runningVar.storage = Storage::fromBytes(std::move(bytes));
    }
    b.buffer("b_stem_bn_running_mean", "stem.bn.running_mean", makeSeededTensor({C}, 3, 0.1f));
    b.buffer("b_stem_bn_running_var", "stem.bn.running_var", runningVar);
    b.buffer("b_stem_bn_num_batches_tracked", "stem.bn.num_batches_tracked", makeInt64Tensor({}, {0}));
    b.userInput("x", contiguous({1, 3, H, W}));
    b.sampleInput(makeSeededTensor({1, 3, H, W}, 99, 1.0f));

    // ---- conv stem
    const std::string stemKey = "L__self___stem";
    Site conv{{{stemKey, "stem", "__main__.ConvStem"}, {stemKey + "_conv", "stem.conv", "torch.nn.modules.conv.Conv2d"}},
              {kForwardStem, {52, "forward", "x = self.conv(x)"}, {460, "_conv_forward", "return F.conv2d(input, weight, bias, self.stride,"}},
              "l__self___stem_conv", "torch.nn.modules.conv.Conv2d", "conv2d_1", "builtin_function_or_method.conv2d"};
    annotate(b.call("torch.ops.aten.convolution.default", "convolution")
                 .arg("input", "x").arg("weight", "p_stem_conv_weight").arg("bias", "p_stem_conv_bias")
                 .arg("stride", Argument::ints({1, 1})).arg("padding", Argument::ints({1, 1}))
                 .arg("dilation", Argument::ints({1, 1})).arg("transposed", Argument::boolean(false))
                 .arg("output_padding", Argument::ints({0, 0})).arg("groups", Argument::integer(1))
                 .out(contiguous({1, C, H, W})), conv);
    Site bn{{{stemKey, "stem", "__main__.ConvStem"}, {stemKey + "_bn", "stem.bn", "torch.nn.modules.batchnorm.BatchNorm2d"}},
            {kForwardStem, {53, "forward", "x = self.bn(x)"}, {2450, "batch_norm", "return torch.batch_norm("}},
            "l__self___stem_bn", "torch.nn.modules.batchnorm.BatchNorm2d", "batch_norm_1", "function.batch_norm"};
    annotate(b.call("torch.ops.aten._native_batch_norm_legit_no_training.default", "_native_batch_norm_legit_no_training")
                 .arg("input", "convolution").arg("weight", "p_stem_bn_weight").arg("bias", "p_stem_bn_bias")
                 .arg("running_mean", "b_stem_bn_running_mean").arg("running_var", "b_stem_bn_running_var")
                 .arg("momentum", Argument::floating(0.1)).arg("eps", Argument::floating(1e-05))
                 .outNamed("getitem", contiguous({1, C, H, W}))
                 .outNamed("_native_batch_norm_legit_no_training_unused_1", contiguous({0}))
                 .outNamed("_native_batch_norm_legit_no_training_unused_2", contiguous({0})), bn);
    Site relu{{{stemKey, "stem", "__main__.ConvStem"}, {stemKey + "_act", "stem.act", "torch.nn.modules.activation.ReLU"}},
              {kForwardStem, {54, "forward", "x = self.act(x)"}, {1500, "relu", "result = torch.relu(input)"}},
              "l__self___stem_act", "torch.nn.modules.activation.ReLU", "relu_1", "function.relu"};
    annotate(b.call("torch.ops.aten.relu.default", "relu").arg("self", "getitem").out(contiguous({1, C, H, W})), relu);
    Site pool{{{stemKey, "stem", "__main__.ConvStem"}, {stemKey + "_pool", "stem.pool", "torch.nn.modules.pooling.MaxPool2d"}},
              {kForwardStem, {55, "forward", "return self.pool(x)"}, {796, "_max_pool2d", "return torch.max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode)"}},
              "l__self___stem_pool", "torch.nn.modules.pooling.MaxPool2d", "max_pool2d_1", "function.max_pool2d"};
    annotate(b.call("torch.ops.aten.max_pool2d_with_indices.default", "max_pool2d_with_indices")
                 .arg("self", "relu").arg("kernel_size", Argument::ints({2, 2})).arg("stride", Argument::ints({2, 2}))
                 .outNamed("getitem_1", contiguous({1, C, H / 2, W / 2}))
                 .outNamed("max_pool2d_with_indices_unused_1", contiguous({1, C, H / 2, W / 2}, ScalarType::Int64)), pool);

    // ---- tokens: [1, C, 8, 8] -> [1, 64, C] -> [64, D]
    Site flat{{}, {kForwardTokens}, "flatten", "method_descriptor.flatten", "flatten_1", "method_descriptor.flatten"};
    Site trans{{}, {kForwardTokens}, "transpose", "method_descriptor.transpose", "transpose_1", "method_descriptor.transpose"};
    annotate(b.call("torch.ops.aten.view.default", "view").arg("self", "getitem_1").arg("size", Argument::ints({1, C, L}))
                 .out(contiguous({1, C, L})), flat);
    annotate(b.call("torch.ops.aten.permute.default", "permute").arg("self", "view").arg("dims", Argument::ints({0, 2, 1}))
                 .out(strided({1, L, C}, {C * L, 1, L})), trans);
    Argument contiguousFormat;
    contiguousFormat.kind = ArgKind::MemoryFormat;
    contiguousFormat.i = static_cast<int>(MemoryFormat::Contiguous);
    annotate(b.call("torch.ops.aten.clone.default", "clone").arg("self", "permute").kwarg("memory_format", contiguousFormat)
                 .out(contiguous({1, L, C})), trans);

    // ---- attention
    const std::string attnKey = "L__self___attn";
    auto attnSite = [&](int line, const std::string& code) {
        Site s{{{attnKey, "attn", "__main__.SelfAttention"}}, {kForwardAttn, {line, "forward", code}},
               "", "", "", ""};
        return s;
    };
    Site tokens = attnSite(66, "b, l, d = t.shape; t = t.reshape(b * l, d)");
    tokens.sourceName = "reshape"; tokens.sourceTarget = "method_descriptor.reshape";
    tokens.torchFnName = "reshape_1"; tokens.torchFnQualified = "method_descriptor.reshape";
    annotate(b.call("torch.ops.aten.view.default", "view_1").arg("self", "clone").arg("size", Argument::ints({L, D}))
                 .out(contiguous({L, D})), tokens);
    const char* projNames[] = {"q_proj", "k_proj", "v_proj"};
    const char* projValues[] = {"addmm", "addmm_1", "addmm_2"};
    for (int k = 0; k < 3; ++k) {
        std::string proj = projNames[k];
        Site s = linearSite(attnKey, "attn", "__main__.SelfAttention", proj, 67 + k,
                            std::string(1, proj[0]) + " = self." + proj + "(t)", k + 1, kForwardAttn);
        std::string perm = "permute_" + std::to_string(k + 1);
        annotate(b.call("torch.ops.aten.permute.default", perm).arg("self", "p_attn_" + proj + "_weight")
                     .arg("dims", Argument::ints({1, 0})).out(strided({D, D}, {1, D})), s);
        annotate(b.call("torch.ops.aten.addmm.default", projValues[k]).arg("self", "p_attn_" + proj + "_bias")
                     .arg("mat1", "view_1").arg("mat2", perm).out(contiguous({L, D})), s);
    }
    Site heads = attnSite(70, "q, k, v = (z.view(l, self.heads, -1).transpose(0, 1) for z in (q, k, v))");
    heads.sourceName = "view"; heads.sourceTarget = "method_descriptor.view";
    heads.torchFnName = "view_1"; heads.torchFnQualified = "method_descriptor.view";
    annotate(b.call("torch.ops.aten.view.default", "view_2").arg("self", "addmm").arg("size", Argument::ints({L, Heads, Hd}))
                 .out(contiguous({L, Heads, Hd})), heads);
    annotate(b.call("torch.ops.aten.permute.default", "permute_4").arg("self", "view_2").arg("dims", Argument::ints({1, 0, 2}))
                 .out(strided({Heads, L, Hd}, {Hd, D, 1})), heads);
    annotate(b.call("torch.ops.aten.view.default", "view_3").arg("self", "addmm_1").arg("size", Argument::ints({L, Heads, Hd}))
                 .out(contiguous({L, Heads, Hd})), heads);
    annotate(b.call("torch.ops.aten.permute.default", "permute_5").arg("self", "view_3").arg("dims", Argument::ints({1, 2, 0}))
                 .out(strided({Heads, Hd, L}, {Hd, 1, D})), heads);
    Site scores = attnSite(71, "a = torch.softmax(q @ k.transpose(1, 2) * self.scale, dim=-1)");
    scores.sourceName = "matmul"; scores.sourceTarget = "builtin_function_or_method.matmul";
    scores.torchFnName = "matmul_1"; scores.torchFnQualified = "builtin_function_or_method.matmul";
    annotate(b.call("torch.ops.aten.bmm.default", "bmm").arg("self", "permute_4").arg("mat2", "permute_5")
                 .out(contiguous({Heads, L, L})), scores);
    annotate(b.call("torch.ops.aten.mul.Tensor", "mul").arg("self", "bmm").arg("other", Argument::floating(1.0 / std::sqrt(8.0)))
                 .out(contiguous({Heads, L, L})), scores);
    annotate(b.call("torch.ops.aten._softmax.default", "_softmax").arg("self", "mul").arg("dim", Argument::integer(-1))
                 .arg("half_to_float", Argument::boolean(false)).out(contiguous({Heads, L, L})), scores);
    annotate(b.call("torch.ops.aten.view.default", "view_4").arg("self", "addmm_2").arg("size", Argument::ints({L, Heads, Hd}))
                 .out(contiguous({L, Heads, Hd})), heads);
    annotate(b.call("torch.ops.aten.permute.default", "permute_6").arg("self", "view_4").arg("dims", Argument::ints({1, 0, 2}))
                 .out(strided({Heads, L, Hd}, {Hd, D, 1})), heads);
    Site mix = attnSite(72, "o = (a @ v).transpose(0, 1).reshape(l, -1)");
    mix.sourceName = "matmul_1"; mix.sourceTarget = "builtin_function_or_method.matmul";
    mix.torchFnName = "matmul_2"; mix.torchFnQualified = "builtin_function_or_method.matmul";
    annotate(b.call("torch.ops.aten.bmm.default", "bmm_1").arg("self", "_softmax").arg("mat2", "permute_6")
                 .out(contiguous({Heads, L, Hd})), mix);
    annotate(b.call("torch.ops.aten.permute.default", "permute_7").arg("self", "bmm_1").arg("dims", Argument::ints({1, 0, 2}))
                 .out(strided({L, Heads, Hd}, {Hd, L * Hd, 1})), mix);
    annotate(b.call("torch.ops.aten.clone.default", "clone_1").arg("self", "permute_7").kwarg("memory_format", contiguousFormat)
                 .out(contiguous({L, Heads, Hd})), mix);
    annotate(b.call("torch.ops.aten.view.default", "view_5").arg("self", "clone_1").arg("size", Argument::ints({L, D}))
                 .out(contiguous({L, D})), mix);
    Site outProj = linearSite(attnKey, "attn", "__main__.SelfAttention", "out_proj", 73, "return self.out_proj(o)", 4, kForwardAttn);
    annotate(b.call("torch.ops.aten.permute.default", "permute_8").arg("self", "p_attn_out_proj_weight")
                 .arg("dims", Argument::ints({1, 0})).out(strided({D, D}, {1, D})), outProj);
    annotate(b.call("torch.ops.aten.addmm.default", "addmm_3").arg("self", "p_attn_out_proj_bias").arg("mat1", "view_5")
                 .arg("mat2", "permute_8").out(contiguous({L, D})), outProj);
    Site residual{{}, {kForwardAttn}, "add", "<built-in function add>", "add_1", "builtin_function_or_method.add"};
    annotate(b.call("torch.ops.aten.add.Tensor", "add").arg("self", "view_1").arg("other", "addmm_3").out(contiguous({L, D})), residual);
    Site norm{{{"L__self___norm", "norm", "torch.nn.modules.normalization.LayerNorm"}},
              {kForwardAttn, {202, "forward", "return F.layer_norm("}, {2573, "layer_norm", "return torch.layer_norm("}},
              "l__self___norm", "torch.nn.modules.normalization.LayerNorm", "layer_norm_1", "function.layer_norm"};
    annotate(b.call("torch.ops.aten.native_layer_norm.default", "native_layer_norm")
                 .arg("input", "add").arg("normalized_shape", Argument::ints({D})).arg("weight", "p_norm_weight")
                 .arg("bias", "p_norm_bias").arg("eps", Argument::floating(1e-05))
                 .outNamed("getitem_2", contiguous({L, D}))
                 .outNamed("native_layer_norm_unused_1", contiguous({L, 1}))
                 .outNamed("native_layer_norm_unused_2", contiguous({L, 1})), norm);

    // ---- MLP
    const std::string mlpKey = "L__self___mlp";
    Site fc1 = linearSite(mlpKey, "mlp", "__main__.Mlp", "fc1", 80, "h = self.act(self.fc1(t))", 5, kForwardMlp);
    annotate(b.call("torch.ops.aten.permute.default", "permute_9").arg("self", "p_mlp_fc1_weight")
                 .arg("dims", Argument::ints({1, 0})).out(strided({D, Hidden}, {1, D})), fc1);
    annotate(b.call("torch.ops.aten.addmm.default", "addmm_4").arg("self", "p_mlp_fc1_bias").arg("mat1", "getitem_2")
                 .arg("mat2", "permute_9").out(contiguous({L, Hidden})), fc1);
    Site gelu{{{mlpKey, "mlp", "__main__.Mlp"}, {mlpKey + "_act", "mlp.act", "torch.nn.modules.activation.GELU"}},
              {kForwardMlp, {80, "forward", "h = self.act(self.fc1(t))"}, {734, "forward", "return F.gelu(input, approximate=self.approximate)"}},
              "l__self___mlp_act", "torch.nn.modules.activation.GELU", "gelu_1", "builtin_function_or_method.gelu"};
    annotate(b.call("torch.ops.aten.gelu.default", "gelu").arg("self", "addmm_4").out(contiguous({L, Hidden})), gelu);
    Site fc2 = linearSite(mlpKey, "mlp", "__main__.Mlp", "fc2", 81, "return self.fc2(h)", 6, kForwardMlp);
    annotate(b.call("torch.ops.aten.permute.default", "permute_10").arg("self", "p_mlp_fc2_weight")
                 .arg("dims", Argument::ints({1, 0})).out(strided({Hidden, D}, {1, Hidden})), fc2);
    annotate(b.call("torch.ops.aten.addmm.default", "addmm_5").arg("self", "p_mlp_fc2_bias").arg("mat1", "gelu")
                 .arg("mat2", "permute_10").out(contiguous({L, D})), fc2);
    Site residual2{{}, {kForwardMlp}, "add_1", "<built-in function add>", "add_2", "builtin_function_or_method.add"};
    annotate(b.call("torch.ops.aten.add.Tensor", "add_1").arg("self", "getitem_2").arg("other", "addmm_5")
                 .out(contiguous({L, D})), residual2);
    Site unflatten{{}, {{92, "forward", "return t.view(1, l, d)"}}, "view_1", "method_descriptor.view", "view_2",
                   "method_descriptor.view"};
    annotate(b.call("torch.ops.aten.view.default", "view_6").arg("self", "add_1").arg("size", Argument::ints({1, L, D}))
                 .out(contiguous({1, L, D})), unflatten);
    b.userOutput("view_6");

    b.program().moduleCallGraph.push_back({"", std::nullopt});
    auto built = b.build();
    // The example is fixed code: a failure here is a bug caught by the tests, never by a user's file.
    return built ? built.value() : ProgramPtr(std::make_shared<const Program>(b.buildUnchecked()));
}

} // namespace irlens::core
