// inferMeta dispatch, the generic elementwise meta (promotion + broadcasting + TensorIterator
// strides), and checkRecordedMeta.

#include "core/ops/meta.h"

#include "core/ops/meta_common.h"
#include "core/ops/op_registry.h"
#include "core/ops/op_semantics.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace irlens::core {

namespace {

using meta::MetaFn;
using meta::MetaOutputs;

const std::unordered_map<std::string, MetaFn>& table() {
    static const auto t = [] {
        std::vector<std::pair<std::string, MetaFn>> entries;
        meta::registerPointwise(entries);
        meta::registerShape(entries);
        meta::registerNn(entries);
        meta::registerPrims(entries);
        meta::registerQuant(entries);
        meta::registerBackward(entries);
        meta::registerFft(entries);
        return std::unordered_map<std::string, MetaFn>(entries.begin(), entries.end());
    }();
    return t;
}

// Generic elementwise ATen op: promotion over the promoting args, broadcasting over every tensor arg.
Result<MetaOutputs> elementwise(const NodeArgs& a, const ElementwiseInfo& info) {
    std::vector<PromotionOperand> ops;
    for (const auto& name : info.promoting) {
        if (a.isNone(name)) continue;
        auto op = a.operand(name);
        if (!op) return op.status();
        ops.push_back(*op);
    }
    auto types = elementwiseDtypes(ops, info.kind);
    if (!types) return a.error("", types.error());
    std::vector<std::vector<SymInt>> shapes;
    std::vector<const TensorMeta*> tensors;
    Device device;
    for (const auto& in : a.node().inputs) {
        const TensorMeta* m = (in.arg.kind == ArgKind::Tensor) ? a.graph().tensorMeta(in.arg.s) : nullptr;
        if (!m) continue;
        shapes.push_back(m->sizes);
        tensors.push_back(m);
        if (!m->sizes.empty() || tensors.size() == 1) device = m->device;
    }
    auto shape = broadcastShapes(shapes);
    if (!shape) return a.error("", shape.error());
    TensorMeta out = contiguousMeta(types->result, *shape, device);
    out.strides = meta::iteratorStrides(tensors, *shape);
    return meta::singleTensor(std::move(out));
}

// In-place ops return their (mutated) first argument.
Result<MetaOutputs> inplace(const NodeArgs& a) {
    const OpSchema* s = a.schema();
    std::string first = s && !s->args.empty() ? s->args[0].name : "self";
    auto t = a.tensor(first);
    if (!t) return t.status();
    return meta::singleTensor(**t);
}

} // namespace

bool hasMetaFunction(const Target& target) {
    if (target.kind != Target::Kind::Op) return false;
    if (table().count(target.key())) return true;
    if (target.ns() == "aten") {
        if (elementwiseInfo(target.op(), target.overload())) return true;
        if (!target.op().empty() && target.op().back() == '_' &&
            elementwiseInfo(target.op().substr(0, target.op().size() - 1), target.overload()))
            return true;
    }
    if (target.ns() == "prims" && elementwisePrimInfo(target.op())) return true;
    return false;
}

std::vector<std::string> metaFunctionKeys() {
    std::vector<std::string> keys;
    for (const auto& [key, fn] : table()) keys.push_back(key);
    std::sort(keys.begin(), keys.end());
    return keys;
}

Result<std::vector<InferredValue>> inferMeta(const Node& node, const Graph& graph) {
    const Target& t = node.target;
    if (t.kind != Target::Kind::Op)
        return Status::error("node '" + node.name + "': no meta function for " + t.full + " (not an operator overload)");
    const OpInfo* info = OpRegistry::instance().find(t);
    NodeArgs args(node, graph, info ? &info->schema : nullptr);
    if (auto it = table().find(t.key()); it != table().end()) return it->second(args);
    if (t.ns() == "aten") {
        if (const auto* e = elementwiseInfo(t.op(), t.overload())) return elementwise(args, *e);
        if (!t.op().empty() && t.op().back() == '_' && elementwiseInfo(t.op().substr(0, t.op().size() - 1), t.overload()))
            return inplace(args);
    }
    if (t.ns() == "prims") {
        if (const auto* e = elementwisePrimInfo(t.op())) {
            // Prims do not promote: the output has the inputs' dtype (bool / real per the prim's kind).
            ElementwiseInfo prim = *e;
            prim.kind = PromotionKind::NoOpmath;
            for (const auto& in : node.inputs) prim.promoting.push_back(in.name);
            auto out = elementwise(args, prim);
            if (!out) return out;
            auto& m = (*out)[0].meta;
            if (e->kind == PromotionKind::AlwaysBool) m.dtype = ScalarType::Bool;
            else if (e->kind == PromotionKind::ComplexToFloat) m.dtype = realCounterpart(m.dtype);
            return out;
        }
    }
    return args.error("", "no meta function for " + t.shortName());
}

Result<TensorMeta> inferSingleMeta(const Node& node, const Graph& graph) {
    auto r = inferMeta(node, graph);
    if (!r) return r.status();
    if (r->empty() || (*r)[0].kind != InferredValue::Kind::Tensor)
        return Status::error("node '" + node.name + "': expected one tensor output");
    return (*r)[0].meta;
}

// ---------------------------------------------------------------- the recorded-meta check

namespace {

std::string sizesText(const std::vector<SymInt>& v) { return shapeString(v); }

bool sameSizes(const std::vector<SymInt>& a, const std::vector<SymInt>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (!sameSize(a[i], b[i])) return false;
    return true;
}

// Strides of size-1 dims do not matter (torch treats them as free), nor any stride of an empty tensor.
bool sameStrides(const TensorMeta& rec, const TensorMeta& inf) {
    if (rec.strides.empty() || inf.strides.empty()) return true;
    if (rec.strides.size() != inf.strides.size()) return false;
    for (size_t i = 0; i < rec.sizes.size(); ++i)
        if (rec.sizes[i].isStatic() && rec.sizes[i].value == 0) return true;
    for (size_t i = 0; i < rec.strides.size(); ++i) {
        if (i < rec.sizes.size() && meta::isStaticOne(rec.sizes[i])) continue;
        if (!sameSize(rec.strides[i], inf.strides[i])) return false;
    }
    return true;
}

void checkGraphInto(const Graph& graph, const MetaCheckOptions& options, MetaCheckReport& report,
                    std::unordered_set<std::string>& unsupported) {
    for (const auto& node : graph.nodes) {
        if (options.recurseIntoSubgraphs)
            for (const auto& in : node.inputs)
                if (in.arg.kind == ArgKind::Graph && in.arg.graph()) checkGraphInto(*in.arg.graph(), options, report, unsupported);
        if (!hasMetaFunction(node.target)) {
            if (unsupported.insert(node.target.full).second) report.unsupported.push_back(node.target.full);
            continue;
        }
        ++report.nodesChecked;
        auto inferred = inferMeta(node, graph);
        if (!inferred) {
            report.mismatches.push_back({node.name, "", "error", "", "", inferred.error()});
            continue;
        }
        auto slots = node.outputSlots();
        for (size_t i = 0; i < slots.size() && i < inferred->size(); ++i) {
            const auto& inf = (*inferred)[i];
            if (slots[i].empty() || inf.kind != InferredValue::Kind::Tensor) continue;
            const TensorMeta* rec = graph.tensorMeta(slots[i]);
            if (!rec) continue;
            ++report.valuesCompared;
            auto add = [&](const std::string& field, const std::string& r, const std::string& f) {
                report.mismatches.push_back({node.name, slots[i], field, r, f,
                                             "node '" + node.name + "' (" + node.target.shortName() + "): output '" + slots[i] +
                                                 "' has " + field + " " + r + " recorded but " + f + " inferred"});
            };
            if (rec->dtype != inf.meta.dtype) add("dtype", dtypeName(rec->dtype), dtypeName(inf.meta.dtype));
            else if (rec->sizes.size() != inf.meta.sizes.size()) add("rank", sizesText(rec->sizes), sizesText(inf.meta.sizes));
            else if (!sameSizes(rec->sizes, inf.meta.sizes)) add("sizes", sizesText(rec->sizes), sizesText(inf.meta.sizes));
            else if (options.compareStrides && !sameStrides(*rec, inf.meta))
                add("strides", sizesText(rec->strides), sizesText(inf.meta.strides));
        }
    }
}

} // namespace

MetaCheckReport checkGraphMeta(const Graph& graph, const MetaCheckOptions& options) {
    MetaCheckReport report;
    std::unordered_set<std::string> unsupported;
    checkGraphInto(graph, options, report, unsupported);
    return report;
}

MetaCheckReport checkRecordedMeta(const Program& program, const MetaCheckOptions& options) {
    return checkGraphMeta(program.graph, options);
}

} // namespace irlens::core
