// Rules on the program's state and what flows in and out of it: placeholders carry the val their input
// spec promises and lifted state matches the state dict (EIR-G008, G009), buffers the graph writes are
// written back through BUFFER_MUTATION outputs (EIR-G011).
//
// What G011 can and cannot see. A functional graph never writes a buffer; it returns the new value and
// the signature's BUFFER_MUTATION entry says which buffer receives it. So a dropped mutation is visible
// only where something is left over:
//   - an in-place or copy_ node writes a buffer placeholder that no BUFFER_MUTATION output names
//     (training IR, or a graph edited by hand): certain;
//   - the graph returns a value no output spec describes, placed among the mutation outputs (before the
//     first user output, where torch.export puts mutations): the entry was dropped from the signature
//     while the graph kept its output;
//   - two BUFFER_MUTATION outputs name one buffer: which value is written back is ambiguous.
// Not detectable: an entry relabelled USER_OUTPUT (a model may return a buffer-derived value), or an
// entry dropped together with its graph output (the new value is then dead code, which an ordinary
// graph may hold too).
#include "core/ir/builder.h"
#include "core/ops/op_registry.h"
#include "core/verify/verifier_context.h"

#include <algorithm>
#include <map>
#include <set>

namespace irlens::core::detail {
namespace {

bool isLiftedTensor(InputKind k) {
    return k == InputKind::Parameter || k == InputKind::Buffer || k == InputKind::TensorConstant;
}

const char* argKindText(const Argument& a) {
    switch (a.kind) {
    case ArgKind::Tensor: return "a tensor";
    case ArgKind::SymInt: return "a SymInt";
    case ArgKind::SymBool: return "a SymBool";
    case ArgKind::SymFloat: return "a SymFloat";
    case ArgKind::CustomObj: return "a custom object";
    case ArgKind::None: return "None";
    default: return "a constant";
    }
}

// EIR-G008 for one placeholder: the kind its spec asks for, then its val.
void checkPlaceholder(VerifyContext& ctx, const InputSpec& spec, const Argument& in) {
    const Graph& g = ctx.program.graph;
    const std::string name = firstName(in);
    const std::string kind = inputKindName(spec.kind);
    const bool wantsTensor = isLiftedTensor(spec.kind);
    if ((wantsTensor && in.kind != ArgKind::Tensor) || (spec.kind == InputKind::CustomObj && in.kind != ArgKind::CustomObj)) {
        ctx.report("EIR-G008", "", name,
                   "placeholder '" + name + "' is a " + kind + " input but the graph input is " + argKindText(in) + ", not " +
                       (wantsTensor ? "a tensor" : "a custom object"),
                   "make the graph input an as_tensor argument (lifted state is always a tensor), or fix the spec's kind");
        return;
    }
    if (in.kind == ArgKind::Tensor && !g.tensorValues.count(in.s))
        ctx.report("EIR-G008", "", name,
                   "placeholder '" + name + "' (" + kind + ") has no val: tensor_values has no entry for it",
                   "record the FakeTensor the graph expects for this input in tensor_values['" + name + "']");
    else if (in.kind == ArgKind::SymInt && in.isName && !g.symIntValues.count(in.s))
        ctx.report("EIR-G008", "", name,
                   "placeholder '" + name + "' (" + kind + ") has no val: sym_int_values has no entry for it",
                   "record the SymInt the graph expects for this input in sym_int_values['" + name + "']");
}

// EIR-G009 for one lifted tensor: the recorded val describes the tensor the state dict / constants hold.
void checkStateMeta(VerifyContext& ctx, const InputSpec& spec, const Argument& in) {
    const TensorMeta* val = ctx.program.graph.tensorMeta(in.s);
    const TensorData* held = ctx.program.stateTensorFor(spec);
    if (!val || !held) return; // no val is G008, no tensor is G005
    bool same = val->dtype == held->dtype && val->sizes.size() == held->sizes.size();
    for (size_t d = 0; same && d < val->sizes.size(); ++d)
        same = !val->sizes[d].isStatic() || val->sizes[d].value == held->sizes[d];
    if (same) return;
    const std::string name = firstName(in);
    ctx.report("EIR-G009", "", name,
               std::string(inputKindName(spec.kind)) + " '" + name + "' (target '" + spec.target + "') is recorded as " +
                   val->shortString() + " but the program holds " + metaOf(*held).shortString() + " for '" + spec.target + "'",
               "re-export, or store a tensor of the recorded dtype and shape under '" + spec.target + "'");
}

} // namespace

void verifyPlaceholders(VerifyContext& ctx) {
    const auto& specs = ctx.program.signature.inputSpecs;
    const auto& inputs = ctx.program.graph.inputs;
    const bool haveState = ctx.options.checkState && !(ctx.program.weights.empty() && ctx.program.constants.empty());
    for (size_t k = 0; k < std::min(specs.size(), inputs.size()); ++k) {
        if (specs[k].kind == InputKind::ConstantInput || specs[k].kind == InputKind::Token) continue;
        checkPlaceholder(ctx, specs[k], inputs[k]);
        if (haveState && isLiftedTensor(specs[k].kind) && inputs[k].kind == ArgKind::Tensor)
            checkStateMeta(ctx, specs[k], inputs[k]);
    }
}

namespace {

// The values a node writes in place: its schema's Tensor(a!) arguments; without a schema, the first
// argument of an op named like an in-place op ("add_"), the convention every ATen in-place op follows.
std::vector<std::string> writtenInPlace(const Node& node) {
    std::vector<std::string> out;
    const Target& t = node.target;
    if (t.kind != Target::Kind::Op) return out;
    if (const OpInfo* info = OpRegistry::instance().find(t)) {
        for (const auto& a : info->schema.args)
            if (a.mutates)
                if (const NamedArgument* in = node.input(a.name); in && in->arg.kind == ArgKind::Tensor) out.push_back(in->arg.s);
        return out;
    }
    const bool inplaceName = !t.op().empty() && t.op().back() == '_' && t.op().rfind("__", 0) != 0;
    if (inplaceName && !node.inputs.empty() && node.inputs[0].arg.kind == ArgKind::Tensor) out.push_back(node.inputs[0].arg.s);
    return out;
}

struct BufferState {
    std::map<std::string, std::string> targetOf;        // buffer placeholder -> buffer target
    std::map<std::string, std::vector<std::string>> written; // buffer target -> BUFFER_MUTATION output values
};

BufferState bufferState(const Program& p) {
    BufferState s;
    for (const auto& spec : p.signature.inputSpecs)
        if (spec.kind == InputKind::Buffer) s.targetOf[firstName(spec.arg)] = spec.target;
    for (const auto& spec : p.signature.outputSpecs)
        if (spec.kind == OutputKind::BufferMutation) s.written[spec.target].push_back(firstName(spec.arg));
    return s;
}

void checkInPlaceWrites(VerifyContext& ctx, const BufferState& s) {
    const Graph& g = ctx.program.graph;
    for (size_t k = 0; k < g.nodes.size(); ++k) {
        for (const auto& value : writtenInPlace(g.nodes[k])) {
            auto buffer = s.targetOf.find(value);
            if (buffer == s.targetOf.end() || s.written.count(buffer->second)) continue;
            ctx.report("EIR-G011", "", g.nodes[k].name,
                       "node " + ctx.label(g, k) + " (" + g.nodes[k].target.shortName() + ") writes buffer '" + value + "' (target '" +
                           buffer->second + "') in place, but no BUFFER_MUTATION output names '" + buffer->second +
                           "': the update is lost when the program runs functionally",
                       "return the new value and add a BUFFER_MUTATION output spec with target '" + buffer->second + "'");
        }
    }
}

void checkDuplicateWrites(VerifyContext& ctx, const BufferState& s) {
    for (const auto& [target, values] : s.written) {
        if (values.size() < 2) continue;
        std::string list;
        for (size_t k = 0; k < values.size(); ++k) list += (k ? ", '" : "'") + values[k] + "'";
        ctx.report("EIR-G011", "", values[1],
                   "buffer '" + target + "' has " + std::to_string(values.size()) + " BUFFER_MUTATION outputs (" + list +
                       "); a buffer gets one new value per call, so which one is written back is ambiguous",
                   "keep one BUFFER_MUTATION output per buffer (the last value the graph computes for it)");
    }
}

} // namespace

void verifyBufferMutations(VerifyContext& ctx) {
    const BufferState s = bufferState(ctx.program);
    if (s.targetOf.empty()) return;
    checkInPlaceWrites(ctx, s);
    checkDuplicateWrites(ctx, s);
}

namespace {

// The buffer a value is computed from directly (a node producing it reads a buffer placeholder), for
// the message of a dropped mutation output.
std::string bufferBehind(const Program& p, const std::string& value) {
    const BufferState s = bufferState(p);
    for (const auto& node : p.graph.nodes) {
        const auto outs = node.outputNames();
        if (std::find(outs.begin(), outs.end(), value) == outs.end()) continue;
        for (const auto& in : node.inputs)
            if (auto it = s.targetOf.find(firstName(in.arg)); in.arg.kind == ArgKind::Tensor && it != s.targetOf.end())
                return it->second;
    }
    return {};
}

} // namespace

bool reportDroppedMutationOutputs(VerifyContext& ctx) {
    const auto& outs = ctx.program.graph.outputs;
    const auto& specs = ctx.program.signature.outputSpecs;
    if (specs.size() >= outs.size()) return false;
    // Match the specs, in order, to a subsequence of the outputs; the outputs left over must all sit
    // before the first user output, where the mutation outputs are.
    std::vector<size_t> unmatched;
    size_t j = 0, firstUser = outs.size();
    for (size_t k = 0; k < outs.size(); ++k) {
        if (j < specs.size() && firstName(specs[j].arg) == firstName(outs[k])) {
            const OutputKind kind = specs[j++].kind;
            if ((kind == OutputKind::UserOutput || kind == OutputKind::LossOutput) && firstUser == outs.size()) firstUser = k;
        } else {
            unmatched.push_back(k);
        }
    }
    // Without a user output after them, nothing says the left-over outputs were mutations: EIR-G002 reports it.
    if (j != specs.size() || firstUser == outs.size() || unmatched.back() > firstUser) return false;
    for (size_t k : unmatched) {
        const std::string value = firstName(outs[k]);
        const std::string buffer = bufferBehind(ctx.program, value);
        ctx.report("EIR-G011", "", "output",
                   "the graph returns '" + value + "' at position " + std::to_string(k) +
                       ", among the mutation outputs, but no output spec describes it: a BUFFER_MUTATION entry was dropped" +
                       (buffer.empty() ? std::string() : " (it is computed from buffer '" + buffer + "')"),
                   "add the BUFFER_MUTATION output spec naming '" + value + "' and the buffer it updates" +
                       (buffer.empty() ? std::string() : " (target '" + buffer + "')"));
    }
    return true;
}

} // namespace irlens::core::detail
