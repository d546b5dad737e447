// irlens-cli ops [--coverage] [--missing] [--json]: which operators the execution engine has kernels
// for, and how much of core ATen and prims that covers.
#include "app/cli/commands.h"
#include "core/exec/kernel_registry.h"
#include "core/ops/op_registry.h"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace irlens::cli {
namespace {

using namespace irlens::core;

struct Coverage {
    int covered = 0;
    int total = 0;
    std::vector<std::string> missing;
};

Coverage coverageOf(IrLevel level, const char* ns) {
    Coverage c;
    const auto& kernels = exec::KernelRegistry::instance();
    for (const auto& op : OpRegistry::instance().all()) {
        if (op.level != level || op.ns != ns) continue;
        std::string key = op.key();
        ++c.total;
        if (kernels.has(key)) ++c.covered;
        else c.missing.push_back(key);
    }
    return c;
}

int runOps(const std::vector<std::string>& raw) {
    Args args(raw, {});
    if (!args.error().empty()) return fail(Unusable, args.error());
    const auto& kernels = exec::KernelRegistry::instance();
    Coverage core = coverageOf(IrLevel::CoreAten, "aten");
    Coverage prims = coverageOf(IrLevel::Prims, "prims");
    if (args.has("--json")) {
        nlohmann::json j;
        j["kernels"] = kernels.keys();
        j["core_aten"] = {{"covered", core.covered}, {"total", core.total}, {"missing", core.missing}};
        j["prims"] = {{"covered", prims.covered}, {"total", prims.total}, {"missing", prims.missing}};
        std::printf("%s\n", j.dump().c_str());
        return Ok;
    }
    if (args.has("--coverage")) {
        std::printf("core ATen  %d/%d\nprims      %d/%d\nkernels    %zu registered\n", core.covered, core.total, prims.covered,
                    prims.total, kernels.keys().size());
        if (args.has("--missing")) {
            for (const auto& m : core.missing) std::printf("missing    %s\n", m.c_str());
            for (const auto& m : prims.missing) std::printf("missing    %s\n", m.c_str());
        }
        return Ok;
    }
    for (const auto& k : kernels.keys()) std::printf("%s\n", k.c_str());
    return Ok;
}

const CommandRegistration reg({"ops", "ops [--coverage [--missing]] [--json]",
                               "operators the execution engine runs; coverage of core ATen and prims", runOps});

} // namespace
} // namespace irlens::cli
