// irlens-cli info FILE: what the file is and what the program holds, in one screen.
#include "app/cli/commands.h"
#include "core/io/aoti_package.h"
#include "core/io/json_codec.h"
#include "core/io/pt2_reader.h"

#include <cstdio>
#include <map>
#include <string>

namespace irlens::cli {
namespace {

using namespace irlens::core;

std::string humanBytes(uint64_t bytes) {
    const char* units[] = {"B", "KiB", "MiB", "GiB"};
    double v = double(bytes);
    int u = 0;
    while (v >= 1024 && u < 3) { v /= 1024; ++u; }
    char buf[32];
    std::snprintf(buf, sizeof buf, u ? "%.1f %s" : "%.0f %s", v, units[u]);
    return buf;
}

std::string describeArg(const Program& p, const Argument& a) {
    switch (a.kind) {
    case ArgKind::Tensor:
        if (const auto* m = p.graph.tensorMeta(a.s)) return a.s + " " + m->shortString();
        return a.s;
    case ArgKind::SymInt: return a.isName ? a.s + " (SymInt)" : std::to_string(a.i);
    case ArgKind::None: return "None";
    case ArgKind::Int: return std::to_string(a.i);
    case ArgKind::Float: return std::to_string(a.f);
    case ArgKind::Bool: return a.b ? "True" : "False";
    case ArgKind::String: return "'" + a.s + "'";
    default: return a.s.empty() ? "(constant)" : a.s;
    }
}

// An AOTInductor package holds compiled code, not a program: say what it holds instead of refusing it.
int printPackage(const std::string& path) {
    auto package = readAotiPackage(path);
    if (!package) return fail(Unusable, package.error());
    for (const auto& line : describeAotiPackage(*package)) std::printf("%s\n", line.c_str());
    return Ok;
}

int runInfo(const Args& args) {
    if (args.positional().size() != 1) return fail(Unusable, args.usage());
    const std::string path = args.positional()[0];

    auto archive = inspectPt2(path);
    if (!archive) return fail(Unusable, archive.error());
    if (archive->kind == ArchiveInfo::Kind::AotInductorPackage) return printPackage(path);
    LoadOptions options;
    options.modelName = args.value("--model");
    auto loaded = loadPt2(path, options);
    if (!loaded) return fail(Unusable, loaded.error());
    const Program& p = **loaded;

    std::printf("file:        %s\n", path.c_str());
    std::printf("container:   %s\n", archive->description.c_str());
    if (archive->models.size() > 1) {
        std::printf("models:     ");
        for (const auto& m : archive->models) std::printf(" %s", m.c_str());
        std::printf("\n");
    }
    std::printf("model:       %s\n", p.modelName.c_str());
    std::printf("schema:      %s\n", p.schemaVersion.toString().c_str());
    if (!p.torchVersion.empty()) std::printf("torch:       %s\n", p.torchVersion.c_str());
    else std::printf("torch:       %s (estimated: the file records no version)\n", p.torchVersionEstimate.c_str());
    // A file irlens rewrote keeps the exporting torch's version; the writer is recorded beside it.
    if (auto w = p.metadata.find(core::kWriterMetadataKey); w != p.metadata.end())
        std::printf("written by:  %s (torch above exported the graph)\n", w->second.c_str());
    std::string dialect;
    for (const auto& v : p.verifiers) dialect += (dialect.empty() ? "" : ", ") + v;
    if (dialect.empty()) dialect = p.dialect.empty() ? "(none)" : p.dialect;
    std::printf("dialect:     %s\n", dialect.c_str());

    std::map<std::string, int> byKind;
    std::map<std::string, int> byOp;
    for (const auto& n : p.graph.nodes) {
        switch (n.target.kind) {
        case Target::Kind::Op: ++byKind["call_function (op)"]; break;
        case Target::Kind::HigherOrder: ++byKind["call_function (higher-order)"]; break;
        case Target::Kind::Symbolic: ++byKind["call_function (symbolic)"]; break;
        case Target::Kind::Extension: ++byKind["call_function (extension)"]; break;
        case Target::Kind::Unknown: ++byKind["call_function (unknown target)"]; break;
        }
        ++byOp[n.target.shortName()];
    }
    std::printf("nodes:       %zu call_function, %zu placeholders, 1 output\n", p.graph.nodes.size(), p.graph.inputs.size());
    for (const auto& [k, c] : byKind) std::printf("  %-34s %d\n", k.c_str(), c);
    std::printf("ops:         %zu distinct\n", byOp.size());
    for (const auto& [op, c] : byOp) std::printf("  %-50s %d\n", op.c_str(), c);

    uint64_t paramCount = 0, paramBytes = 0, bufferBytes = 0, constBytes = 0;
    int params = 0, buffers = 0, consts = 0, users = 0;
    for (const auto& spec : p.signature.inputSpecs) {
        const TensorData* t = p.stateTensorFor(spec);
        uint64_t bytes = t ? uint64_t(t->numel()) * elementSize(t->dtype) : 0;
        switch (spec.kind) {
        case InputKind::Parameter: ++params; paramBytes += bytes; paramCount += t ? t->numel() : 0; break;
        case InputKind::Buffer: ++buffers; bufferBytes += bytes; break;
        case InputKind::TensorConstant: ++consts; constBytes += bytes; break;
        case InputKind::UserInput: case InputKind::ConstantInput: ++users; break;
        default: break;
        }
    }
    std::printf("parameters:  %d tensors, %llu elements, %s\n", params, (unsigned long long)paramCount, humanBytes(paramBytes).c_str());
    std::printf("buffers:     %d tensors, %s\n", buffers, humanBytes(bufferBytes).c_str());
    std::printf("constants:   %d tensors, %s\n", consts, humanBytes(constBytes).c_str());
    std::printf("inputs:      %d user\n", users);
    for (size_t k = 0; k < p.signature.inputSpecs.size(); ++k) {
        const auto& spec = p.signature.inputSpecs[k];
        if (spec.kind != InputKind::UserInput && spec.kind != InputKind::ConstantInput) continue;
        std::string desc = spec.kind == InputKind::ConstantInput ? spec.name + " = " + describeArg(p, spec.arg)
                                                                  : describeArg(p, spec.arg);
        std::printf("  %s\n", desc.c_str());
    }
    std::printf("outputs:     %zu\n", p.signature.outputSpecs.size());
    for (const auto& spec : p.signature.outputSpecs) {
        std::string extra = spec.target.empty() ? "" : " -> " + spec.target;
        std::printf("  %-18s %s%s\n", outputKindName(spec.kind), describeArg(p, spec.arg).c_str(), extra.c_str());
    }
    if (!p.rangeConstraints.empty()) {
        std::printf("symbols:\n");
        for (const auto& [sym, rc] : p.rangeConstraints)
            std::printf("  %s in [%s, %s]\n", sym.c_str(), rc.minVal ? std::to_string(*rc.minVal).c_str() : "-inf",
                        rc.maxVal ? std::to_string(*rc.maxVal).c_str() : "inf");
    }
    std::printf("sample inputs: %s\n", p.hasSampleInputs ? (std::to_string(p.sampleArgs.size()) + " positional").c_str() : "none");
    return Ok;
}

const CommandRegistration registeredInfo({
    .name = "info",
    .forms = {"FILE [--model NAME]"},
    .summary = "era, versions, node counts by kind and op, parameters, inputs and outputs; what an AOTInductor package holds",
    .operands = {{"FILE", "a .pt2 program or an AOTInductor package"}},
    .flags = {modelFlag()},
    .exits = {exitDone("described"), exitUnusable()},
    .run = runInfo,
});

} // namespace
} // namespace irlens::cli
