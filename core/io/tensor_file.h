#pragma once
// Tensor files as PyTorch users hold them, read and written in one place: `.pt` (a torch.save of a
// tensor, a tuple or list of tensors, or a dict keyed by name; read with the safe unpickler, no
// Python), `.npy` (one array), `.npz` (a ZIP of .npy arrays), `.safetensors`, and a folder of `.npy`
// files named by key. Data is viewed in place in the mapped file wherever its alignment allows.
//
// NumPy's and safetensors' formats have no C++ library in Debian; both are a short header in front of
// raw little-endian bytes, read and written here.

#include "core/ir/status.h"
#include "core/ir/tensor_data.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace irlens::core {

enum class TensorFileFormat { TorchSave, Npy, Npz, Safetensors, NpyFolder };

/// "torch.save", "npy", "npz", "safetensors", "folder of .npy".
const char* tensorFileFormatName(TensorFileFormat format);

struct TensorFileEntry {
    std::string name;  // the key ("x", "layers.0.relu"); positional entries: "[0]", "[1]", ... or the .npy stem
    Value value;       // a tensor, or a Python scalar from a .pt tuple/list/dict
};

struct TensorFile {
    std::string path;
    TensorFileFormat format = TensorFileFormat::Npy;
    /// Whether the names are keys the writer chose (a dict, named .npz arrays, safetensors, a folder)
    /// rather than positions (a tensor, a tuple or list, one .npy, an .npz of arr_0, arr_1, ...).
    bool named = false;
    std::vector<TensorFileEntry> entries;         // in file order (safetensors: by data offset)
    std::map<std::string, std::string> metadata;  // safetensors __metadata__

    const TensorFileEntry* find(const std::string& name) const;
};

/// Reads a tensor file, its format told by the extension (.pt/.pth/.bin, .npy, .npz, .safetensors),
/// or a folder of .npy files (each keyed by its file name without .npy). Errors name the file and
/// what in it is wrong.
Result<TensorFile> readTensorFile(const std::string& path);

/// The same for a file's bytes already in memory (`path` names it in errors); not for a folder.
Result<TensorFile> parseTensorFile(std::shared_ptr<const Storage> bytes, const std::string& path);

/// One .npy array from its bytes (`displayName` prefixes errors). The tensor views `bytes` when aligned.
Result<TensorData> parseNpy(std::shared_ptr<const Storage> bytes, const std::string& displayName);

/// Writes one array as .npy (format 1.0, little-endian, C order); for float, integer and bool dtypes.
Status writeNpy(const std::string& path, const TensorData& tensor);

/// The safetensors dtype code ("F32", "BF16", "BOOL", ...); "" when the format has none for `dtype`.
std::string safetensorsDtype(ScalarType dtype);

/// Writes a whole safetensors file (through SafetensorsWriter).
Status writeSafetensors(const std::string& path, const std::vector<std::pair<std::string, TensorData>>& tensors,
                        const std::map<std::string, std::string>& metadata = {});

/// Streams a safetensors file to disk one tensor at a time, so that no more than one tensor is held
/// for writing. The header sits in front of the data, so its room is reserved up front from the names
/// and ranks that may come (each size and offset at its widest) and filled at finish() with spaces
/// after the JSON, which the format allows. Tensors are packed in the order they are added. The file
/// is written under a temporary name and renamed into place by finish(); an unfinished writer removes it.
class SafetensorsWriter {
public:
    struct Planned {
        std::string name;
        size_t rank = 0;  // the most dimensions it may have
    };
    /// `planned`: every tensor that may be added (others are refused); `metadata` becomes __metadata__.
    static Result<std::unique_ptr<SafetensorsWriter>> create(const std::string& path, const std::vector<Planned>& planned,
                                                             const std::map<std::string, std::string>& metadata);
    ~SafetensorsWriter();
    SafetensorsWriter(const SafetensorsWriter&) = delete;
    SafetensorsWriter& operator=(const SafetensorsWriter&) = delete;

    /// Appends one tensor given as C-contiguous bytes (`bytes` = numel * element size).
    Status add(const std::string& name, ScalarType dtype, const std::vector<int64_t>& shape, const void* data, size_t bytes);
    /// The same for any TensorData (strided ones are copied to C order first).
    Status add(const std::string& name, const TensorData& tensor);
    /// Writes the header and moves the file into place.
    Status finish();

    size_t count() const { return m_entries.size(); }
    uint64_t dataBytes() const { return m_dataBytes; }

private:
    struct Entry {
        std::string name;
        std::string dtype;
        std::vector<int64_t> shape;
        uint64_t begin = 0, end = 0;
    };
    SafetensorsWriter() = default;
    Status fail(const std::string& what);

    std::string m_path, m_tempPath;
    int m_fd = -1;
    uint64_t m_reserved = 0;  // bytes before the data: the 8-byte length and the padded header
    uint64_t m_dataBytes = 0;
    std::map<std::string, size_t> m_rankOf;  // planned name -> rank
    std::map<std::string, std::string> m_metadata;
    std::vector<Entry> m_entries;
    bool m_finished = false;
};

} // namespace irlens::core
