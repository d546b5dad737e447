#pragma once
// A safe unpickler for torch.save payloads (data.pkl). It executes nothing: the only callables are a
// fixed whitelist of PyTorch rebuild functions (format guide, section 4.2), interpreted here. Any other
// global is an error naming it and the byte where it appears. Memo, stack and nesting are bounded and
// self-containing structures are refused, so a hostile pickle cannot loop, exhaust memory or recurse.

#include "core/io/limits.h"
#include "core/ir/program.h"
#include "core/ir/status.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace irlens::core {

struct PyObject;
using PyRef = std::shared_ptr<PyObject>;

/// The Python values a torch.save pickle can hold once rebuilt.
struct PyObject {
    enum class Kind { None, Bool, Int, Float, String, Bytes, Tuple, List, Dict, Global, Storage, Dtype, Tensor, Opaque };
    Kind kind = Kind::None;
    bool b = false;
    int64_t i = 0;
    double f = 0;
    std::string s;                              // String, Bytes (raw), Global ("module.name"), Opaque description
    std::vector<PyRef> items;                   // Tuple, List
    std::vector<std::pair<PyRef, PyRef>> dict;  // Dict, in insertion order
    ScalarType dtype = ScalarType::Unknown;     // Storage (typed storages), Dtype, Tensor
    std::shared_ptr<const Storage> storage;     // Storage
    std::string device;                         // Storage location ("cpu", "cuda:0")
    bool untypedStorage = false;                // Storage: torch.UntypedStorage (bytes)
    TensorData tensor;                          // Tensor
    uint32_t depth = 0;                         // containers: nesting below this object, as far as known

    bool isContainer() const { return kind == Kind::Tuple || kind == Kind::List || kind == Kind::Dict; }
    /// "tuple", "OrderedDict"-agnostic short names used in error messages.
    const char* kindName() const;
};

/// Supplies the bytes of storage `key` (record data/<key>) for persistent ids.
using StorageLoader = std::function<Result<std::shared_ptr<const Storage>>(const std::string& key)>;

struct PickleLimits {
    size_t maxMemo = limits::kMaxPickleMemo;
    size_t maxStack = limits::kMaxPickleStack;
    size_t maxDepth = limits::kMaxPickleDepth;
    uint64_t maxString = limits::kMaxPickleStringBytes;
};

/// Runs the pickle. `name` starts every error message ("data.pkl: unsupported global 'os.system' at byte 57").
/// Storages with the same key are loaded once and shared by every tensor viewing them.
Result<PyRef> unpickle(const std::byte* data, size_t size, const std::string& name, const StorageLoader& loadStorage,
                       const PickleLimits& limits = {});

} // namespace irlens::core
