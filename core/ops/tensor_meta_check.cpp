#include "core/ops/tensor_meta_check.h"

#include <limits>

namespace irlens::core {

namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

std::optional<int64_t> known(const SymInt& s) {
    if (s.isStatic()) return s.value;
    return s.hint();
}

std::string shape(const std::vector<SymInt>& v) {
    std::string out = "[";
    for (size_t k = 0; k < v.size(); ++k) out += (k ? ", " : "") + v[k].toString();
    return out + "]";
}

// a * b for non-negative a, b; nullopt when it does not fit in int64.
std::optional<int64_t> mul(int64_t a, int64_t b) {
    if (a != 0 && b > kMax / a) return std::nullopt;
    return a * b;
}

std::optional<TensorMetaProblem> checkSizes(const TensorMeta& m, int es) {
    int64_t numel = 1;
    bool overflow = false;
    for (size_t d = 0; d < m.sizes.size(); ++d) {
        auto s = known(m.sizes[d]);
        if (!s) continue;
        if (*s < 0)
            return TensorMetaProblem{"EIR-T002", "size " + std::to_string(*s) + " in dimension " + std::to_string(d) +
                                                     " of " + shape(m.sizes) + " is negative"};
        if (*s == 0) return std::nullopt; // an empty tensor: nothing to count or address
        if (auto n = mul(numel, *s)) numel = *n;
        else overflow = true;
    }
    if (overflow)
        return TensorMetaProblem{"EIR-T002", "sizes " + shape(m.sizes) + " hold more elements than int64 can count"};
    if (!mul(numel, es))
        return TensorMetaProblem{"EIR-T002", "sizes " + shape(m.sizes) + " of " + std::to_string(numel) + " " +
                                                 dtypeName(m.dtype) + " elements need more bytes than int64 can count"};
    return std::nullopt;
}

std::optional<TensorMetaProblem> checkStrides(const TensorMeta& m, int es) {
    if (m.strides.size() != m.sizes.size()) return std::nullopt; // a rank mismatch is the decoder's to report
    int64_t extent = known(m.storageOffset).value_or(0);
    if (extent < 0)
        return TensorMetaProblem{"EIR-T003", "storage offset " + std::to_string(extent) + " is negative"};
    for (size_t d = 0; d < m.strides.size(); ++d) {
        auto st = known(m.strides[d]);
        auto sz = known(m.sizes[d]);
        if (!st) continue;
        if (*st < 0)
            return TensorMetaProblem{"EIR-T003", "stride " + std::to_string(*st) + " in dimension " + std::to_string(d) +
                                                     " of " + shape(m.strides) + " is negative (torch.export records no "
                                                     "negative strides)"};
        if (!mul(*st, es))
            return TensorMetaProblem{"EIR-T003", "stride " + std::to_string(*st) + " in dimension " + std::to_string(d) +
                                                     " of " + shape(m.strides) + " is more bytes than int64 can address"};
        if (!sz || *sz <= 1) continue;
        auto reach = mul(*sz - 1, *st);
        if (!reach || *reach > kMax - extent)
            return TensorMetaProblem{"EIR-T003", "strides " + shape(m.strides) + " with sizes " + shape(m.sizes) +
                                                     " address elements beyond what int64 can count"};
        extent += *reach;
    }
    // The last byte addressed is (extent + 1) * es - 1.
    if (extent == kMax || !mul(extent + 1, es))
        return TensorMetaProblem{"EIR-T003", "strides " + shape(m.strides) + " with sizes " + shape(m.sizes) +
                                                 " address bytes beyond what int64 can count"};
    return std::nullopt;
}

} // namespace

std::optional<TensorMetaProblem> checkTensorMeta(const TensorMeta& meta) {
    const int es = elementSize(meta.dtype);
    if (es == 0)
        return TensorMetaProblem{"EIR-T001", "dtype code " + std::to_string(static_cast<int>(meta.dtype)) +
                                                 " is not a torch dtype"};
    if (auto p = checkSizes(meta, es)) return p;
    return checkStrides(meta, es);
}

} // namespace irlens::core
