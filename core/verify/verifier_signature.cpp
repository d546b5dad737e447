// Signature rules (EIR-G*) and range constraints for free symbols (EIR-Y001).
#include "core/ir/free_symbols.h"
#include "core/verify/verifier_context.h"

#include <map>
#include <set>

namespace irlens::core::detail {

std::string firstName(const Argument& a) {
    std::vector<std::string> names;
    a.collectValueNames(names);
    return names.empty() ? std::string() : names[0];
}

namespace {

bool isStateInput(InputKind k) {
    return k == InputKind::Parameter || k == InputKind::Buffer || k == InputKind::TensorConstant || k == InputKind::CustomObj;
}

bool isMutationOutput(OutputKind k) {
    return k == OutputKind::BufferMutation || k == OutputKind::ParameterMutation || k == OutputKind::UserInputMutation;
}

// EIR-G001 / G002: one spec per graph input and output, naming the value at the same position.
void checkSpecsMatchGraph(VerifyContext& ctx) {
    const Graph& g = ctx.program.graph;
    const auto& ins = ctx.program.signature.inputSpecs;
    const auto& outs = ctx.program.signature.outputSpecs;
    if (ins.size() != g.inputs.size())
        ctx.report("EIR-G001", "", "",
                   "the signature has " + std::to_string(ins.size()) + " input specs but the graph has " +
                       std::to_string(g.inputs.size()) + " placeholders",
                   "write one input spec per graph input, in the same order");
    for (size_t k = 0; k < std::min(ins.size(), g.inputs.size()); ++k) {
        if (ins[k].kind == InputKind::ConstantInput) continue; // the graph input is the constant itself
        std::string specName = firstName(ins[k].arg), graphName = firstName(g.inputs[k]);
        if (specName != graphName)
            ctx.report("EIR-G001", "", graphName,
                       "input spec " + std::to_string(k) + " (" + inputKindName(ins[k].kind) + ") names '" + specName +
                           "' but placeholder " + std::to_string(k) + " is '" + graphName + "'",
                       "make input_specs[" + std::to_string(k) + "].arg name the graph input at the same position");
    }
    if (reportDroppedMutationOutputs(ctx)) return; // the outputs are accounted for, with a more precise finding
    if (outs.size() != g.outputs.size())
        ctx.report("EIR-G002", "", "output",
                   "the signature has " + std::to_string(outs.size()) + " output specs but the graph returns " +
                       std::to_string(g.outputs.size()) + " values",
                   "write one output spec per returned value, in the same order");
    for (size_t k = 0; k < std::min(outs.size(), g.outputs.size()); ++k) {
        std::string specName = firstName(outs[k].arg), graphName = firstName(g.outputs[k]);
        if (specName != graphName)
            ctx.report("EIR-G002", "", "output",
                       "output spec " + std::to_string(k) + " (" + outputKindName(outs[k].kind) + ") names '" + specName +
                           "' but the graph returns '" + graphName + "' at position " + std::to_string(k),
                       "make output_specs[" + std::to_string(k) + "].arg name the value returned at the same position");
    }
}

// EIR-G003 / G004: lifted state before user inputs; mutations before user outputs.
void checkSpecOrder(VerifyContext& ctx) {
    std::string firstUser;
    for (const auto& spec : ctx.program.signature.inputSpecs) {
        std::string name = spec.kind == InputKind::ConstantInput ? spec.name : firstName(spec.arg);
        if (spec.kind == InputKind::UserInput || spec.kind == InputKind::ConstantInput) {
            if (firstUser.empty()) firstUser = name.empty() ? "?" : name;
        } else if (isStateInput(spec.kind) && !firstUser.empty()) {
            ctx.report("EIR-G003", "", name,
                       std::string(inputKindName(spec.kind)) + " input '" + name + "' comes after the user input '" +
                           firstUser + "'",
                       "list parameters, buffers, constants and custom objects before user inputs");
        }
    }
    std::string firstUserOut;
    for (const auto& spec : ctx.program.signature.outputSpecs) {
        std::string name = firstName(spec.arg);
        if (spec.kind == OutputKind::UserOutput || spec.kind == OutputKind::LossOutput) {
            if (firstUserOut.empty()) firstUserOut = name.empty() ? "?" : name;
        } else if (isMutationOutput(spec.kind) && !firstUserOut.empty()) {
            ctx.report("EIR-G004", "", name,
                       std::string(outputKindName(spec.kind)) + " output '" + name + "' comes after the user output '" +
                           firstUserOut + "'",
                       "list mutation outputs before user outputs");
        }
    }
}

// EIR-G005: state targets exist (only when the program holds state at all; a graph-only load has none).
void checkStateTargets(VerifyContext& ctx) {
    const Program& p = ctx.program;
    const auto& ins = p.signature.inputSpecs;
    bool needsState = false;
    for (const auto& spec : ins) needsState = needsState || (isStateInput(spec.kind) && spec.kind != InputKind::CustomObj);
    if (!ctx.options.checkState || !needsState) return;
    if (p.weights.empty() && p.constants.empty()) {
        ctx.report("EIR-G005", Severity::Info, "", "",
                   "the program was loaded without weights or constants; parameter/buffer targets are not checked",
                   "load with weights to check them");
        return;
    }
    for (const auto& spec : ins) {
        if (!isStateInput(spec.kind)) continue;
        bool found = spec.kind == InputKind::CustomObj ? p.constants.count(spec.target) > 0 : p.stateTensorFor(spec) != nullptr;
        if (found) continue;
        bool inStateDict = spec.kind == InputKind::Parameter || (spec.kind == InputKind::Buffer && spec.persistent.value_or(true));
        ctx.report("EIR-G005", "", firstName(spec.arg),
                   std::string(inputKindName(spec.kind)) + " input '" + firstName(spec.arg) + "' targets '" + spec.target +
                       "', which is not in the " + (inStateDict ? "state dict" : "constants"),
                   "add '" + spec.target + "' to the state dict/constants, or fix the spec's target name");
    }
}

// EIR-G006: mutations name something that can be mutated.
void checkMutationTargets(VerifyContext& ctx) {
    std::set<std::string> buffers, parameters, userInputs;
    for (const auto& spec : ctx.program.signature.inputSpecs) {
        if (spec.kind == InputKind::Buffer) buffers.insert(spec.target);
        if (spec.kind == InputKind::Parameter) parameters.insert(spec.target);
        if (spec.kind == InputKind::UserInput) userInputs.insert(firstName(spec.arg));
    }
    for (const auto& spec : ctx.program.signature.outputSpecs) {
        const std::set<std::string>* pool = spec.kind == OutputKind::BufferMutation      ? &buffers
                                          : spec.kind == OutputKind::ParameterMutation ? &parameters
                                          : spec.kind == OutputKind::UserInputMutation ? &userInputs
                                                                                       : nullptr;
        if (pool && !pool->count(spec.target))
            ctx.report("EIR-G006", "", firstName(spec.arg),
                       std::string(outputKindName(spec.kind)) + " output '" + firstName(spec.arg) + "' targets '" +
                           spec.target + "', which no " +
                           (pool == &buffers ? "buffer" : pool == &parameters ? "parameter" : "user") + " input names",
                       "name an input of the program in the mutation's target");
    }
}

} // namespace

void verifySignature(VerifyContext& ctx) {
    checkSpecsMatchGraph(ctx);
    checkSpecOrder(ctx);
    checkStateTargets(ctx);
    checkMutationTargets(ctx);
}

namespace {

std::string valueKindName(Value::Kind k) {
    switch (k) {
    case Value::Kind::None: return "None";
    case Value::Kind::Tensor: return "a tensor";
    case Value::Kind::Int: return "an int";
    case Value::Kind::Float: return "a float";
    case Value::Kind::Bool: return "a bool";
    case Value::Kind::String: return "a string";
    case Value::Kind::Opaque: return "an object";
    }
    return "?";
}

} // namespace

void verifySampleInputs(VerifyContext& ctx) {
    const Program& p = ctx.program;
    if (!p.hasSampleInputs || !p.sampleKwargs.empty()) return; // kwargs: the flattening order is the treespec's
    std::vector<size_t> userInputs; // graph input indices fed by the caller
    for (size_t k = 0; k < p.signature.inputSpecs.size(); ++k) {
        InputKind kind = p.signature.inputSpecs[k].kind;
        if (kind == InputKind::UserInput || kind == InputKind::ConstantInput) userInputs.push_back(k);
    }
    if (p.sampleArgs.size() != userInputs.size()) {
        ctx.report("EIR-G007", "", "",
                   "the program carries " + std::to_string(p.sampleArgs.size()) + " sample input(s) but has " +
                       std::to_string(userInputs.size()) + " user input(s)",
                   "store one sample value per user input (torch.export keeps the example inputs it traced with)");
        return;
    }
    for (size_t k = 0; k < userInputs.size(); ++k) {
        const InputSpec& spec = p.signature.inputSpecs[userInputs[k]];
        const Value& v = p.sampleArgs[k];
        std::string name = spec.kind == InputKind::ConstantInput ? spec.name : firstName(spec.arg);
        if (spec.arg.kind != ArgKind::Tensor) continue; // sym ints and constants: any value of the kind will do
        const TensorMeta* meta = p.graph.tensorMeta(spec.arg.s);
        if (v.kind != Value::Kind::Tensor) {
            ctx.report("EIR-G007", "", name,
                       "sample input " + std::to_string(k) + " for '" + name + "' is " + valueKindName(v.kind) +
                           ", not a tensor",
                       "store a tensor shaped like the placeholder");
            continue;
        }
        if (!meta) continue;
        std::string expected = meta->shortString();
        TensorMeta actual;
        actual.dtype = v.tensor.dtype;
        for (auto s : v.tensor.sizes) actual.sizes.push_back(SymInt::literal(s));
        bool dtypeOk = meta->dtype == v.tensor.dtype;
        bool sizesOk = meta->sizes.size() == v.tensor.sizes.size();
        for (size_t d = 0; sizesOk && d < meta->sizes.size(); ++d)
            if (meta->sizes[d].isStatic() && meta->sizes[d].value != v.tensor.sizes[d]) sizesOk = false;
        if (!dtypeOk || !sizesOk)
            ctx.report("EIR-G007", "", name,
                       "sample input " + std::to_string(k) + " for '" + name + "' is " + actual.shortString() +
                           " but the placeholder is " + expected,
                       "store a sample of the placeholder's dtype and shape");
    }
}

namespace {

void symbolsOfGraph(const Graph& g, std::map<std::string, std::string>& firstUse) {
    for (const auto& [name, meta] : g.tensorValues)
        for (const auto& s : meta.sizes)
            if (s.isExpr()) {
                for (const auto& sym : freeSymbols(s.expr())) firstUse.emplace(sym, name);
            }
    for (const auto& [name, v] : g.symIntValues)
        if (v.isExpr()) {
            for (const auto& sym : freeSymbols(v.expr())) firstUse.emplace(sym, name);
        }
    for (const auto& n : g.nodes)
        for (const auto& in : n.inputs)
            if (in.arg.kind == ArgKind::Graph && in.arg.graph()) symbolsOfGraph(*in.arg.graph(), firstUse);
}

} // namespace

void verifySymbols(VerifyContext& ctx) {
    std::map<std::string, std::string> firstUse; // symbol -> a value whose shape uses it
    symbolsOfGraph(ctx.program.graph, firstUse);
    for (const auto& [sym, value] : firstUse)
        if (!ctx.program.rangeConstraints.count(sym))
            ctx.report("EIR-Y001", "", value,
                       "symbol '" + sym + "' (in the shape of '" + value + "') has no range constraint",
                       "add range_constraints['" + sym + "'] = {min_val, max_val}; export records one per dynamic dimension");
}

} // namespace irlens::core::detail
