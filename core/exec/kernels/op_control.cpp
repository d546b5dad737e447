// Control flow and symbolic values: higher_order.cond (runs one branch's subgraph), sym_size /
// sym_numel / sym_stride, the `_operator.*` arithmetic on sym ints, runtime asserts, native_dropout.

#include "core/exec/kernel_registry.h"
#include "core/exec/kernels/kernels.h"
#include "core/exec/kernels/util/dispatch.h"
#include "core/exec/kernels/util/loops.h"
#include "core/exec/kernels/util/tensor_ops.h"

#include <cmath>
#include <limits>
#include <random>
#include <sstream>

namespace irlens::core::exec {

namespace {

// cond(pred, true_graph, false_graph, operands)
void condKernel(KernelContext& ctx) {
    if (ctx.argCount() < 4) kernelFail("cond expects (pred, true_fn, false_fn, operands)");
    const EValue* pred = ctx.argAt(0);
    const EValue* t = ctx.argAt(1);
    const EValue* f = ctx.argAt(2);
    const EValue* ops = ctx.argAt(3);
    if (!pred || !t || !f || t->kind != EValue::Kind::Graph || f->kind != EValue::Kind::Graph)
        kernelFail("cond expects a predicate and two subgraphs");
    bool p;
    if (pred->isTensor()) {
        if (pred->tensor.numel() != 1) kernelFail("cond: the predicate must have exactly one element, got " + pred->tensor.shapeString());
        p = pred->tensor.at(0) != 0;
    } else if (pred->isScalar()) {
        p = pred->toDouble() != 0;
    } else {
        kernelFail("cond: unsupported predicate " + pred->describe());
    }
    std::vector<EValue> inputs;
    if (ops && ops->kind == EValue::Kind::TensorList)
        for (const auto& x : ops->tensors) inputs.push_back(EValue::fromTensor(x));
    else if (ops && ops->isTensor()) inputs.push_back(*ops);
    if (!ctx.runSubgraph) kernelFail("cond: subgraphs are not available");
    auto outs = ctx.runSubgraph((p ? t : f)->i, inputs);
    for (size_t k = 0; k < outs.size(); ++k) ctx.setOutput(k, outs[k]);
}

void symSizeKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("self", 0);
    ctx.setOutput(0, EValue::fromInt(x.size(wrapDim(ctx.intArg("dim", 1), x.dim()))));
}
void symStrideKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("self", 0);
    ctx.setOutput(0, EValue::fromInt(x.stride(wrapDim(ctx.intArg("dim", 1), x.dim()))));
}
void symNumelKernel(KernelContext& ctx) { ctx.setOutput(0, EValue::fromInt(ctx.tensor("self", 0).numel())); }
void symOffsetKernel(KernelContext& ctx) { ctx.setOutput(0, EValue::fromInt(ctx.tensor("self", 0).storageOffset())); }
void symContiguousKernel(KernelContext& ctx) { ctx.setOutput(0, EValue::fromBool(ctx.tensor("self", 0).isContiguous())); }

enum class SymOp { Add, Sub, Mul, FloorDiv, TrueDiv, Mod, Pow, Eq, Ne, Lt, Le, Gt, Ge, And, Or, Neg, Not, Ceil, Floor, Max, Min };

const EValue& operand(KernelContext& ctx, int k) {
    const EValue* v = ctx.argAt(static_cast<size_t>(k));
    if (!v) kernelFail("symbolic op: operand " + std::to_string(k) + " is missing");
    if (!v->isScalar()) kernelFail("symbolic op: operand " + std::to_string(k) + " should be a number, got " + v->describe());
    return *v;
}

// math.ceil / math.floor of a float as an int: Python refuses NaN and infinities; a symbolic int is int64
int64_t symIntOf(double v, const char* what) {
    if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0)) {
        std::ostringstream text;
        text << what << " of " << v << " has no int64 value";
        kernelFail(text.str());
    }
    return static_cast<int64_t>(v);
}

// Python's ints do not overflow, a symbolic int64 does: these refuse instead of wrapping.
int64_t addExact(int64_t a, int64_t b) {
    int64_t r;
    if (__builtin_add_overflow(a, b, &r)) kernelFail("symbolic add overflows int64");
    return r;
}
int64_t subExact(int64_t a, int64_t b, const char* op = "sub") {
    int64_t r;
    if (__builtin_sub_overflow(a, b, &r)) kernelFail(std::string("symbolic ") + op + " overflows int64");
    return r;
}
int64_t mulExact(int64_t a, int64_t b, const char* op = "mul") {
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r)) kernelFail(std::string("symbolic ") + op + " overflows int64");
    return r;
}

template <SymOp Op> void symOpKernel(KernelContext& ctx) {
    const EValue& a = operand(ctx, 0);
    if constexpr (Op == SymOp::Neg) {
        if (a.kind == EValue::Kind::Double) { ctx.setOutput(0, EValue::fromDouble(-a.d)); return; }
        ctx.setOutput(0, EValue::fromInt(subExact(0, a.toInt(), "neg")));
        return;
    }
    if constexpr (Op == SymOp::Not) { ctx.setOutput(0, EValue::fromBool(a.toDouble() == 0)); return; }
    if constexpr (Op == SymOp::Ceil) { ctx.setOutput(0, EValue::fromInt(symIntOf(std::ceil(a.toDouble()), "math.ceil"))); return; }
    if constexpr (Op == SymOp::Floor) { ctx.setOutput(0, EValue::fromInt(symIntOf(std::floor(a.toDouble()), "math.floor"))); return; }
    const EValue& b = operand(ctx, 1);
    bool isFloat = a.kind == EValue::Kind::Double || b.kind == EValue::Kind::Double;
    double x = a.toDouble(), y = b.toDouble();
    // the int operands only when both are ints (a float's value may not fit one)
    int64_t i = isFloat ? 0 : a.toInt(), j = isFloat ? 0 : b.toInt();
    auto num = [&](double fv, int64_t iv) { return isFloat ? EValue::fromDouble(fv) : EValue::fromInt(iv); };
    switch (Op) {
    case SymOp::Add: ctx.setOutput(0, num(x + y, isFloat ? 0 : addExact(i, j))); break;
    case SymOp::Sub: ctx.setOutput(0, num(x - y, isFloat ? 0 : subExact(i, j))); break;
    case SymOp::Mul: ctx.setOutput(0, num(x * y, isFloat ? 0 : mulExact(i, j))); break;
    case SymOp::FloorDiv: {
        if (y == 0) kernelFail("symbolic floordiv by zero");
        if (!isFloat && i == std::numeric_limits<int64_t>::min() && j == -1) kernelFail("symbolic floordiv overflows int64");
        int64_t q = j ? i / j : 0;
        if (j && (i % j != 0) && ((i < 0) != (j < 0))) --q;
        ctx.setOutput(0, num(std::floor(x / y), q));
        break;
    }
    case SymOp::TrueDiv: if (y == 0) kernelFail("symbolic division by zero"); ctx.setOutput(0, EValue::fromDouble(x / y)); break;
    case SymOp::Mod: {
        if (y == 0) kernelFail("symbolic modulo by zero");
        int64_t m = j && j != -1 ? i % j : 0; // INT64_MIN % -1 overflows in C++; the answer is 0
        if (m != 0 && ((m < 0) != (j < 0))) m += j;
        ctx.setOutput(0, num(x - std::floor(x / y) * y, m));
        break;
    }
    case SymOp::Pow: {
        // int ** negative int is a float in Python (2 ** -1 == 0.5)
        if (isFloat || j < 0) { ctx.setOutput(0, EValue::fromDouble(std::pow(x, y))); break; }
        int64_t p = 1, base = i;
        for (int64_t e = j; e; e >>= 1) {
            if (e & 1) p = mulExact(p, base, "pow");
            if (e > 1) base = mulExact(base, base, "pow");
        }
        ctx.setOutput(0, EValue::fromInt(p));
        break;
    }
    case SymOp::Eq: ctx.setOutput(0, EValue::fromBool(x == y)); break;
    case SymOp::Ne: ctx.setOutput(0, EValue::fromBool(x != y)); break;
    case SymOp::Lt: ctx.setOutput(0, EValue::fromBool(x < y)); break;
    case SymOp::Le: ctx.setOutput(0, EValue::fromBool(x <= y)); break;
    case SymOp::Gt: ctx.setOutput(0, EValue::fromBool(x > y)); break;
    case SymOp::Ge: ctx.setOutput(0, EValue::fromBool(x >= y)); break;
    case SymOp::And: ctx.setOutput(0, EValue::fromBool(x != 0 && y != 0)); break;
    case SymOp::Or: ctx.setOutput(0, EValue::fromBool(x != 0 || y != 0)); break;
    case SymOp::Max: ctx.setOutput(0, num(std::max(x, y), std::max(i, j))); break;
    case SymOp::Min: ctx.setOutput(0, num(std::min(x, y), std::min(i, j))); break;
    default: break;
    }
}

// _operator.getitem(list, index): only reached for lists the engine did not flatten.
void getitemKernel(KernelContext& ctx) {
    const EValue* seq = ctx.argAt(0);
    int64_t k = ctx.argAt(1) ? ctx.argAt(1)->toInt() : 0;
    if (!seq) kernelFail("getitem: missing sequence");
    if (seq->kind == EValue::Kind::TensorList) {
        if (k < 0) k += static_cast<int64_t>(seq->tensors.size());
        if (k < 0 || k >= static_cast<int64_t>(seq->tensors.size())) kernelFail("getitem: index out of range");
        ctx.setOutput(0, seq->tensors[static_cast<size_t>(k)]);
        return;
    }
    if (seq->kind == EValue::Kind::IntList) {
        if (k < 0) k += static_cast<int64_t>(seq->ints.size());
        if (k < 0 || k >= static_cast<int64_t>(seq->ints.size())) kernelFail("getitem: index out of range");
        ctx.setOutput(0, EValue::fromInt(seq->ints[static_cast<size_t>(k)]));
        return;
    }
    kernelFail("getitem on " + seq->describe() + " is not supported");
}

// Runtime checks exported as nodes: verify what can be verified, produce no value.
void assertKernel(KernelContext& ctx) {
    const EValue* v = ctx.argAt(0);
    if (v && v->isTensor() && v->tensor.numel() == 1 && v->tensor.at(0) == 0)
        kernelFail("runtime assertion failed: " + ctx.stringArg("assert_msg", 1, "(no message)"));
    if (v && v->kind == EValue::Kind::Bool && !v->b) kernelFail("runtime assertion failed: " + ctx.stringArg("assert_msg", 1, "(no message)"));
    ctx.setOutput(0, EValue::none());
}

// native_dropout(input, p, train): eval (train False/None) is the identity with an all-true mask.
// Training keeps each element with probability 1-p (mask seeded per node like rand) and computes, as
// PyTorch does, (input * mask) * (1 / (1-p)), the scale 0 when p = 1 (so NaN and inf inputs give NaN
// there, and negative ones -0.0); mask and output are laid out like the input.
void nativeDropoutKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("input", 0);
    const double p = ctx.floatArg("p", 1, 0.0);
    const bool train = ctx.boolArg("train", 2, false);
    Tensor mask = allocLike(ctx, ScalarType::Bool, x.sizes(), {&x}); // ones_like / empty_like: the input's layout
    if (!train) {
        for (int64_t i = 0; i < mask.numel(); ++i) mask.data<bool>()[i] = true; // dense: numel elements from the start
        ctx.setOutput(0, x);
        ctx.setOutput(1, mask);
        return;
    }
    if (!isFloatingType(x.dtype())) kernelFail("dtype " + dtypeName(x.dtype()) + " is not supported by this kernel (dropout takes floats)");
    if (p < 0 || p > 1) kernelFail("native_dropout: p must lie in [0, 1], got " + std::to_string(p));
    std::mt19937_64 gen(std::hash<std::string>{}(ctx.node().name));
    std::bernoulli_distribution keep(1 - p);
    Tensor m = ctx.alloc(ScalarType::Bool, x.sizes());
    for (int64_t i = 0; i < m.numel(); ++i) m.data<bool>()[i] = keep(gen);
    copyInto(mask, m, 1);
    const double scale = p == 1 ? 0.0 : 1.0 / (1 - p);
    ScalarType wide = isFloatingType(x.dtype()) && x.itemSize() == 2 ? ScalarType::Float32 : x.dtype();
    Tensor in = toDtype(ctx, x, wide);
    Tensor wideOut = allocLike(ctx, wide, x.sizes(), {&x});
    Tensor mw = toDtype(ctx, mask, wide);
    dispatchFloat(wide, [&]<class T>() {
        mapElements<T, T, T>(ctx.threads(), wideOut, [scale](T v, T k) { return static_cast<T>((v * k) * static_cast<T>(scale)); }, in, mw);
    });
    Tensor out = wideOut;
    if (wide != x.dtype()) {
        out = allocLike(ctx, x.dtype(), x.sizes(), {&x});
        copyInto(out, wideOut, ctx.threads());
    }
    ctx.setOutput(0, out);
    ctx.setOutput(1, mask);
}

} // namespace

void registerControlKernels(KernelRegistry& r) {
    r.add({"higher_order::cond"}, &condKernel);
    r.add({"aten::sym_size.int"}, &symSizeKernel);
    r.add({"aten::sym_stride.int"}, &symStrideKernel);
    r.add({"aten::sym_numel.default"}, &symNumelKernel);
    r.add({"aten::sym_storage_offset.default"}, &symOffsetKernel);
    r.add({"aten::sym_is_contiguous.default"}, &symContiguousKernel);
    r.add({"_operator.add", "operator.add"}, &symOpKernel<SymOp::Add>);
    r.add({"_operator.sub", "operator.sub"}, &symOpKernel<SymOp::Sub>);
    r.add({"_operator.mul", "operator.mul"}, &symOpKernel<SymOp::Mul>);
    r.add({"_operator.floordiv", "operator.floordiv"}, &symOpKernel<SymOp::FloorDiv>);
    r.add({"_operator.truediv", "operator.truediv"}, &symOpKernel<SymOp::TrueDiv>);
    r.add({"_operator.mod", "operator.mod"}, &symOpKernel<SymOp::Mod>);
    r.add({"_operator.pow", "operator.pow"}, &symOpKernel<SymOp::Pow>);
    r.add({"_operator.eq", "operator.eq"}, &symOpKernel<SymOp::Eq>);
    r.add({"_operator.ne", "operator.ne"}, &symOpKernel<SymOp::Ne>);
    r.add({"_operator.lt", "operator.lt"}, &symOpKernel<SymOp::Lt>);
    r.add({"_operator.le", "operator.le"}, &symOpKernel<SymOp::Le>);
    r.add({"_operator.gt", "operator.gt"}, &symOpKernel<SymOp::Gt>);
    r.add({"_operator.ge", "operator.ge"}, &symOpKernel<SymOp::Ge>);
    r.add({"_operator.and_", "operator.and_"}, &symOpKernel<SymOp::And>);
    r.add({"_operator.or_", "operator.or_"}, &symOpKernel<SymOp::Or>);
    r.add({"_operator.neg", "operator.neg"}, &symOpKernel<SymOp::Neg>);
    r.add({"_operator.not_", "operator.not_"}, &symOpKernel<SymOp::Not>);
    r.add({"math.ceil"}, &symOpKernel<SymOp::Ceil>);
    r.add({"math.floor"}, &symOpKernel<SymOp::Floor>);
    r.add({"torch.sym_max"}, &symOpKernel<SymOp::Max>);
    r.add({"torch.sym_min"}, &symOpKernel<SymOp::Min>);
    r.add({"_operator.getitem", "operator.getitem"}, &getitemKernel);
    r.add({"aten::_assert_async.default", "aten::_assert_async.msg", "aten::_assert_scalar.default",
           "aten::sym_constrain_range.default", "aten::sym_constrain_range_for_size.default"}, &assertKernel);
    r.add({"aten::native_dropout.default"}, &nativeDropoutKernel);
}

} // namespace irlens::core::exec
