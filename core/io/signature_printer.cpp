#include "core/io/signature_printer.h"

#include "core/io/fx_printer.h"
#include "core/ir/fx_names.h"

namespace irlens::core {
namespace {

// The `name` of an ArgumentSpec: value names for tensors, sym ints, tokens and custom objects;
// a constant argument's own name; a literal output (as_int ...) prints as its value.
std::string renamed(const std::string& value, const ValueNames& names) {
    auto it = names.find(value);
    return it == names.end() ? value : it->second;
}

std::string argName(const Argument& a, const ValueNames& names) {
    switch (a.kind) {
    case ArgKind::Tensor: case ArgKind::OptionalTensor: case ArgKind::CustomObj: return renamed(a.s, names);
    case ArgKind::SymInt: case ArgKind::SymBool: case ArgKind::SymFloat:
        if (a.isName) return renamed(a.s, names);
        if (a.kind == ArgKind::SymInt) return std::to_string(a.i);
        if (a.kind == ArgKind::SymBool) return a.b ? "True" : "False";
        return pythonFloatRepr(a.f);
    case ArgKind::Int: return std::to_string(a.i);
    case ArgKind::Float: return pythonFloatRepr(a.f);
    case ArgKind::Bool: return a.b ? "True" : "False";
    case ArgKind::String: return a.s;
    case ArgKind::None: return "None";
    default: return a.s;
    }
}

} // namespace

std::string formatInputSpec(const InputSpec& spec, const ValueNames& names) {
    std::string name = spec.kind == InputKind::ConstantInput ? spec.name : argName(spec.arg, names);
    std::string out = name + ": " + inputKindName(spec.kind);
    bool hasTarget = spec.kind == InputKind::Parameter || spec.kind == InputKind::Buffer ||
                     spec.kind == InputKind::TensorConstant || spec.kind == InputKind::CustomObj;
    if (hasTarget) out += " target='" + spec.target + "'";
    if (spec.kind == InputKind::Buffer && spec.persistent) out += std::string(" persistent=") + (*spec.persistent ? "True" : "False");
    return out;
}

std::string formatOutputSpec(const OutputSpec& spec, const ValueNames& names) {
    std::string out = argName(spec.arg, names) + ": " + outputKindName(spec.kind);
    bool hasTarget = spec.kind != OutputKind::UserOutput && spec.kind != OutputKind::LossOutput && spec.kind != OutputKind::Token;
    if (hasTarget) out += " target='" + spec.target + "'";
    return out;
}

std::string printSignature(const Program& program) {
    const GraphSignature& signature = program.signature;
    const ValueNames names = fxValueNames(program);
    std::string inputs, outputs;
    for (size_t k = 0; k < signature.inputSpecs.size(); ++k)
        inputs += (k ? "\n" : "") + formatInputSpec(signature.inputSpecs[k], names);
    for (size_t k = 0; k < signature.outputSpecs.size(); ++k)
        outputs += (k ? "\n" : "") + formatOutputSpec(signature.outputSpecs[k], names);
    return "\n# inputs\n" + inputs + "\n\n# outputs\n" + outputs + "\n";
}

} // namespace irlens::core
