// Target rules: what a call_function may call (EIR-S001, S002, S011) and what the dialect allows
// (EIR-D001..D004). Messages name the target as the program holds it (heldName).
#include "core/ops/op_registry.h"
#include "core/verify/verifier_context.h"

namespace irlens::core::detail {

std::string heldName(const Target& t) {
    static const std::string prefix = "torch.ops.";
    if (t.kind == Target::Kind::Op && t.full.rfind(prefix, 0) == 0) return t.full.substr(prefix.size());
    return t.shortName();
}

namespace {

bool isAtenDialect(const Program& p) {
    for (const auto& v : p.verifiers)
        if (v == "ATEN") return true;
    return p.verifiers.empty() && p.dialect != "TRAINING";
}

// "torch.ops.aten.sub" (an OpOverloadPacket) has two parts after torch.ops; Target::parse fills in
// "default" for it, so the overload field alone cannot tell.
bool isOverloadPacket(const Target& t) {
    size_t dots = 0;
    for (char c : t.full) dots += c == '.';
    return t.kind == Target::Kind::Op && dots < 4;
}

// "'aten.sub.Tensor' or 'aten.sub.Scalar'" from the op tables, for the fix of a packet or an out= call.
std::string knownOverloads(const Target& t) {
    std::string out;
    int listed = 0;
    for (const auto& op : OpRegistry::instance().all())
        if (op.ns == t.ns() && op.schema.name == t.op() && listed++ < 6)
            out += (out.empty() ? "'" : " or '") + t.ns() + "." + t.op() + "." + op.schema.overload + "'";
    return out.empty() ? "'" + heldName(t) + ".default' or the overload its schema names (e.g. '.Tensor')" : out;
}

// EIR-D004: Core ATen is an opset of aten operators. When the caller asks for Core ATen only, every call
// to another namespace (a custom op: quantized_decomposed, prims, a user library) is named, so a program
// holding one never passes that check silently; it stays a warning because the spec allows custom ops.
void checkCoreAtenNamespace(VerifyContext& ctx, const Node& node, const std::string& path, const NodeRef& n) {
    const Target& t = node.target;
    if (!ctx.options.coreAtenOnly.value_or(false) || t.ns() == "aten") return;
    ctx.report("EIR-D004", path, node.name,
               "node " + n + " calls '" + heldName(t) + "', a custom op of namespace '" + t.ns() +
                   "', not an ATen op: the program is not Core ATen only",
               "keep it if the consumer implements '" + t.ns() + "' ops; otherwise decompose it into Core ATen ops");
}

} // namespace

// `n` is the node's label (nodeLabel: its FX name, quoted); findings are keyed by node.name.
void checkTarget(VerifyContext& ctx, const Node& node, const std::string& path, const NodeRef& n) {
    const Target& t = node.target;
    const std::string& key = node.name;
    switch (t.kind) {
    case Target::Kind::Unknown:
        ctx.report("EIR-S001", path, key,
                   "node " + n + " calls '" + t.full + "', which is not an ATen/custom op overload "
                   "(torch.ops.<ns>.<op>.<overload>), a higher-order op or a symbolic op",
                   "replace the call by the operator overload it stands for, or register it as a custom op");
        return;
    case Target::Kind::Extension:
        ctx.report("EIR-S001", Severity::Info, path, key,
                   "node " + n + " calls the registered extension op '" + t.full + "'; its semantics are not checked",
                   "none needed if the consumer knows the extension");
        checkCoreAtenNamespace(ctx, node, path, n);
        return;
    case Target::Kind::HigherOrder:
    case Target::Kind::Symbolic:
        return;
    case Target::Kind::Op:
        break;
    }
    if (!isOperatorName(t)) return; // not a name any table holds: EIR-S013 says so, nothing else applies
    const bool packet = isOverloadPacket(t);
    if (packet)
        ctx.report("EIR-S002", path, key,
                   "node " + n + " calls '" + t.full + "', an overload packet; Export IR names one overload",
                   "name the overload the arguments select: " + knownOverloads(t));
    checkCoreAtenNamespace(ctx, node, path, n);
    // A packet resolves to its .default overload when there is one (as calling the packet would); only
    // then are its schema and level known.
    const OpInfo* info = OpRegistry::instance().find(t);
    const bool training = ctx.program.isTrainingDialect();
    bool isOut = info ? info->schema.isOut() : (t.overload() == "out" || t.overload().rfind("out_", 0) == 0);
    bool inplace = info ? info->schema.isInplace()
                        : (!t.op().empty() && t.op().back() == '_' && t.op().rfind("__", 0) != 0);
    if (isOut) {
        ctx.report("EIR-D002", training ? Severity::Warning : Severity::Error, path, key,
                   "node " + n + " calls the out= overload '" + heldName(t) + "'; Export IR is functional",
                   "call a functional overload (" + knownOverloads(t) + ") and use its result");
    } else if (inplace) {
        if (training)
            ctx.report("EIR-D001", Severity::Info, path, key,
                       "node " + n + " calls the in-place op '" + heldName(t) +
                       "'; allowed at the training IR, removed by run_decompositions()",
                       "none at this level; decompose to Core ATen for a functional graph");
        else
            ctx.report("EIR-D001", Severity::Error, path, key,
                       "node " + n + " calls the in-place op '" + heldName(t) + "' in a functional (ATen) program",
                       "use the functional variant ('" + t.ns() + "." +
                           (t.op().back() == '_' ? t.op().substr(0, t.op().size() - 1) : t.op()) +
                           "') and return mutated buffers as BUFFER_MUTATION outputs");
    }
    if (!info && t.ns() == "aten")
        ctx.report("EIR-S011", path, key,
                   packet ? "node " + n + " calls the overload packet '" + heldName(t) + "'; irlens cannot tell which "
                            "overload's schema applies, so its arguments and val are not checked against a schema"
                          : "node " + n + " calls '" + heldName(t) + "', which irlens has no schema for; its arguments "
                            "and val are not checked against a schema",
                   packet ? "name the overload (see EIR-S002); then its schema is checked"
                          : "none needed; add the schema to the op tables if this op should be checked");
    bool coreRule = ctx.options.coreAtenOnly ? *ctx.options.coreAtenOnly : (!training && isAtenDialect(ctx.program));
    IrLevel level = OpRegistry::instance().levelOf(t);
    if (coreRule && t.ns() == "aten" && level != IrLevel::Symbolic && (info || !packet) && !(info && info->hasTag("core"))) {
        Severity sev = ctx.options.coreAtenOnly.value_or(false) ? Severity::Error : Severity::Warning;
        ctx.report("EIR-D003", sev, path, key,
                   "node " + n + " calls '" + heldName(t) + "', which is not in the Core ATen opset",
                   "decompose it (run_decompositions / irlens decompose --to core) into Core ATen ops");
    }
}

} // namespace irlens::core::detail
