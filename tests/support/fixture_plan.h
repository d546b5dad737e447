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

} // namespace irlens::testing
