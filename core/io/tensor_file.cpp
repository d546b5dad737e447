#include "core/io/tensor_file.h"

#include "core/io/mapped_file.h"
#include "core/io/tensor_file_detail.h"
#include "core/io/torch_save.h"
#include "core/io/zip_archive.h"

#include <algorithm>
#include <cstring>
#include <filesystem>

namespace irlens::core {

namespace tensor_file_detail {

std::vector<int64_t> contiguousStrides(const std::vector<int64_t>& sizes) {
    std::vector<int64_t> strides(sizes.size());
    int64_t s = 1;
    for (size_t k = sizes.size(); k-- > 0;) {
        strides[k] = s;
        s *= std::max<int64_t>(sizes[k], 1);
    }
    return strides;
}

int64_t byteSize(const std::vector<int64_t>& sizes, ScalarType dtype) {
    int64_t n = elementSize(dtype);
    if (n == 0) return -1;
    for (int64_t s : sizes) {
        if (s < 0 || (s > 0 && n > (int64_t(1) << 62) / s)) return -1;
        n *= s;
    }
    return n;
}

TensorData viewOrCopy(std::shared_ptr<const Storage> bytes, uint64_t offset, ScalarType dtype, std::vector<int64_t> sizes,
                      std::vector<int64_t> strides) {
    TensorData t;
    t.dtype = dtype;
    t.sizes = std::move(sizes);
    t.strides = std::move(strides);
    const int64_t es = elementSize(dtype);
    const std::byte* first = bytes->data + offset;
    if (reinterpret_cast<uintptr_t>(first) % uint64_t(es) == 0 && offset % uint64_t(es) == 0) {
        t.storage = std::move(bytes);
        t.storageOffset = int64_t(offset) / es;
        return t;
    }
    const int64_t n = byteSize(t.sizes, dtype);
    t.storage = Storage::fromBytes(std::vector<std::byte>(first, first + n)); // operator new aligns for every type
    return t;
}

} // namespace tensor_file_detail

namespace {

using K = PyObject::Kind;
using tensor_file_detail::parseSafetensors;

std::string positionName(size_t k) { return "[" + std::to_string(k) + "]"; }

// One value of a torch.save payload; a tensor must have its bytes (a view that fits its storage).
Status addLeaf(const PyObject& o, std::string name, const std::string& path, TensorFile& file) {
    auto leaf = leafValue(o);
    if (!leaf) return Status::error(path + ": " + name + " is a " + o.kindName() +
                                    "; save a tensor, a tuple or list of tensors, or a dict of tensors by input name");
    if (leaf->kind == Value::Kind::Tensor && !leaf->tensor.fitsStorage())
        return Status::error(path + ": " + name + " is a tensor without its data (a meta tensor, or a view past its storage)");
    file.entries.push_back({std::move(name), std::move(*leaf)});
    return Status::ok();
}

// A torch.save payload: a tensor, a tuple or list of tensors (and numbers), or a dict keyed by name.
Status entriesOfPickle(const PyObject& root, const std::string& path, TensorFile& file) {
    if (root.kind == K::Tuple || root.kind == K::List) {
        for (size_t k = 0; k < root.items.size(); ++k) IRLENS_TRY(addLeaf(*root.items[k], "item " + positionName(k), path, file));
        for (size_t k = 0; k < file.entries.size(); ++k) file.entries[k].name = positionName(k);
        return Status::ok();
    }
    if (root.kind == K::Dict) {
        file.named = true;
        for (const auto& [key, value] : root.dict) {
            if (key->kind != K::String) return Status::error(path + ": a dict key is a " + std::string(key->kindName()) + ", not a name");
            IRLENS_TRY(addLeaf(*value, "'" + key->s + "'", path, file));
            file.entries.back().name = key->s;
        }
        return Status::ok();
    }
    IRLENS_TRY(addLeaf(root, "the payload", path, file));
    file.entries.back().name = positionName(0);
    return Status::ok();
}

Result<TensorFile> readTorchSave(std::shared_ptr<const Storage> bytes, const std::string& path) {
    IRLENS_ASSIGN_OR_RETURN(root, loadTorchSave(std::move(bytes), path));
    TensorFile file;
    file.format = TensorFileFormat::TorchSave;
    IRLENS_TRY(entriesOfPickle(*root, path, file));
    return file;
}

TensorFileEntry tensorEntry(std::string name, TensorData t) {
    TensorFileEntry e;
    e.name = std::move(name);
    e.value.kind = Value::Kind::Tensor;
    e.value.tensor = std::move(t);
    return e;
}

// numpy.savez names positional arrays arr_0, arr_1, ...: those are positions, any other name a key.
bool positionalNames(const std::vector<TensorFileEntry>& entries) {
    for (size_t k = 0; k < entries.size(); ++k)
        if (entries[k].name != "arr_" + std::to_string(k)) return false;
    return true;
}

Result<TensorFile> readNpz(std::shared_ptr<const Storage> bytes, const std::string& path) {
    IRLENS_ASSIGN_OR_RETURN(zip, ZipArchive::openStorage(std::move(bytes), path));
    TensorFile file;
    file.format = TensorFileFormat::Npz;
    for (const auto& e : zip->entries()) {
        if (e.name.size() < 5 || e.name.compare(e.name.size() - 4, 4, ".npy") != 0) continue;
        IRLENS_ASSIGN_OR_RETURN(record, zip->read(e.name));
        IRLENS_ASSIGN_OR_RETURN(tensor, parseNpy(std::move(record), path + ": " + e.name));
        file.entries.push_back(tensorEntry(e.name.substr(0, e.name.size() - 4), std::move(tensor)));
    }
    if (file.entries.empty()) return Status::error(path + ": the .npz archive holds no .npy arrays");
    file.named = !positionalNames(file.entries);
    return file;
}

Result<TensorFile> readNpyFolder(const std::string& path) {
    namespace fs = std::filesystem;
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(path, ec))
        if (entry.path().extension() == ".npy" && entry.is_regular_file()) files.push_back(entry.path());
    if (ec) return Status::error("cannot list '" + path + "': " + ec.message());
    if (files.empty()) return Status::error(path + ": a folder holding no .npy files (expected one NAME.npy per value)");
    std::sort(files.begin(), files.end());
    TensorFile file;
    file.format = TensorFileFormat::NpyFolder;
    file.named = true;
    for (const auto& f : files) {
        IRLENS_ASSIGN_OR_RETURN(bytes, mapFile(f.string()));
        IRLENS_ASSIGN_OR_RETURN(tensor, parseNpy(std::move(bytes), f.string()));
        file.entries.push_back(tensorEntry(f.stem().string(), std::move(tensor)));
    }
    return file;
}

bool startsWith(const Storage& s, const char* magic) {
    const size_t n = std::strlen(magic);
    return s.size >= n && std::memcmp(s.data, magic, n) == 0;
}

// Told apart by content, whatever the extension: .npy magic, a ZIP (torch.save holds data.pkl, .npz
// holds .npy records), else safetensors' header.
Result<TensorFile> byContent(std::shared_ptr<const Storage> bytes, const std::string& path) {
    if (startsWith(*bytes, "\x93NUMPY")) {
        IRLENS_ASSIGN_OR_RETURN(tensor, parseNpy(bytes, path));
        TensorFile npy;
        npy.format = TensorFileFormat::Npy;
        npy.entries.push_back(tensorEntry(std::filesystem::path(path).stem().string(), std::move(tensor)));
        return npy;
    }
    if (startsWith(*bytes, "PK\x03\x04") || startsWith(*bytes, "PK\x05\x06")) {
        IRLENS_ASSIGN_OR_RETURN(zip, ZipArchive::openStorage(bytes, path));
        const auto names = zip->names();
        const bool pickle = std::any_of(names.begin(), names.end(), [](const std::string& n) {
            return n == "data.pkl" || (n.size() > 9 && n.compare(n.size() - 9, 9, "/data.pkl") == 0);
        });
        return pickle ? readTorchSave(bytes, path) : readNpz(bytes, path);
    }
    if (bytes->size >= 9 && bytes->data[8] == std::byte('{')) return parseSafetensors(bytes, path);
    return Status::error(path + ": not a tensor file (expected torch.save .pt, .npy, .npz or .safetensors; a torch.save "
                                "written with _use_new_zipfile_serialization=False is not read)");
}

} // namespace

Result<TensorFile> parseTensorFile(std::shared_ptr<const Storage> bytes, const std::string& path) {
    auto file = byContent(bytes ? std::move(bytes) : Storage::fromBytes({}), path);
    if (file) file->path = path;
    return file;
}

const char* tensorFileFormatName(TensorFileFormat format) {
    switch (format) {
    case TensorFileFormat::TorchSave: return "torch.save";
    case TensorFileFormat::Npy: return "npy";
    case TensorFileFormat::Npz: return "npz";
    case TensorFileFormat::Safetensors: return "safetensors";
    case TensorFileFormat::NpyFolder: return "folder of .npy";
    }
    return "?";
}

const TensorFileEntry* TensorFile::find(const std::string& name) const {
    for (const auto& e : entries)
        if (e.name == name) return &e;
    return nullptr;
}

Result<TensorFile> readTensorFile(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        auto folder = readNpyFolder(path);
        if (folder) folder->path = path;
        return folder;
    }
    IRLENS_ASSIGN_OR_RETURN(bytes, mapFile(path));
    return parseTensorFile(std::move(bytes), path);
}

} // namespace irlens::core
