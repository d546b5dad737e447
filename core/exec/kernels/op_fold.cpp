// col2im (nn.Fold): columns of sliding-window patches summed back into an image; overlapping
// patches add up. float16 / bfloat16 add in float32 and round every sum to the dtype, as PyTorch's
// col2im does (its accumulation is in the tensor's own dtype).

#include "core/exec/kernel_registry.h"
#include "core/exec/kernels/kernels.h"
#include "core/exec/kernels/util/dispatch.h"
#include "core/exec/kernels/util/half.h"
#include "core/exec/kernels/util/loops.h"
#include "core/exec/kernels/util/tensor_ops.h"

#include <array>

namespace irlens::core::exec {

namespace {

std::array<int64_t, 2> pair(KernelContext& ctx, const char* name, int position) {
    auto v = ctx.ints(name, position);
    if (v.size() == 1) return {v[0], v[0]};
    if (v.size() != 2) kernelFail(std::string("col2im: ") + name + " must have two values, got " + std::to_string(v.size()));
    return {v[0], v[1]};
}

// col2im(self [N, C*kH*kW, L] or [C*kH*kW, L], output_size, kernel_size, dilation, padding, stride)
void col2imKernel(KernelContext& ctx) {
    Tensor cols = ctx.tensor("self", 0);
    const auto out = pair(ctx, "output_size", 1), k = pair(ctx, "kernel_size", 2), d = pair(ctx, "dilation", 3), p = pair(ctx, "padding", 4),
               s = pair(ctx, "stride", 5);
    for (int a = 0; a < 2; ++a)
        if (k[a] <= 0 || d[a] <= 0 || s[a] <= 0 || p[a] < 0 || out[a] <= 0)
            kernelFail("col2im: kernel_size, dilation, stride and output_size must be positive, padding non-negative");
    const bool batched = cols.dim() == 3;
    if (cols.dim() != 2 && cols.dim() != 3) kernelFail("col2im: expected a 2-D or 3-D input, got " + cols.shapeString());
    const int64_t N = batched ? cols.size(0) : 1, rows = cols.size(batched ? 1 : 0), L = cols.size(batched ? 2 : 1);
    if (rows % (k[0] * k[1])) kernelFail("col2im: dimension 1 of " + cols.shapeString() + " is not divisible by the kernel size");
    const int64_t C = rows / (k[0] * k[1]);
    const int64_t bh = (out[0] + 2 * p[0] - d[0] * (k[0] - 1) - 1) / s[0] + 1, bw = (out[1] + 2 * p[1] - d[1] * (k[1] - 1) - 1) / s[1] + 1;
    if (bh <= 0 || bw <= 0 || bh * bw != L)
        kernelFail("col2im: " + cols.shapeString() + " holds " + std::to_string(L) + " blocks, the geometry gives " + std::to_string(std::max<int64_t>(0, bh) * std::max<int64_t>(0, bw)));
    const ScalarType dt = cols.dtype(), cdt = isReducedFloat(dt) ? ScalarType::Float32 : dt;
    Tensor x = contiguous(ctx, toDtype(ctx, cols, cdt));
    Shape os = batched ? Shape{N, C, out[0], out[1]} : Shape{C, out[0], out[1]};
    Tensor y = ctx.allocZeros(cdt, os);
    dispatchFloat(cdt, [&]<class T>() {
        auto add = [&](T a, T b) { return roundedTo(dt, a + b); };
        parallelRange(ctx.threads(), N * C, k[0] * k[1] * L, [&](int64_t lo, int64_t hi) {
            for (int64_t nc = lo; nc < hi; ++nc) {
                const int64_t n = nc / C, c = nc % C;
                T* img = y.data<T>() + nc * out[0] * out[1];
                for (int64_t kh = 0; kh < k[0]; ++kh)
                    for (int64_t kw = 0; kw < k[1]; ++kw) {
                        const T* col = x.data<T>() + ((n * C + c) * k[0] * k[1] + kh * k[1] + kw) * L;
                        for (int64_t oh = 0; oh < bh; ++oh) {
                            const int64_t ih = oh * s[0] - p[0] + kh * d[0];
                            if (ih < 0 || ih >= out[0]) continue;
                            for (int64_t ow = 0; ow < bw; ++ow) {
                                const int64_t iw = ow * s[1] - p[1] + kw * d[1];
                                if (iw >= 0 && iw < out[1]) img[ih * out[1] + iw] = add(img[ih * out[1] + iw], col[oh * bw + ow]);
                            }
                        }
                    }
            }
        });
    });
    ctx.setOutput(0, toDtype(ctx, y, dt));
}

} // namespace

void registerFoldKernels(KernelRegistry& r) { r.add({"aten::col2im.default"}, &col2imKernel); }

} // namespace irlens::core::exec
