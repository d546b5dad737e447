#pragma once
// Output size of a pooling window along one dim, as ATen's pooling_output_shape computes it, and the
// average of a window.

#include "core/exec/kernels/util/dispatch.h"

#include <cstdint>
#include <type_traits>

namespace irlens::core::exec {

inline int64_t poolOut(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil, bool ceil) {
    int64_t num = in + 2 * pad - dil * (k - 1) - 1;
    int64_t out = (ceil ? (num + stride - 1) / stride : num / stride) + 1;
    if (ceil && (out - 1) * stride >= in + pad) --out; // the last window must start inside the input or left padding
    return out;
}

/// The average of a window: `sum / divisor` (0 for an empty one).
template <class T> T avgOf(IntOrDouble<T> sum, int64_t divisor) {
    if (divisor == 0) return T(0);
    if constexpr (std::is_integral_v<T>) return static_cast<T>(sum / divisor);
    else return static_cast<T>(sum / static_cast<double>(divisor));
}

} // namespace irlens::core::exec
