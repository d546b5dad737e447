#include "app/cli/run_numerics.h"

#include "core/exec/output_summary.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace irlens::cli {

using namespace irlens::core;

namespace {

// Flags that only mean something for the timed runs.
constexpr const char* kTimedOnly[] = {"--threads", "--repeat", "--warmup", "--trace", "--profile", "--memory",
                                      "--critical-path", "--what-if", "--by-line", "--expect", "--sym", "--seed"};

nlohmann::json number(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(formatMeasure(v)); }

std::string moduleOf(const Node& n) { return n.meta.moduleStack && !n.meta.moduleStack->empty() ? n.meta.moduleStack->back().path : ""; }

std::string measuresText(const NodeError& e) {
    if (e.exact) return std::to_string(e.differing) + " of " + std::to_string(e.elements) + " elements differ (compared exactly)";
    return "max abs " + formatMeasure(e.maxAbs) + "  max rel " + formatMeasure(e.maxRel) + "  normwise rel " + formatMeasure(e.normRel) +
           "  cosine " + formatMeasure(e.cosine) + "  SQNR " + formatMeasure(e.sqnrDb) + " dB";
}

std::string names(const std::vector<std::string>& list, size_t most = 10) {
    std::string out;
    for (size_t k = 0; k < list.size() && k < most; ++k) out += (k ? ", " : "") + list[k];
    if (list.size() > most) out += ", ...";
    return out;
}

void printReference(const Program& p, const NumericRun& run, int64_t top) {
    std::vector<std::string> missing, unused, mismatched;
    for (const auto& v : run.values) {
        if (v.check == ValueCheck::NoReference) (v.read ? missing : unused).push_back(v.name);
        if (v.check == ValueCheck::ShapeMismatch || v.check == ValueCheck::DtypeMismatch)
            mismatched.push_back(v.name + " (" + valueCheckName(v.check) + " " + v.shape + ", reference " + v.referenceShape + ")");
    }
    std::printf("reference %s: %zu agree, %zu differ, %zu shape, %zu dtype; %zu not in the reference, %zu only in the reference\n",
                run.referencePath.c_str(), run.count(ValueCheck::Agree), run.count(ValueCheck::Differ), run.count(ValueCheck::ShapeMismatch),
                run.count(ValueCheck::DtypeMismatch), missing.size() + unused.size(), run.referenceOnly.size());
    if (!missing.empty()) std::printf("          not in the reference: %s\n", names(missing).c_str());
    if (!unused.empty())
        std::printf("          not in the reference, read by no node: %zu unused tuple elements (%s)\n", unused.size(), names(unused, 2).c_str());
    if (!run.referenceOnly.empty()) std::printf("          only in the reference: %s\n", names(run.referenceOnly).c_str());
    if (!mismatched.empty()) std::printf("          mismatched: %s\n", names(mismatched, 6).c_str());
    std::vector<const ValueRecord*> worst;
    for (const auto& v : run.values)
        if ((v.check == ValueCheck::Agree || v.check == ValueCheck::Differ) && !v.error.exact) worst.push_back(&v);
    std::sort(worst.begin(), worst.end(), [](const ValueRecord* a, const ValueRecord* b) { return a->error.normRel > b->error.normRel; });
    if (top > 0 && !worst.empty()) std::printf("largest errors (normwise relative):\n");
    for (size_t k = 0; k < worst.size() && k < static_cast<size_t>(top); ++k)
        std::printf("  %-10s %-28s %-18s %s\n", formatMeasure(worst[k]->error.normRel).c_str(), worst[k]->name.c_str(),
                    worst[k]->shape.c_str(), p.graph.nodes[static_cast<size_t>(worst[k]->node)].target.shortName().c_str());
    if (run.firstDivergent < 0) return;
    const ValueRecord& d = run.values[static_cast<size_t>(run.firstDivergent)];
    std::printf("first     %s\n", describeNode(p, d.node).c_str());
    std::printf("          value %s %s, reference %s\n", d.name.c_str(), d.shape.c_str(), d.referenceShape.c_str());
    if (d.check != ValueCheck::ShapeMismatch) std::printf("          %s\n", measuresText(d.error).c_str());
    std::string chain;
    for (int r : run.agreeingChain) chain += run.values[static_cast<size_t>(r)].name + " -> ";
    std::printf("agreeing  %s%s\n", chain.c_str(), d.name.c_str());
}

void printFinite(const Program& p, const NumericRun& run) {
    const NonFiniteOrigin& o = run.nonFinite;
    if (!o.nonFiniteInputs.empty()) std::printf("finite    graph inputs holding NaN or Inf: %s\n", names(o.nonFiniteInputs).c_str());
    if (o.first() < 0) {
        std::printf("finite    no node makes a NaN from inputs without one, or an infinity from finite inputs\n");
    } else {
        const ValueRecord& v = run.values[static_cast<size_t>(o.first())];
        std::printf("finite    first NaN/Inf made by %s\n", describeNode(p, v.node).c_str());
        std::printf("          value %s %s: %lld NaN, %lld +inf, %lld -inf of %lld; first at %s\n", v.name.c_str(), v.shape.c_str(),
                    static_cast<long long>(v.finite.nan), static_cast<long long>(v.finite.posInf), static_cast<long long>(v.finite.negInf),
                    static_cast<long long>(exec::shapeNumel(v.sizes)), indexText(v.finite.first, v.sizes).c_str());
    }
    if (o.carriers > 0 || o.producers.size() > 1)
        std::printf("          %d later values only carry it on; %zu more nodes make their own\n", o.carriers,
                    o.producers.empty() ? 0 : o.producers.size() - 1);
    if (o.fromConstants.empty()) return;
    std::vector<std::string> literal;
    for (int r : o.fromConstants) literal.push_back(run.values[static_cast<size_t>(r)].name);
    std::printf("          %zu nodes put a non-finite literal argument into their output on purpose: %s\n", literal.size(),
                describeNode(p, run.values[static_cast<size_t>(o.fromConstants.front())].node).c_str());
    if (literal.size() > 1) std::printf("          (%s)\n", names(literal).c_str());
}

nlohmann::json valueJson(const Program& p, const ValueRecord& v) {
    const Node& n = p.graph.nodes[static_cast<size_t>(v.node)];
    nlohmann::json j = {{"name", v.name}, {"node", n.name}, {"op", n.target.shortName()}, {"module", moduleOf(n)}, {"shape", v.shape},
                        {"check", valueCheckName(v.check)}, {"read", v.read}, {"nan", v.finite.nan}, {"posinf", v.finite.posInf}, {"neginf", v.finite.negInf}};
    if (!v.referenceShape.empty()) j["reference_shape"] = v.referenceShape;
    if (v.check == ValueCheck::Agree || v.check == ValueCheck::Differ || v.check == ValueCheck::DtypeMismatch)
        j["error"] = {{"max_abs", number(v.error.maxAbs)}, {"max_rel", number(v.error.maxRel)}, {"norm_rel", number(v.error.normRel)},
                      {"cosine", number(v.error.cosine)}, {"sqnr_db", number(v.error.sqnrDb)}, {"differing", v.error.differing},
                      {"exact", v.error.exact}};
    return j;
}

nlohmann::json runJson(const Program& p, const std::string& file, const NumericRun& run, const NumericFlags& flags) {
    nlohmann::json j = {{"file", file}, {"inputs_from", run.inputsFrom}, {"values", nlohmann::json::array()}};
    for (const auto& v : run.values) j["values"].push_back(valueJson(p, v));
    if (run.compared) {
        j["reference"] = {{"path", run.referencePath}, {"tolerance", {{"norm_rel", run.tolerance.normRel}, {"atol", run.tolerance.atol}}},
                          {"agree", run.count(ValueCheck::Agree)}, {"differ", run.count(ValueCheck::Differ)},
                          {"shape", run.count(ValueCheck::ShapeMismatch)}, {"dtype", run.count(ValueCheck::DtypeMismatch)},
                          {"missing", run.count(ValueCheck::NoReference)}, {"reference_only", run.referenceOnly},
                          {"verdict", run.verdict(p)}};
        nlohmann::json first;
        if (run.firstDivergent >= 0) {
            first = valueJson(p, run.values[static_cast<size_t>(run.firstDivergent)]);
            first["agreeing_chain"] = nlohmann::json::array();
            for (int r : run.agreeingChain) first["agreeing_chain"].push_back(run.values[static_cast<size_t>(r)].name);
        }
        j["first_divergence"] = first;
    }
    if (flags.checkFinite) {
        const NonFiniteOrigin& o = run.nonFinite;
        nlohmann::json f = {{"carriers", o.carriers}, {"producers", o.producers.size()}, {"non_finite_inputs", o.nonFiniteInputs}};
        f["first_producer"] = o.first() >= 0 ? valueJson(p, run.values[static_cast<size_t>(o.first())]) : nlohmann::json();
        if (o.first() >= 0) {
            const ValueRecord& v = run.values[static_cast<size_t>(o.first())];
            f["first_producer"]["where"] = describeNode(p, v.node);
            f["first_producer"]["example_index"] = v.finite.first;
        }
        f["on_purpose"] = nlohmann::json::array();
        for (int r : o.fromConstants) f["on_purpose"].push_back(run.values[static_cast<size_t>(r)].name);
        j["finite"] = f;
    }
    if (!run.dumpPath.empty()) j["dump"] = {{"path", run.dumpPath}, {"values", run.dumped}, {"bytes", run.dumpBytes}, {"not_dumped", run.notDumped}};
    return j;
}

} // namespace

core::Result<NumericFlags> parseNumericFlags(const Args& args) {
    NumericFlags f;
    f.dump = args.value("--dump");
    f.reference = args.value("--reference");
    f.checkFinite = args.has("--check-finite");
    if (args.has("--tolerance")) {
        const std::string t = args.value("--tolerance");
        char* end = nullptr;
        f.tolerance = std::strtod(t.c_str(), &end);
        if (t.empty() || *end != '\0' || !(f.tolerance >= 0) || !std::isfinite(f.tolerance))
            return Status::error("--tolerance needs a number >= 0 (the normwise relative error allowed), not '" + t + "'");
        if (f.reference.empty()) return Status::error("--tolerance applies to --reference");
    }
    if (!f.any()) return f;
    for (const char* flag : kTimedOnly)
        if (args.has(flag))
            return Status::error(std::string(flag) + " does not combine with --dump, --reference or --check-finite (they run every node once, "
                                                     "in order, on one thread)");
    return f;
}

int runNumericMode(core::ProgramPtr program, const std::string& file, const exec::InputRequest& inputs, const NumericFlags& flags,
                   bool json, int64_t top) {
    NumericRunOptions options;
    options.inputs = inputs;
    options.reference = flags.reference;
    options.tolerance.normRel = flags.tolerance;
    options.dumpPath = flags.dump;
    options.programLabel = file;
    auto run = runNumerics(program, options);
    if (!run) return fail(Unusable, run.error());
    const Program& p = *program;
    if (json) {
        std::printf("%s\n", runJson(p, file, *run, flags).dump(1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
    } else {
        std::printf("program   %s (%zu nodes, %zu tensor values, run node by node)\n", file.c_str(), p.graph.nodes.size(), run->values.size());
        std::printf("inputs    %s\n", run->inputsFrom.c_str());
        const exec::RunResult& r = run->result;
        for (size_t k = 0; k < r.outputs.size(); ++k)
            std::printf("output    %-20s %s\n", r.specs[k].name.c_str(),
                        r.outputs[k].isTensor() ? exec::outputSummaryLine(r.outputs[k].tensor).c_str() : r.outputs[k].describe().c_str());
        if (!run->dumpPath.empty())
            std::printf("dump      %s: %zu values, %.1f MB%s\n", run->dumpPath.c_str(), run->dumped, static_cast<double>(run->dumpBytes) / 1e6,
                        run->notDumped.empty() ? "" : (" (left out, no safetensors dtype: " + names(run->notDumped) + ")").c_str());
        if (run->compared) printReference(p, *run, top);
        if (flags.checkFinite) printFinite(p, *run);
        if (run->compared) std::printf("verdict   %s\n", run->verdict(p).c_str());
    }
    const bool diverged = run->compared && run->firstDivergent >= 0;
    const bool nonFinite = flags.checkFinite && run->nonFinite.any();
    return diverged || nonFinite ? CheckFailed : Ok;
}

} // namespace irlens::cli
