#pragma once
// Branch-free clamps for contiguous float data. Compilers keep NaN-exact float selects as branches
// (without -ffinite-math), and activations have random signs, so relu/hardtanh/max-pool would pay
// a mispredict per element. SSE2's max/min return their second operand when either is NaN, so
// max(lo, v) and min(hi, v) keep torch's NaN propagation exactly.

#include <cstdint>
#include <emmintrin.h>
#include <limits>

namespace irlens::core::exec {

inline void clampContiguous(float* out, const float* in, int64_t n, float lo, float hi) {
    const __m128 vlo = _mm_set1_ps(lo), vhi = _mm_set1_ps(hi);
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) _mm_storeu_ps(out + i, _mm_min_ps(vhi, _mm_max_ps(vlo, _mm_loadu_ps(in + i))));
    for (; i < n; ++i) out[i] = _mm_cvtss_f32(_mm_min_ss(_mm_set_ss(hi), _mm_max_ss(_mm_set_ss(lo), _mm_set_ss(in[i]))));
}

inline void clampContiguous(double* out, const double* in, int64_t n, double lo, double hi) {
    const __m128d vlo = _mm_set1_pd(lo), vhi = _mm_set1_pd(hi);
    int64_t i = 0;
    for (; i + 2 <= n; i += 2) _mm_storeu_pd(out + i, _mm_min_pd(vhi, _mm_max_pd(vlo, _mm_loadu_pd(in + i))));
    for (; i < n; ++i) out[i] = _mm_cvtsd_f64(_mm_min_sd(_mm_set_sd(hi), _mm_max_sd(_mm_set_sd(lo), _mm_set_sd(in[i]))));
}

/// max(a, b) that returns b when b is NaN (a window maximum that lets NaN win), branch-free.
inline float maxKeepNan(float best, float v) { return _mm_cvtss_f32(_mm_max_ss(_mm_set_ss(best), _mm_set_ss(v))); }
inline double maxKeepNan(double best, double v) { return _mm_cvtsd_f64(_mm_max_sd(_mm_set_sd(best), _mm_set_sd(v))); }

} // namespace irlens::core::exec
