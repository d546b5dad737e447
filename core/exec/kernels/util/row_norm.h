#pragma once
// One row of a float32 layer norm, four SSE lanes at a time (the x86-64 baseline build has no AVX).
// The per-element loop over double accumulators (a float -> double conversion per element, and a
// reduction the compiler may not reorder) takes 24 us per 64 x 128 layer norm, a tenth of tiny_gpt's
// one-thread run. PyTorch's CPU kernel accumulates float rows in float too.

#include <cmath>
#include <cstdint>
#include <cstring>

namespace irlens::core::exec {

namespace row_norm_detail {

using F4 = float __attribute__((vector_size(16)));

inline F4 load4(const float* p) {
    F4 v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
inline void store4(float* p, F4 v) { std::memcpy(p, &v, sizeof v); }
inline F4 splat4(float x) { return F4{x, x, x, x}; }
inline float lanesSum(F4 v) { return (v[0] + v[2]) + (v[1] + v[3]); }

// sum of (x[i] - shift)^power for power 1 or 2, two vectors in flight
template <int Power>
float shiftedSum(const float* x, int64_t n, float shift) {
    const F4 s4 = splat4(shift);
    F4 a0 = splat4(0), a1 = splat4(0), a2 = splat4(0), a3 = splat4(0);
    auto term = [&](int64_t i) {
        F4 d = load4(x + i) - s4;
        if constexpr (Power == 2) d *= d;
        return d;
    };
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        a0 += term(i);
        a1 += term(i + 4);
        a2 += term(i + 8);
        a3 += term(i + 12);
    }
    for (; i + 4 <= n; i += 4) a0 += term(i);
    float s = lanesSum((a0 + a1) + (a2 + a3));
    for (; i < n; ++i) {
        const float d = x[i] - shift;
        s += Power == 2 ? d * d : d;
    }
    return s;
}

} // namespace row_norm_detail

/// y = (x - mean) * rstd * w + b over one row of n floats (w, b may be null); returns mean and rstd.
inline void layerNormRow(const float* x, float* y, int64_t n, const float* w, const float* b, double eps, float& mean, float& rstd) {
    using namespace row_norm_detail;
    const float count = static_cast<float>(n > 0 ? n : 1);
    const float m = shiftedSum<1>(x, n, 0.f) / count;
    const float var = shiftedSum<2>(x, n, m) / count;
    const float rs = static_cast<float>(1.0 / std::sqrt(static_cast<double>(var) + eps));
    mean = m;
    rstd = rs;
    const F4 m4 = splat4(m), r4 = splat4(rs);
    int64_t i = 0;
    if (w && b) {
        for (; i + 4 <= n; i += 4) store4(y + i, (load4(x + i) - m4) * r4 * load4(w + i) + load4(b + i));
    } else {
        for (; i + 4 <= n; i += 4) {
            F4 v = (load4(x + i) - m4) * r4;
            if (w) v *= load4(w + i);
            if (b) v += load4(b + i);
            store4(y + i, v);
        }
    }
    for (; i < n; ++i) {
        float v = (x[i] - m) * rs;
        if (w) v *= w[i];
        if (b) v += b[i];
        y[i] = v;
    }
}

} // namespace irlens::core::exec
