// Embedding bags and the embedding gradient: _embedding_bag (sum / mean / max over bags given by
// offsets, optional per-sample weights and padding index) and embedding_dense_backward.

#include "core/exec/kernel_registry.h"
#include "core/exec/kernels/kernels.h"
#include "core/exec/kernels/util/dispatch.h"
#include "core/exec/kernels/util/half.h"
#include "core/exec/kernels/util/tensor_ops.h"

#include <limits>

namespace irlens::core::exec {

namespace {

std::vector<int64_t> integerValues(KernelContext& ctx, const Tensor& t, const char* what) {
    if (!isIntegralType(t.dtype(), false)) kernelFail(std::string(what) + " must be an integer tensor, got " + dtypeName(t.dtype()));
    Tensor c = contiguous(ctx, toDtype(ctx, t, ScalarType::Int64));
    return std::vector<int64_t>(c.data<int64_t>(), c.data<int64_t>() + c.numel());
}

struct Bags {
    std::vector<int64_t> ids, starts; // starts has one entry per bag plus the end
};

Bags bagsOf(KernelContext& ctx, int64_t rows) {
    Bags b;
    b.ids = integerValues(ctx, ctx.tensor("indices", 1), "_embedding_bag: indices");
    b.starts = integerValues(ctx, ctx.tensor("offsets", 2), "_embedding_bag: offsets");
    const bool includeLast = ctx.boolArg("include_last_offset", 7, false);
    const int64_t n = static_cast<int64_t>(b.ids.size());
    if (!includeLast) b.starts.push_back(n);
    if (b.starts.empty()) kernelFail("_embedding_bag: offsets must not be empty with include_last_offset");
    for (size_t k = 0; k < b.starts.size(); ++k) {
        if (b.starts[k] < 0 || b.starts[k] > n || (k && b.starts[k] < b.starts[k - 1]))
            kernelFail("_embedding_bag: offsets must be non-decreasing and within [0, " + std::to_string(n) + "]");
    }
    if (includeLast) b.starts.back() = n; // torch ignores what the last offset says beyond the indices
    for (int64_t id : b.ids)
        if (id < 0 || id >= rows) kernelFail("_embedding_bag: index " + std::to_string(id) + " is out of range for " + std::to_string(rows) + " rows");
    return b;
}

// _embedding_bag(weight, indices, offsets, scale_grad_by_freq, mode, sparse, per_sample_weights,
// include_last_offset, padding_idx) -> (output, offset2bag, bag_size, max_indices)
void embeddingBagKernel(KernelContext& ctx) {
    const ScalarType dt = ctx.tensor("weight", 0).dtype(), cdt = isReducedFloat(dt) ? ScalarType::Float32 : dt; // float16: float32, rounded once
    Tensor w = contiguous(ctx, toDtype(ctx, ctx.tensor("weight", 0), cdt));
    if (w.dim() != 2) kernelFail("_embedding_bag: weight must be 2-D, got " + w.shapeString());
    const int64_t mode = ctx.intArg("mode", 4, 0), padding = ctx.intArg("padding_idx", 8, -1);
    if (mode < 0 || mode > 2) kernelFail("_embedding_bag: mode must be 0 (sum), 1 (mean) or 2 (max), got " + std::to_string(mode));
    auto psw = ctx.optTensor("per_sample_weights", 6);
    if (psw && mode != 0) kernelFail("_embedding_bag: per_sample_weights are only supported for mode 'sum'");
    const int64_t R = w.size(0), D = w.size(1);
    Bags b = bagsOf(ctx, R);
    const int64_t nb = static_cast<int64_t>(b.starts.size()) - 1, n = static_cast<int64_t>(b.ids.size());
    Tensor out = ctx.allocZeros(w.dtype(), {nb, D});
    Tensor offset2bag = ctx.allocZeros(ScalarType::Int64, {n});
    Tensor bagSize = ctx.allocZeros(ScalarType::Int64, {nb});
    Tensor maxIdx = mode == 2 ? ctx.allocZeros(ScalarType::Int64, {nb, D}) : ctx.allocZeros(ScalarType::Int64, {nb});
    Tensor pw = psw ? contiguous(ctx, toDtype(ctx, *psw, cdt)) : Tensor();
    dispatchFloat(w.dtype(), [&]<class T>() {
        for (int64_t bag = 0; bag < nb; ++bag) {
            T* o = out.data<T>() + bag * D;
            int64_t count = 0;
            for (int64_t k = b.starts[static_cast<size_t>(bag)]; k < b.starts[static_cast<size_t>(bag) + 1]; ++k) {
                offset2bag.data<int64_t>()[k] = bag;
                const int64_t id = b.ids[static_cast<size_t>(k)];
                if (id == padding) continue;
                const T* row = w.data<T>() + id * D;
                const T scale = pw.defined() ? pw.data<T>()[k] : T(1);
                for (int64_t d = 0; d < D; ++d) {
                    if (mode == 2) {
                        if (count == 0 || row[d] > o[d]) { o[d] = row[d]; maxIdx.data<int64_t>()[bag * D + d] = id; }
                    } else {
                        o[d] += scale * row[d];
                    }
                }
                ++count;
            }
            if (mode != 0) bagSize.data<int64_t>()[bag] = count; // torch's sum path leaves bag_size at zero
            if (mode == 1 && count > 0)
                for (int64_t d = 0; d < D; ++d) o[d] /= static_cast<T>(count);
        }
    });
    // The auxiliary outputs as torch's CPU kernel leaves them (only backward reads them): the
    // fast sum path (no padding_idx, float32 / float16 weight with unit row stride) returns an empty
    // offset2bag, float64 does not take it; mean returns bag_size as max_indices.
    if (mode == 1) copyInto(maxIdx, bagSize, 1);
    const Tensor weight = ctx.tensor("weight", 0);
    const bool fastSum = mode == 0 && padding < 0 && (weight.dtype() == ScalarType::Float32 || weight.dtype() == ScalarType::Float16) &&
                         weight.stride(1) == 1;
    ctx.setOutput(0, toDtype(ctx, out, dt));
    ctx.setOutput(1, fastSum ? ctx.alloc(ScalarType::Int64, {0}) : offset2bag);
    ctx.setOutput(2, bagSize);
    ctx.setOutput(3, maxIdx);
}

// embedding_dense_backward(grad_output [..., D], indices [...], num_weights, padding_idx,
// scale_grad_by_freq): each index's gradient row added into its weight row. float16 / bfloat16 add
// in float32 and round the scale, every scaled row and every sum to the dtype, as PyTorch's does.
void embeddingDenseBackwardKernel(KernelContext& ctx) {
    Tensor grad = ctx.tensor("grad_output", 0);
    auto ids = integerValues(ctx, ctx.tensor("indices", 1), "embedding_dense_backward: indices");
    const int64_t rows = ctx.intArg("num_weights", 2), padding = ctx.intArg("padding_idx", 3, -1);
    const bool byFreq = ctx.boolArg("scale_grad_by_freq", 4, false);
    if (grad.dim() < 1) kernelFail("embedding_dense_backward: grad_output must have at least one dimension");
    const int64_t D = grad.size(grad.dim() - 1), n = static_cast<int64_t>(ids.size());
    if (grad.numel() != n * D) kernelFail("embedding_dense_backward: grad_output " + grad.shapeString() + " does not hold one row per index");
    const ScalarType dt = grad.dtype(), cdt = isReducedFloat(dt) ? ScalarType::Float32 : dt;
    Tensor g = contiguous(ctx, toDtype(ctx, grad, cdt));
    Tensor out = ctx.allocZeros(cdt, {rows, D});
    std::vector<int64_t> freq(static_cast<size_t>(std::max<int64_t>(rows, 0)), 0);
    for (int64_t id : ids) {
        if (id < 0 || id >= rows) kernelFail("embedding_dense_backward: index " + std::to_string(id) + " is out of range for " + std::to_string(rows) + " rows");
        ++freq[static_cast<size_t>(id)];
    }
    dispatchFloat(cdt, [&]<class T>() {
        auto round = [&](T v) { return roundedTo(dt, v); };
        for (int64_t k = 0; k < n; ++k) {
            const int64_t id = ids[static_cast<size_t>(k)];
            if (id == padding) continue;
            // the 1 / count scale and the scaled row are rounded to the dtype too
            const T scale = byFreq ? round(T(1) / static_cast<T>(freq[static_cast<size_t>(id)])) : T(1);
            for (int64_t d = 0; d < D; ++d) out.data<T>()[id * D + d] = round(out.data<T>()[id * D + d] + round(scale * g.data<T>()[k * D + d]));
        }
    });
    ctx.setOutput(0, toDtype(ctx, out, dt));
}

} // namespace

void registerEmbeddingKernels(KernelRegistry& r) {
    r.add({"aten::_embedding_bag.default", "aten::_embedding_bag_forward_only.default"}, &embeddingBagKernel);
    r.add({"aten::embedding_dense_backward.default"}, &embeddingDenseBackwardKernel);
}

} // namespace irlens::core::exec
