#pragma once
// Payload configs of 2.9+ PT2 archives (data/weights/<m>_weights_config.json,
// data/constants/<m>_constants_config.json; format guide section 3.3) and the small JSON TensorMeta
// reader the container layer needs (configs, fake tensors in legacy pickles).

#include "core/ir/program.h"
#include "core/ir/status.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace irlens::core {

/// One `config` entry: where a weight/constant's bytes are and how to view them.
struct PayloadEntry {
    std::string fqn;                // "linear.weight", "lifted_tensor_0"
    std::string pathName;           // file name inside data/weights/ or data/constants/
    bool isParam = false;
    bool usePickle = false;         // the file is a nested torch.save (tensor subclass or custom object)
    std::optional<TensorData> meta; // dtype, sizes, strides, offset (no storage); absent for custom objects
};

/// Parses a payload config (entries sorted by name). Errors name the record and the FQN.
Result<std::vector<PayloadEntry>> parsePayloadConfig(std::string_view json, const std::string& recordName);

/// Parses a TensorMeta JSON object (either union style, bare-int or SymInt storage_offset) into a
/// meta-only TensorData. Symbolic sizes use their hint; without one the meta is refused.
Result<TensorData> tensorMetaFromJsonText(std::string_view json, const std::string& where);

/// Bytes of storage the view (sizes, strides, offset in elements of dtype) reaches: 0 for an empty
/// view; nullopt for negative values, unknown dtypes or sizes past 2^62 (computed without overflow).
std::optional<uint64_t> viewBytesNeeded(const TensorData& t);

/// Whether the view lies within `storageBytes`.
bool tensorViewFits(const TensorData& t, uint64_t storageBytes);

/// "[3, 3]".
std::string shapeString(const std::vector<int64_t>& dims);

/// Whether the JSON text nests at most `maxDepth` arrays/objects (a cheap pre-check before parsing).
bool jsonDepthWithin(std::string_view text, size_t maxDepth);

} // namespace irlens::core
