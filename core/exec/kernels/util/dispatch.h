#pragma once
// dtype dispatch: calls f.template operator()<T>() with the C++ type of a ScalarType.
// Use as dispatchAll(dt, [&]<class T>() { ... });

#include "core/exec/kernel_context.h"

#include <cstdint>
#include <type_traits>
#include <utility>

namespace irlens::core::exec {

template <class F>
void dispatchAll(ScalarType t, F&& f) {
    switch (t) {
    case ScalarType::Float32: f.template operator()<float>(); return;
    case ScalarType::Float64: f.template operator()<double>(); return;
    case ScalarType::Int64: f.template operator()<int64_t>(); return;
    case ScalarType::Int32: f.template operator()<int32_t>(); return;
    case ScalarType::Int16: f.template operator()<int16_t>(); return;
    case ScalarType::Int8: f.template operator()<int8_t>(); return;
    case ScalarType::UInt8: f.template operator()<uint8_t>(); return;
    case ScalarType::Bool: f.template operator()<bool>(); return;
    default: kernelFail("dtype " + dtypeName(t) + " is not supported by this kernel");
    }
}

template <class F>
void dispatchFloat(ScalarType t, F&& f) {
    switch (t) {
    case ScalarType::Float32: f.template operator()<float>(); return;
    case ScalarType::Float64: f.template operator()<double>(); return;
    default: kernelFail("dtype " + dtypeName(t) + " is not supported by this kernel (float32/float64 only)");
    }
}

/// Numeric types (no bool).
template <class F>
void dispatchNumeric(ScalarType t, F&& f) {
    if (t == ScalarType::Bool) kernelFail("dtype bool is not supported by this kernel");
    dispatchAll(t, std::forward<F>(f));
}

/// float32 / float64, and int64 for the kernels that take it as PyTorch's CPU slow paths do (sums in
/// int64, see IntOrDouble and mulAddWrapped).
template <class F>
void dispatchFloatOrInt64(ScalarType t, F&& f) {
    if (t == ScalarType::Int64) f.template operator()<int64_t>();
    else dispatchFloat(t, std::forward<F>(f));
}
/// The accumulator of those kernels: int64 for an integer T, double otherwise.
template <class T> using IntOrDouble = std::conditional_t<std::is_integral_v<T>, int64_t, double>;
/// `acc + x`; in int64 it wraps on overflow as PyTorch's does (without C++'s undefined behaviour).
template <class T> IntOrDouble<T> addWrapped(IntOrDouble<T> acc, T x) {
    if constexpr (std::is_integral_v<T>) return static_cast<int64_t>(static_cast<uint64_t>(acc) + static_cast<uint64_t>(x));
    else return acc + static_cast<double>(x);
}
/// `acc + x * y`, wrapping the same way.
template <class T> IntOrDouble<T> mulAddWrapped(IntOrDouble<T> acc, T x, T y) {
    if constexpr (std::is_integral_v<T>)
        return static_cast<int64_t>(static_cast<uint64_t>(acc) + static_cast<uint64_t>(x) * static_cast<uint64_t>(y));
    else return acc + static_cast<double>(x) * static_cast<double>(y);
}

/// The type used to accumulate sums of T.
template <class T> struct AccType { using type = double; };
template <> struct AccType<int64_t> { using type = int64_t; };
template <> struct AccType<int32_t> { using type = int64_t; };
template <> struct AccType<int16_t> { using type = int64_t; };
template <> struct AccType<int8_t> { using type = int64_t; };
template <> struct AccType<uint8_t> { using type = int64_t; };
template <> struct AccType<bool> { using type = int64_t; };

} // namespace irlens::core::exec
