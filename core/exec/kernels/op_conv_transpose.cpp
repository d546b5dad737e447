// Transposed convolution, computed per output element (each output gathers the inputs whose
// strided, dilated kernel window covers it), so workers never write the same place.
// 1-D runs as 2-D with H = 1. Also the conv_transpose1d/2d training-IR ops.

#include "core/exec/kernels/conv.h"

#include "core/exec/kernel_registry.h"
#include "core/exec/kernels/kernels.h"
#include "core/exec/kernels/util/dispatch.h"
#include "core/exec/kernels/util/loops.h"
#include "core/exec/kernels/util/tensor_ops.h"

namespace irlens::core::exec {

namespace {

struct Geometry {
    int64_t N, C, H, W, O, KH, KW, OH, OW, G;
    int64_t sH, sW, pH, pW, dH, dW;
};

template <class T>
void gatherConvTranspose(int threads, const Tensor& x, const Tensor& w, const std::optional<Tensor>& b, const Tensor& out, const Geometry& g) {
    const int64_t Cg = g.C / g.G, Og = g.O / g.G;
    const T* xs = x.data<T>();
    const T* ws = w.data<T>();
    T* os = out.data<T>();
    parallelRange(threads, g.N * g.O, g.OH * g.OW * Cg * g.KH * g.KW, [&](int64_t begin, int64_t end) {
        for (int64_t no = begin; no < end; ++no) {
            const int64_t n = no / g.O, o = no % g.O, grp = o / Og, oc = o % Og;
            const double bias = b ? b->at(o) : 0.0;
            for (int64_t oh = 0; oh < g.OH; ++oh)
                for (int64_t ow = 0; ow < g.OW; ++ow) {
                    double acc = 0;
                    for (int64_t kh = 0; kh < g.KH; ++kh) {
                        const int64_t th = oh + g.pH - kh * g.dH;
                        if (th < 0 || th % g.sH) continue;
                        const int64_t ih = th / g.sH;
                        if (ih >= g.H) continue;
                        for (int64_t kw = 0; kw < g.KW; ++kw) {
                            const int64_t tw = ow + g.pW - kw * g.dW;
                            if (tw < 0 || tw % g.sW) continue;
                            const int64_t iw = tw / g.sW;
                            if (iw >= g.W) continue;
                            for (int64_t c = 0; c < Cg; ++c) {
                                const int64_t ic = grp * Cg + c;
                                acc += static_cast<double>(xs[((n * g.C + ic) * g.H + ih) * g.W + iw]) *
                                       static_cast<double>(ws[((ic * Og + oc) * g.KH + kh) * g.KW + kw]);
                            }
                        }
                    }
                    os[((n * g.O + o) * g.OH + oh) * g.OW + ow] = static_cast<T>(acc + bias);
                }
        }
    });
}

void convTransposeNdKernel(KernelContext& ctx) {
    // conv_transpose{1,2}d(input, weight, bias, stride, padding, output_padding, groups, dilation)
    convTranspose(ctx, ctx.tensor("input", 0), ctx.tensor("weight", 1), ctx.optTensor("bias", 2), ctx.ints("stride", 3, {1}),
                  ctx.ints("padding", 4, {0}), ctx.ints("output_padding", 5, {0}), ctx.ints("dilation", 7, {1}), ctx.intArg("groups", 6, 1));
}

} // namespace

void convTranspose(KernelContext& ctx, const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                   const std::vector<int64_t>& stride, const std::vector<int64_t>& padding, const std::vector<int64_t>& outputPadding,
                   const std::vector<int64_t>& dilation, int64_t groups) {
    checkConvOperands("transposed convolution", input, weight);
    const bool oneD = input.dim() == 3;
    Tensor x = contiguous(ctx, input), w = contiguous(ctx, weight);
    if (oneD) { x = asConv2d(x); w = asConv2d(w); }
    const size_t h = 0, wd = oneD ? 0 : 1;
    Geometry g{x.size(0), x.size(1), x.size(2), x.size(3), 0, w.size(2), w.size(3), 0, 0, groups,
               oneD ? 1 : convParam(stride, h, 1), convParam(stride, wd, 1), oneD ? 0 : convParam(padding, h, 0), convParam(padding, wd, 0),
               oneD ? 1 : convParam(dilation, h, 1), convParam(dilation, wd, 1)};
    const int64_t opH = oneD ? 0 : convParam(outputPadding, h, 0), opW = convParam(outputPadding, wd, 0);
    if (groups <= 0 || g.C % groups || w.size(0) != g.C)
        kernelFail("transposed convolution: input " + input.shapeString() + " with " + std::to_string(groups) + " groups does not fit weight " + weight.shapeString());
    if (g.sH <= 0 || g.sW <= 0 || g.dH <= 0 || g.dW <= 0 || g.pH < 0 || g.pW < 0 || opH < 0 || opW < 0)
        kernelFail("transposed convolution: stride and dilation must be positive, padding and output_padding non-negative");
    if (opH >= std::max(g.sH, g.dH) || opW >= std::max(g.sW, g.dW))
        kernelFail("transposed convolution: output_padding must be smaller than either stride or dilation");
    g.O = w.size(1) * groups;
    g.OH = (g.H - 1) * g.sH - 2 * g.pH + g.dH * (g.KH - 1) + opH + 1;
    g.OW = (g.W - 1) * g.sW - 2 * g.pW + g.dW * (g.KW - 1) + opW + 1;
    if (g.OH <= 0 || g.OW <= 0) kernelFail("transposed convolution: the output of " + input.shapeString() + " would be empty");
    if (bias && bias->numel() != g.O) kernelFail("transposed convolution: bias " + bias->shapeString() + " does not have " + std::to_string(g.O) + " elements");
    std::optional<Tensor> b;
    if (bias) b = contiguous(ctx, toDtype(ctx, *bias, x.dtype()));
    Tensor out = ctx.alloc(x.dtype(), {g.N, g.O, g.OH, g.OW});
    dispatchFloat(x.dtype(), [&]<class T>() { gatherConvTranspose<T>(ctx.threads(), x, w, b, out, g); });
    if (oneD) out = out.asStrided({g.N, g.O, g.OW}, contiguousStrides({g.N, g.O, g.OW}), 0);
    ctx.setOutput(0, out);
}

void registerConvTransposeKernels(KernelRegistry& r) {
    r.add({"aten::conv_transpose1d.default", "aten::conv_transpose2d.input"}, &convTransposeNdKernel);
}

} // namespace irlens::core::exec
