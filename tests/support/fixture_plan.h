#pragma once
// A program ready to run: a generated fixture or a zoo program ("zoo/<name>": <folder>/model.pt2 compiled into a
// plan, with the main inputs of its model.expected/ sidecar), or a program a test built, with generated inputs.

#include "core/exec/inputs.h"
#include "core/exec/plan.h"
#include "core/io/pt2_reader.h"
#include "core/ir/builder.h"
#include "support/shared_fixtures.h"
#include "support/view_programs.h"
#include "support/zoo_files.h"

#include <QtGlobal>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

namespace irlens::testing {

struct FixturePlan {
    std::shared_ptr<core::exec::ExecutionPlan> plan;
    std::vector<core::exec::EValue> inputs;
};

/// The compiled plan and reference inputs of generated fixture or zoo program `name`; an error naming the file otherwise.
/// The programs of support/view_programs.h have no references: they run on their archives' sample inputs.
inline core::Result<FixturePlan> loadFixturePlan(const std::string& name) {
    const bool viewProgram = name.rfind("zoo/", 0) == 0 && std::count(owned::names().begin(), owned::names().end(), name.substr(4)) > 0;
    if (viewProgram) writeViewPrograms();
    const auto dir = fixture(programFolder(name));
    auto program = core::loadPt2((dir / "model.pt2").string());
    if (!program) return program.status().withContext(name);
    auto plan = core::exec::ExecutionPlan::compile(*program);
    if (!plan) return plan.status().withContext(name);
    if (viewProgram) {
        auto inputs = core::exec::sampleInputs(**plan);
        if (!inputs) return inputs.status().withContext(name);
        return FixturePlan{*plan, *inputs};
    }
    auto expected = core::exec::loadExpected((dir / "model.expected").string());
    if (!expected) return expected.status().withContext(name);
    return FixturePlan{*plan, expected->main.inputs};
}

/// The program `builder` holds, compiled, with inputs generated from its meta (`seed`); the first error otherwise.
inline core::Result<FixturePlan> builtPlan(const core::ProgramBuilder& builder, uint64_t seed = 1) {
    auto program = builder.build();
    if (!program) return program.status();
    auto plan = core::exec::ExecutionPlan::compile(*program);
    if (!plan) return plan.status();
    auto inputs = core::exec::generateInputs(**plan, seed);
    if (!inputs) return inputs.status();
    return FixturePlan{*plan, *inputs};
}

/// `chains` independent chains of `length` 256 x 256 matrix products (a0 = x @ x, a1 = a0 @ x, ...; b0, b1, ...
/// alike) joined by an add of the first chain's end and the last's. Each product is worth a task of its own:
/// with two chains the engine hands ready nodes to idle workers (plan.h, GraphSchedule::TaskGraph) and two
/// workers can run a chain each; one chain runs in graph order, each product split over the workers
/// (GraphSchedule::InOrder). The products carry a stack trace.
inline FixturePlan productChains(int chains, int length) {
    core::ProgramBuilder b;
    const core::TensorMeta square = core::makeTensorMeta(core::ScalarType::Float32, std::vector<int64_t>{256, 256});
    b.userInput("x", square);
    std::vector<std::string> last(static_cast<size_t>(chains), "x");
    for (int step = 0; step < length; ++step)
        for (int chain = 0; chain < chains; ++chain) {
            const std::string name = std::string(1, static_cast<char>('a' + chain)) + std::to_string(step);
            b.call("torch.ops.aten.mm.default", name).arg("self", last[static_cast<size_t>(chain)]).arg("mat2", "x").out(square)
                .stackTrace("  File \"model.py\", line 9, in forward\n    y = y @ x");
            last[static_cast<size_t>(chain)] = name;
        }
    b.call("torch.ops.aten.add.Tensor", "sum").arg("self", last.front()).arg("other", last.back()).out(square);
    b.userOutput("sum");
    auto built = builtPlan(b);
    if (!built) qFatal("%s", built.error().c_str());
    return *built;
}

} // namespace irlens::testing
