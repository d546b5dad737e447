#pragma once
// float16 and bfloat16 storage conversions. Kernels compute reduced-precision tensors in float32
// and round the result back, which is what PyTorch's CPU kernels do (their "opmath" type for
// Half and BFloat16 is float), so one elementwise op gives the same bits.

#include "core/ir/dtype.h"

#include <cmath>
#include <cstdint>
#include <cstring>

namespace irlens::core::exec {

inline bool isReducedFloat(ScalarType t) { return t == ScalarType::Float16 || t == ScalarType::BFloat16; }

inline float halfToFloat(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    const uint32_t exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
    float magnitude;
    if (exp == 0) magnitude = std::ldexp(static_cast<float>(mant), -24); // zero and subnormals
    else if (exp == 31) magnitude = mant ? NAN : INFINITY;
    else magnitude = std::ldexp(static_cast<float>(mant | 0x400u), static_cast<int>(exp) - 25);
    uint32_t bits;
    std::memcpy(&bits, &magnitude, 4);
    bits |= sign;
    float out;
    std::memcpy(&out, &bits, 4);
    return out;
}

/// Round to nearest, ties to even (IEEE), overflow to infinity, NaN stays NaN.
inline uint16_t floatToHalf(float f) {
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
    bits &= 0x7fffffffu;
    if (bits >= 0x7f800000u) return static_cast<uint16_t>(sign | (bits > 0x7f800000u ? 0x7e00u : 0x7c00u));
    if (bits >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u); // rounds past 65504
    if (bits < 0x38800000u) {                                                 // below the smallest normal half
        float a;
        std::memcpy(&a, &bits, 4);
        // subnormal halves are multiples of 2^-24: rint rounds ties to even
        return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::nearbyint(std::ldexp(a, 24))));
    }
    const uint32_t rounded = bits + 0xfffu + ((bits >> 13) & 1u); // ties to even on the 13 dropped bits
    return static_cast<uint16_t>(sign | static_cast<uint16_t>((rounded - 0x38000000u) >> 13));
}

inline float bfloat16ToFloat(uint16_t b) {
    const uint32_t bits = static_cast<uint32_t>(b) << 16;
    float out;
    std::memcpy(&out, &bits, 4);
    return out;
}

inline uint16_t floatToBfloat16(float f) {
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((bits >> 16) | 0x40u); // quiet NaN
    return static_cast<uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
}

inline float reducedToFloat(ScalarType t, uint16_t v) { return t == ScalarType::Float16 ? halfToFloat(v) : bfloat16ToFloat(v); }
inline uint16_t floatToReduced(ScalarType t, float v) { return t == ScalarType::Float16 ? floatToHalf(v) : floatToBfloat16(v); }
/// `v` rounded to `t` when `t` is float16 / bfloat16 (kernels that follow PyTorch's per-step rounding
/// in those dtypes), else `v` itself.
template <class T> T roundedTo(ScalarType t, T v) {
    return isReducedFloat(t) ? static_cast<T>(reducedToFloat(t, floatToReduced(t, static_cast<float>(v)))) : v;
}

} // namespace irlens::core::exec
