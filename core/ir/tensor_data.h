#pragma once
// Real data: storages (viewed in place or owned), tensors over them, and the leaves of sample
// inputs and constants.

#include "core/ir/dtype.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace irlens::core {

/// Bytes of one storage. Either a view into a buffer kept alive by `owner` (the mapped archive)
/// or owned bytes. Never copied when the archive stores it uncompressed.
struct Storage {
    std::shared_ptr<const void> owner;
    const std::byte* data = nullptr;
    size_t size = 0;

    static std::shared_ptr<Storage> fromBytes(std::vector<std::byte> bytes);
};

/// A real tensor: dtype, sizes and strides in elements, offset, shared storage (views are views).
struct TensorData {
    ScalarType dtype = ScalarType::Float32;
    std::vector<int64_t> sizes;
    std::vector<int64_t> strides;
    int64_t storageOffset = 0;
    std::shared_ptr<const Storage> storage; // null = meta only (no data)
    bool isParameter = false;
    bool requiresGrad = false;
    std::string device = "cpu";

    int64_t numel() const;
    bool isContiguous() const;
    /// Pointer to element [0,...,0]; nullptr when there is no storage.
    const std::byte* dataPtr() const;
    /// Whether the view stays inside its storage.
    bool fitsStorage() const;
    /// Bytes of the view in C-contiguous order (copies when strided).
    std::vector<std::byte> contiguousBytes() const;
};

/// A leaf of sample inputs or constants: a tensor, a Python scalar, or something we only describe.
struct Value {
    enum class Kind { None, Tensor, Int, Float, Bool, String, Opaque };
    Kind kind = Kind::None;
    TensorData tensor;
    int64_t i = 0;
    double f = 0;
    bool b = false;
    std::string s; // String value, or the Opaque description ("TorchBind object __torch__...")
};

} // namespace irlens::core
