#pragma once
// One oneDNN primitive per slice of a tensor's outer rows, made on a node's first run and kept in its
// cache (remade when the shape changes); the slices run on TBB's workers with oneDNN itself single-
// threaded (its own pool would compete with TBB's). For element-wise and row-wise ops on contiguous
// float32 (GELU, softmax), where oneDNN's JIT kernels beat a scalar loop over std::erf / std::exp.

#ifdef IRLENS_HAVE_DNNL

#include "core/exec/engine.h"
#include "core/exec/kernel_context.h"

#include <oneapi/dnnl/dnnl.hpp>
#include "core/exec/kernels/util/parts.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace irlens::core::exec {

struct DnnlSlices {
    std::string key;
    dnnl::engine eng{dnnl::engine::kind::cpu, 0};
    std::vector<int64_t> offset; // first element of each slice
    std::vector<dnnl::memory::desc> descs;
    std::vector<dnnl::primitive> prims;
};

/// `rows` rows of `rowElems` elements each, cut into up to ctx.threads() slices of whole rows once
/// the tensor has `minParallel` elements. `make(rowsInSlice)` returns the slice's memory desc and
/// primitive; `key` names everything else the primitive depends on. Runs src -> dst (may alias).
/// False (nothing done) when the node has no cache to keep the primitives in.
inline bool runDnnlSlices(KernelContext& ctx, const std::string& key, int64_t rows, int64_t rowElems, const float* src, float* dst,
                          const std::function<std::pair<dnnl::memory::desc, dnnl::primitive>(int64_t rows, const dnnl::engine&)>& make,
                          int64_t minParallel = int64_t(1) << 15) {
    if (!ctx.cache() || rows * rowElems == 0) return false;
    const int64_t parts = rows * rowElems >= minParallel ? std::clamp<int64_t>(ctx.threads(), 1, std::max<int64_t>(rows, 1)) : 1;
    const std::string fullKey = key + "|" + std::to_string(rows) + "x" + std::to_string(rowElems) + "|" + std::to_string(parts);
    auto st = nodeState<DnnlSlices>(*ctx.cache(), fullKey, [&] {
        auto made = std::make_shared<DnnlSlices>();
        setLibraryThreads(1);
        for (int64_t p = 0; p < parts; ++p) {
            const int64_t r0 = rows * p / parts, r1 = rows * (p + 1) / parts;
            auto [md, prim] = make(r1 - r0, made->eng);
            made->offset.push_back(r0 * rowElems);
            made->descs.push_back(md);
            made->prims.push_back(prim);
        }
        return made;
    });
    auto runPart = [&](size_t p) {
        setLibraryThreads(1);
        dnnl::stream s(st->eng);
        dnnl::memory in(st->descs[p], st->eng, const_cast<float*>(src) + st->offset[p]);
        dnnl::memory out(st->descs[p], st->eng, dst + st->offset[p]);
        st->prims[p].execute(s, {{DNNL_ARG_SRC, in}, {DNNL_ARG_DST, out}});
        s.wait();
    };
    forEachPart(static_cast<int64_t>(st->prims.size()), [&](int64_t p) { runPart(static_cast<size_t>(p)); });
    return true;
}

} // namespace irlens::core::exec

#endif
