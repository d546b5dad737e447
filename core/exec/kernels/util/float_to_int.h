#pragma once
// A floating value converted to an integer dtype as PyTorch converts it on x86-64, without the
// undefined behaviour of a plain static_cast (C++ leaves NaN and out-of-range values undefined).
//
// PyTorch's copy (c10::convert, static_cast_with_inter_type) casts directly except to uint8, which it
// reaches through int64 so that negative values wrap. What a direct cast gives for a value outside the
// target's range is the hardware's: GCC truncates with cvttss2si / cvttsd2si, 32-bit for int8, int16
// and int32 (the narrow types keep the low bits of that int32) and 64-bit for int64, and those
// instructions answer the type's lowest value for NaN, infinities and anything they cannot hold.
// So, as PyTorch 1.13 gives it on this machine (checked contiguous and strided):
//   int64: trunc(v), or INT64_MIN;     int32: trunc(v), or INT32_MIN;
//   int16 / int8: trunc(v) modulo 2^16 / 2^8 when within int32, else 0;
//   uint8: trunc(v) modulo 2^8 when within int64, else 0;  bool: v != 0 (NaN is true).

#include <cstdint>
#include <limits>
#include <type_traits>

namespace irlens::core::exec {

/// trunc(v) when it fits W, else W's lowest value (x86's "integer indefinite"), as cvtt* gives it.
template <class W, class F> W truncOrIndefinite(F v) {
    static_assert(std::is_floating_point_v<F> && std::is_signed_v<W>);
    constexpr F lowest = static_cast<F>(std::numeric_limits<W>::lowest()); // -2^(n-1), exact in float and double
    if (!(v >= lowest && v < -lowest)) return std::numeric_limits<W>::lowest(); // NaN fails both tests
    return static_cast<W>(v);
}

/// `v` converted to the integer (or bool) type I the way PyTorch's CPU copy converts it.
template <class I, class F> I floatToInt(F v) {
    static_assert(std::is_floating_point_v<F> && std::is_integral_v<I>);
    if constexpr (std::is_same_v<I, bool>) return v != F(0);
    else if constexpr (std::is_same_v<I, uint8_t>) return static_cast<uint8_t>(truncOrIndefinite<int64_t>(v));
    else if constexpr (sizeof(I) == 8) return static_cast<I>(truncOrIndefinite<int64_t>(v));
    else return static_cast<I>(truncOrIndefinite<int32_t>(v)); // narrowing an integer wraps (C++20)
}

/// `v` as T: floatToInt for an integer T, a plain conversion otherwise.
template <class T, class F> T convertValue(F v) {
    if constexpr (std::is_floating_point_v<F> && std::is_integral_v<T>) return floatToInt<T>(v);
    else if constexpr (std::is_same_v<T, bool>) return v != F(0);
    else return static_cast<T>(v);
}

} // namespace irlens::core::exec
