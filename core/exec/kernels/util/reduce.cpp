#include "core/exec/kernels/util/reduce.h"

#include "core/exec/kernels/util/tensor_ops.h"

#include <algorithm>

namespace irlens::core::exec {

ReduceLayout prepareReduce(KernelContext& ctx, const Tensor& x, std::vector<int64_t> dims, bool keepdim) {
    const int64_t r = x.dim();
    std::vector<bool> reduced(static_cast<size_t>(r), dims.empty());
    for (auto d : dims) {
        int64_t w = wrapDim(d, r);
        if (r == 0) continue;
        if (reduced[static_cast<size_t>(w)]) kernelFail("dimension " + std::to_string(w) + " appears twice in the reduction");
        reduced[static_cast<size_t>(w)] = true;
    }
    ReduceLayout L;
    std::vector<int64_t> order;
    for (int64_t d = 0; d < r; ++d)
        if (!reduced[static_cast<size_t>(d)]) { order.push_back(d); L.outer *= x.size(d); }
    for (int64_t d = 0; d < r; ++d)
        if (reduced[static_cast<size_t>(d)]) { order.push_back(d); L.inner *= x.size(d); }
    for (int64_t d = 0; d < r; ++d) {
        if (!reduced[static_cast<size_t>(d)]) L.outShape.push_back(x.size(d));
        else if (keepdim) L.outShape.push_back(1);
    }
    bool identity = true;
    for (size_t k = 0; k < order.size(); ++k) identity = identity && order[k] == static_cast<int64_t>(k);
    Tensor p = identity ? x : permute(x, order);
    L.rows = contiguous(ctx, p);
    return L;
}

std::vector<int64_t> reduceDimsArg(KernelContext& ctx, int position) {
    for (const char* name : {"dim", "dims"}) {
        const EValue* v = ctx.find(name, position);
        if (!v) continue;
        if (v->kind == EValue::Kind::IntList) return v->ints;
        if (v->kind == EValue::Kind::Int) return {v->i};
    }
    return {};
}

} // namespace irlens::core::exec
