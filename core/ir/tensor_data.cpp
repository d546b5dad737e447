#include "core/ir/tensor_data.h"

#include <cstring>

namespace irlens::core {

// ---------------------------------------------------------------- storage and tensors

std::shared_ptr<Storage> Storage::fromBytes(std::vector<std::byte> bytes) {
    auto owned = std::make_shared<std::vector<std::byte>>(std::move(bytes));
    auto st = std::make_shared<Storage>();
    st->data = owned->data();
    st->size = owned->size();
    st->owner = owned;
    return st;
}

int64_t TensorData::numel() const {
    int64_t n = 1;
    for (auto s : sizes) n *= s;
    return n;
}

bool TensorData::isContiguous() const {
    int64_t expected = 1;
    for (size_t k = sizes.size(); k-- > 0;) {
        if (sizes[k] == 1) continue;
        if (k >= strides.size() || strides[k] != expected) return false;
        expected *= sizes[k];
    }
    return true;
}

const std::byte* TensorData::dataPtr() const {
    if (!storage || !storage->data) return nullptr;
    return storage->data + storageOffset * elementSize(dtype);
}

bool TensorData::fitsStorage() const {
    if (sizes.size() != strides.size() || storageOffset < 0) return false;
    int64_t es = elementSize(dtype);
    if (es == 0) return false;
    if (numel() == 0) return true;
    int64_t maxIndex = storageOffset;
    for (size_t k = 0; k < sizes.size(); ++k) {
        if (sizes[k] < 0 || strides[k] < 0) return false;
        maxIndex += (sizes[k] - 1) * strides[k];
    }
    return storage && static_cast<uint64_t>((maxIndex + 1) * es) <= storage->size;
}

std::vector<std::byte> TensorData::contiguousBytes() const {
    const int64_t es = elementSize(dtype);
    const int64_t n = numel();
    std::vector<std::byte> out(static_cast<size_t>(n * es));
    const std::byte* base = dataPtr();
    if (!base || n == 0 || !fitsStorage()) return out;
    if (isContiguous()) {
        std::memcpy(out.data(), base, out.size());
        return out;
    }
    std::vector<int64_t> idx(sizes.size(), 0);
    for (int64_t e = 0; e < n; ++e) {
        int64_t off = 0;
        for (size_t k = 0; k < sizes.size(); ++k) off += idx[k] * strides[k];
        std::memcpy(out.data() + e * es, base + off * es, es);
        for (size_t k = sizes.size(); k-- > 0;) {
            if (++idx[k] < sizes[k]) break;
            idx[k] = 0;
        }
    }
    return out;
}

} // namespace irlens::core
