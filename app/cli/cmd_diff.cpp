// irlens-cli diff A.pt2 B.pt2 [--numeric] [--json]: what differs between two programs, node by node
// (matched by PT2E's numeric debug handles when both carry them, else by structure, never by name),
// per module, and with --numeric where their values part, with the five measures of every matched pair.
// `diff A.pt2 --to core|prims` compares a program with its own decomposition (matched through the
// decomposition's old -> new map). Exit 0 when equal, 1 when they differ, 2 for unreadable input.
#include "app/cli/commands.h"

#include "core/compare/divergence.h"
#include "core/compare/program_match.h"
#include "core/decomp/decomp_session.h"
#include "core/io/pt2_reader.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>

namespace irlens::cli {
namespace {

using core::MatchKind;
using core::ProgramMatch;

std::string moduleOf(const core::Node& n) {
    return n.meta.moduleStack && !n.meta.moduleStack->empty() ? n.meta.moduleStack->back().path : std::string();
}

/// The node a pair is about (its left node, else its first right node).
const core::Node& subject(const ProgramMatch& m, const core::NodePair& p) {
    return p.left >= 0 ? m.left->graph.nodes[static_cast<size_t>(p.left)] : m.right->graph.nodes[static_cast<size_t>(p.right[0])];
}

std::string opsOf(const ProgramMatch& m, const core::NodePair& p) {
    std::string left = p.left >= 0 ? m.left->graph.nodes[static_cast<size_t>(p.left)].target.shortName() : "-";
    std::string right;
    for (int r : p.right) right += (right.empty() ? "" : " + ") + m.right->graph.nodes[static_cast<size_t>(r)].target.shortName();
    if (p.kind == MatchKind::Added) return right;
    if (p.kind == MatchKind::Removed) return left;
    return left + " -> " + right;
}

nlohmann::json pairJson(const ProgramMatch& m, const core::NodePair& p) {
    nlohmann::json right = nlohmann::json::array();
    for (int r : p.right) right.push_back(m.right->graph.nodes[static_cast<size_t>(r)].name);
    return {{"kind", core::matchKindName(p.kind)}, {"left", p.left >= 0 ? nlohmann::json(m.leftName(p)) : nlohmann::json()},
            {"right", right}, {"ops", opsOf(m, p)}, {"module", moduleOf(subject(m, p))},
            {"changes", core::changeFlagsText(p.changes)}, {"detail", p.detail}};
}

nlohmann::json modulesJson(const ProgramMatch& m) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& d : m.modules) {
        nlohmann::json ops = nlohmann::json::object(), params = nlohmann::json::array();
        for (const auto& [op, c] : d.opCounts) ops[op] = {c.first, c.second};
        for (const auto& p : d.params) params.push_back({{"fqn", p.fqn}, {"left", p.left}, {"right", p.right}});
        out.push_back({{"module", d.path}, {"left_nodes", d.leftNodes}, {"right_nodes", d.rightNodes}, {"on_left", d.onLeft},
                       {"on_right", d.onRight}, {"ops", ops}, {"params", params}});
    }
    return out;
}

nlohmann::json measure(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(core::formatMeasure(v)); }

nlohmann::json comparisonJson(const ProgramMatch& m, const core::ValueComparison& c) {
    const auto& p = m.pairs[static_cast<size_t>(c.pair)];
    const core::NodeError& e = c.error;
    return {{"left", m.leftName(p)}, {"right", m.right->graph.nodes[static_cast<size_t>(c.rightNode)].name},
            {"module", moduleOf(subject(m, p))}, {"agree", c.agree}, {"max_abs", measure(e.maxAbs)}, {"max_rel", measure(e.maxRel)},
            {"norm_rel", measure(e.normRel)}, {"cosine", measure(e.cosine)}, {"sqnr_db", measure(e.sqnrDb)}, {"elements", c.elements}};
}

nlohmann::json divergenceJson(const ProgramMatch& m, const core::Divergence& d) {
    nlohmann::json j = {{"inputs", d.inputs}, {"compared", d.compared.size()}, {"skipped", d.skipped},
                        {"outputs_agree", d.outputsAgree}, {"summary", d.summary(m)}, {"values", nlohmann::json::array()}};
    for (const auto& c : d.compared) j["values"].push_back(comparisonJson(m, c));
    if (const auto* f = d.firstDivergent()) {
        nlohmann::json path = nlohmann::json::array();
        for (int pi : d.agreeingPath) path.push_back(m.leftName(m.pairs[static_cast<size_t>(pi)]));
        j["first"] = comparisonJson(m, *f);
        j["first"]["agreeing_path"] = path;
    }
    return j;
}

// The pairs whose values are furthest apart, by normwise relative error, with their SQNR.
void printLargestErrors(const ProgramMatch& m, const core::Divergence& d, size_t rows) {
    std::vector<const core::ValueComparison*> worst;
    for (const auto& c : d.compared) worst.push_back(&c);
    std::sort(worst.begin(), worst.end(), [](const auto* a, const auto* b) { return a->error.normRel > b->error.normRel; });
    if (worst.empty() || worst.front()->error.normRel == 0) return;
    std::printf("  largest errors (normwise relative, SQNR):\n");
    for (size_t k = 0; k < worst.size() && k < rows && worst[k]->error.normRel > 0; ++k) {
        const auto& p = m.pairs[static_cast<size_t>(worst[k]->pair)];
        const std::string names = m.leftName(p) + " -> " + m.right->graph.nodes[static_cast<size_t>(worst[k]->rightNode)].name;
        std::printf("    %-10s %9s dB  %-40s %s\n", core::formatMeasure(worst[k]->error.normRel).c_str(),
                    core::formatMeasure(worst[k]->error.sqnrDb).c_str(), names.c_str(), moduleOf(subject(m, p)).c_str());
    }
}

void printText(const std::string& a, const std::string& b, const ProgramMatch& m, const std::optional<core::Divergence>& d) {
    std::printf("%s vs %s (%s match)\n%s\n", a.c_str(), b.c_str(), core::matchMethodName(m.method), m.summary().c_str());
    for (const auto& note : m.signatureNotes) std::printf("signature: %s\n", note.c_str());
    const auto diffs = m.differences();
    if (!diffs.empty()) std::printf("\ndifferences (%zu):\n", diffs.size());
    for (int k : diffs) {
        const auto& p = m.pairs[static_cast<size_t>(k)];
        std::string names = (p.left >= 0 ? m.leftName(p) : "-") + " -> " + (p.right.empty() ? "-" : m.rightNames(p));
        const std::string what = p.detail.empty() ? opsOf(m, p) : p.detail;
        std::printf("  %-8s %-36s %-24s %s\n", core::matchKindName(p.kind), names.c_str(), moduleOf(subject(m, p)).c_str(), what.c_str());
    }
    if (!m.modules.empty()) std::printf("\nmodules (%zu):\n", m.modules.size());
    for (const auto& md : m.modules) {
        std::string ops;
        for (const auto& [op, c] : md.opCounts) ops += " " + op + " " + std::to_string(c.first) + "->" + std::to_string(c.second);
        const char* where = !md.onLeft ? " (added)" : !md.onRight ? " (removed)" : "";
        std::printf("  %-28s%s nodes %d->%d%s", md.path.empty() ? "(root)" : md.path.c_str(), where, md.leftNodes,
                    md.rightNodes, ops.c_str());
        if (!md.params.empty()) std::printf("; %zu parameter(s) differ", md.params.size());
        std::printf("\n");
    }
    if (d) {
        std::printf("\nnumeric (%s): %s\n", d->inputs.c_str(), d->summary(m).c_str());
        if (!d->agreeingPath.empty()) {
            std::printf("  agreeing path:");
            for (int pi : d->agreeingPath) std::printf(" %s ->", m.leftName(m.pairs[static_cast<size_t>(pi)]).c_str());
            std::printf(" %s\n", m.leftName(m.pairs[static_cast<size_t>(d->firstDivergent()->pair)]).c_str());
        }
        printLargestErrors(m, *d, 10);
    }
}

/// Weights only when the values are compared: the structure needs the graph and its meta alone.
core::Result<core::ProgramPtr> loadFile(const std::string& path, bool weights) {
    core::LoadOptions options;
    options.loadWeights = weights;
    auto p = core::loadPt2(path, options);
    if (!p) return p.status(); // the reader's message names the file
    return core::ProgramPtr(*p);
}

/// The match the arguments ask for: two files structurally, or one file against its decomposition.
core::Result<ProgramMatch> matchArgs(const Args& args, std::string& rightLabel) {
    const bool weights = args.has("--numeric");
    auto left = loadFile(args.positional()[0], weights);
    if (!left) return left.status();
    if (args.has("--to")) {
        const std::string level = args.value("--to");
        if (level != "core" && level != "prims") return core::Status::error("--to takes core or prims, not '" + level + "'");
        core::DecompSessionOptions options;
        options.verify = false;
        core::DecompSession session(*left, options);
        auto step = session.stepToLevel(level == "core" ? core::IrLevel::CoreAten : core::IrLevel::Prims);
        if (!step) return step.status().withContext("decomposing to " + level);
        rightLabel = args.positional()[0] + " decomposed to " + level;
        return core::matchDecomposition(session);
    }
    auto right = loadFile(args.positional()[1], weights);
    if (!right) return right.status();
    rightLabel = args.positional()[1];
    if (core::carriesDebugHandles(**left) && core::carriesDebugHandles(**right)) return core::matchByDebugHandle(*left, *right);
    return core::matchStructurally(*left, *right);
}

int runDiff(const Args& args) {
    const size_t want = args.has("--to") ? 1 : 2;
    if (args.positional().size() != want) return fail(Unusable, args.usage());
    std::string rightLabel;
    auto match = matchArgs(args, rightLabel);
    if (!match) return fail(Unusable, match.error());
    std::optional<core::Divergence> divergence;
    if (args.has("--numeric")) {
        core::DivergenceOptions options;
        options.expectedDir = args.value("--inputs");
        auto sidecar = std::filesystem::path(args.positional()[0]).parent_path() / "model.expected";
        if (options.expectedDir.empty() && std::filesystem::exists(sidecar / "manifest.json")) options.expectedDir = sidecar.string();
        if (args.has("--tolerance")) options.tolerance = std::atof(args.value("--tolerance").c_str());
        auto d = core::findDivergence(*match, options);
        if (!d) return fail(Unusable, "numeric comparison: " + d.error());
        divergence = std::move(*d);
    }
    const bool differ = !match->identical() || (divergence && divergence->firstDivergent());
    if (args.has("--json")) {
        nlohmann::json j = {{"left", args.positional()[0]}, {"right", rightLabel}, {"match", core::matchMethodName(match->method)},
                            {"identical", !differ},
                            {"summary", match->summary()}, {"signature", match->signatureNotes}};
        j["differences"] = nlohmann::json::array();
        for (int k : match->differences()) j["differences"].push_back(pairJson(*match, match->pairs[static_cast<size_t>(k)]));
        j["modules"] = modulesJson(*match);
        if (divergence) j["numeric"] = divergenceJson(*match, *divergence);
        std::string text = j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
        std::fwrite(text.data(), 1, text.size(), stdout);
    } else {
        printText(args.positional()[0], rightLabel, *match, divergence);
    }
    return differ ? CheckFailed : Ok;
}

const CommandRegistration registeredDiff({
    .name = "diff",
    .forms = {"A.pt2 B.pt2 [--numeric [--inputs DIR] [--tolerance T]] [--json]",
              "A.pt2 --to core|prims [--numeric [--inputs DIR] [--tolerance T]] [--json]"},
    .summary = "what differs between two programs (exit 1 when they differ)",
    .details = "Nodes are matched by structure, never by name, then compared node by node and module by module; "
               "with --to, A is compared with its own decomposition, matched through the decomposition's map of old "
               "nodes to new.",
    .operands = {{"A.pt2", "the program on the left"}, {"B.pt2", "the program on the right (not with --to)"}},
    .flags = {{"--to", "LEVEL", "compare A with A decomposed to core or prims", ValueKind::Choice, {"core", "prims"}},
              {"--numeric", "", "also run both on the same inputs and name the first node whose values part"},
              {"--inputs", "DIR", "with --numeric: the model.expected/ folder whose main case gives the inputs (default: the "
                                  "one beside A, else A's sample inputs, else generated ones)", ValueKind::Directory},
              {"--tolerance", "T", "with --numeric: the relative error above which two values differ (default 1e-4)"},
              jsonFlag("the differences, the modules and the numeric comparison")},
    .exits = {exitDone("the programs are the same (and with --numeric, so are their values)"),
              {CheckFailed, "they differ"},
              exitUnusable()},
    .run = runDiff,
});

} // namespace
} // namespace irlens::cli
