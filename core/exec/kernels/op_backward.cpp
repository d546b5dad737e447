// Gradients of the layer ops, as torch.export's training IR calls them: convolution_backward
// (1-D to 3-D, groups, stride / padding / dilation, transposed too), native_layer_norm_backward,
// native_group_norm_backward. An output whose output_mask entry is False is None, as in PyTorch.
// Sums run in double, per output element, so workers never write the same place; group norm's
// input gradient follows PyTorch's float arithmetic (see there).

#include "core/exec/kernel_registry.h"
#include "core/exec/kernels/conv.h"
#include "core/exec/kernels/kernels.h"
#include "core/exec/kernels/util/dispatch.h"
#include "core/exec/kernels/util/half.h"
#include "core/exec/kernels/util/loops.h"
#include "core/exec/kernels/util/reduced_float.h"
#include "core/exec/kernels/util/tensor_ops.h"

#include <array>
#include <cmath>
#include <utility>

namespace irlens::core::exec {

namespace {

std::array<bool, 3> outputMask(KernelContext& ctx, int position) {
    const EValue* v = ctx.find("output_mask", position);
    std::array<bool, 3> mask{true, true, true};
    if (!v) return mask;
    if (v->kind == EValue::Kind::BoolList && v->bools.size() == 3) {
        for (size_t k = 0; k < 3; ++k) mask[k] = v->bools[k];
    } else if (v->kind == EValue::Kind::IntList && v->ints.size() == 3) {
        for (size_t k = 0; k < 3; ++k) mask[k] = v->ints[k] != 0;
    } else {
        kernelFail("output_mask should be a list of three bools, got " + v->describe());
    }
    return mask;
}

// float16 / bfloat16 compute in float32 and round the results, as PyTorch's opmath does
ScalarType opmath(ScalarType t) { return isReducedFloat(t) ? ScalarType::Float32 : t; }

// The norm gradients of PyTorch 1.13 round intermediates in float16 / bfloat16 (answers differ
// from float32 arithmetic by a few percent): refused rather than answered differently.
void refuseReduced(ScalarType dt) {
    if (isReducedFloat(dt)) kernelFail("dtype " + dtypeName(dt) + " is not supported by this kernel (float32/float64 only)");
}

/// Output `index`: `t` in `dtype`, or None when output_mask leaves it out.
void setMaybe(KernelContext& ctx, size_t index, bool wanted, const Tensor& t, ScalarType dtype) {
    if (wanted) ctx.setOutput(index, toDtype(ctx, t, dtype));
    else ctx.setOutput(index, EValue::none());
}

// ---- convolution ---------------------------------------------------------------------------
// A convolution links a "small" tensor S [N, Cs, s...] and a "big" one B [N, Cb, b...] through a
// weight [Cs, Cb / G, k...]: big position p = o * stride - padding + kk * dilation for small
// position o and kernel tap kk. A forward convolution has S = output, B = input; a transposed one
// S = input, B = output. Spatial dims are padded in front to three (size 1, stride 1).
struct ConvGeom {
    int64_t N = 0, G = 1, Cs = 0, Cb = 0;
    std::array<int64_t, 3> s{1, 1, 1}, b{1, 1, 1}, k{1, 1, 1}, st{1, 1, 1}, pad{0, 0, 0}, dil{1, 1, 1};
    int64_t sn() const { return s[0] * s[1] * s[2]; }
    int64_t bn() const { return b[0] * b[1] * b[2]; }
    int64_t kn() const { return k[0] * k[1] * k[2]; }
    int64_t csg() const { return Cs / G; }
    int64_t cbg() const { return Cb / G; }
};

std::array<int64_t, 3> unflat(int64_t i, const std::array<int64_t, 3>& n) {
    return {i / (n[1] * n[2]), (i / n[2]) % n[1], i % n[2]};
}

// The big flat position of small position o and tap kk, or -1 outside the big tensor.
int64_t bigAt(const ConvGeom& g, const std::array<int64_t, 3>& o, const std::array<int64_t, 3>& kk) {
    int64_t flat = 0;
    for (size_t d = 0; d < 3; ++d) {
        const int64_t p = o[d] * g.st[d] - g.pad[d] + kk[d] * g.dil[d];
        if (p < 0 || p >= g.b[d]) return -1;
        flat = flat * g.b[d] + p;
    }
    return flat;
}

// The small flat position that reaches big position p through tap kk, or -1.
int64_t smallAt(const ConvGeom& g, const std::array<int64_t, 3>& p, const std::array<int64_t, 3>& kk) {
    int64_t flat = 0;
    for (size_t d = 0; d < 3; ++d) {
        const int64_t t = p[d] + g.pad[d] - kk[d] * g.dil[d];
        if (t < 0 || t % g.st[d]) return -1;
        const int64_t o = t / g.st[d];
        if (o >= g.s[d]) return -1;
        flat = flat * g.s[d] + o;
    }
    return flat;
}

// S[n, cs, o] = sum over the group's big channels and taps of B[n, cb, p(o, kk)] * w[cs, cb', kk]
template <class T>
void smallFromBig(int threads, const ConvGeom& g, const T* B, const T* w, T* S) {
    parallelRange(threads, g.N * g.Cs, g.sn() * g.cbg() * g.kn(), [&](int64_t lo, int64_t hi) {
        for (int64_t r = lo; r < hi; ++r) {
            const int64_t n = r / g.Cs, cs = r % g.Cs, grp = cs / g.csg();
            for (int64_t o = 0; o < g.sn(); ++o) {
                const auto oi = unflat(o, g.s);
                double acc = 0;
                for (int64_t kk = 0; kk < g.kn(); ++kk) {
                    const int64_t p = bigAt(g, oi, unflat(kk, g.k));
                    if (p < 0) continue;
                    for (int64_t c = 0; c < g.cbg(); ++c)
                        acc += static_cast<double>(B[(n * g.Cb + grp * g.cbg() + c) * g.bn() + p]) *
                               static_cast<double>(w[(cs * g.cbg() + c) * g.kn() + kk]);
                }
                S[r * g.sn() + o] = static_cast<T>(acc);
            }
        }
    });
}

// B[n, cb, p] = sum over the group's small channels and taps reaching p of S[n, cs, o] * w[cs, cb', kk]
template <class T>
void bigFromSmall(int threads, const ConvGeom& g, const T* S, const T* w, T* B) {
    parallelRange(threads, g.N * g.Cb, g.bn() * g.csg() * g.kn(), [&](int64_t lo, int64_t hi) {
        for (int64_t r = lo; r < hi; ++r) {
            const int64_t n = r / g.Cb, cb = r % g.Cb, grp = cb / g.cbg(), cw = cb % g.cbg();
            for (int64_t p = 0; p < g.bn(); ++p) {
                const auto pi = unflat(p, g.b);
                double acc = 0;
                for (int64_t kk = 0; kk < g.kn(); ++kk) {
                    const int64_t o = smallAt(g, pi, unflat(kk, g.k));
                    if (o < 0) continue;
                    for (int64_t c = 0; c < g.csg(); ++c) {
                        const int64_t cs = grp * g.csg() + c;
                        acc += static_cast<double>(S[(n * g.Cs + cs) * g.sn() + o]) * static_cast<double>(w[(cs * g.cbg() + cw) * g.kn() + kk]);
                    }
                }
                B[r * g.bn() + p] = static_cast<T>(acc);
            }
        }
    });
}

// The small positions [first, last) along axis d whose big position o * stride - padding + k * dilation
// falls inside the big tensor.
std::pair<int64_t, int64_t> insideRange(const ConvGeom& g, size_t d, int64_t k) {
    const int64_t shift = k * g.dil[d] - g.pad[d]; // p = o * stride + shift
    const int64_t first = shift >= 0 ? 0 : (-shift + g.st[d] - 1) / g.st[d];
    const int64_t last = shift < g.b[d] ? std::min(g.s[d], (g.b[d] - shift + g.st[d] - 1) / g.st[d]) : 0;
    return {first, std::max(first, last)};
}

// W[cs, cb', kk] = sum over images and small positions of S[n, cs, o] * B[n, cb, p(o, kk)]; the
// positions inside are found per axis, so the innermost loop runs along a row without tests.
template <class T>
void weightGrad(int threads, const ConvGeom& g, const T* S, const T* B, T* W) {
    parallelRange(threads, g.Cs * g.cbg(), g.N * g.sn() * g.kn(), [&](int64_t lo, int64_t hi) {
        for (int64_t r = lo; r < hi; ++r) {
            const int64_t cs = r / g.cbg(), cb = (cs / g.csg()) * g.cbg() + r % g.cbg();
            for (int64_t kk = 0; kk < g.kn(); ++kk) {
                const auto ki = unflat(kk, g.k);
                const auto r0 = insideRange(g, 0, ki[0]), r1 = insideRange(g, 1, ki[1]), r2 = insideRange(g, 2, ki[2]);
                double acc = 0;
                for (int64_t n = 0; n < g.N; ++n) {
                    const T* sp = S + (n * g.Cs + cs) * g.sn();
                    const T* bp = B + (n * g.Cb + cb) * g.bn() + ki[2] * g.dil[2] - g.pad[2];
                    for (int64_t o0 = r0.first; o0 < r0.second; ++o0) {
                        const int64_t p0 = o0 * g.st[0] - g.pad[0] + ki[0] * g.dil[0];
                        for (int64_t o1 = r1.first; o1 < r1.second; ++o1) {
                            const int64_t p1 = o1 * g.st[1] - g.pad[1] + ki[1] * g.dil[1];
                            const T* srow = sp + (o0 * g.s[1] + o1) * g.s[2];
                            const T* brow = bp + (p0 * g.b[1] + p1) * g.b[2];
                            for (int64_t o2 = r2.first; o2 < r2.second; ++o2)
                                acc += static_cast<double>(srow[o2]) * static_cast<double>(brow[o2 * g.st[2]]);
                        }
                    }
                }
                W[r * g.kn() + kk] = static_cast<T>(acc);
            }
        }
    });
}

ConvGeom convGeom(const Tensor& small, const Tensor& big, const Tensor& weight, int64_t groups, const std::vector<int64_t>& stride,
                  const std::vector<int64_t>& padding, const std::vector<int64_t>& dilation) {
    const int64_t rank = weight.dim(), nd = rank - 2;
    if (rank < 3 || rank > 5 || small.dim() != rank || big.dim() != rank)
        kernelFail("convolution_backward supports 1-D to 3-D convolutions with a batch dim; got weight " + weight.shapeString() +
                   " and input " + big.shapeString());
    ConvGeom g;
    g.N = small.size(0);
    g.G = groups;
    g.Cs = small.size(1);
    g.Cb = big.size(1);
    if (groups <= 0 || g.Cs % groups || g.Cb % groups || weight.size(0) != g.Cs || weight.size(1) * groups != g.Cb || big.size(0) != g.N)
        kernelFail("convolution_backward: weight " + weight.shapeString() + " with " + std::to_string(groups) + " groups does not fit " +
                   small.shapeString() + " and " + big.shapeString());
    for (int64_t d = 0; d < nd; ++d) {
        const size_t at = static_cast<size_t>(3 - nd + d);
        g.s[at] = small.size(2 + d);
        g.b[at] = big.size(2 + d);
        g.k[at] = weight.size(2 + d);
        g.st[at] = convParam(stride, static_cast<size_t>(d), 1);
        g.pad[at] = convParam(padding, static_cast<size_t>(d), 0);
        g.dil[at] = convParam(dilation, static_cast<size_t>(d), 1);
        if (g.st[at] <= 0 || g.dil[at] <= 0 || g.pad[at] < 0)
            kernelFail("convolution_backward: stride and dilation must be positive, padding non-negative");
    }
    return g;
}

// convolution_backward(grad_output, input, weight, bias_sizes, stride, padding, dilation, transposed,
// output_padding, groups, output_mask) -> (grad_input, grad_weight, grad_bias)
void convolutionBackwardKernel(KernelContext& ctx) {
    const Tensor go = ctx.tensor("grad_output", 0), input = ctx.tensor("input", 1), weight = ctx.tensor("weight", 2);
    const bool transposed = ctx.boolArg("transposed", 7, false);
    const auto mask = outputMask(ctx, 10);
    if (go.dtype() != input.dtype() || weight.dtype() != input.dtype())
        kernelFail("convolution_backward: grad_output, input and weight must have one dtype, got " + dtypeName(go.dtype()) + ", " +
                   dtypeName(input.dtype()) + " and " + dtypeName(weight.dtype()));
    const ScalarType dt = input.dtype(), cdt = opmath(dt);
    const Tensor g0 = contiguous(ctx, toDtype(ctx, go, cdt)), x = contiguous(ctx, toDtype(ctx, input, cdt)), w = contiguous(ctx, toDtype(ctx, weight, cdt));
    // a forward convolution's output is the small side; a transposed one's input is
    const Tensor& small = transposed ? x : g0;
    const Tensor& big = transposed ? g0 : x;
    const ConvGeom g = convGeom(small, big, w, ctx.intArg("groups", 9, 1), ctx.ints("stride", 4, {1}), ctx.ints("padding", 5, {0}),
                                ctx.ints("dilation", 6, {1}));
    Tensor gi = mask[0] ? ctx.alloc(x.dtype(), x.sizes()) : Tensor();
    Tensor gw = mask[1] ? ctx.alloc(x.dtype(), w.sizes()) : Tensor();
    const int64_t O = go.size(1), spatial = go.numel() / std::max<int64_t>(1, go.size(0) * O);
    Tensor gb = mask[2] ? ctx.alloc(x.dtype(), {O}) : Tensor();
    dispatchFloat(x.dtype(), [&]<class T>() {
        if (mask[0]) {
            if (transposed) smallFromBig<T>(ctx.threads(), g, g0.data<T>(), w.data<T>(), gi.data<T>());
            else bigFromSmall<T>(ctx.threads(), g, g0.data<T>(), w.data<T>(), gi.data<T>());
        }
        if (mask[1]) {
            if (transposed) weightGrad<T>(ctx.threads(), g, x.data<T>(), g0.data<T>(), gw.data<T>());
            else weightGrad<T>(ctx.threads(), g, g0.data<T>(), x.data<T>(), gw.data<T>());
        }
        if (mask[2]) {
            const T* s = g0.data<T>();
            for (int64_t o = 0; o < O; ++o) {
                double acc = 0;
                for (int64_t n = 0; n < go.size(0); ++n)
                    for (int64_t i = 0; i < spatial; ++i) acc += static_cast<double>(s[(n * O + o) * spatial + i]);
                gb.data<T>()[o] = static_cast<T>(acc);
            }
        }
    });
    setMaybe(ctx, 0, mask[0], gi, dt);
    setMaybe(ctx, 1, mask[1], gw, dt);
    setMaybe(ctx, 2, mask[2], gb, dt);
}

// ---- normalisations ------------------------------------------------------------------------

// The operands of a norm gradient, contiguous, in the input's dtype.
struct NormOperands {
    ScalarType dt;
    Tensor dy, x, mean, rstd, w;
};

NormOperands normOperands(KernelContext& ctx, const Tensor& go, const Tensor& input, const Tensor& mean, const Tensor& rstd,
                          const std::optional<Tensor>& weight) {
    const ScalarType dt = input.dtype();
    refuseReduced(dt);
    auto dense = [&](const Tensor& t) { return contiguous(ctx, toDtype(ctx, t, dt)); };
    return {dt, dense(go), dense(input), dense(mean), dense(rstd), weight ? dense(*weight) : Tensor()};
}

// native_layer_norm_backward(grad_out, input, normalized_shape, mean, rstd, weight, bias, output_mask)
// With g = grad_out * weight and xhat = (x - mean) * rstd over each row of N elements:
// dx = rstd * (g - mean(g) - xhat * mean(g * xhat)); dweight = sum over rows of grad_out * xhat;
// dbias = sum over rows of grad_out.
void layerNormBackwardKernel(KernelContext& ctx) {
    const Tensor go = ctx.tensor("grad_out", 0), input = ctx.tensor("input", 1);
    const Shape norm = ctx.ints("normalized_shape", 2);
    const Tensor meanT = ctx.tensor("mean", 3), rstdT = ctx.tensor("rstd", 4);
    const auto weight = ctx.optTensor("weight", 5), bias = ctx.optTensor("bias", 6);
    const auto mask = outputMask(ctx, 7);
    const int64_t axis = input.dim() - static_cast<int64_t>(norm.size());
    if (axis < 0 || !std::equal(norm.begin(), norm.end(), input.sizes().begin() + axis))
        kernelFail("native_layer_norm_backward: normalized_shape " + shapeToString(norm) + " does not match the trailing dims of " +
                   input.shapeString());
    const int64_t inner = shapeNumel(norm), outer = inner ? input.numel() / inner : 0;
    if (go.sizes() != input.sizes() || meanT.numel() != outer || rstdT.numel() != outer)
        kernelFail("native_layer_norm_backward: grad_out " + go.shapeString() + ", mean " + meanT.shapeString() + " and rstd " +
                   rstdT.shapeString() + " do not fit input " + input.shapeString());
    const NormOperands ops = normOperands(ctx, go, input, meanT, rstdT, weight);
    const ScalarType dt = ops.dt, cdt = ops.dt;
    const Tensor &dy = ops.dy, &x = ops.x, &mean = ops.mean, &rstd = ops.rstd, &w = ops.w;
    Tensor dx = mask[0] ? ctx.alloc(cdt, input.sizes()) : Tensor();
    Tensor dw = mask[1] ? ctx.alloc(cdt, weight ? weight->sizes() : norm) : Tensor();
    Tensor db = mask[2] ? ctx.alloc(cdt, bias ? bias->sizes() : norm) : Tensor();
    dispatchFloat(cdt, [&]<class T>() {
        const T *ys = dy.data<T>(), *xs = x.data<T>(), *ms = mean.data<T>(), *rs = rstd.data<T>();
        const T* ws = weight ? w.data<T>() : nullptr;
        if (mask[0]) {
            parallelRange(ctx.threads(), outer, inner * 4, [&](int64_t lo, int64_t hi) {
                for (int64_t r = lo; r < hi; ++r) {
                    const T *yr = ys + r * inner, *xr = xs + r * inner;
                    const double m = ms[r], rsd = rs[r];
                    double sg = 0, sgx = 0;
                    for (int64_t i = 0; i < inner; ++i) {
                        const double gv = static_cast<double>(yr[i]) * (ws ? static_cast<double>(ws[i]) : 1.0);
                        sg += gv;
                        sgx += gv * (static_cast<double>(xr[i]) - m) * rsd;
                    }
                    const double mg = sg / static_cast<double>(inner), mgx = sgx / static_cast<double>(inner);
                    for (int64_t i = 0; i < inner; ++i) {
                        const double gv = static_cast<double>(yr[i]) * (ws ? static_cast<double>(ws[i]) : 1.0);
                        dx.data<T>()[r * inner + i] = static_cast<T>(rsd * (gv - mg - (static_cast<double>(xr[i]) - m) * rsd * mgx));
                    }
                }
            });
        }
        for (int64_t i = 0; i < inner && (mask[1] || mask[2]); ++i) {
            double sw = 0, sb = 0;
            for (int64_t r = 0; r < outer; ++r) {
                sw += static_cast<double>(ys[r * inner + i]) * (static_cast<double>(xs[r * inner + i]) - ms[r]) * static_cast<double>(rs[r]);
                sb += static_cast<double>(ys[r * inner + i]);
            }
            if (mask[1]) dw.data<T>()[i] = static_cast<T>(sw);
            if (mask[2]) db.data<T>()[i] = static_cast<T>(sb);
        }
    });
    setMaybe(ctx, 0, mask[0], dx, dt);
    setMaybe(ctx, 1, mask[1], dw, dt);
    setMaybe(ctx, 2, mask[2], db, dt);
}

// Per (image, channel) sums of grad_out * x and grad_out over the HxW elements.
template <class T>
void channelSums(int threads, const T* dy, const T* x, int64_t rows, int64_t HxW, std::vector<double>& ds, std::vector<double>& db) {
    ds.assign(static_cast<size_t>(rows), 0.0);
    db.assign(static_cast<size_t>(rows), 0.0);
    parallelRange(threads, rows, HxW * 2, [&](int64_t lo, int64_t hi) {
        for (int64_t r = lo; r < hi; ++r) {
            double a = 0, b = 0;
            for (int64_t i = 0; i < HxW; ++i) {
                a += static_cast<double>(dy[r * HxW + i]) * static_cast<double>(x[r * HxW + i]);
                b += static_cast<double>(dy[r * HxW + i]);
            }
            ds[static_cast<size_t>(r)] = a;
            db[static_cast<size_t>(r)] = b;
        }
    });
}

// native_group_norm_backward(grad_out, input, mean, rstd, weight, N, C, HxW, group, output_mask)
// Over each group of D = C / group channels with M = D * HxW elements, gamma = weight (or 1):
// dx = rstd * gamma * dy + c2 * x + c3, c2 = (db_g * mean - ds_g) * rstd^3 / M, c3 = -c2 * mean - db_g * rstd / M,
// where ds_g, db_g sum gamma * sum(dy * x), gamma * sum(dy) over the group's channels;
// dweight[c] = sum over images of (sum(dy * x) - sum(dy) * mean) * rstd; dbias[c] = sum of dy.
void groupNormBackwardKernel(KernelContext& ctx) {
    const Tensor go = ctx.tensor("grad_out", 0), input = ctx.tensor("input", 1), meanT = ctx.tensor("mean", 2), rstdT = ctx.tensor("rstd", 3);
    const auto weight = ctx.optTensor("weight", 4);
    const int64_t N = ctx.intArg("N", 5), C = ctx.intArg("C", 6), HxW = ctx.intArg("HxW", 7), G = ctx.intArg("group", 8);
    const auto mask = outputMask(ctx, 9);
    if (G <= 0 || C % G || N * C * HxW != input.numel() || go.sizes() != input.sizes() || meanT.numel() != N * G || rstdT.numel() != N * G ||
        (weight && weight->numel() != C))
        kernelFail("native_group_norm_backward: input " + input.shapeString() + ", grad_out " + go.shapeString() + ", mean " +
                   meanT.shapeString() + " do not fit N=" + std::to_string(N) + " C=" + std::to_string(C) + " HxW=" + std::to_string(HxW) +
                   " group=" + std::to_string(G));
    const NormOperands ops = normOperands(ctx, go, input, meanT, rstdT, weight);
    const ScalarType dt = ops.dt, cdt = ops.dt;
    const Tensor &dy = ops.dy, &x = ops.x, &mean = ops.mean, &rstd = ops.rstd, &w = ops.w;
    Tensor dx = mask[0] ? ctx.alloc(cdt, input.sizes()) : Tensor();
    Tensor dw = mask[1] ? ctx.alloc(cdt, {C}) : Tensor();
    Tensor db = mask[2] ? ctx.alloc(cdt, {C}) : Tensor();
    const int64_t D = C / G;
    dispatchFloat(cdt, [&]<class T>() {
        const T *ys = dy.data<T>(), *xs = x.data<T>(), *ms = mean.data<T>(), *rs = rstd.data<T>();
        auto gamma = [&](int64_t c) { return weight ? static_cast<double>(w.data<T>()[c]) : 1.0; };
        std::vector<double> ds, dbs;
        channelSums<T>(ctx.threads(), ys, xs, N * C, HxW, ds, dbs);
        if (mask[0]) {
            // in T and in PyTorch's order: c2 * x + c3 cancels, and float32 answers carry that rounding
            const T scale = T(1) / static_cast<T>(D * HxW);
            parallelRange(ctx.threads(), N * G, D * HxW * 2, [&](int64_t lo, int64_t hi) {
                for (int64_t ng = lo; ng < hi; ++ng) {
                    const int64_t n = ng / G, grp = ng % G;
                    T dsg = 0, dbg = 0;
                    for (int64_t c = grp * D; c < (grp + 1) * D; ++c) {
                        dsg += static_cast<T>(ds[static_cast<size_t>(n * C + c)]) * static_cast<T>(gamma(c));
                        dbg += static_cast<T>(dbs[static_cast<size_t>(n * C + c)]) * static_cast<T>(gamma(c));
                    }
                    const T m = ms[ng], r = rs[ng];
                    // PyTorch's x86 build fuses these multiply-adds (the float32 answer of a group
                    // of near-equal values depends on it)
                    const T c2 = std::fma(dbg, m, -dsg) * r * r * r * scale, c3 = std::fma(-c2, m, -(dbg * r * scale));
                    for (int64_t c = grp * D; c < (grp + 1) * D; ++c) {
                        const T c1 = r * static_cast<T>(gamma(c));
                        const int64_t base = (n * C + c) * HxW;
                        for (int64_t i = 0; i < HxW; ++i) dx.data<T>()[base + i] = c1 * ys[base + i] + c2 * xs[base + i] + c3;
                    }
                }
            });
        }
        for (int64_t c = 0; c < C && (mask[1] || mask[2]); ++c) {
            double sw = 0, sb = 0;
            for (int64_t n = 0; n < N; ++n) {
                const int64_t ng = n * G + c / D;
                sw += (ds[static_cast<size_t>(n * C + c)] - dbs[static_cast<size_t>(n * C + c)] * static_cast<double>(ms[ng])) * static_cast<double>(rs[ng]);
                sb += dbs[static_cast<size_t>(n * C + c)];
            }
            if (mask[1]) dw.data<T>()[c] = static_cast<T>(sw);
            if (mask[2]) db.data<T>()[c] = static_cast<T>(sb);
        }
    });
    setMaybe(ctx, 0, mask[0], dx, dt);
    setMaybe(ctx, 1, mask[1], dw, dt);
    setMaybe(ctx, 2, mask[2], db, dt);
}

// ---- pooling -------------------------------------------------------------------------------

// The pooled input as [planes, H, W] and grad_output as [planes, OH, OW], both contiguous.
struct PoolGrad {
    Tensor dy, gi; // in float32 for float16 / bfloat16
    ScalarType dtype = ScalarType::Float32; // of the input and the gradient
    // PyTorch's pooling gradients of float16 / bfloat16 round every quotient and every sum to
    // that dtype: so does this
    template <class T> T round(T v) const {
        return roundedTo(dtype, v);
    }
    int64_t planes = 0, H = 0, W = 0, OH = 0, OW = 0;
};

PoolGrad poolGrad(KernelContext& ctx, const char* op, bool zeroed) {
    const Tensor go = ctx.tensor("grad_output", 0), self = ctx.tensor("self", 1);
    if ((self.dim() != 3 && self.dim() != 4) || go.dim() != self.dim())
        kernelFail(std::string(op) + " expects a 3-D or 4-D input and grad_output of its rank, got " + self.shapeString() + " and " + go.shapeString());
    for (int64_t d = 0; d + 2 < self.dim(); ++d)
        if (go.size(d) != self.size(d)) kernelFail(std::string(op) + ": grad_output " + go.shapeString() + " does not fit input " + self.shapeString());
    PoolGrad p;
    p.dtype = self.dtype();
    p.dy = contiguous(ctx, toDtype(ctx, go, opmath(self.dtype())));
    p.H = self.size(self.dim() - 2);
    p.W = self.size(self.dim() - 1);
    p.OH = go.size(go.dim() - 2);
    p.OW = go.size(go.dim() - 1);
    p.planes = self.numel() / std::max<int64_t>(1, p.H * p.W);
    p.gi = zeroed ? ctx.allocZeros(opmath(self.dtype()), self.sizes()) : ctx.alloc(opmath(self.dtype()), self.sizes());
    return p;
}

int64_t listAt(const std::vector<int64_t>& v, size_t k, int64_t fallback) {
    if (v.empty()) return fallback;
    return v.size() == 1 ? v[0] : v[std::min(k, v.size() - 1)];
}

// _adaptive_avg_pool2d_backward(grad_output, self): each output cell's gradient spread evenly over
// its window [floor(o * H / OH), ceil((o + 1) * H / OH)), divided by its height, then its width.
void adaptiveAvgPoolBackwardKernel(KernelContext& ctx) {
    PoolGrad p = poolGrad(ctx, "_adaptive_avg_pool2d_backward", true);
    dispatchFloat(p.gi.dtype(), [&]<class T>() {
        const T* dy = p.dy.data<T>();
        T* gi = p.gi.data<T>();
        parallelRange(ctx.threads(), p.planes, p.H * p.W * 4, [&](int64_t lo, int64_t hi) {
            for (int64_t pl = lo; pl < hi; ++pl)
                for (int64_t oh = 0; oh < p.OH; ++oh) {
                    const int64_t h0 = oh * p.H / p.OH, h1 = ((oh + 1) * p.H + p.OH - 1) / p.OH;
                    for (int64_t ow = 0; ow < p.OW; ++ow) {
                        const int64_t w0 = ow * p.W / p.OW, w1 = ((ow + 1) * p.W + p.OW - 1) / p.OW;
                        const T g = p.round(p.round(dy[(pl * p.OH + oh) * p.OW + ow] / static_cast<T>(h1 - h0)) / static_cast<T>(w1 - w0));
                        for (int64_t ih = h0; ih < h1; ++ih)
                            for (int64_t iw = w0; iw < w1; ++iw) gi[(pl * p.H + ih) * p.W + iw] = p.round(gi[(pl * p.H + ih) * p.W + iw] + g);
                    }
                }
        });
    });
    ctx.setOutput(0, toDtype(ctx, p.gi, p.dtype));
}

// avg_pool2d_backward(grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
// divisor_override): the forward's windows and divisors, each output's gradient / divisor added to
// the window's cells inside the input.
void avgPoolBackwardKernel(KernelContext& ctx) {
    PoolGrad p = poolGrad(ctx, "avg_pool2d_backward", true);
    const auto ks = ctx.ints("kernel_size", 2), st = ctx.ints("stride", 3, {}), pad = ctx.ints("padding", 4, {0});
    const bool countPad = ctx.boolArg("count_include_pad", 6, true);
    const auto divisor = ctx.optInt("divisor_override", 7);
    const int64_t kH = listAt(ks, 0, 1), kW = listAt(ks, 1, 1), sH = listAt(st, 0, kH), sW = listAt(st, 1, kW);
    const int64_t pH = listAt(pad, 0, 0), pW = listAt(pad, 1, 0);
    if (kH <= 0 || kW <= 0 || sH <= 0 || sW <= 0 || (divisor && *divisor == 0))
        kernelFail("avg_pool2d_backward: kernel, stride and divisor_override must be positive");
    dispatchFloat(p.gi.dtype(), [&]<class T>() {
        const T* dy = p.dy.data<T>();
        T* gi = p.gi.data<T>();
        parallelRange(ctx.threads(), p.planes, p.OH * p.OW * kH * kW, [&](int64_t lo, int64_t hi) {
            for (int64_t pl = lo; pl < hi; ++pl)
                for (int64_t oh = 0; oh < p.OH; ++oh)
                    for (int64_t ow = 0; ow < p.OW; ++ow) {
                        int64_t h0 = oh * sH - pH, w0 = ow * sW - pW;
                        int64_t h1 = std::min(h0 + kH, p.H + pH), w1 = std::min(w0 + kW, p.W + pW);
                        const int64_t padded = (h1 - h0) * (w1 - w0);
                        h0 = std::max<int64_t>(h0, 0);
                        w0 = std::max<int64_t>(w0, 0);
                        h1 = std::min(h1, p.H);
                        w1 = std::min(w1, p.W);
                        const int64_t div = divisor ? *divisor : countPad ? padded : (h1 - h0) * (w1 - w0);
                        if (div == 0) continue;
                        const T g = p.round(dy[(pl * p.OH + oh) * p.OW + ow] / static_cast<T>(div));
                        for (int64_t ih = h0; ih < h1; ++ih)
                            for (int64_t iw = w0; iw < w1; ++iw) gi[(pl * p.H + ih) * p.W + iw] = p.round(gi[(pl * p.H + ih) * p.W + iw] + g);
                    }
        });
    });
    ctx.setOutput(0, toDtype(ctx, p.gi, p.dtype));
}

// max_pool2d_with_indices_backward(grad_output, self, kernel_size, stride, padding, dilation,
// ceil_mode, indices): each output's gradient added at the input cell its index names (flat in the plane).
void maxPoolBackwardKernel(KernelContext& ctx) {
    PoolGrad p = poolGrad(ctx, "max_pool2d_with_indices_backward", true);
    const Tensor indices = ctx.tensor("indices", 7);
    if (indices.sizes() != ctx.tensor("grad_output", 0).sizes())
        kernelFail("max_pool2d_with_indices_backward: indices " + indices.shapeString() + " do not match grad_output");
    const Tensor idx = contiguous(ctx, toDtype(ctx, indices, ScalarType::Int64));
    const int64_t HW = p.H * p.W;
    for (int64_t i = 0; i < idx.numel(); ++i)
        if (idx.data<int64_t>()[i] < 0 || idx.data<int64_t>()[i] >= HW)
            kernelFail("max_pool2d_with_indices_backward: index " + std::to_string(idx.data<int64_t>()[i]) + " is outside the " +
                       std::to_string(p.H) + "x" + std::to_string(p.W) + " plane");
    dispatchFloat(p.gi.dtype(), [&]<class T>() {
        const T* dy = p.dy.data<T>();
        const int64_t* ix = idx.data<int64_t>();
        T* gi = p.gi.data<T>();
        parallelRange(ctx.threads(), p.planes, p.OH * p.OW, [&](int64_t lo, int64_t hi) {
            for (int64_t pl = lo; pl < hi; ++pl)
                for (int64_t o = 0; o < p.OH * p.OW; ++o) {
                    T& cell = gi[pl * HW + ix[pl * p.OH * p.OW + o]];
                    cell = p.round(cell + dy[pl * p.OH * p.OW + o]);
                }
        });
    });
    ctx.setOutput(0, toDtype(ctx, p.gi, p.dtype));
}

} // namespace

void registerBackwardKernels(KernelRegistry& r) {
    r.add({"aten::convolution_backward.default"}, &convolutionBackwardKernel);
    r.add({"aten::native_layer_norm_backward.default"}, &viaFloat32<&layerNormBackwardKernel>);
    r.add({"aten::native_group_norm_backward.default"}, &viaFloat32<&groupNormBackwardKernel>);
    r.add({"aten::_adaptive_avg_pool2d_backward.default"}, &adaptiveAvgPoolBackwardKernel);
    r.add({"aten::avg_pool2d_backward.default"}, &avgPoolBackwardKernel);
    r.add({"aten::max_pool2d_with_indices_backward.default"}, &maxPoolBackwardKernel);
}

} // namespace irlens::core::exec
