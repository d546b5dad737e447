// Prims make every conversion explicit (EIR-P001, P002). An elementwise prim's meta function
// (torch/_prims/__init__.py, _prim_elementwise_meta) checks that its tensor operands share one dtype
// and one shape, CPU scalar tensors exempt from the shape check; it neither promotes nor broadcasts.
// A graph that relies on either cannot be traced again at the prims level, and an engine that trusts
// the prims' contract computes something else.
#include "core/ops/op_registry.h"
#include "core/verify/verifier_context.h"

namespace irlens::core::detail {
namespace {

struct Operand {
    std::string arg;   // schema argument name
    std::string value; // tensor value name
    const TensorMeta* meta;
};

bool isElementwisePrim(const OpInfo& info) {
    return info.ns == "prims" &&
           (info.primKind == "elementwise_unary" || info.primKind == "elementwise_binary" || info.primKind == "conditional");
}

// The tensor operands with a recorded meta, in schema order; numbers passed for a Tensor argument are
// skipped, as the prims' check skips Python numbers.
std::vector<Operand> tensorOperands(const Graph& g, const Node& node, const OpSchema& schema) {
    std::vector<Operand> out;
    for (const auto& a : schema.args) {
        const NamedArgument* in = node.input(a.name);
        if (!in || in->arg.kind != ArgKind::Tensor) continue;
        if (const TensorMeta* m = g.tensorMeta(in->arg.s)) out.push_back({a.name, in->arg.s, m});
    }
    return out;
}

// Sizes compared as printed ("s0" whether stored as srepr or plain text; hints do not matter).
bool sameShape(const TensorMeta& a, const TensorMeta& b) {
    if (a.sizes.size() != b.sizes.size()) return false;
    for (size_t d = 0; d < a.sizes.size(); ++d)
        if (a.sizes[d].toString() != b.sizes[d].toString()) return false;
    return true;
}

bool isCpuScalarTensor(const TensorMeta& m) { return m.sizes.empty() && m.device.type == "cpu"; }

std::string describe(const Operand& o) { return o.arg + " '" + o.value + "' is " + o.meta->shortString(); }

// where(pred, a, b): pred is a bool mask, excluded from the dtype check but not from the shape check.
void checkDtypes(VerifyContext& ctx, const Node& node, const std::string& path, const NodeRef& n,
                 const std::vector<Operand>& ops, bool conditional) {
    const Operand* first = nullptr;
    for (const auto& o : ops) {
        if (conditional && o.arg == "pred") continue;
        if (!first) { first = &o; continue; }
        if (o.meta->dtype == first->meta->dtype) continue;
        ctx.report("EIR-P001", path, node.name,
                   "node " + n + " (" + node.target.shortName() + ") mixes dtypes: " + describe(*first) + ", " + describe(o) +
                       "; prims do not promote types",
                   "convert the operand explicitly first (prims.convert_element_type to " + dtypeName(first->meta->dtype) +
                       " or to the promoted dtype for both)");
        return;
    }
}

void checkShapes(VerifyContext& ctx, const Node& node, const std::string& path, const NodeRef& n,
                 const std::vector<Operand>& ops) {
    const Operand* first = nullptr;
    for (const auto& o : ops) {
        if (isCpuScalarTensor(*o.meta)) continue;
        if (!first) { first = &o; continue; }
        if (sameShape(*o.meta, *first->meta)) continue;
        ctx.report("EIR-P002", path, node.name,
                   "node " + n + " (" + node.target.shortName() + ") mixes shapes: " + describe(*first) + ", " + describe(o) +
                       "; prims do not broadcast",
                   "broadcast the smaller operand explicitly first (prims.broadcast_in_dim to the common shape)");
        return;
    }
}

} // namespace

void checkPrimOperands(VerifyContext& ctx, const Graph& g, const Node& node, const std::string& path, const NodeRef& n) {
    if (node.target.kind != Target::Kind::Op || node.target.ns() != "prims") return;
    const OpInfo* info = OpRegistry::instance().find(node.target);
    if (!info || !isElementwisePrim(*info)) return;
    const auto ops = tensorOperands(g, node, info->schema);
    if (ops.size() < 2) return;
    checkDtypes(ctx, node, path, n, ops, info->primKind == "conditional");
    checkShapes(ctx, node, path, n, ops);
}

} // namespace irlens::core::detail
