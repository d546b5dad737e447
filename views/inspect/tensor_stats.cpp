#include "views/inspect/tensor_stats.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace irlens::views {

using namespace irlens::core;

namespace {

float halfToFloat(uint16_t h) {
    uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    uint32_t bits;
    if (exp == 0) {
        if (mant == 0) bits = sign;
        else { // subnormal: normalise
            exp = 127 - 15 + 1;
            while (!(mant & 0x400)) { mant <<= 1; --exp; }
            mant &= 0x3ff;
            bits = sign | (exp << 23) | (mant << 13);
        }
    } else if (exp == 31) {
        bits = sign | 0x7f800000u | (mant << 13);
    } else {
        bits = sign | ((exp - 15 + 127) << 23) | (mant << 13);
    }
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

template <class T>
T load(const std::byte* p) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
}

std::optional<double> readElement(ScalarType t, const std::byte* p) {
    switch (t) {
    case ScalarType::Float32: return load<float>(p);
    case ScalarType::Float64: return load<double>(p);
    case ScalarType::Float16: return halfToFloat(load<uint16_t>(p));
    case ScalarType::BFloat16: {
        uint32_t bits = static_cast<uint32_t>(load<uint16_t>(p)) << 16;
        float f;
        std::memcpy(&f, &bits, 4);
        return f;
    }
    case ScalarType::Int64: return static_cast<double>(load<int64_t>(p));
    case ScalarType::Int32: return load<int32_t>(p);
    case ScalarType::Int16: return load<int16_t>(p);
    case ScalarType::Int8: return load<int8_t>(p);
    case ScalarType::UInt8: return load<uint8_t>(p);
    case ScalarType::Bool: return load<uint8_t>(p) ? 1.0 : 0.0;
    default: return std::nullopt;
    }
}

} // namespace

std::optional<TensorStats> computeTensorStats(const TensorData& t, int bins, int firstCount) {
    const std::byte zeros[8] = {};
    if (!t.storage || !t.fitsStorage() || !readElement(t.dtype, zeros)) return std::nullopt;
    const int64_t n = t.numel();
    const int es = elementSize(t.dtype);
    const std::byte* base = t.dataPtr();
    if (!base && n > 0) return std::nullopt;
    const size_t rank = t.sizes.size();
    std::vector<int64_t> idx(rank, 0);
    // walk in C order, honouring strides
    auto forEach = [&](auto&& fn) {
        std::fill(idx.begin(), idx.end(), 0);
        for (int64_t k = 0; k < n; ++k) {
            int64_t off = 0;
            for (size_t d = 0; d < rank; ++d) off += idx[d] * t.strides[d];
            fn(*readElement(t.dtype, base + off * es));
            for (size_t d = rank; d-- > 0;) {
                if (++idx[d] < t.sizes[d]) break;
                idx[d] = 0;
            }
        }
    };
    TensorStats s;
    s.count = n;
    double sum = 0, sumSq = 0;
    s.min = std::numeric_limits<double>::infinity();
    s.max = -std::numeric_limits<double>::infinity();
    forEach([&](double v) {
        if (static_cast<int>(s.first.size()) < firstCount) s.first.push_back(v);
        if (std::isnan(v)) return;
        s.min = std::min(s.min, v);
        s.max = std::max(s.max, v);
        sum += v;
        sumSq += v * v;
    });
    if (n == 0) { s.min = s.max = 0; return s; }
    s.mean = sum / static_cast<double>(n);
    s.std = std::sqrt(std::max(0.0, sumSq / static_cast<double>(n) - s.mean * s.mean));
    s.histogram.assign(static_cast<size_t>(std::max(1, bins)), 0);
    const double width = s.max > s.min ? (s.max - s.min) / static_cast<double>(s.histogram.size()) : 1.0;
    forEach([&](double v) {
        if (std::isnan(v)) return;
        auto b = static_cast<size_t>((v - s.min) / width);
        if (b >= s.histogram.size()) b = s.histogram.size() - 1;
        ++s.histogram[b];
    });
    return s;
}

} // namespace irlens::views
