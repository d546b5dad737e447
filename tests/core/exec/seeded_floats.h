#pragma once
// Reproducible test values: n floats spread evenly over [-half, half) by a linear congruential
// generator, the same on every platform (std::uniform_real_distribution's output is not).

#include <cstdint>
#include <vector>

namespace irlens::testing {

inline std::vector<float> seededFloats(int64_t n, uint32_t seed, float half) {
    std::vector<float> v(static_cast<size_t>(n));
    for (auto& x : v) {
        seed = seed * 1664525u + 1013904223u;
        x = (static_cast<float>(seed >> 8) / static_cast<float>(1u << 24) * 2.f - 1.f) * half;
    }
    return v;
}

} // namespace irlens::testing
