#pragma once
// What the tensor file readers share (tensor_file.cpp, npy_file.cpp, safetensors_file.cpp).

#include "core/io/tensor_file.h"
#include "core/ir/tensor_data.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace irlens::core::tensor_file_detail {

/// C-contiguous strides for `sizes`.
std::vector<int64_t> contiguousStrides(const std::vector<int64_t>& sizes);

/// A tensor over `bytes` [offset, offset + numel * element size): a view when the first element is
/// aligned for its type, else an aligned copy (typed reads need natural alignment).
TensorData viewOrCopy(std::shared_ptr<const Storage> bytes, uint64_t offset, ScalarType dtype, std::vector<int64_t> sizes,
                      std::vector<int64_t> strides);

/// A safetensors file held in `bytes` (`where` prefixes errors); entries ordered by data offset.
Result<TensorFile> parseSafetensors(std::shared_ptr<const Storage> bytes, const std::string& where);

/// numel * element size, or -1 when a size is negative or the product overflows 2^62.
int64_t byteSize(const std::vector<int64_t>& sizes, ScalarType dtype);

} // namespace irlens::core::tensor_file_detail
