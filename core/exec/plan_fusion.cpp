#include "core/exec/plan_fusion.h"

#include <cmath>
#include <optional>

namespace irlens::core::exec {

namespace {

// A node whose work another node does: its first argument is its result (later outputs, unread,
// are empty tensors).
void foldedNodeKernel(KernelContext& ctx) {
    const EValue* in = ctx.argAt(0);
    if (!in || !in->isTensor() || !in->tensor.defined()) kernelFail("folded node: its input is not a tensor");
    ctx.setOutput(0, in->tensor);
    for (size_t k = 1; k < ctx.node().outputs.size(); ++k) ctx.setOutput(k, ctx.alloc(in->tensor.dtype(), {0}));
}

PlanArg* argNamed(PlanNode& pn, const char* name) {
    for (auto& a : pn.args)
        if (a.name == name) return &a;
    return nullptr;
}

bool isNoneArg(const PlanArg* a) { return !a || (a->source == PlanArg::Source::Literal && a->literal().isNone()); }

std::optional<double> literalNumber(const PlanArg* a) {
    if (!a || a->source != PlanArg::Source::Literal || !a->literal().isScalar()) return std::nullopt;
    return a->literal().toDouble();
}

struct Fuser {
    PlanGraph& g;
    std::vector<const Tensor*> state;        // slot -> constant tensor (parameter, buffer, constant) or null
    std::vector<std::vector<int>> readers;   // slot -> nodes reading it
    int folded = 0;

    // A float32 constant tensor argument with `numel` elements, or null.
    const Tensor* constantArg(const PlanArg* a, int64_t numel) const {
        if (!a || a->source != PlanArg::Source::Slot) return nullptr;
        const Tensor* t = state[static_cast<size_t>(a->slot)];
        return t && t->dtype() == ScalarType::Float32 && (numel < 0 || t->numel() == numel) ? t : nullptr;
    }

    // The only node reading slot `s`, or -1 (several readers, a graph output, nobody).
    int soleReader(int s) const {
        if (s < 0 || g.useCounts[static_cast<size_t>(s)] != 1 || readers[static_cast<size_t>(s)].size() != 1) return -1;
        return readers[static_cast<size_t>(s)][0];
    }

    static int soleOutput(const PlanNode& pn) {
        return pn.outputSlots.size() >= 1 && pn.outputSlots[0].size() == 1 ? pn.outputSlots[0][0] : -1;
    }

    void markFolded(PlanNode& pn, int into) {
        pn.kernel = &foldedNodeKernel;
        pn.fusedInto = into;
        pn.flopClass = flopClassOf("alias");
        ++folded;
    }

    // Folds batch norm node `b` into convolution `c`; false when the pattern does not hold.
    bool foldBatchNorm(PlanNode& c, PlanNode& b) {
        const bool legit = b.key == "aten::_native_batch_norm_legit_no_training.default";
        if (!legit && b.key != "aten::batch_norm.default") return false;
        if (!legit) {
            const PlanArg* training = argNamed(b, "training");
            if (!training || literalNumber(training).value_or(1) != 0) return false;
        }
        for (size_t k = 1; k < b.outputNeeded.size(); ++k)
            if (b.outputNeeded[k]) return false;
        PlanArg* wArg = argNamed(c, "weight");
        const Tensor* w = constantArg(wArg, -1);
        if (!w || w->dim() < 3 || !w->isContiguous()) return false;
        const int64_t O = w->size(0), per = w->numel() / std::max<int64_t>(1, O);
        PlanArg* biasArg = argNamed(c, "bias");
        const Tensor* bias = isNoneArg(biasArg) ? nullptr : constantArg(biasArg, O);
        if (!isNoneArg(biasArg) && !bias) return false;
        const PlanArg* gArg = argNamed(b, "weight");
        const PlanArg* betaArg = argNamed(b, "bias");
        const Tensor* gamma = isNoneArg(gArg) ? nullptr : constantArg(gArg, O);
        const Tensor* beta = isNoneArg(betaArg) ? nullptr : constantArg(betaArg, O);
        const Tensor* mean = constantArg(argNamed(b, "running_mean"), O);
        const Tensor* var = constantArg(argNamed(b, "running_var"), O);
        if ((!isNoneArg(gArg) && !gamma) || (!isNoneArg(betaArg) && !beta) || !mean || !var) return false;
        const PlanArg* epsArg = argNamed(b, "eps");
        const std::optional<double> eps = epsArg ? literalNumber(epsArg) : std::optional<double>(1e-5);
        if (!eps) return false;
        auto nw = Tensor::empty(ScalarType::Float32, w->sizes());
        auto nb = Tensor::empty(ScalarType::Float32, {O});
        if (!nw || !nb) return false;
        const float* ws = w->data<float>();
        float* wd = nw->data<float>();
        for (int64_t o = 0; o < O; ++o) {
            const double scale = (gamma ? gamma->at(o) : 1.0) / std::sqrt(var->at(o) + *eps);
            for (int64_t i = 0; i < per; ++i) wd[o * per + i] = static_cast<float>(static_cast<double>(ws[o * per + i]) * scale);
            nb->data<float>()[o] = static_cast<float>(((bias ? bias->at(o) : 0.0) - mean->at(o)) * scale + (beta ? beta->at(o) : 0.0));
        }
        wArg->source = PlanArg::Source::Literal;
        wArg->setLiteral(EValue::fromTensor(*nw));
        if (!biasArg) {
            c.args.push_back(PlanArg{});
            c.args.back().name = "bias";
            biasArg = &c.args.back();
        }
        biasArg->source = PlanArg::Source::Literal;
        biasArg->setLiteral(EValue::fromTensor(*nb));
        markFolded(b, c.index);
        return true;
    }

    // Makes activation node `a` (the only reader of the convolution's or product's result) its
    // post-op; a product takes relu only.
    bool fuseActivation(PlanNode& c, PlanNode& a, bool reluOnly) {
        FusedActivation kind = FusedActivation::None;
        double lo = 0, hi = 0;
        if (a.key == "aten::relu.default" || a.key == "aten::relu_.default") {
            kind = FusedActivation::Relu;
        } else if (reluOnly) {
            return false;
        } else if (a.key == "aten::relu6.default") {
            kind = FusedActivation::Clip, lo = 0, hi = 6;
        } else if (a.key == "aten::hardtanh.default" || a.key == "aten::hardtanh_.default") {
            const PlanArg* mn = argNamed(a, "min_val");
            const PlanArg* mx = argNamed(a, "max_val");
            auto l = mn ? literalNumber(mn) : std::optional<double>(-1.0);
            auto h = mx ? literalNumber(mx) : std::optional<double>(1.0);
            if (!l || !h || *l > *h) return false;
            kind = FusedActivation::Clip, lo = *l, hi = *h;
        }
        if (kind == FusedActivation::None) return false;
        auto append = [&](const char* name, EValue v) {
            PlanArg p;
            p.name = name;
            p.setLiteral(std::move(v));
            c.args.push_back(std::move(p));
        };
        append(kFusedActivationArg, EValue::fromInt(static_cast<int64_t>(kind)));
        append(kFusedMinArg, EValue::fromDouble(lo));
        append(kFusedMaxArg, EValue::fromDouble(hi));
        markFolded(a, c.index);
        return true;
    }

    void fuseAfter(PlanNode& c, bool product) {
        int out = soleOutput(c);
        int r = soleReader(out);
        if (!product && r >= 0 && foldBatchNorm(c, g.nodes[static_cast<size_t>(r)])) out = soleOutput(g.nodes[static_cast<size_t>(r)]);
        r = soleReader(out);
        // a product of a 3-D input's rows is viewed back to 3-D before its activation (linear layers
        // on [batch, tokens, features]): the relu of the view is the view of the relu
        if (product && r >= 0 && isReshape(g.nodes[static_cast<size_t>(r)]) && readsFirst(g.nodes[static_cast<size_t>(r)], out)) {
            out = soleOutput(g.nodes[static_cast<size_t>(r)]);
            r = soleReader(out);
        }
        if (r < 0) return;
        PlanNode& a = g.nodes[static_cast<size_t>(r)];
        if (readsFirst(a, out)) fuseActivation(c, a, product);
    }

    static bool readsFirst(const PlanNode& pn, int slot) {
        return !pn.args.empty() && pn.args[0].source == PlanArg::Source::Slot && pn.args[0].slot == slot;
    }

    static bool isReshape(const PlanNode& pn) {
        return pn.key == "aten::view.default" || pn.key == "aten::_unsafe_view.default" || pn.key == "aten::reshape.default";
    }
};

// mm, addmm, linear: their kernels apply a fused relu (in the weight product's primitive, else in a
// pass over the result)
bool isMatrixProduct(const PlanNode& pn) {
    return pn.key == "aten::mm.default" || pn.key == "aten::addmm.default" || pn.key == "aten::linear.default";
}

bool isConvolution(const PlanNode& pn) {
    if (pn.key != "aten::convolution.default" && pn.key != "aten::conv2d.default" && pn.key != "aten::conv1d.default") return false;
    for (const auto& a : pn.args)
        if (a.name == "transposed" && (a.source != PlanArg::Source::Literal || a.literal().toInt() != 0)) return false;
    return true;
}

} // namespace

int fuseForInference(PlanGraph& g, const std::vector<PlanInput>& inputs, const std::set<std::string>& mutated) {
    const size_t slots = g.slotNames.size();
    Fuser f{g, std::vector<const Tensor*>(slots, nullptr), std::vector<std::vector<int>>(slots)};
    for (const auto& in : inputs) {
        const bool constant = in.kind == InputKind::Parameter || in.kind == InputKind::Buffer || in.kind == InputKind::TensorConstant;
        if (constant && in.slot >= 0 && in.state.defined() && !mutated.count(in.target)) f.state[static_cast<size_t>(in.slot)] = &in.state;
    }
    for (const auto& pn : g.nodes)
        for (int s : pn.inputSlots) f.readers[static_cast<size_t>(s)].push_back(pn.index);
    for (auto& pn : g.nodes)
        if (pn.kernel && (isConvolution(pn) || isMatrixProduct(pn))) f.fuseAfter(pn, !isConvolution(pn));
    return f.folded;
}

} // namespace irlens::core::exec
