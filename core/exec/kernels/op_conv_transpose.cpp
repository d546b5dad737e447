// Transposed convolution, computed per output element (each output gathers the inputs whose
// strided, dilated kernel window covers it), so workers never write the same place.
// 1-D and 2-D run as 3-D with the leading axes 1 long. Also the conv_transpose1d/2d/3d training-IR ops.

#include "core/exec/kernels/conv.h"

#include "core/exec/kernel_registry.h"
#include "core/exec/kernels/kernels.h"
#include "core/exec/kernels/util/dispatch.h"
#include "core/exec/kernels/util/loops.h"
#include "core/exec/kernels/util/tensor_ops.h"

namespace irlens::core::exec {

namespace {

// Three spatial axes (D, H, W); 2-D runs with D = 1, 1-D with D = H = 1.
struct Geometry {
    int64_t N, C, O, G;
    int64_t in[3], k[3], out[3], s[3], p[3], d[3];
};

template <class T>
void gatherConvTranspose(int threads, const Tensor& x, const Tensor& w, const std::optional<Tensor>& b, const Tensor& out, const Geometry& g) {
    const int64_t Cg = g.C / g.G, Og = g.O / g.G;
    const int64_t inPlane = g.in[0] * g.in[1] * g.in[2], kPlane = g.k[0] * g.k[1] * g.k[2], outPlane = g.out[0] * g.out[1] * g.out[2];
    const T* xs = x.data<T>();
    const T* ws = w.data<T>();
    T* os = out.data<T>();
    // the input position of output `o` along axis `a` through kernel tap `t`, or -1 when none
    auto source = [&g](int a, int64_t o, int64_t t) -> int64_t {
        const int64_t q = o + g.p[a] - t * g.d[a];
        if (q < 0 || q % g.s[a]) return -1;
        const int64_t i = q / g.s[a];
        return i < g.in[a] ? i : -1;
    };
    parallelRange(threads, g.N * g.O, outPlane * Cg * kPlane, [&](int64_t begin, int64_t end) {
        for (int64_t no = begin; no < end; ++no) {
            const int64_t n = no / g.O, o = no % g.O, grp = o / Og, oc = o % Og;
            const T bias = b ? b->data<T>()[o] : T(0);
            T* dst = os + no * outPlane;
            for (int64_t od = 0; od < g.out[0]; ++od)
                for (int64_t oh = 0; oh < g.out[1]; ++oh)
                    for (int64_t ow = 0; ow < g.out[2]; ++ow) {
                        IntOrDouble<T> acc = 0;
                        for (int64_t kd = 0; kd < g.k[0]; ++kd) {
                            const int64_t id = source(0, od, kd);
                            if (id < 0) continue;
                            for (int64_t kh = 0; kh < g.k[1]; ++kh) {
                                const int64_t ih = source(1, oh, kh);
                                if (ih < 0) continue;
                                for (int64_t kw = 0; kw < g.k[2]; ++kw) {
                                    const int64_t iw = source(2, ow, kw);
                                    if (iw < 0) continue;
                                    const int64_t at = (id * g.in[1] + ih) * g.in[2] + iw, tap = (kd * g.k[1] + kh) * g.k[2] + kw;
                                    for (int64_t c = 0; c < Cg; ++c) {
                                        const int64_t ic = grp * Cg + c;
                                        acc = mulAddWrapped<T>(acc, xs[(n * g.C + ic) * inPlane + at], ws[(ic * Og + oc) * kPlane + tap]);
                                    }
                                }
                            }
                        }
                        dst[(od * g.out[1] + oh) * g.out[2] + ow] = static_cast<T>(addWrapped<T>(acc, bias));
                    }
        }
    });
}

void convTransposeNdKernel(KernelContext& ctx) {
    // conv_transpose{1,2,3}d(input, weight, bias, stride, padding, output_padding, groups, dilation)
    convTranspose(ctx, ctx.tensor("input", 0), ctx.tensor("weight", 1), ctx.optTensor("bias", 2), ctx.ints("stride", 3, {1}),
                  ctx.ints("padding", 4, {0}), ctx.ints("output_padding", 5, {0}), ctx.ints("dilation", 7, {1}), ctx.intArg("groups", 6, 1));
}

} // namespace

void convTranspose(KernelContext& ctx, const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                   const std::vector<int64_t>& stride, const std::vector<int64_t>& padding, const std::vector<int64_t>& outputPadding,
                   const std::vector<int64_t>& dilation, int64_t groups) {
    checkConvOperands("transposed convolution", input, weight, 3);
    const int spatial = static_cast<int>(input.dim()) - 2, lead = 3 - spatial; // axes before the given ones are 1 long
    Tensor x = contiguous(ctx, input), w = contiguous(ctx, weight);
    Geometry g{x.size(0), x.size(1), 0, groups, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {0, 0, 0}, {1, 1, 1}};
    int64_t op[3] = {0, 0, 0};
    for (int a = lead; a < 3; ++a) {
        const size_t k = static_cast<size_t>(a - lead);
        g.in[a] = x.size(a - lead + 2);
        g.k[a] = w.size(a - lead + 2);
        g.s[a] = convParam(stride, k, 1);
        g.p[a] = convParam(padding, k, 0);
        g.d[a] = convParam(dilation, k, 1);
        op[a] = convParam(outputPadding, k, 0);
    }
    if (groups <= 0 || g.C % groups || w.size(0) != g.C)
        kernelFail("transposed convolution: input " + input.shapeString() + " with " + std::to_string(groups) + " groups does not fit weight " + weight.shapeString());
    Shape outShape{g.N, w.size(1) * groups};
    for (int a = 0; a < 3; ++a) {
        if (g.s[a] <= 0 || g.d[a] <= 0 || g.p[a] < 0 || op[a] < 0)
            kernelFail("transposed convolution: stride and dilation must be positive, padding and output_padding non-negative");
        if (op[a] >= std::max(g.s[a], g.d[a]))
            kernelFail("transposed convolution: output_padding must be smaller than either stride or dilation");
        g.out[a] = (g.in[a] - 1) * g.s[a] - 2 * g.p[a] + g.d[a] * (g.k[a] - 1) + op[a] + 1;
        if (g.out[a] <= 0) kernelFail("transposed convolution: the output of " + input.shapeString() + " would be empty");
        if (a >= lead) outShape.push_back(g.out[a]);
    }
    g.O = outShape[1];
    if (bias && bias->numel() != g.O) kernelFail("transposed convolution: bias " + bias->shapeString() + " does not have " + std::to_string(g.O) + " elements");
    std::optional<Tensor> b;
    if (bias) b = contiguous(ctx, toDtype(ctx, *bias, x.dtype()));
    Tensor out = ctx.alloc(x.dtype(), outShape);
    dispatchFloatOrInt64(x.dtype(), [&]<class T>() { gatherConvTranspose<T>(ctx.threads(), x, w, b, out, g); });
    ctx.setOutput(0, out);
}

void registerConvTransposeKernels(KernelRegistry& r) {
    r.add({"aten::conv_transpose1d.default", "aten::conv_transpose2d.input", "aten::conv_transpose3d.input"}, &convTransposeNdKernel);
}

} // namespace irlens::core::exec
