// irlens-cli ops [--coverage [--conformance DIR] [--missing]] [--json]: which operators the execution
// engine has kernels for, and how much of core ATen and prims they cover. An op counts as covered only
// when it has a kernel and the conformance corpus (tests/conformance, run here at 1 and 2 threads)
// has cases for it that all pass; the op x dtype table shows where each stands.
#include "app/cli/commands.h"
#include "core/conformance/runner.h"
#include "core/exec/kernel_registry.h"
#include "core/ops/op_registry.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#ifndef IRLENS_CONFORMANCE_DIR
#define IRLENS_CONFORMANCE_DIR "tests/conformance"
#endif

namespace irlens::cli {
namespace {

using namespace irlens::core;
using conformance::Cell;
using conformance::CorpusReport;

const char* const kDtypes[] = {"float32", "float64", "float16", "bfloat16", "int8", "int16",
                               "int32", "int64", "uint8", "bool", "complex64", "complex128"};
const char* const kShort[] = {"f32", "f64", "f16", "bf16", "i8", "i16", "i32", "i64", "u8", "b8", "c64", "c128"};

// What one (op, dtype) cell of the table says.
const char* cellWord(const Cell* c, bool hasKernel) {
    if (!c) return "-";
    if (!hasKernel) return "none";
    if (c->fail) return c->known ? "known" : "FAIL";
    if (c->unsupported) return "dtype";
    return c->pass ? "ok" : "-";
}

struct OpRow {
    std::string key;
    bool kernel = false;
    const std::map<std::string, Cell>* cells = nullptr;
    bool covered() const {
        if (!kernel || !cells) return false;
        int pass = 0;
        for (const auto& [dt, c] : *cells) {
            if (c.fail) return false;
            pass += c.pass;
        }
        return pass > 0;
    }
    std::string why() const {
        if (!kernel) return "no kernel";
        if (!cells) return "no conformance case";
        for (const auto& [dt, c] : *cells)
            if (c.fail) return (c.known ? "known failure: " : "fails: ") + c.firstFailure;
        return "no case passes";
    }
};

std::vector<OpRow> rowsOf(IrLevel level, const char* ns, const CorpusReport& report) {
    std::vector<OpRow> rows;
    for (const auto& op : OpRegistry::instance().all()) {
        if (op.level != level || op.ns != ns) continue;
        OpRow r;
        r.key = op.key();
        r.kernel = exec::KernelRegistry::instance().has(r.key);
        auto it = report.cells.find(r.key);
        if (it != report.cells.end()) r.cells = &it->second;
        rows.push_back(std::move(r));
    }
    return rows;
}

void printTable(const std::vector<OpRow>& rows) {
    std::printf("%-44s", "op");
    for (const char* s : kShort) std::printf(" %-5s", s);
    std::printf("\n");
    for (const auto& r : rows) {
        std::printf("%-44s", r.key.c_str());
        for (const char* dt : kDtypes) {
            const Cell* c = nullptr;
            if (r.cells && r.cells->count(dt)) c = &r.cells->at(dt);
            std::printf(" %-5s", cellWord(c, r.kernel));
        }
        std::printf("\n");
    }
}

struct Counts {
    int covered = 0, kernels = 0, total = 0, pairsPass = 0, pairs = 0;
};

Counts countOf(const std::vector<OpRow>& rows) {
    Counts n;
    for (const auto& r : rows) {
        ++n.total;
        n.kernels += r.kernel;
        n.covered += r.covered();
        if (!r.cells) continue;
        for (const auto& [dt, c] : *r.cells) {
            ++n.pairs;
            n.pairsPass += r.kernel && CorpusReport::covered(c);
        }
    }
    return n;
}

nlohmann::json jsonOf(const std::vector<OpRow>& rows, const Counts& n) {
    nlohmann::json j = {{"covered", n.covered}, {"with_kernel", n.kernels}, {"total", n.total},
                        {"dtype_pairs_passing", n.pairsPass}, {"dtype_pairs", n.pairs}};
    for (const auto& r : rows) {
        nlohmann::json cells = nlohmann::json::object();
        if (r.cells)
            for (const auto& [dt, c] : *r.cells) cells[dt] = cellWord(&c, r.kernel);
        j["ops"][r.key] = {{"covered", r.covered()}, {"kernel", r.kernel}, {"dtypes", cells}};
        if (!r.covered()) j["missing"].push_back(r.key);
    }
    return j;
}

int runOps(const Args& args) {
    if (!args.positional().empty()) return fail(Unusable, args.usage());
    const auto& kernels = exec::KernelRegistry::instance();
    if (!args.has("--coverage") && !args.has("--json")) {
        for (const auto& k : kernels.keys()) std::printf("%s\n", k.c_str());
        return Ok;
    }
    std::string dir = args.value("--conformance", IRLENS_CONFORMANCE_DIR);
    auto corpus = conformance::loadCorpus(dir + "/corpus");
    if (!corpus) return fail(Unusable, corpus.error() + " (give the conformance folder with --conformance DIR)");
    auto known = conformance::loadKnownFailures(dir + "/known_failures.tsv");
    if (!known) return fail(Unusable, known.error());
    CorpusReport report = conformance::runCorpus(*corpus, *known, {1, 2});
    auto core = rowsOf(IrLevel::CoreAten, "aten", report);
    auto prims = rowsOf(IrLevel::Prims, "prims", report);
    Counts nc = countOf(core), np = countOf(prims);
    if (args.has("--json")) {
        nlohmann::json j = {{"kernels", kernels.keys()}, {"core_aten", jsonOf(core, nc)}, {"prims", jsonOf(prims, np)},
                            {"conformance", {{"dir", dir}, {"torch", corpus->torchVersion}, {"cases", report.cases},
                                             {"failures", report.failures}}}};
        std::printf("%s\n", j.dump().c_str());
        return Ok;
    }
    std::printf("conformance  %d cases from torch %s (%s), each run at 1 and 2 threads\n", report.cases,
                corpus->torchVersion.c_str(), dir.c_str());
    std::printf("core ATen    %d/%d ops covered (kernel + passing cases; %d have a kernel), %d/%d (op, dtype) pairs pass\n",
                nc.covered, nc.total, nc.kernels, nc.pairsPass, nc.pairs);
    std::printf("prims        %d/%d ops covered (%d have a kernel), %d/%d (op, dtype) pairs pass\n", np.covered, np.total,
                np.kernels, np.pairsPass, np.pairs);
    std::printf("kernels      %zu registered\n\n", kernels.keys().size());
    printTable(core);
    std::printf("\n");
    printTable(prims);
    std::printf("\ncells: ok = every case passes, FAIL = a case disagrees with PyTorch, known = listed in known_failures.tsv,\n"
                "dtype = the kernel refuses the dtype, none = no kernel, - = no conformance case\n");
    if (args.has("--missing"))
        for (const auto* rows : {&core, &prims})
            for (const auto& r : *rows)
                if (!r.covered()) std::printf("missing  %-44s %s\n", r.key.c_str(), r.why().c_str());
    return Ok;
}

const CommandRegistration registeredOps({
    .name = "ops",
    .forms = {"[--coverage [--missing] [--conformance DIR]] [--json]"},
    .summary = "operators the execution engine runs; coverage of core ATen and prims by conformance cases",
    .details = "Without a flag, the key of every op the engine has a kernel for. An op counts as covered only when it has a "
               "kernel and the conformance corpus has cases for it that all pass (each run at 1 and 2 threads).",
    .flags = {{"--coverage", "", "run the conformance corpus: ops covered, and the op x dtype table"},
              {"--missing", "", "with --coverage: every op not covered, and why"},
              {"--conformance", "DIR", "the conformance folder (default: the source tree's tests/conformance)",
               ValueKind::Directory},
              jsonFlag("the kernels and the coverage (runs the corpus)")},
    .exits = {exitDone("listed"), exitUnusable()},
    .run = runOps,
});

} // namespace
} // namespace irlens::cli
