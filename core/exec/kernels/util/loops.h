#pragma once
// Strided element loops over several operands of one shape (broadcast inputs carry stride 0).
// Dimensions are coalesced, the flat range is split across TBB workers when it is large, and the
// innermost run calls the body with per-operand byte strides so contiguous runs vectorise.

#include "core/exec/tensor.h"

#include "core/exec/kernels/util/parts.h"

#include <algorithm>
#include <array>
#include <tuple>
#include <cstddef>
#include <cstdint>
#include <utility>

namespace irlens::core::exec {

constexpr int64_t kParallelGrain = 32768;

template <size_t N>
struct LoopPlan {
    Shape sizes;                          // coalesced
    std::array<Shape, N> strides;         // bytes
    std::array<std::byte*, N> bases{};
    int64_t numel = 1;
};

/// Builds a plan for operands that all have the shape `shape` (views already expanded).
template <size_t N>
LoopPlan<N> makeLoopPlan(const Shape& shape, const std::array<const Tensor*, N>& ops) {
    LoopPlan<N> p;
    Shape sizes;
    std::array<Shape, N> operandStrides;
    for (size_t d = 0; d < shape.size(); ++d) {
        if (shape[d] == 1) continue;
        sizes.push_back(shape[d]);
        for (size_t k = 0; k < N; ++k) operandStrides[k].push_back(ops[k]->stride(static_cast<int64_t>(d)) * ops[k]->itemSize());
    }
    // coalesce d-1 into d when contiguous for every operand
    Shape coalescedSizes;
    std::array<Shape, N> coalescedStrides;
    for (size_t d = 0; d < sizes.size(); ++d) {
        if (!coalescedSizes.empty()) {
            bool merge = true;
            for (size_t k = 0; k < N && merge; ++k) merge = coalescedStrides[k].back() == operandStrides[k][d] * sizes[d];
            if (merge) {
                coalescedSizes.back() *= sizes[d];
                for (size_t k = 0; k < N; ++k) coalescedStrides[k].back() = operandStrides[k][d];
                continue;
            }
        }
        coalescedSizes.push_back(sizes[d]);
        for (size_t k = 0; k < N; ++k) coalescedStrides[k].push_back(operandStrides[k][d]);
    }
    if (coalescedSizes.empty()) {
        coalescedSizes.push_back(1);
        for (size_t k = 0; k < N; ++k) coalescedStrides[k].push_back(0);
    }
    p.sizes = std::move(coalescedSizes);
    p.strides = std::move(coalescedStrides);
    for (size_t k = 0; k < N; ++k) p.bases[k] = ops[k]->raw();
    p.numel = shapeNumel(p.sizes);
    return p;
}

/// body(std::array<std::byte*, N> ptrs, std::array<int64_t, N> innerByteStrides, int64_t count)
template <size_t N, class Body>
void runLoopRange(const LoopPlan<N>& p, int64_t begin, int64_t end, Body& body) {
    const size_t nd = p.sizes.size();
    Shape idx(nd, 0);
    int64_t rem = begin;
    for (size_t d = nd; d-- > 0;) {
        idx[d] = rem % p.sizes[d];
        rem /= p.sizes[d];
    }
    std::array<int64_t, N> inner;
    for (size_t k = 0; k < N; ++k) inner[k] = p.strides[k][nd - 1];
    int64_t cur = begin;
    while (cur < end) {
        std::array<std::byte*, N> ptrs;
        for (size_t k = 0; k < N; ++k) {
            int64_t off = 0;
            for (size_t d = 0; d < nd; ++d) off += idx[d] * p.strides[k][d];
            ptrs[k] = p.bases[k] + off;
        }
        int64_t n = std::min(end - cur, p.sizes[nd - 1] - idx[nd - 1]);
        body(ptrs, inner, n);
        cur += n;
        idx[nd - 1] += n;
        for (size_t d = nd - 1; d > 0 && idx[d] >= p.sizes[d]; --d) {
            idx[d] = 0;
            ++idx[d - 1];
        }
    }
}

template <size_t N, class Body>
void runLoop(const LoopPlan<N>& p, int threads, Body body) {
    if (p.numel == 0) return;
    if (threads > 1 && p.numel >= 2 * kParallelGrain) {
        forEachRange(p.numel, kParallelGrain, [&](int64_t begin, int64_t end) { runLoopRange(p, begin, end, body); });
    } else {
        runLoopRange(p, 0, p.numel, body);
    }
}

template <class Out, class... In, class F>
void contiguousMap(Out* __restrict o, int64_t n, F& f, const In* __restrict... in) {
#pragma GCC ivdep
    for (int64_t e = 0; e < n; ++e) o[e] = f(in[e]...);
}

/// out[i] = f(in0[i], in1[i], ...) with typed pointers; inputs must already have out's shape (expanded).
template <class Out, class... In, class F, class... Ts>
void mapElements(int threads, const Tensor& out, F f, const Ts&... ins) {
    static_assert(sizeof...(In) == sizeof...(Ts), "one element type per input tensor");
    constexpr size_t N = sizeof...(In) + 1;
    std::array<const Tensor*, N> ops{&out, &ins...};
    auto plan = makeLoopPlan<N>(out.sizes(), ops);
    runLoop(plan, threads, [&](const std::array<std::byte*, N>& ptrs, const std::array<int64_t, N>& operandStrides, int64_t n) {
        [&]<size_t... I>(std::index_sequence<I...>) {
            Out* o = reinterpret_cast<Out*>(ptrs[0]);
            bool contiguous = operandStrides[0] == sizeof(Out) && ((operandStrides[I + 1] == sizeof(In)) && ...);
            if (contiguous) {
                const std::tuple<const In*...> in{reinterpret_cast<const In*>(ptrs[I + 1])...};
                // Without aliasing the loop vectorises; in-place ops (relu_) share the output buffer.
                const bool aliased = ((static_cast<const void*>(std::get<I>(in)) == static_cast<const void*>(o)) || ...);
                if (aliased) {
                    for (int64_t e = 0; e < n; ++e) o[e] = f(std::get<I>(in)[e]...);
                } else {
                    contiguousMap<Out, In...>(o, n, f, std::get<I>(in)...);
                }
            } else if constexpr (sizeof...(In) == 2) {
                // one operand a number broadcast along the run (x * 0.5, x + bias row): read it once
                // and map the other contiguously, which vectorises where the strided loop does not
                using In0 = std::tuple_element_t<0, std::tuple<In...>>;
                using In1 = std::tuple_element_t<1, std::tuple<In...>>;
                const bool outDense = operandStrides[0] == sizeof(Out);
                const auto* p0 = reinterpret_cast<const In0*>(ptrs[1]);
                const auto* p1 = reinterpret_cast<const In1*>(ptrs[2]);
                if (outDense && operandStrides[1] == sizeof(In0) && operandStrides[2] == 0 && static_cast<const void*>(p0) != static_cast<const void*>(o)) {
                    const In1 q = *p1;
                    auto g = [&f, q](In0 v) { return f(v, q); };
                    contiguousMap<Out, In0>(o, n, g, p0);
                } else if (outDense && operandStrides[1] == 0 && operandStrides[2] == sizeof(In1) && static_cast<const void*>(p1) != static_cast<const void*>(o)) {
                    const In0 q = *p0;
                    auto g = [&f, q](In1 v) { return f(q, v); };
                    contiguousMap<Out, In1>(o, n, g, p1);
                } else {
                    for (int64_t e = 0; e < n; ++e)
                        *reinterpret_cast<Out*>(ptrs[0] + e * operandStrides[0]) =
                            f(*reinterpret_cast<const In*>(ptrs[I + 1] + e * operandStrides[I + 1])...);
                }
            } else {
                for (int64_t e = 0; e < n; ++e)
                    *reinterpret_cast<Out*>(ptrs[0] + e * operandStrides[0]) =
                        f(*reinterpret_cast<const In*>(ptrs[I + 1] + e * operandStrides[I + 1])...);
            }
        }(std::index_sequence_for<In...>{});
    });
}

/// Runs f(begin, end) over [0, n) split across workers when n * costPerItem is large.
template <class F>
void parallelRange(int threads, int64_t n, int64_t costPerItem, F f) {
    if (threads > 1 && n > 1 && n * costPerItem >= 2 * kParallelGrain) {
        int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, costPerItem));
        forEachRange(n, grain, f);
    } else {
        f(0, n);
    }
}

} // namespace irlens::core::exec
