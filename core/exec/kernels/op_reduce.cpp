// Reductions: sum, mean, prod, amax/amin, max/min.dim (values + indices), argmax/argmin, var/std,
// any/all, logsumexp, cumsum; the prims forms (dims, output_dtype).

#include "core/exec/kernel_registry.h"
#include "core/exec/kernels/kernels.h"
#include "core/exec/kernels/util/dispatch.h"
#include "core/exec/kernels/util/loops.h"
#include "core/exec/kernels/util/reduce.h"
#include "core/exec/kernels/util/tensor_ops.h"
#include "core/exec/kernels/util/reduced_float.h"

#include <cmath>
#include <limits>

namespace irlens::core::exec {

namespace {

enum class Red { Sum, Mean, Prod, Amax, Amin, Any, All };

ScalarType sumResultType(ScalarType in, std::optional<ScalarType> requested) {
    if (requested) return *requested;
    return isIntegralType(in, true) ? ScalarType::Int64 : in;
}

void reduceImpl(KernelContext& ctx, Red op, const Tensor& x, const std::vector<int64_t>& dims, bool keepdim,
                std::optional<ScalarType> outType) {
    ScalarType dt;
    switch (op) {
    case Red::Sum: case Red::Prod: dt = sumResultType(x.dtype(), outType); break;
    case Red::Mean:
        dt = outType ? *outType : x.dtype();
        if (!isFloatingType(dt)) kernelFail("mean(): could not infer output dtype; input dtype " + dtypeName(x.dtype()) + " is not floating point");
        break;
    // any/all of uint8 stay uint8 (0/1), PyTorch's legacy rule; every other dtype gives bool
    case Red::Any: case Red::All: dt = x.dtype() == ScalarType::UInt8 ? ScalarType::UInt8 : ScalarType::Bool; break;
    default: dt = outType ? *outType : x.dtype(); break;
    }
    // compute in the output dtype for sums/means (torch casts the input first when dtype= is given)
    Tensor in = (op == Red::Any || op == Red::All || op == Red::Amax || op == Red::Amin) ? x : toDtype(ctx, x, dt);
    ReduceLayout L = prepareReduce(ctx, in, dims, keepdim);
    if ((op == Red::Amax || op == Red::Amin) && L.inner == 0) kernelFail("cannot reduce an empty dimension with amax/amin");
    Tensor out = ctx.alloc(dt, L.outShape);
    dispatchAll(in.dtype(), [&]<class T>() {
        const T* src = L.rows.data<T>();
        const int64_t inner = L.inner;
        parallelRange(ctx.threads(), L.outer, inner, [&](int64_t b, int64_t e) {
            for (int64_t o = b; o < e; ++o) {
                const T* row = src + o * inner;
                if (op == Red::Any || op == Red::All) {
                    bool acc = op == Red::All;
                    for (int64_t i = 0; i < inner; ++i) {
                        bool v = row[i] != T(0);
                        acc = op == Red::All ? (acc && v) : (acc || v);
                    }
                    if (dt == ScalarType::UInt8) out.data<uint8_t>()[o] = acc ? 1 : 0;
                    else out.data<bool>()[o] = acc;
                } else if (op == Red::Amax || op == Red::Amin) {
                    T acc = row[0];
                    for (int64_t i = 1; i < inner; ++i) {
                        T v = row[i];
                        if constexpr (std::is_floating_point_v<T>) {
                            if (std::isnan(v) || std::isnan(acc)) { acc = std::numeric_limits<T>::quiet_NaN(); continue; }
                        }
                        acc = op == Red::Amax ? (v > acc ? v : acc) : (v < acc ? v : acc);
                    }
                    reinterpret_cast<T*>(out.raw())[o] = acc;
                } else {
                    using Acc = typename AccType<T>::type;
                    Acc acc = op == Red::Prod ? Acc(1) : Acc(0);
                    if (op == Red::Prod) for (int64_t i = 0; i < inner; ++i) acc *= static_cast<Acc>(row[i]);
                    else for (int64_t i = 0; i < inner; ++i) acc += static_cast<Acc>(row[i]);
                    if (op == Red::Mean) acc = inner ? static_cast<Acc>(acc / static_cast<Acc>(inner)) : std::numeric_limits<Acc>::quiet_NaN();
                    if constexpr (std::is_same_v<T, bool>) reinterpret_cast<T*>(out.raw())[o] = acc != 0;
                    else reinterpret_cast<T*>(out.raw())[o] = static_cast<T>(acc);
                }
            }
        });
    });
    ctx.setOutput(0, out);
}

template <Red Op> void reduceKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("self", 0);
    std::vector<int64_t> dims = reduceDimsArg(ctx, 1);
    bool keepdim = ctx.boolArg("keepdim", 2, false);
    reduceImpl(ctx, Op, x, dims, keepdim, ctx.dtypeArg("dtype"));
}

// prims.sum/prod/amax/amin(inp, dims, *, output_dtype)
template <Red Op> void primsReduceKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("inp", 0);
    auto dims = ctx.optInts("dims", 1);
    std::vector<int64_t> d = dims ? *dims : std::vector<int64_t>{};
    if (dims && dims->empty()) { // reduce nothing: a copy
        Tensor out = ctx.alloc(ctx.dtypeArg("output_dtype").value_or(x.dtype()), x.sizes());
        copyInto(out, x, ctx.threads());
        ctx.setOutput(0, out);
        return;
    }
    reduceImpl(ctx, Op, x, d, false, ctx.dtypeArg("output_dtype"));
}

// var/std with a correction (unbiased = correction 1).
void varImpl(KernelContext& ctx, const Tensor& x, const std::vector<int64_t>& dims, double correction, bool keepdim, bool takeSqrt) {
    if (!isFloatingType(x.dtype())) kernelFail("var/std need a floating-point input, got " + dtypeName(x.dtype()));
    ReduceLayout L = prepareReduce(ctx, x, dims, keepdim);
    Tensor out = ctx.alloc(x.dtype(), L.outShape);
    dispatchFloat(x.dtype(), [&]<class T>() {
        const T* src = L.rows.data<T>();
        for (int64_t o = 0; o < L.outer; ++o) {
            const T* row = src + o * L.inner;
            double mean = 0;
            for (int64_t i = 0; i < L.inner; ++i) mean += row[i];
            mean /= static_cast<double>(L.inner);
            double ss = 0;
            for (int64_t i = 0; i < L.inner; ++i) ss += (row[i] - mean) * (row[i] - mean);
            double v = ss / std::max(0.0, static_cast<double>(L.inner) - correction);
            out.data<T>()[o] = static_cast<T>(takeSqrt ? std::sqrt(v) : v);
        }
    });
    ctx.setOutput(0, out);
}

double correctionArg(KernelContext& ctx) {
    if (auto c = ctx.optFloat("correction")) return *c;
    return ctx.boolArg("unbiased", -1, true) ? 1.0 : 0.0;
}

void varKernel(KernelContext& ctx) {
    varImpl(ctx, ctx.tensor("self", 0), reduceDimsArg(ctx, 1), correctionArg(ctx), ctx.boolArg("keepdim", -1, false), false);
}
void stdKernel(KernelContext& ctx) {
    varImpl(ctx, ctx.tensor("self", 0), reduceDimsArg(ctx, 1), correctionArg(ctx), ctx.boolArg("keepdim", -1, false), true);
}
void primsVarKernel(KernelContext& ctx) {
    varImpl(ctx, ctx.tensor("inp", 0), ctx.ints("dims", 1, {}), ctx.floatArg("correction", 2, 1.0), false, false);
}

// max.dim / min.dim -> (values, indices); argmax / argmin -> indices.
void argReduce(KernelContext& ctx, bool isMax, bool wantValues) {
    Tensor x = ctx.tensor("self", 0);
    auto dim = ctx.optInt("dim", 1);
    bool keepdim = ctx.boolArg("keepdim", 2, false);
    std::vector<int64_t> dims;
    if (dim) dims.push_back(*dim);
    ReduceLayout L = prepareReduce(ctx, x, dims, dim ? keepdim : false);
    if (!dim && keepdim) L.outShape.assign(static_cast<size_t>(x.dim()), 1);
    if (L.inner == 0) kernelFail("cannot take max/min over an empty dimension");
    Tensor idx = ctx.alloc(ScalarType::Int64, L.outShape);
    Tensor vals = wantValues ? ctx.alloc(x.dtype(), L.outShape) : Tensor();
    dispatchAll(x.dtype(), [&]<class T>() {
        const T* src = L.rows.data<T>();
        for (int64_t o = 0; o < L.outer; ++o) {
            const T* row = src + o * L.inner;
            int64_t best = 0;
            for (int64_t i = 1; i < L.inner; ++i) {
                if constexpr (std::is_floating_point_v<T>) {
                    if (std::isnan(row[best])) break;
                    if (std::isnan(row[i])) { best = i; break; }
                }
                if (isMax ? row[i] > row[best] : row[i] < row[best]) best = i;
            }
            idx.data<int64_t>()[o] = best;
            if (wantValues) vals.data<T>()[o] = row[best];
        }
    });
    if (wantValues) {
        ctx.setOutput(0, vals);
        ctx.setOutput(1, idx);
    } else {
        ctx.setOutput(0, idx);
    }
}

void maxDimKernel(KernelContext& ctx) { argReduce(ctx, true, true); }
void minDimKernel(KernelContext& ctx) { argReduce(ctx, false, true); }
void argmaxKernel(KernelContext& ctx) { argReduce(ctx, true, false); }
void argminKernel(KernelContext& ctx) { argReduce(ctx, false, false); }

// max.default / min.default: the whole tensor.
template <Red Op> void fullReduceKernel(KernelContext& ctx) { reduceImpl(ctx, Op, ctx.tensor("self", 0), {}, false, std::nullopt); }

void logsumexpKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("self", 0);
    if (!isFloatingType(x.dtype())) x = toDtype(ctx, x, ScalarType::Float32);
    ReduceLayout L = prepareReduce(ctx, x, reduceDimsArg(ctx, 1), ctx.boolArg("keepdim", 2, false));
    Tensor out = ctx.alloc(x.dtype(), L.outShape);
    dispatchFloat(x.dtype(), [&]<class T>() {
        for (int64_t o = 0; o < L.outer; ++o) {
            const T* row = L.rows.data<T>() + o * L.inner;
            double m = -std::numeric_limits<double>::infinity();
            for (int64_t i = 0; i < L.inner; ++i) m = std::max<double>(m, row[i]);
            double s = 0;
            for (int64_t i = 0; i < L.inner; ++i) s += std::exp(row[i] - m);
            out.data<T>()[o] = static_cast<T>(std::isinf(m) ? m : m + std::log(s));
        }
    });
    ctx.setOutput(0, out);
}

void cumsumKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("self", 0);
    int64_t d = wrapDim(ctx.intArg("dim", 1), x.dim());
    ScalarType dt = sumResultType(x.dtype(), ctx.dtypeArg("dtype"));
    Tensor in = contiguous(ctx, toDtype(ctx, x, dt));
    Tensor out = ctx.alloc(dt, x.sizes());
    int64_t n = x.dim() ? x.size(d) : 1, innerStride = 1, outer = 1;
    for (int64_t k = d + 1; k < x.dim(); ++k) innerStride *= x.size(k);
    for (int64_t k = 0; k < d; ++k) outer *= x.size(k);
    dispatchNumeric(dt, [&]<class T>() {
        const T* s = in.data<T>();
        T* o = out.data<T>();
        for (int64_t a = 0; a < outer; ++a)
            for (int64_t c = 0; c < innerStride; ++c) {
                using Acc = typename AccType<T>::type;
                Acc acc = 0;
                for (int64_t i = 0; i < n; ++i) {
                    int64_t off = (a * n + i) * innerStride + c;
                    acc += static_cast<Acc>(s[off]);
                    o[off] = static_cast<T>(acc);
                }
            }
    });
    ctx.setOutput(0, out);
}

} // namespace

void registerReduceKernels(KernelRegistry& r) {
    r.add({"aten::sum.default", "aten::sum.dim_IntList"}, &viaFloat32<&reduceKernel<Red::Sum>>);
    r.add({"aten::mean.default", "aten::mean.dim"}, &viaFloat32<&reduceKernel<Red::Mean>>);
    r.add({"aten::prod.default", "aten::prod.dim_int"}, &reduceKernel<Red::Prod>);
    r.add({"aten::amax.default"}, &viaFloat32<&reduceKernel<Red::Amax>>);
    r.add({"aten::amin.default"}, &viaFloat32<&reduceKernel<Red::Amin>>);
    r.add({"aten::any.default", "aten::any.dim", "aten::any.dims"}, &viaFloat32<&reduceKernel<Red::Any>>);
    r.add({"aten::all.default", "aten::all.dim", "aten::all.dims"}, &reduceKernel<Red::All>);
    r.add({"aten::max.default"}, &fullReduceKernel<Red::Amax>);
    r.add({"aten::min.default"}, &fullReduceKernel<Red::Amin>);
    r.add({"prims::sum.default"}, &primsReduceKernel<Red::Sum>);
    r.add({"prims::prod.default"}, &primsReduceKernel<Red::Prod>);
    r.add({"prims::amax.default"}, &primsReduceKernel<Red::Amax>);
    r.add({"prims::amin.default"}, &primsReduceKernel<Red::Amin>);
    r.add({"aten::var.default", "aten::var.dim", "aten::var.correction"}, &viaFloat32<&varKernel>);
    r.add({"aten::std.default", "aten::std.dim", "aten::std.correction"}, &stdKernel);
    r.add({"prims::var.default"}, &primsVarKernel);
    r.add({"aten::max.dim"}, &viaFloat32<&maxDimKernel>);
    r.add({"aten::min.dim"}, &viaFloat32<&minDimKernel>);
    r.add({"aten::argmax.default"}, &viaFloat32<&argmaxKernel>);
    r.add({"aten::argmin.default"}, &viaFloat32<&argminKernel>);
    r.add({"aten::logsumexp.default"}, &logsumexpKernel);
    r.add({"aten::cumsum.default"}, &viaFloat32<&cumsumKernel>);
}

} // namespace irlens::core::exec
