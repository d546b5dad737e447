#pragma once
// What the engine benchmarks share: a generated program loaded, its plan compiled and its
// model.expected/ inputs read, or a one-line reason printed when any of that fails.

#include "core/exec/engine.h"
#include "core/exec/inputs.h"
#include "core/exec/plan.h"
#include "core/io/pt2_reader.h"
#include "support/shared_fixtures.h"

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace irlens::bench {

struct BenchModel {
    core::ProgramPtr program;
    std::shared_ptr<core::exec::ExecutionPlan> plan;
    core::exec::ExpectedSet expected;
};

/// generated/<name>: program, plan and sample inputs; prints "<name> <why>" and returns nothing on failure.
inline std::optional<BenchModel> loadBenchModel(const std::string& name) {
    const auto dir = testing::fixture("generated/" + name);
    auto prog = core::loadPt2((dir / "model.pt2").string());
    if (!prog) { std::printf("%-18s load failed: %s\n", name.c_str(), prog.error().c_str()); return std::nullopt; }
    auto plan = core::exec::ExecutionPlan::compile(*prog);
    if (!plan) { std::printf("%-18s %s\n", name.c_str(), plan.error().c_str()); return std::nullopt; }
    auto expected = core::exec::loadExpected((dir / "model.expected").string());
    if (!expected) { std::printf("%-18s %s\n", name.c_str(), expected.error().c_str()); return std::nullopt; }
    return BenchModel{*prog, *plan, std::move(*expected)};
}

/// Each of `models` that loads, at each of `threads`, with a fresh engine on its plan:
/// fn(name, model, engine, threadCount).
template <class F>
void forEachModelEngine(const std::vector<std::string>& models, const std::vector<int>& threads, F&& fn) {
    for (const auto& name : models) {
        auto model = loadBenchModel(name);
        if (!model) continue;
        for (int t : threads) {
            core::exec::Engine engine(model->plan);
            fn(name, *model, engine, t);
            std::fflush(stdout);
        }
    }
}

} // namespace irlens::bench
