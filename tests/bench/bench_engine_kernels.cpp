// bench_engine_kernels: single kernels on resnet-sized tensors through plan + engine (1 thread),
// to see per-kernel cost without the rest of a model. Prints the median of N runs per kernel.
#include "core/exec/engine.h"
#include "bench_stats.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

using namespace irlens::core;
using namespace irlens::core::exec;

namespace {

double medianMs(const std::string& target, std::vector<std::pair<std::string, Argument>> literals, std::vector<std::pair<std::string, Tensor>> tensors,
                int outputs, int threads, int repeat) {
    auto p = std::make_shared<Program>();
    Node n;
    n.name = "k";
    n.target = Target::parse("torch.ops." + target);
    std::vector<EValue> inputs;
    for (auto& [name, t] : tensors) {
        n.inputs.push_back({name, Argument::tensor("in_" + name), ArgumentKind::Positional});
        p->graph.inputs.push_back(Argument::tensor("in_" + name));
        InputSpec s;
        s.arg = Argument::tensor("in_" + name);
        p->signature.inputSpecs.push_back(s);
        inputs.push_back(EValue::fromTensor(t));
    }
    for (auto& [name, a] : literals) n.inputs.push_back({name, a, ArgumentKind::Positional});
    for (int o = 0; o < outputs; ++o) n.outputs.push_back(Argument::tensor("o" + std::to_string(o)));
    p->graph.outputs.push_back(Argument::tensor("o0"));
    p->signature.outputSpecs.push_back({OutputKind::UserOutput, Argument::tensor("o0"), ""});
    p->graph.nodes.push_back(n);
    auto plan = ExecutionPlan::compile(p);
    if (!plan) { std::printf("%s: %s\n", target.c_str(), plan.error().c_str()); return -1; }
    Engine e(*plan);
    RunOptions ro;
    ro.threads = threads;
    std::string error;
    auto ms = irlens::bench::timeRunsMs(repeat, [&] {
        auto r = e.run(inputs, ro);
        if (!r) error = r.error();
        return r.isOk();
    }, 2);
    if (!error.empty()) { std::printf("%s: %s\n", target.c_str(), error.c_str()); return -1; }
    return irlens::bench::median(ms);
}

Tensor randomTensor(const Shape& s) {
    Tensor t = *Tensor::empty(ScalarType::Float32, s);
    uint32_t x = 12345;
    for (int64_t i = 0; i < t.numel(); ++i) {
        x = x * 1664525u + 1013904223u;
        t.data<float>()[i] = static_cast<float>(x >> 8) / 8388608.0f - 1.0f;
    }
    return t;
}

} // namespace

int main(int argc, char** argv) {
    int threads = argc > 1 ? std::max(1, std::atoi(argv[1])) : 1;
    const int repeat = 20;
    Tensor act = randomTensor({1, 64, 112, 112});
    Tensor w = randomTensor({64, 64, 3, 3});
    Tensor x56 = randomTensor({1, 64, 56, 56});
    std::printf("threads %d, median of %d runs\n", threads, repeat);
    std::printf("%-44s %8.3f ms\n", "relu f32[1,64,112,112]", medianMs("aten.relu.default", {}, {{"self", act}}, 1, threads, repeat));
    std::printf("%-44s %8.3f ms\n", "neg f32[1,64,112,112]", medianMs("aten.neg.default", {}, {{"self", act}}, 1, threads, repeat));
    std::printf("%-44s %8.3f ms\n", "sigmoid f32[1,64,112,112]", medianMs("aten.sigmoid.default", {}, {{"self", act}}, 1, threads, repeat));
    std::printf("%-44s %8.3f ms\n", "add f32[1,64,112,112]", medianMs("aten.add.Tensor", {}, {{"self", act}, {"other", act}}, 1, threads, repeat));
    std::printf("%-44s %8.3f ms\n", "max_pool2d_with_indices 3x3/2 [1,64,112,112]",
                medianMs("aten.max_pool2d_with_indices.default",
                         {{"kernel_size", Argument::ints({3, 3})}, {"stride", Argument::ints({2, 2})}, {"padding", Argument::ints({1, 1})}},
                         {{"self", act}}, 2, threads, repeat));
    std::printf("%-44s %8.3f ms\n", "convolution 3x3 64->64 [1,64,56,56]",
                medianMs("aten.convolution.default",
                         {{"bias", Argument::none()}, {"stride", Argument::ints({1, 1})}, {"padding", Argument::ints({1, 1})},
                          {"dilation", Argument::ints({1, 1})}, {"transposed", Argument::boolean(false)},
                          {"output_padding", Argument::ints({0, 0})}, {"groups", Argument::integer(1)}},
                         {{"input", x56}, {"weight", w}}, 1, threads, repeat));
    // mobilenet_v2's largest depthwise layers (features.3.conv.1 and features.2.conv.1)
    auto depthwise = [&](const char* label, int64_t channels, int64_t size, int64_t stride) {
        std::printf("%-44s %8.3f ms\n", label,
                    medianMs("aten.convolution.default",
                             {{"bias", Argument::none()}, {"stride", Argument::ints({stride, stride})}, {"padding", Argument::ints({1, 1})},
                              {"dilation", Argument::ints({1, 1})}, {"transposed", Argument::boolean(false)},
                              {"output_padding", Argument::ints({0, 0})}, {"groups", Argument::integer(channels)}},
                             {{"input", randomTensor({1, channels, size, size})}, {"weight", randomTensor({channels, 1, 3, 3})}}, 1, threads, repeat));
    };
    depthwise("depthwise 3x3/1 [1,144,56,56]", 144, 56, 1);
    depthwise("depthwise 3x3/2 [1,96,112,112]", 96, 112, 2);
    Tensor a = randomTensor({128, 512}), b = randomTensor({512, 2048});
    std::printf("%-44s %8.3f ms\n", "mm [128,512]x[512,2048]", medianMs("aten.mm.default", {}, {{"self", a}, {"mat2", b}}, 1, threads, repeat));
    std::printf("%-44s %8.3f ms\n", "softmax f32[8,128,128]",
                medianMs("aten._softmax.default", {{"dim", Argument::integer(-1)}, {"half_to_float", Argument::boolean(false)}},
                         {{"self", randomTensor({8, 128, 128})}}, 1, threads, repeat));
    return 0;
}
