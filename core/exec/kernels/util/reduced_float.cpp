#include "core/exec/kernels/util/reduced_float.h"

#include "core/exec/kernels/util/half.h"
#include "core/exec/kernels/util/tensor_ops.h"

#include <optional>

namespace irlens::core::exec {

namespace {

bool isDtypeArg(const KernelContext& ctx, size_t k) {
    const std::string* name = ctx.argName(k);
    const EValue* v = ctx.argAt(k);
    return name && v && (*name == "dtype" || *name == "output_dtype") && v->kind == EValue::Kind::Int;
}

// The reduced dtype of the call (its first float16 / bfloat16 tensor or dtype argument), and the
// dtype its float32 results round to.
struct Widening {
    std::optional<ScalarType> reduced;
    std::optional<ScalarType> explicitDtype;
};

Widening widening(const KernelContext& ctx) {
    Widening w;
    auto note = [&w](ScalarType t) { if (isReducedFloat(t) && !w.reduced) w.reduced = t; };
    for (size_t k = 0; k < ctx.argCount(); ++k) {
        const EValue* v = ctx.argAt(k);
        if (!v) continue;
        if (v->isTensor() && v->tensor.defined()) note(v->tensor.dtype());
        if (v->kind == EValue::Kind::TensorList)
            for (const auto& t : v->tensors) if (t.defined()) note(t.dtype());
        if (isDtypeArg(ctx, k)) {
            w.explicitDtype = static_cast<ScalarType>(v->i);
            note(*w.explicitDtype);
        }
    }
    return w;
}

EValue widened(KernelContext& ctx, const EValue& v) {
    EValue w = v;
    auto widen = [&ctx](Tensor& t) { if (t.defined() && isReducedFloat(t.dtype())) t = toDtypeKeepLayout(ctx, t, ScalarType::Float32); };
    if (w.isTensor()) widen(w.tensor);
    if (w.kind == EValue::Kind::TensorList) for (auto& t : w.tensors) widen(t);
    return w;
}

} // namespace

void runWidened(KernelContext& ctx, KernelFn inner) {
    const Widening w = widening(ctx);
    if (!w.reduced) { inner(ctx); return; }
    const ScalarType target = w.explicitDtype && isFloatingType(*w.explicitDtype) ? *w.explicitDtype : *w.reduced;
    std::vector<EValue> args(ctx.argCount());
    std::vector<BoundValue> bound(ctx.argCount());
    for (size_t k = 0; k < ctx.argCount(); ++k) {
        if (const EValue* v = ctx.argAt(k)) args[k] = widened(ctx, *v);
        if (isDtypeArg(ctx, k) && isReducedFloat(static_cast<ScalarType>(args[k].i))) args[k].i = static_cast<int64_t>(ScalarType::Float32);
        bound[k] = BoundValue{ctx.argName(k), ctx.argAt(k) ? &args[k] : nullptr};
    }
    std::vector<EValue> outs;
    KernelContext wide(ctx.node(), bound, outs, ctx.threads(), ctx.tracker(), ctx.cache());
    inner(wide);
    ctx.chargeBytes(wide.bytesAllocated());
    auto narrow = [&ctx, target](Tensor& t) { if (t.defined() && t.dtype() == ScalarType::Float32 && target != ScalarType::Float32) t = toDtypeKeepLayout(ctx, t, target); };
    for (size_t k = 0; k < outs.size(); ++k) {
        EValue o = std::move(outs[k]);
        if (o.isTensor()) narrow(o.tensor);
        if (o.kind == EValue::Kind::TensorList) for (auto& t : o.tensors) narrow(t);
        ctx.setOutput(k, std::move(o));
    }
}

} // namespace irlens::core::exec
