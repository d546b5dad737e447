#include "core/ops/op_family.h"

#include "core/ops/op_registry.h"
#include "core/ops/op_semantics.h"

#include <string>

namespace irlens::core {
namespace {

// The schema returns a value aliasing an input without writing it ("Tensor(a)", "Tensor(a)[]"): a view.
bool returnsView(const OpSchema& s) {
    for (const auto& r : s.returns)
        if (r.type.rfind("Tensor(", 0) == 0 && !r.mutates) return true;
    return false;
}

std::string functionalName(const OpSchema& s) {
    const std::string& n = s.name;
    return n.size() > 1 && n.back() == '_' ? n.substr(0, n.size() - 1) : n;
}

} // namespace

OpFamily opFamilyOf(const OpInfo& op) {
    if (op.level == IrLevel::Prims) return OpFamily::Prims;
    if (op.hasTag("linear")) return OpFamily::Linear;
    if (op.hasTag("normalization")) return OpFamily::Normalization;
    if (op.hasTag("activation")) return OpFamily::Activation;
    if (op.hasTag("reduction") || op.hasTag("pooling")) return OpFamily::Reduction;
    if (op.hasTag("view") || returnsView(op.schema)) return OpFamily::View;
    if (op.hasTag("pointwise") || elementwiseInfo(functionalName(op.schema), op.schema.overload)) return OpFamily::Elementwise;
    return OpFamily::DataMovement;
}

OpFamily opFamilyOf(const Target& target) {
    const OpRegistry& registry = OpRegistry::instance();
    switch (registry.levelOf(target)) {
    case IrLevel::HigherOrder: return OpFamily::HigherOrder;
    case IrLevel::Symbolic: return OpFamily::Symbolic;
    case IrLevel::Prims: return OpFamily::Prims;
    default: break;
    }
    if (target.kind != Target::Kind::Op) return OpFamily::Other;
    if (const OpInfo* op = registry.find(target)) return opFamilyOf(*op);
    return OpFamily::Other;
}

const char* opFamilyName(OpFamily family) {
    switch (family) {
    case OpFamily::Linear: return "linear";
    case OpFamily::Normalization: return "normalization";
    case OpFamily::Activation: return "activation";
    case OpFamily::Elementwise: return "elementwise";
    case OpFamily::Reduction: return "reduction";
    case OpFamily::View: return "view";
    case OpFamily::DataMovement: return "data movement";
    case OpFamily::Prims: return "prims";
    case OpFamily::HigherOrder: return "higher-order";
    case OpFamily::Symbolic: return "symbolic";
    case OpFamily::Other: return "other";
    }
    return "other";
}

unsigned opFamilyColor(OpFamily family) {
    // Light fills (dark text stays readable), chosen so that every pair differs by at least 11.6
    // CIEDE2000 both as drawn and darkened for a dark theme (tst_graph_scene familiesToldApart):
    // hues by meaning (linear blue, normalization green, activation orange, reduction red ...),
    // lightness and chroma searched for distance.
    switch (family) {
    case OpFamily::Linear: return 0xa3f0fe;
    case OpFamily::Normalization: return 0xa5d388;
    case OpFamily::Activation: return 0xfdbc94;
    case OpFamily::Elementwise: return 0xa39ff1;
    case OpFamily::Reduction: return 0xf5929c;
    case OpFamily::View: return 0x969696;
    case OpFamily::DataMovement: return 0xdbc583;
    case OpFamily::Prims: return 0x30dcc8;
    case OpFamily::HigherOrder: return 0xffd3f9;
    case OpFamily::Symbolic: return 0x7cbbf8;
    case OpFamily::Other: return 0xf6f6f6;
    }
    return 0xf0f0f0;
}

} // namespace irlens::core
