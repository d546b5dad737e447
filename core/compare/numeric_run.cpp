#include "core/compare/numeric_run.h"

#include "core/compare/finite_origin.h"
#include "core/exec/stepper.h"
#include "core/io/tensor_file.h"

#include <algorithm>
#include <filesystem>
#include <unordered_map>
#include <unordered_set>

namespace irlens::core {
namespace {

using exec::EValue;
using exec::ExecutionPlan;
using exec::Tensor;

std::string joined(const std::vector<std::string>& items, size_t most = 8) {
    std::string out;
    for (size_t k = 0; k < items.size() && k < most; ++k) out += (k ? ", " : "") + items[k];
    if (items.size() > most) out += ", ... (" + std::to_string(items.size()) + " in all)";
    return out;
}

// The reference values by name, viewed in place in their file.
struct Reference {
    TensorFile file;
    std::unordered_map<std::string, const TensorFileEntry*> byName;
};

Result<Reference> openReference(const std::string& path) {
    Reference ref;
    IRLENS_ASSIGN_OR_RETURN(file, readTensorFile(path));
    if (!file.named)
        return Status::error(path + ": reference values must be keyed by node name (a dict .pt, safetensors, named .npz or a folder of "
                                    "NAME.npy); this " + std::string(tensorFileFormatName(file.format)) + " file holds values by position");
    ref.file = std::move(file);
    for (const auto& e : ref.file.entries) ref.byName.emplace(e.name, &e);
    return ref;
}

// The slots of the tensor values a node output, in the order of its outputs.
std::vector<int> tensorOutputs(const exec::PlanGraph& g, const exec::PlanNode& pn, const exec::Stepper& stepper) {
    std::vector<int> out;
    for (const auto& slots : pn.outputSlots)
        for (int s : slots) {
            if (s < 0) continue;
            const EValue* v = stepper.value(g.slotNames[static_cast<size_t>(s)]);
            if (v && v->isTensor() && v->tensor.defined()) out.push_back(s);
        }
    return out;
}

void compareWith(ValueRecord& rec, const Tensor& value, const TensorFileEntry& ref, const Tolerance& tol, int statsBins) {
    if (ref.value.kind != Value::Kind::Tensor) {
        rec.check = ValueCheck::ShapeMismatch;
        rec.referenceShape = "not a tensor";
        return;
    }
    auto r = Tensor::fromTensorData(ref.value.tensor);
    if (!r) {
        rec.check = ValueCheck::ShapeMismatch;
        rec.referenceShape = r.error();
        return;
    }
    rec.referenceShape = r->shapeString();
    if (statsBins > 0 && !isComplexType(value.dtype()) && !isComplexType(r->dtype())) {
        auto [mine, theirs] = valueStatsOfPair(value, *r, statsBins); // any two shapes: their elements side by side
        rec.stats = std::move(mine);
        rec.referenceStats = std::move(theirs);
    }
    if (r->sizes() != value.sizes()) {
        rec.check = ValueCheck::ShapeMismatch;
        return;
    }
    if (isComplexType(value.dtype()) || isComplexType(r->dtype())) {
        rec.check = ValueCheck::NotCompared;
        return;
    }
    rec.error = measureError(value, *r);
    if (r->dtype() != value.dtype()) rec.check = ValueCheck::DtypeMismatch;
    else rec.check = withinTolerance(rec.error, tol) ? ValueCheck::Agree : ValueCheck::Differ;
}

// The dump: every tensor value the graph meta announces, planned with its rank (the widest when unknown).
Result<std::unique_ptr<SafetensorsWriter>> openDump(const ExecutionPlan& plan, const NumericRunOptions& options, const std::string& inputsFrom) {
    constexpr size_t kUnknownRank = 16;
    std::vector<SafetensorsWriter::Planned> planned;
    const exec::PlanGraph& g = plan.graph();
    for (const auto& pn : g.nodes)
        for (const auto& slots : pn.outputSlots)
            for (int s : slots) {
                if (s < 0) continue;
                const std::string& name = g.slotNames[static_cast<size_t>(s)];
                const TensorMeta* meta = plan.program().graph.tensorMeta(name);
                planned.push_back({name, meta ? meta->sizes.size() : kUnknownRank});
            }
    std::map<std::string, std::string> metadata{{"format", "irlens-values/1"},
                                                {"program", options.programLabel},
                                                {"inputs", inputsFrom},
                                                {"irlens_version", IRLENS_VERSION},
                                                {"order", "execution order of the top-level graph (sort by data_offsets)"}};
    return SafetensorsWriter::create(options.dumpPath, planned, metadata);
}

Status dumpValue(SafetensorsWriter& dump, const std::string& name, const Tensor& t, NumericRun& out) {
    if (safetensorsDtype(t.dtype()).empty()) {
        out.notDumped.push_back(name);
        return Status::ok();
    }
    if (t.isContiguous()) IRLENS_TRY(dump.add(name, t.dtype(), t.sizes(), t.raw(), static_cast<size_t>(t.nbytes())));
    else IRLENS_TRY(dump.add(name, t.toTensorData()));
    ++out.dumped;
    return Status::ok();
}

// The producers of value `failed`, followed through the first input each node reads that another
// node made, while they agree with the reference.
std::vector<int> agreeingChain(const Program& program, const std::vector<ValueRecord>& values, int failed) {
    std::unordered_map<std::string, int> recordOf;
    for (size_t k = 0; k < values.size(); ++k) recordOf.emplace(values[k].name, static_cast<int>(k));
    std::vector<int> chain;
    std::unordered_set<int> seen;
    int current = failed;
    while (seen.insert(current).second) {
        const Node& n = program.graph.nodes[static_cast<size_t>(values[static_cast<size_t>(current)].node)];
        int next = -1;
        for (const auto& in : n.inputs) {
            std::vector<std::string> names;
            in.arg.collectValueNames(names);
            for (const auto& v : names)
                if (auto it = recordOf.find(v); it != recordOf.end()) { next = it->second; break; }
            if (next >= 0) break;
        }
        if (next < 0 || values[static_cast<size_t>(next)].check != ValueCheck::Agree) break;
        chain.push_back(next);
        current = next;
    }
    std::reverse(chain.begin(), chain.end());
    return chain;
}

// Steps every node, looking at each tensor value right after it was made.
Status stepAll(exec::Stepper& stepper, const Reference* ref, SafetensorsWriter* dump, FiniteOriginTracker& finite,
               const NumericRunOptions& options, NumericRun& out) {
    const exec::PlanGraph& g = stepper.plan().graph();
    const int total = stepper.nodeCount();
    for (int k = 0; k < total; ++k) {
        if (options.cancel && options.cancel->load(std::memory_order_relaxed)) return Status::error("cancelled");
        IRLENS_TRY(stepper.step());
        const exec::PlanNode& pn = g.nodes[static_cast<size_t>(k)];
        std::vector<int> records;
        for (const int slot : tensorOutputs(g, pn, stepper)) {
            const std::string& name = g.slotNames[static_cast<size_t>(slot)];
            const Tensor& value = stepper.value(name)->tensor;
            ValueRecord rec;
            rec.node = k;
            rec.name = name;
            rec.read = g.useCounts[static_cast<size_t>(slot)] > 0;
            rec.shape = value.shapeString();
            rec.sizes = value.sizes();
            if (ref)
                if (auto it = ref->byName.find(name); it != ref->byName.end())
                    compareWith(rec, value, *it->second, options.tolerance, options.statsBins);
            if (options.statsBins > 0 && !rec.stats && !isComplexType(value.dtype())) rec.stats = valueStatsOf(value, options.statsBins);
            rec.finite = rec.stats && isFloatingType(value.dtype()) ? rec.stats->nonFinite : countNonFinite(value);
            if (dump) IRLENS_TRY(dumpValue(*dump, name, value, out));
            records.push_back(static_cast<int>(out.values.size()));
            out.values.push_back(std::move(rec));
        }
        if (!records.empty()) finite.afterNode(pn, records, out.values, out.nonFinite);
        if (options.progress) options.progress(k + 1, total);
    }
    return Status::ok();
}

// The first failed value in execution order and the producers before it that agree.
void findFirstDivergence(const Program& program, NumericRun& out) {
    out.firstDivergent = -1;
    out.agreeingChain.clear();
    for (size_t k = 0; k < out.values.size(); ++k)
        if (out.values[k].failed()) {
            out.firstDivergent = static_cast<int>(k);
            out.agreeingChain = agreeingChain(program, out.values, out.firstDivergent);
            return;
        }
}

// After the run: the values only the reference has, the first divergence and its agreeing producers.
Status summarize(const Program& program, const Reference& ref, NumericRun& out) {
    std::unordered_set<std::string> produced;
    for (const auto& v : out.values) produced.insert(v.name);
    for (const auto& e : ref.file.entries)
        if (!produced.count(e.name)) out.referenceOnly.push_back(e.name);
    if (out.count(ValueCheck::NoReference) == out.values.size() && !out.values.empty()) {
        std::vector<std::string> mine;
        for (const auto& v : out.values) mine.push_back(v.name);
        return Status::error(out.referencePath + ": the reference names none of the program's values (the program makes " + joined(mine) +
                             "; the reference holds " + joined(out.referenceOnly) + ")");
    }
    findFirstDivergence(program, out);
    return Status::ok();
}

} // namespace

const char* valueCheckName(ValueCheck c) {
    switch (c) {
    case ValueCheck::Agree: return "agree";
    case ValueCheck::Differ: return "differ";
    case ValueCheck::ShapeMismatch: return "shape";
    case ValueCheck::DtypeMismatch: return "dtype";
    case ValueCheck::NoReference: return "missing";
    case ValueCheck::NotCompared: return "not compared";
    }
    return "?";
}

size_t NumericRun::count(ValueCheck c) const {
    return static_cast<size_t>(std::count_if(values.begin(), values.end(), [c](const ValueRecord& v) { return v.check == c; }));
}

void applyTolerance(NumericRun& run, const Program& program, const Tolerance& tolerance) {
    run.tolerance = tolerance;
    for (auto& v : run.values)
        if (v.check == ValueCheck::Agree || v.check == ValueCheck::Differ)
            v.check = withinTolerance(v.error, tolerance) ? ValueCheck::Agree : ValueCheck::Differ;
    if (run.compared) findFirstDivergence(program, run);
}

std::string describeNode(const Program& program, int node) {
    if (node < 0 || static_cast<size_t>(node) >= program.graph.nodes.size()) return "?";
    const Node& n = program.graph.nodes[static_cast<size_t>(node)];
    std::string out = n.name + " (" + n.target.shortName();
    if (n.meta.moduleStack && !n.meta.moduleStack->empty() && !n.meta.moduleStack->back().path.empty())
        out += ", " + n.meta.moduleStack->back().path;
    out += ")";
    if (!n.meta.frames.empty()) {
        const StackFrame& f = n.meta.frames.back();
        out += " " + std::filesystem::path(f.file).filename().string() + ":" + std::to_string(f.line);
        if (!f.code.empty()) out += " `" + f.code + "`";
    }
    return out;
}

std::string NumericRun::verdict(const Program& program) const {
    if (!compared) return "";
    const std::string tol = formatMeasure(tolerance.normRel);
    if (firstDivergent < 0) {
        const size_t none = count(ValueCheck::NoReference) + count(ValueCheck::NotCompared);
        return "all " + std::to_string(count(ValueCheck::Agree)) + " compared values agree with the reference (normwise relative error <= " +
               tol + ")" + (none ? "; " + std::to_string(none) + " values not compared" : "");
    }
    const ValueRecord& v = values[static_cast<size_t>(firstDivergent)];
    std::string what;
    if (v.check == ValueCheck::ShapeMismatch) what = "shape " + v.shape + ", the reference's " + v.referenceShape;
    else if (v.check == ValueCheck::DtypeMismatch) what = "dtype " + v.shape + ", the reference's " + v.referenceShape;
    else what = "normwise relative error " + formatMeasure(v.error.normRel) + " > " + tol;
    return "first divergence at " + v.name + ": " + describeNode(program, v.node) + ": " + what + "; " +
           std::to_string(agreeingChain.size()) + " producers before it agree";
}

Result<NumericRun> runNumerics(ProgramPtr program, const NumericRunOptions& options) {
    // no fusion: every node computes its own value
    IRLENS_ASSIGN_OR_RETURN(plan, ExecutionPlan::compile(program, false, false));
    IRLENS_ASSIGN_OR_RETURN(picked, exec::pickInputs(*plan, options.inputs));
    NumericRun out;
    out.inputsFrom = picked.from;
    out.tolerance = options.tolerance;
    std::optional<Reference> ref;
    if (!options.reference.empty()) {
        IRLENS_ASSIGN_OR_RETURN(opened, openReference(options.reference));
        ref = std::move(opened);
        out.compared = true;
        out.referencePath = options.reference;
        out.referenceMetadata = ref->file.metadata;
    }
    std::unique_ptr<SafetensorsWriter> dump;
    if (!options.dumpPath.empty()) {
        IRLENS_ASSIGN_OR_RETURN(writer, openDump(*plan, options, out.inputsFrom));
        dump = std::move(writer);
        out.dumpPath = options.dumpPath;
    }
    IRLENS_ASSIGN_OR_RETURN(stepper, exec::Stepper::create(plan, picked.values, false));
    FiniteOriginTracker finite(*plan, picked.values);
    IRLENS_TRY(stepAll(*stepper, ref ? &*ref : nullptr, dump.get(), finite, options, out));
    IRLENS_ASSIGN_OR_RETURN(result, stepper->result());
    out.result = std::move(result);
    if (dump) {
        IRLENS_TRY(dump->finish());
        out.dumpBytes = dump->dataBytes();
    }
    if (ref) IRLENS_TRY(summarize(*program, *ref, out));
    return out;
}

} // namespace irlens::core
