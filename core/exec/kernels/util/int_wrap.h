#pragma once
// Integer arithmetic that wraps like PyTorch's (two's complement): computed in the unsigned type of the
// same width, so a signed overflow (INT_MAX + 1, -INT_MIN, a large product) is not undefined behaviour.
// Types narrower than int are promoted and narrowed back, which wraps already.

#include <type_traits>

namespace irlens::core::exec {

template <class T> constexpr bool kWrapsUnsigned = std::is_integral_v<T> && std::is_signed_v<T> && sizeof(T) >= sizeof(int);

template <class T> T wrapAdd(T p, T q) {
    if constexpr (kWrapsUnsigned<T>) return static_cast<T>(static_cast<std::make_unsigned_t<T>>(p) + static_cast<std::make_unsigned_t<T>>(q));
    else return static_cast<T>(p + q);
}
template <class T> T wrapSub(T p, T q) {
    if constexpr (kWrapsUnsigned<T>) return static_cast<T>(static_cast<std::make_unsigned_t<T>>(p) - static_cast<std::make_unsigned_t<T>>(q));
    else return static_cast<T>(p - q);
}
template <class T> T wrapMul(T p, T q) {
    if constexpr (kWrapsUnsigned<T>) return static_cast<T>(static_cast<std::make_unsigned_t<T>>(p) * static_cast<std::make_unsigned_t<T>>(q));
    else if constexpr (std::is_integral_v<T> && sizeof(T) < sizeof(int)) return static_cast<T>(static_cast<unsigned>(p) * static_cast<unsigned>(q));
    else return static_cast<T>(p * q);
}
template <class T> T wrapNeg(T x) { return wrapSub(T(0), x); }

} // namespace irlens::core::exec
