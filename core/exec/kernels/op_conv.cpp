// Convolutions (convolution, conv1d, conv2d) through oneDNN: primitives and reordered weights are
// prepared once per node and shape and kept in the node cache. Float32 depthwise calls have their own
// kernel (op_conv_depthwise.cpp), 1x1 calls on large images run as one matrix product; a direct loop
// covers other dtypes and builds without oneDNN.

#include "core/exec/engine.h"
#include "core/exec/kernel_registry.h"
#include "core/exec/kernels/conv.h"
#include "core/exec/plan_fusion.h"
#include "core/exec/kernels/kernels.h"
#include "core/exec/kernels/util/dispatch.h"
#include "core/exec/kernels/util/gemm.h"
#include "core/exec/kernels/util/loops.h"
#include "core/exec/kernels/util/simd.h"
#include "core/exec/kernels/util/tensor_ops.h"
#include "core/exec/kernels/util/reduced_float.h"

#ifdef IRLENS_HAVE_DNNL
#include <oneapi/dnnl/dnnl.hpp>
#endif

#include "core/exec/kernels/util/parts.h"

#include <atomic>
#include <limits>
#include <optional>

namespace irlens::core::exec {

namespace {

template <class T>
T activate(T v, const ConvParams& p) {
    switch (p.activation) {
    case FusedActivation::Relu: return v < T(0) ? T(0) : v;
    case FusedActivation::Clip: return v < T(p.lo) ? T(p.lo) : v > T(p.hi) ? T(p.hi) : v;
    default: return v;
    }
}

// Direct convolution on contiguous NCHW input, OIHW weight.
template <class T>
void directConv(const Tensor& x, const Tensor& w, const std::optional<Tensor>& b, const Tensor& out, const ConvParams& p) {
    const int64_t N = x.size(0), C = x.size(1), H = x.size(2), W = x.size(3);
    const int64_t O = w.size(0), Cg = w.size(1), KH = w.size(2), KW = w.size(3);
    const int64_t OH = out.size(2), OW = out.size(3), Og = O / p.groups;
    const T* xs = x.data<T>();
    const T* ws = w.data<T>();
    T* os = out.data<T>();
    for (int64_t n = 0; n < N; ++n)
        for (int64_t o = 0; o < O; ++o) {
            int64_t g = o / Og;
            T bias = b ? b->data<T>()[o] : T(0);
            for (int64_t oh = 0; oh < OH; ++oh)
                for (int64_t ow = 0; ow < OW; ++ow) {
                    IntOrDouble<T> acc = 0;
                    for (int64_t c = 0; c < Cg; ++c)
                        for (int64_t kh = 0; kh < KH; ++kh) {
                            int64_t ih = oh * p.strideH - p.padH + kh * p.dilH;
                            if (ih < 0 || ih >= H) continue;
                            for (int64_t kw = 0; kw < KW; ++kw) {
                                int64_t iw = ow * p.strideW - p.padW + kw * p.dilW;
                                if (iw < 0 || iw >= W) continue;
                                acc = mulAddWrapped<T>(acc, xs[((n * C + g * Cg + c) * H + ih) * W + iw], ws[((o * Cg + c) * KH + kh) * KW + kw]);
                            }
                        }
                    os[((n * O + o) * OH + oh) * OW + ow] = activate(static_cast<T>(addWrapped<T>(acc, bias)), p);
                }
        }
}

#ifdef IRLENS_HAVE_DNNL
// One primitive per slice of output channels (or of groups): for a single image the slices of
// weights, input channels and output are contiguous, so TBB runs the slices in parallel while each
// primitive stays single-threaded (oneDNN's OpenMP pool would compete with TBB's workers).
struct DnnlConvPart {
    dnnl::convolution_forward::primitive_desc pd;
    dnnl::convolution_forward prim;
    dnnl::memory weights;               // preferred layout, reordered once
    dnnl::memory::desc plainSrc, plainDst, biasMd;
    int64_t srcOffset = 0, dstOffset = 0, biasOffset = 0; // in elements
    // NCHW <-> the primitive's blocked layout: reorder primitives made once, and buffers kept for
    // the next run (taken by one caller at a time; a concurrent run of the same plan allocates its own)
    std::optional<dnnl::reorder> toBlocked, fromBlocked;
    dnnl::memory srcBuf, dstBuf;
    std::unique_ptr<std::atomic<bool>> busy = std::make_unique<std::atomic<bool>>(false);
};

struct DnnlConv {
    std::string key;
    dnnl::engine eng{dnnl::engine::kind::cpu, 0};
    std::vector<DnnlConvPart> parts;
    bool hasBias = false;
};

void dnnlConv(KernelContext& ctx, const Tensor& x, const Tensor& w, const std::optional<Tensor>& b, const Tensor& out, const ConvParams& p) {
    using dt = dnnl::memory::data_type;
    using tag = dnnl::memory::format_tag;
    const int64_t N = x.size(0), C = x.size(1), H = x.size(2), W = x.size(3);
    const int64_t O = w.size(0), KH = w.size(2), KW = w.size(3), OH = out.size(2), OW = out.size(3);
    const int64_t G = p.groups, Og = O / G, Cg = C / G;
    // split over output channels (groups == 1) or over groups, for one image and enough work
    const int64_t units = G > 1 ? G : O;
    const int64_t work = OH * OW * O * Cg * KH * KW;
    int64_t nparts = 1;
    // A grouped convolution here runs several times slower per unit of work than a dense one
    // (mobilenet_v2's 7x7 depthwise layers: 423k units in 50-70 us), so it splits at a quarter of the
    // work; left whole, it idles the other worker long enough for TBB to put it to sleep, and the next
    // split node starts with it asleep in some runs and awake in others (docs/benchmarks.md).
    const int64_t splitWork = G > 1 ? int64_t(1) << 18 : int64_t(1) << 20;
    if (N == 1 && ctx.threads() > 1 && work >= splitWork) nparts = std::min<int64_t>(ctx.threads(), std::max<int64_t>(1, units / 8));
    std::string key = std::to_string(N) + "," + std::to_string(C) + "," + std::to_string(H) + "," + std::to_string(W) + "|" +
                      std::to_string(reinterpret_cast<uintptr_t>(w.raw())) + "|" + std::to_string(b ? reinterpret_cast<uintptr_t>(b->raw()) : 0) +
                      "|" + std::to_string(nparts) + "|" + std::to_string(static_cast<int>(p.activation)) + "," + std::to_string(p.lo) + "," +
                      std::to_string(p.hi);
    auto state = nodeState<DnnlConv>(*ctx.cache(), key, [&] {
        auto made = std::make_shared<DnnlConv>();
        made->hasBias = b.has_value();
        dnnl::stream s(made->eng);
        setLibraryThreads(1);
        for (int64_t part = 0; part < nparts; ++part) {
            const int64_t u0 = units * part / nparts, u1 = units * (part + 1) / nparts;
            const int64_t gp = G > 1 ? u1 - u0 : 1;              // groups in this part
            const int64_t op = G > 1 ? gp * Og : u1 - u0;         // output channels in this part
            const int64_t cp = G > 1 ? gp * Cg : C;               // input channels read
            const int64_t o0 = G > 1 ? u0 * Og : u0, c0 = G > 1 ? u0 * Cg : 0;
            DnnlConvPart pt;
            dnnl::memory::dims src{N, cp, H, W}, dst{N, op, OH, OW};
            dnnl::memory::dims wdims = G > 1 ? dnnl::memory::dims{gp, Og, Cg, KH, KW} : dnnl::memory::dims{op, C, KH, KW};
            pt.plainSrc = dnnl::memory::desc(src, dt::f32, tag::nchw);
            pt.plainDst = dnnl::memory::desc(dst, dt::f32, tag::nchw);
            pt.biasMd = b ? dnnl::memory::desc({op}, dt::f32, tag::x) : dnnl::memory::desc();
            pt.srcOffset = c0 * H * W;
            pt.dstOffset = o0 * OH * OW;
            pt.biasOffset = o0;
            dnnl::convolution_forward::desc d(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
                                              dnnl::memory::desc(src, dt::f32, tag::any), dnnl::memory::desc(wdims, dt::f32, tag::any),
                                              pt.biasMd, dnnl::memory::desc(dst, dt::f32, tag::any), {p.strideH, p.strideW},
                                              {p.dilH - 1, p.dilW - 1}, {p.padH, p.padW},
                                              {(OH - 1) * p.strideH + (KH - 1) * p.dilH + 1 - H - p.padH,
                                               (OW - 1) * p.strideW + (KW - 1) * p.dilW + 1 - W - p.padW});
            dnnl::primitive_attr attr;
            if (p.activation != FusedActivation::None) {
                dnnl::post_ops ops;
                if (p.activation == FusedActivation::Relu) ops.append_eltwise(1.f, dnnl::algorithm::eltwise_relu, 0.f, 0.f);
                else ops.append_eltwise(1.f, dnnl::algorithm::eltwise_clip, static_cast<float>(p.lo), static_cast<float>(p.hi));
                attr.set_post_ops(ops);
            }
            pt.pd = dnnl::convolution_forward::primitive_desc(d, attr, made->eng);
            pt.prim = dnnl::convolution_forward(pt.pd);
            auto plainW = dnnl::memory::desc(wdims, dt::f32, G > 1 ? tag::goihw : tag::oihw);
            dnnl::memory wsrc(plainW, made->eng, const_cast<float*>(w.data<float>()) + o0 * (G > 1 ? Cg : C) * KH * KW);
            pt.weights = dnnl::memory(pt.pd.weights_desc(), made->eng);
            dnnl::reorder(wsrc, pt.weights).execute(s, wsrc, pt.weights);
            if (pt.pd.src_desc() != pt.plainSrc) {
                pt.toBlocked = dnnl::reorder(dnnl::reorder::primitive_desc(made->eng, pt.plainSrc, made->eng, pt.pd.src_desc()));
                pt.srcBuf = dnnl::memory(pt.pd.src_desc(), made->eng);
            }
            if (pt.pd.dst_desc() != pt.plainDst) {
                pt.fromBlocked = dnnl::reorder(dnnl::reorder::primitive_desc(made->eng, pt.pd.dst_desc(), made->eng, pt.plainDst));
                pt.dstBuf = dnnl::memory(pt.pd.dst_desc(), made->eng);
            }
            made->parts.push_back(std::move(pt));
        }
        s.wait();
        return made;
    });
    auto runPart = [&](const DnnlConvPart& pt) {
        setLibraryThreads(1);
        dnnl::stream s(state->eng);
        dnnl::memory srcMem(pt.plainSrc, state->eng, x.data<float>() + pt.srcOffset);
        dnnl::memory dstMem(pt.plainDst, state->eng, out.data<float>() + pt.dstOffset);
        dnnl::memory src = srcMem, dst = dstMem;
        const bool own = !pt.busy->exchange(true, std::memory_order_acquire);
        if (pt.toBlocked) {
            src = own ? pt.srcBuf : dnnl::memory(pt.pd.src_desc(), state->eng);
            pt.toBlocked->execute(s, srcMem, src);
        }
        if (pt.fromBlocked) dst = own ? pt.dstBuf : dnnl::memory(pt.pd.dst_desc(), state->eng);
        std::unordered_map<int, dnnl::memory> args{{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, pt.weights}, {DNNL_ARG_DST, dst}};
        if (state->hasBias) args[DNNL_ARG_BIAS] = dnnl::memory(pt.biasMd, state->eng, const_cast<float*>(b->data<float>()) + pt.biasOffset);
        pt.prim.execute(s, args);
        if (pt.fromBlocked) pt.fromBlocked->execute(s, dst, dstMem);
        s.wait();
        if (own) pt.busy->store(false, std::memory_order_release);
    };
    forEachPart(static_cast<int64_t>(state->parts.size()), [&](int64_t k) { runPart(state->parts[static_cast<size_t>(k)]); });
}
#endif

// A 1x1 convolution with stride 1 and no padding is a matrix product on NCHW as it lies:
// out[n] [O, HW] = w [O, C] x x[n] [C, HW]. No layout reorder of the input or the output (oneDNN's
// convolution reorders both to its blocked layout and back on every call, two extra passes over
// the activations), then bias and the fused activation in one pass. Measured on mobilenet_v2's 1x1
// convolutions: 2-2.5x faster down to 14x14 images, about even at 7x7 (the reorders are small
// there), so small images stay with oneDNN.
constexpr int64_t kPointwiseMinPixels = 14 * 14;

bool isPointwise(const Tensor& x, const Tensor& w, const ConvParams& p) {
    return x.dtype() == ScalarType::Float32 && p.groups == 1 && w.size(2) == 1 && w.size(3) == 1 && p.strideH == 1 && p.strideW == 1 &&
           p.padH == 0 && p.padW == 0 && x.size(2) * x.size(3) >= kPointwiseMinPixels;
}

void pointwiseConv(KernelContext& ctx, const Tensor& x, const Tensor& w, const std::optional<Tensor>& b, const Tensor& out, const ConvParams& p) {
    const int64_t N = x.size(0), C = x.size(1), HW = x.size(2) * x.size(3), O = w.size(0);
    const Tensor w2 = w.asStrided({O, C}, {C, 1}, w.storageOffset());
    for (int64_t n = 0; n < N; ++n) {
        const Tensor xn = x.asStrided({C, HW}, {HW, 1}, x.storageOffset() + n * C * HW);
        const Tensor on = out.asStrided({O, HW}, {HW, 1}, out.storageOffset() + n * O * HW);
        gemm(ctx, w2, xn, on, 1.0, 0.0);
    }
    if (!b && p.activation == FusedActivation::None) return;
    const float lo = p.activation == FusedActivation::None ? -std::numeric_limits<float>::infinity() : static_cast<float>(p.lo);
    const float hi = p.activation == FusedActivation::Clip ? static_cast<float>(p.hi) : std::numeric_limits<float>::infinity();
    const float* bias = b ? b->data<float>() : nullptr;
    float* o = out.data<float>();
    parallelRange(ctx.threads(), N * O, HW, [&](int64_t r0, int64_t r1) {
        for (int64_t r = r0; r < r1; ++r) {
            float* row = o + r * HW;
            if (bias) {
                const float bv = bias[r % O];
                for (int64_t i = 0; i < HW; ++i) row[i] += bv;
            }
            if (p.activation != FusedActivation::None) clampContiguous(row, row, HW, lo, hi);
        }
    });
}

// Depthwise outputs narrower than this stay with oneDNN: its blocked layout puts 16 channels in a
// vector, where the own kernel's rows of 7 outputs leave most of each vector empty and pay the
// per-plane setup 16 times as often. Measured on mobilenet_v2 at one thread: 7x7 outputs 51-69 us
// through oneDNN against 88-127 us, 14x14 about even, 28x28 and wider 1.3-2.4 times faster.
constexpr int64_t kDepthwiseMinWidth = 14;

// conv over N-C-(H)-W; 1-D convolutions run as 2-D with H = 1.
void convImpl(KernelContext& ctx, const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
              const std::vector<int64_t>& stride, const std::vector<int64_t>& padding, const std::vector<int64_t>& dilation,
              int64_t groups) {
    checkConvOperands("convolution", input, weight);
    const bool oneD = input.dim() == 3;
    Tensor x = contiguous(ctx, input), w = contiguous(ctx, weight);
    if (oneD) { x = asConv2d(x); w = asConv2d(w); }
    ConvParams p;
    p.groups = groups;
    p.strideH = oneD ? 1 : convParam(stride, 0, 1);
    p.strideW = convParam(stride, oneD ? 0 : 1, 1);
    p.padH = oneD ? 0 : convParam(padding, 0, 0);
    p.padW = convParam(padding, oneD ? 0 : 1, 0);
    p.dilH = oneD ? 1 : convParam(dilation, 0, 1);
    p.dilW = convParam(dilation, oneD ? 0 : 1, 1);
    p.activation = static_cast<FusedActivation>(ctx.intArg(kFusedActivationArg, -1, 0));
    p.lo = ctx.floatArg(kFusedMinArg, -1, 0.0);
    p.hi = ctx.floatArg(kFusedMaxArg, -1, 0.0);
    const int64_t N = x.size(0), C = x.size(1), H = x.size(2), W = x.size(3);
    const int64_t O = w.size(0), KH = w.size(2), KW = w.size(3);
    if (groups <= 0 || C % groups || O % groups || w.size(1) * groups != C)
        kernelFail("convolution: input " + input.shapeString() + " with " + std::to_string(groups) + " groups does not fit weight " + weight.shapeString());
    if (p.strideH <= 0 || p.strideW <= 0 || p.dilH <= 0 || p.dilW <= 0 || p.padH < 0 || p.padW < 0)
        kernelFail("convolution: stride and dilation must be positive, padding non-negative");
    const int64_t OH = (H + 2 * p.padH - p.dilH * (KH - 1) - 1) / p.strideH + 1;
    const int64_t OW = (W + 2 * p.padW - p.dilW * (KW - 1) - 1) / p.strideW + 1;
    if (OH <= 0 || OW <= 0) kernelFail("convolution: the kernel is larger than the padded input " + input.shapeString());
    if (bias && bias->numel() != O) kernelFail("convolution: bias " + bias->shapeString() + " does not have " + std::to_string(O) + " elements");
    std::optional<Tensor> b;
    if (bias) b = contiguous(ctx, toDtype(ctx, *bias, x.dtype()));
    Tensor out = ctx.alloc(x.dtype(), {N, O, OH, OW});
    bool done = false;
#ifdef IRLENS_HAVE_DNNL
    const bool dnnlDepthwise = OW < kDepthwiseMinWidth; // see kDepthwiseMinWidth
#else
    const bool dnnlDepthwise = false;
#endif
    if (N > 0 && !dnnlDepthwise && isDepthwise(x, w, p)) {
        depthwiseConv(ctx, x, w, b, out, p);
        done = true;
    }
#ifdef IRLENS_HAVE_DNNL
    if (!done && x.dtype() == ScalarType::Float32 && N > 0) {
        if (isPointwise(x, w, p)) pointwiseConv(ctx, x, w, b, out, p);
        else dnnlConv(ctx, x, w, b, out, p);
        done = true;
    }
#endif
    if (!done) dispatchFloatOrInt64(x.dtype(), [&]<class T>() { directConv<T>(x, w, b, out, p); });
    if (oneD) out = out.asStrided({N, O, OW}, contiguousStrides({N, O, OW}), 0);
    ctx.setOutput(0, out);
}

void convolutionKernel(KernelContext& ctx) {
    if (ctx.boolArg("transposed", 6, false)) {
        convTranspose(ctx, ctx.tensor("input", 0), ctx.tensor("weight", 1), ctx.optTensor("bias", 2), ctx.ints("stride", 3, {1}),
                      ctx.ints("padding", 4, {0}), ctx.ints("output_padding", 7, {0}), ctx.ints("dilation", 5, {1}), ctx.intArg("groups", 8, 1));
        return;
    }
    convImpl(ctx, ctx.tensor("input", 0), ctx.tensor("weight", 1), ctx.optTensor("bias", 2), ctx.ints("stride", 3, {1}),
             ctx.ints("padding", 4, {0}), ctx.ints("dilation", 5, {1}), ctx.intArg("groups", 8, 1));
}

void convNdKernel(KernelContext& ctx) {
    convImpl(ctx, ctx.tensor("input", 0), ctx.tensor("weight", 1), ctx.optTensor("bias", 2), ctx.ints("stride", 3, {1}),
             ctx.ints("padding", 4, {0}), ctx.ints("dilation", 5, {1}), ctx.intArg("groups", 6, 1));
}

} // namespace

void registerConvKernels(KernelRegistry& r) {
    r.add({"aten::convolution.default", "aten::_convolution.default"}, &viaFloat32<&convolutionKernel>);
    r.add({"aten::conv2d.default", "aten::conv1d.default"}, &convNdKernel);
}

void checkConvOperands(const char* what, const Tensor& input, const Tensor& weight, int spatialAxes) {
    const std::string op = what;
    const int64_t rank = input.dim();
    if (rank < 3 || rank > spatialAxes + 2)
        kernelFail(op + (spatialAxes == 3 ? " supports 1-D, 2-D and 3-D inputs (rank 3 to 5), got " : " supports 1-D and 2-D inputs (rank 3 or 4), got ") +
                   input.shapeString());
    if (weight.dim() != rank) kernelFail(op + ": weight " + weight.shapeString() + " does not match input " + input.shapeString());
    if (input.dtype() != weight.dtype())
        kernelFail(op + ": input " + dtypeName(input.dtype()) + " and weight " + dtypeName(weight.dtype()) + " differ");
}

Tensor asConv2d(const Tensor& t) {
    Shape s{t.size(0), t.size(1), 1, t.size(2)};
    return t.asStrided(s, contiguousStrides(s), t.storageOffset());
}

} // namespace irlens::core::exec
