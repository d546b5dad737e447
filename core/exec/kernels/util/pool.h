#pragma once
// Output size of a pooling window along one dim, as ATen's pooling_output_shape computes it.

#include <cstdint>

namespace irlens::core::exec {

inline int64_t poolOut(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil, bool ceil) {
    int64_t num = in + 2 * pad - dil * (k - 1) - 1;
    int64_t out = (ceil ? (num + stride - 1) / stride : num / stride) + 1;
    if (ceil && (out - 1) * stride >= in + pad) --out; // the last window must start inside the input or left padding
    return out;
}

} // namespace irlens::core::exec
