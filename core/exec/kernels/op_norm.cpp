// Softmax / log_softmax and normalisations: layer norm (training-IR and native forms), batch norm
// in inference (running statistics), group norm.

#include "core/exec/kernel_registry.h"
#include "core/exec/kernels/kernels.h"
#include "core/exec/kernels/util/dispatch.h"
#include "core/exec/kernels/util/dnnl_slices.h"
#include "core/exec/kernels/util/loops.h"
#include "core/exec/kernels/util/tensor_ops.h"
#include "core/exec/kernels/util/reduced_float.h"
#include "core/exec/kernels/util/row_norm.h"

#include <cmath>
#include <limits>
#include <type_traits>

namespace irlens::core::exec {

namespace {

void softmaxImpl(KernelContext& ctx, bool log) {
    Tensor x = ctx.tensor("self", 0);
    int64_t d = wrapDim(ctx.intArg("dim", 1), x.dim());
    ScalarType dt = ctx.dtypeArg("dtype", 2).value_or(x.dtype());
    if (!isFloatingType(dt)) dt = ScalarType::Float32;
    Tensor in = contiguous(ctx, toDtype(ctx, x, dt));
    Tensor out = ctx.alloc(dt, x.sizes());
    int64_t n = x.dim() ? x.size(d) : 1, inner = 1, outer = 1;
    for (int64_t k = d + 1; k < x.dim(); ++k) inner *= x.size(k);
    for (int64_t k = 0; k < d; ++k) outer *= x.size(k);
#ifdef IRLENS_HAVE_DNNL
    // float32 softmax: oneDNN's JIT kernel over [outer, n, inner] (a scalar std::exp loop would be a
    // fifth of tiny_gpt's run); a row of -inf gives NaN as torch's does. Not log_softmax: oneDNN's is
    // ~12 ulp off torch's (-0.6931457 for ln 1/2).
    if (!log && dt == ScalarType::Float32 &&
        runDnnlSlices(ctx, "softmax", outer, n * inner, in.data<float>(), out.data<float>(), [n, inner](int64_t rows, const dnnl::engine& eng) {
            dnnl::memory::desc md({rows, n, inner}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::abc);
            dnnl::softmax_forward::desc d(dnnl::prop_kind::forward_inference, md, 1);
            return std::pair<dnnl::memory::desc, dnnl::primitive>{md, dnnl::softmax_forward(dnnl::softmax_forward::primitive_desc(d, eng))};
        })) {
        ctx.setOutput(0, out);
        return;
    }
#endif
    dispatchFloat(dt, [&]<class T>() {
        const T* s = in.data<T>();
        T* o = out.data<T>();
        parallelRange(ctx.threads(), outer * inner, n * 8, [&](int64_t b, int64_t e) {
            for (int64_t r = b; r < e; ++r) {
                int64_t a = r / inner, c = r % inner;
                const T* row = s + a * n * inner + c;
                T* orow = o + a * n * inner + c;
                T m = -std::numeric_limits<T>::infinity();
                for (int64_t i = 0; i < n; ++i) m = std::max(m, row[i * inner]);
                if (std::isinf(m) && m < 0) m = 0; // fully masked row: exp(-inf - 0) = 0, result NaN as torch
                T sum = 0;
                if (log) {
                    for (int64_t i = 0; i < n; ++i) sum += std::exp(row[i * inner] - m);
                    T ls = std::log(sum);
                    for (int64_t i = 0; i < n; ++i) orow[i * inner] = row[i * inner] - m - ls;
                } else {
                    for (int64_t i = 0; i < n; ++i) {
                        T e = std::exp(row[i * inner] - m);
                        orow[i * inner] = e;
                        sum += e;
                    }
                    T inv = T(1) / sum;
                    for (int64_t i = 0; i < n; ++i) orow[i * inner] *= inv;
                }
            }
        });
    });
    ctx.setOutput(0, out);
}

void softmaxKernel(KernelContext& ctx) { softmaxImpl(ctx, false); }
void logSoftmaxKernel(KernelContext& ctx) { softmaxImpl(ctx, true); }

// Layer norm over the trailing dims given by normalized_shape; returns (out, mean, rstd).
void layerNormImpl(KernelContext& ctx, bool native) {
    Tensor x = ctx.tensor("input", 0);
    Shape norm = ctx.ints("normalized_shape", 1);
    auto w = ctx.optTensor("weight", 2), b = ctx.optTensor("bias", 3);
    double eps = ctx.floatArg("eps", 4, 1e-5);
    int64_t axis = x.dim() - static_cast<int64_t>(norm.size());
    if (axis < 0) kernelFail("layer_norm: normalized_shape " + shapeToString(norm) + " does not fit input " + x.shapeString());
    for (size_t k = 0; k < norm.size(); ++k)
        if (x.size(axis + static_cast<int64_t>(k)) != norm[k])
            kernelFail("layer_norm: normalized_shape " + shapeToString(norm) + " does not match the trailing dims of " + x.shapeString());
    int64_t inner = shapeNumel(norm), outer = x.numel() / std::max<int64_t>(1, inner);
    if (w && w->numel() != inner) kernelFail("layer_norm: weight " + w->shapeString() + " does not match normalized_shape " + shapeToString(norm));
    if (b && b->numel() != inner) kernelFail("layer_norm: bias " + b->shapeString() + " does not match normalized_shape " + shapeToString(norm));
    Tensor in = contiguous(ctx, x);
    Tensor wc = w ? contiguous(ctx, toDtype(ctx, *w, x.dtype())) : Tensor();
    Tensor bc = b ? contiguous(ctx, toDtype(ctx, *b, x.dtype())) : Tensor();
    Tensor out = ctx.alloc(x.dtype(), x.sizes());
    Shape statShape(x.sizes().begin(), x.sizes().begin() + axis);
    statShape.resize(static_cast<size_t>(x.dim()), 1);
    Tensor mean = native ? ctx.alloc(x.dtype(), statShape) : Tensor();
    Tensor rstd = native ? ctx.alloc(x.dtype(), statShape) : Tensor();
    dispatchFloat(x.dtype(), [&]<class T>() {
        const T* s = in.data<T>();
        T* o = out.data<T>();
        const T* wp = w ? wc.data<T>() : nullptr;
        const T* bp = b ? bc.data<T>() : nullptr;
        parallelRange(ctx.threads(), outer, inner * 6, [&](int64_t lo, int64_t hi) {
            if constexpr (std::is_same_v<T, float>) {
                for (int64_t r = lo; r < hi; ++r) {
                    float m = 0, rs = 0;
                    layerNormRow(s + r * inner, o + r * inner, inner, wp, bp, eps, m, rs);
                    if (native) {
                        mean.data<T>()[r] = m;
                        rstd.data<T>()[r] = rs;
                    }
                }
                return;
            }
            for (int64_t r = lo; r < hi; ++r) {
                const T* row = s + r * inner;
                double m = 0;
                for (int64_t i = 0; i < inner; ++i) m += row[i];
                m /= static_cast<double>(std::max<int64_t>(1, inner));
                double v = 0;
                for (int64_t i = 0; i < inner; ++i) v += (row[i] - m) * (row[i] - m);
                v /= static_cast<double>(std::max<int64_t>(1, inner));
                double rs = 1.0 / std::sqrt(v + eps);
                T* orow = o + r * inner;
                const T tm = static_cast<T>(m), trs = static_cast<T>(rs);
                for (int64_t i = 0; i < inner; ++i) {
                    T y = (row[i] - tm) * trs;
                    if (wp) y *= wp[i];
                    if (bp) y += bp[i];
                    orow[i] = y;
                }
                if (native) {
                    mean.data<T>()[r] = tm;
                    rstd.data<T>()[r] = trs;
                }
            }
        });
    });
    ctx.setOutput(0, out);
    if (native) {
        ctx.setOutput(1, mean);
        ctx.setOutput(2, rstd);
    }
}

void layerNormKernel(KernelContext& ctx) { layerNormImpl(ctx, false); }
void nativeLayerNormKernel(KernelContext& ctx) { layerNormImpl(ctx, true); }

// Inference batch norm: y = (x - running_mean) / sqrt(running_var + eps) * weight + bias, channel = dim 1.
Tensor batchNormInference(KernelContext& ctx, const Tensor& x, const std::optional<Tensor>& w, const std::optional<Tensor>& b,
                          const Tensor& mean, const Tensor& var, double eps) {
    if (x.dim() < 2) kernelFail("batch_norm: input " + x.shapeString() + " needs a channel dimension");
    int64_t C = x.size(1);
    if (mean.numel() != C || var.numel() != C) kernelFail("batch_norm: running stats do not have " + std::to_string(C) + " channels");
    int64_t N = x.size(0), HW = x.numel() / std::max<int64_t>(1, N * C);
    Tensor in = contiguous(ctx, x);
    Tensor out = ctx.alloc(x.dtype(), x.sizes());
    dispatchFloat(x.dtype(), [&]<class T>() {
        std::vector<T> scale(static_cast<size_t>(C)), shift(static_cast<size_t>(C));
        for (int64_t c = 0; c < C; ++c) {
            double inv = 1.0 / std::sqrt(var.at(c) + eps);
            double g = w ? w->at(c) : 1.0, bb = b ? b->at(c) : 0.0;
            scale[static_cast<size_t>(c)] = static_cast<T>(g * inv);
            shift[static_cast<size_t>(c)] = static_cast<T>(bb - mean.at(c) * g * inv);
        }
        const T* s = in.data<T>();
        T* o = out.data<T>();
        parallelRange(ctx.threads(), N * C, HW, [&](int64_t lo, int64_t hi) {
            for (int64_t r = lo; r < hi; ++r) {
                const T sc = scale[static_cast<size_t>(r % C)], sh = shift[static_cast<size_t>(r % C)];
                const T* p = s + r * HW;
                T* q = o + r * HW;
                for (int64_t i = 0; i < HW; ++i) q[i] = p[i] * sc + sh;
            }
        });
    });
    return out;
}

void nativeBatchNormNoTrainingKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("input", 0);
    Tensor out = batchNormInference(ctx, x, ctx.optTensor("weight", 1), ctx.optTensor("bias", 2), ctx.tensor("running_mean", 3),
                                    ctx.tensor("running_var", 4), ctx.floatArg("eps", 6, 1e-5));
    ctx.setOutput(0, out);
    ctx.setOutput(1, ctx.alloc(x.dtype(), {0}));
    ctx.setOutput(2, ctx.alloc(x.dtype(), {0}));
}

// batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled)
void batchNormKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("input", 0);
    if (ctx.boolArg("training", 5, false)) kernelFail("batch_norm in training mode is not supported (the engine runs inference)");
    auto mean = ctx.optTensor("running_mean", 3), var = ctx.optTensor("running_var", 4);
    if (!mean || !var) kernelFail("batch_norm without running statistics is not supported in inference");
    ctx.setOutput(0, batchNormInference(ctx, x, ctx.optTensor("weight", 1), ctx.optTensor("bias", 2), *mean, *var,
                                        ctx.floatArg("eps", 7, 1e-5)));
}

// native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps)
void nativeBatchNormKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("input", 0);
    if (ctx.boolArg("training", 5, false)) kernelFail("native_batch_norm in training mode is not supported (the engine runs inference)");
    Tensor out = batchNormInference(ctx, x, ctx.optTensor("weight", 1), ctx.optTensor("bias", 2), ctx.tensor("running_mean", 3),
                                    ctx.tensor("running_var", 4), ctx.floatArg("eps", 7, 1e-5));
    ctx.setOutput(0, out);
    ctx.setOutput(1, ctx.alloc(x.dtype(), {0}));
    ctx.setOutput(2, ctx.alloc(x.dtype(), {0}));
}

// Training-mode batch norm over (N, spatial) per channel: batch statistics normalise; running stats
// are updated with momentum (unbiased variance). Outputs: out, save_mean, save_invstd[, new running mean, var].
void batchNormTraining(KernelContext& ctx, bool functional) {
    Tensor x = ctx.tensor("input", 0);
    auto w = ctx.optTensor("weight", 1), b = ctx.optTensor("bias", 2);
    auto rm = ctx.optTensor("running_mean", 3), rv = ctx.optTensor("running_var", 4);
    bool training = ctx.boolArg("training", 5, true);
    double momentum = ctx.floatArg("momentum", 6, 0.1), eps = ctx.floatArg("eps", 7, 1e-5);
    if (!training) {
        if (!rm || !rv) kernelFail("batch norm without training needs running statistics");
        ctx.setOutput(0, batchNormInference(ctx, x, w, b, *rm, *rv, eps));
        ctx.setOutput(1, ctx.alloc(x.dtype(), {0}));
        ctx.setOutput(2, ctx.alloc(x.dtype(), {0}));
        if (functional) { ctx.setOutput(3, *rm); ctx.setOutput(4, *rv); }
        return;
    }
    if (x.dim() < 2) kernelFail("batch_norm: input " + x.shapeString() + " needs a channel dimension");
    const int64_t N = x.size(0), C = x.size(1), HW = x.numel() / std::max<int64_t>(1, N * C), count = N * HW;
    if (count <= 1) kernelFail("batch_norm: expected more than 1 value per channel when training, got input " + x.shapeString());
    Tensor in = contiguous(ctx, x);
    Tensor mean = ctx.alloc(x.dtype(), {C}), invstd = ctx.alloc(x.dtype(), {C});
    Tensor nrm = ctx.alloc(x.dtype(), {C}), nrv = ctx.alloc(x.dtype(), {C});
    Tensor out = ctx.alloc(x.dtype(), x.sizes());
    dispatchFloat(x.dtype(), [&]<class T>() {
        const T* s = in.data<T>();
        for (int64_t c = 0; c < C; ++c) {
            double m = 0, v = 0;
            for (int64_t n = 0; n < N; ++n)
                for (int64_t i = 0; i < HW; ++i) m += s[(n * C + c) * HW + i];
            m /= static_cast<double>(count);
            for (int64_t n = 0; n < N; ++n)
                for (int64_t i = 0; i < HW; ++i) { double d = s[(n * C + c) * HW + i] - m; v += d * d; }
            double inv = 1.0 / std::sqrt(v / static_cast<double>(count) + eps);
            double g = w ? w->at(c) : 1.0, bb = b ? b->at(c) : 0.0;
            for (int64_t n = 0; n < N; ++n)
                for (int64_t i = 0; i < HW; ++i) {
                    int64_t off = (n * C + c) * HW + i;
                    out.data<T>()[off] = static_cast<T>((s[off] - m) * inv * g + bb);
                }
            mean.data<T>()[c] = static_cast<T>(m);
            invstd.data<T>()[c] = static_cast<T>(inv);
            nrm.data<T>()[c] = static_cast<T>(rm ? (1 - momentum) * rm->at(c) + momentum * m : m);
            nrv.data<T>()[c] = static_cast<T>(rv ? (1 - momentum) * rv->at(c) + momentum * v / static_cast<double>(count - 1) : v / static_cast<double>(count - 1));
        }
    });
    ctx.setOutput(0, out);
    ctx.setOutput(1, mean);
    ctx.setOutput(2, invstd);
    if (functional) { ctx.setOutput(3, nrm); ctx.setOutput(4, nrv); }
}

void batchNormFunctionalKernel(KernelContext& ctx) { batchNormTraining(ctx, true); }
void batchNormLegitKernel(KernelContext& ctx) { batchNormTraining(ctx, false); }

// native_group_norm(input, weight, bias, N, C, HxW, group, eps) -> (out, mean [N, G], rstd [N, G])
void groupNormImpl(KernelContext& ctx, const Tensor& x, const std::optional<Tensor>& w, const std::optional<Tensor>& b, int64_t G,
                   double eps, bool native) {
    if (x.dim() < 2) kernelFail("group_norm: input needs a channel dimension");
    int64_t N = x.size(0), C = x.size(1);
    if (G <= 0 || C % G) kernelFail("group_norm: " + std::to_string(C) + " channels are not divisible into " + std::to_string(G) + " groups");
    int64_t HW = x.numel() / std::max<int64_t>(1, N * C), per = C / G * HW;
    Tensor in = contiguous(ctx, x);
    Tensor out = ctx.alloc(x.dtype(), x.sizes());
    Tensor mean = ctx.alloc(x.dtype(), {N, G}), rstd = ctx.alloc(x.dtype(), {N, G});
    dispatchFloat(x.dtype(), [&]<class T>() {
        for (int64_t n = 0; n < N; ++n)
            for (int64_t g = 0; g < G; ++g) {
                const T* p = in.data<T>() + (n * G + g) * per;
                T* q = out.data<T>() + (n * G + g) * per;
                double m = 0, v = 0;
                for (int64_t i = 0; i < per; ++i) m += p[i];
                m /= static_cast<double>(std::max<int64_t>(1, per));
                for (int64_t i = 0; i < per; ++i) v += (p[i] - m) * (p[i] - m);
                v /= static_cast<double>(std::max<int64_t>(1, per));
                double rs = 1.0 / std::sqrt(v + eps);
                for (int64_t i = 0; i < per; ++i) {
                    int64_t c = g * (C / G) + i / HW;
                    double y = (p[i] - m) * rs;
                    if (w) y = y * w->at(c);
                    if (b) y = y + b->at(c);
                    q[i] = static_cast<T>(y);
                }
                mean.data<T>()[n * G + g] = static_cast<T>(m);
                rstd.data<T>()[n * G + g] = static_cast<T>(rs);
            }
    });
    ctx.setOutput(0, out);
    if (native) {
        ctx.setOutput(1, mean);
        ctx.setOutput(2, rstd);
    }
}

void nativeGroupNormKernel(KernelContext& ctx) {
    groupNormImpl(ctx, ctx.tensor("input", 0), ctx.optTensor("weight", 1), ctx.optTensor("bias", 2), ctx.intArg("group", 6),
                  ctx.floatArg("eps", 7, 1e-5), true);
}
void groupNormKernel(KernelContext& ctx) {
    groupNormImpl(ctx, ctx.tensor("input", 0), ctx.optTensor("weight", 2), ctx.optTensor("bias", 3), ctx.intArg("num_groups", 1),
                  ctx.floatArg("eps", 4, 1e-5), false);
}

} // namespace

void registerNormKernels(KernelRegistry& r) {
    r.add({"aten::_softmax.default", "aten::softmax.int"}, &viaFloat32<&softmaxKernel>);
    r.add({"aten::_log_softmax.default", "aten::log_softmax.int"}, &viaFloat32<&logSoftmaxKernel>);
    r.add({"aten::layer_norm.default"}, &layerNormKernel);
    r.add({"aten::native_layer_norm.default"}, &viaFloat32<&nativeLayerNormKernel>);
    r.add({"aten::_native_batch_norm_legit_no_training.default"}, &viaFloat32<&nativeBatchNormNoTrainingKernel>);
    r.add({"aten::batch_norm.default"}, &batchNormKernel);
    r.add({"aten::native_batch_norm.default"}, &nativeBatchNormKernel);
    r.add({"aten::_native_batch_norm_legit_functional.default"}, &batchNormFunctionalKernel);
    r.add({"aten::_native_batch_norm_legit.default", "aten::_native_batch_norm_legit.no_stats"}, &viaFloat32<&batchNormLegitKernel>);
    r.add({"aten::native_group_norm.default"}, &viaFloat32<&nativeGroupNormKernel>);
    r.add({"aten::group_norm.default"}, &groupNormKernel);
}

} // namespace irlens::core::exec
