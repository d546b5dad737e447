#include "core/io/torch_save.h"
#include "core/io/text_util.h"

#include "core/io/limits.h"
#include "core/io/zip_archive.h"

#include <algorithm>
#include <set>

namespace irlens::core {

namespace {

using K = PyObject::Kind;

// Python repr of a dict key for flattened names ("x['a']", "x[0]").
std::string keyText(const PyObject& k) {
    switch (k.kind) {
    case K::String: return "'" + k.s + "'";
    case K::Int: return std::to_string(k.i);
    default: return std::string("<") + k.kindName() + ">";
    }
}

using Emit = std::function<void(const std::string&, Value)>;

// Walks the inputs as the tree they stand for (a container shared through the memo is visited once per
// use, as Python's pytree flattening does), within `budget` visits in all.
Status flatten(const PyObject& o, const std::string& path, size_t depth, const std::string& record, size_t& budget,
               const Emit& emit) {
    if (depth > limits::kMaxPickleDepth) return Status::error(record + ": sample inputs nested too deeply");
    if (budget == 0)
        return Status::error(record + ": sample inputs hold more than " + std::to_string(limits::kMaxSampleInputValues) +
                             " values (a container shared with itself many times?)");
    --budget;
    if (auto v = leafValue(o)) {
        emit(path, std::move(*v));
        return Status::ok();
    }
    if (o.kind == K::Tuple || o.kind == K::List) {
        for (size_t k = 0; k < o.items.size(); ++k)
            IRLENS_TRY(flatten(*o.items[k], path + "[" + std::to_string(k) + "]", depth + 1, record, budget, emit));
        return Status::ok();
    }
    if (o.kind == K::Dict) {
        for (const auto& [key, value] : o.dict)
            IRLENS_TRY(flatten(*value, path + "[" + keyText(*key) + "]", depth + 1, record, budget, emit));
        return Status::ok();
    }
    return Status::error(record + ": sample input " + path + " is a " + o.kindName() + ", expected tensors and scalars");
}

// Storages of a big-endian torch.save, swapped into owned native-order copies. The element size is
// only known from the tensors viewing a storage, so this runs after unpickling; tensors sharing a
// storage keep sharing the swapped copy (the first tensor's dtype decides the swap unit).
void swapStoragesToNative(PyObject& root) {
    std::map<const Storage*, std::shared_ptr<const Storage>> swapped;
    std::vector<PyObject*> todo{&root};
    std::set<const PyObject*> seen;
    while (!todo.empty()) {
        PyObject* o = todo.back();
        todo.pop_back();
        if (!seen.insert(o).second) continue;
        for (auto& c : o->items) todo.push_back(c.get());
        for (auto& [k, v] : o->dict) todo.push_back(v.get());
        if (o->kind != K::Tensor || !o->tensor.storage) continue;
        auto& copy = swapped[o->tensor.storage.get()];
        if (!copy) {
            const Storage& big = *o->tensor.storage;
            const ScalarType dt = o->tensor.dtype;
            const size_t unit = isComplexType(dt) ? size_t(elementSize(dt)) / 2 : size_t(elementSize(dt));
            std::vector<std::byte> out(big.data, big.data + big.size);
            if (unit > 1)
                for (size_t k = 0; k + unit <= out.size(); k += unit) std::reverse(out.begin() + k, out.begin() + k + unit);
            copy = Storage::fromBytes(std::move(out));
        }
        o->tensor.storage = copy;
    }
}

} // namespace

std::shared_ptr<const Storage> ensureAligned(std::shared_ptr<const Storage> bytes) {
    if (!bytes || bytes->size == 0 || reinterpret_cast<uintptr_t>(bytes->data) % 16 == 0) return bytes;
    // operator new aligns to at least 16 bytes on every platform we build for.
    return Storage::fromBytes(std::vector<std::byte>(bytes->data, bytes->data + bytes->size));
}

Result<PyRef> loadTorchSave(std::shared_ptr<const Storage> bytes, const std::string& recordName, const ZipLimits& limits) {
    auto zip = ZipArchive::openStorage(std::move(bytes), recordName, limits);
    if (!zip) {
        if (zip.error().find("end-of-central-directory") != std::string::npos)
            return Status::error(recordName + ": not a torch.save archive (expected a ZIP holding data.pkl)");
        return zip.status();
    }
    const ZipArchive& a = **zip;
    // The pickle sits under one root folder ("archive/" for export's in-memory saves, the file stem
    // for files saved to disk).
    std::string root;
    bool found = false;
    for (const auto& e : a.entries()) {
        const std::string& n = e.name;
        if (n == "data.pkl" || (n.size() > 9 && n.compare(n.size() - 9, 9, "/data.pkl") == 0 &&
                                n.find('/') == n.size() - 9)) {
            root = n.substr(0, n.size() - 8);
            found = true;
            break;
        }
    }
    if (!found) return Status::error(recordName + ": torch.save archive without data.pkl");
    bool bigEndian = false;
    if (a.contains(root + "byteorder")) {
        auto order = a.readText(root + "byteorder", limits::kMaxTagRecordBytes);
        if (!order) return order.status();
        bigEndian = trimmedRight(*order) == "big";
        if (!bigEndian && trimmedRight(*order) != "little")
            return Status::error(recordName + ": byteorder is '" + trimmedRight(*order) + "', expected 'little' or 'big'");
    }
    auto pickle = a.read(root + "data.pkl");
    if (!pickle) return pickle.status();
    std::shared_ptr<ZipArchive> keep = *zip;
    StorageLoader loader = [keep, root](const std::string& key) -> Result<std::shared_ptr<const Storage>> {
        if (key.empty() || !isSafeRecordName(key) || key.find('/') != std::string::npos)
            return Status::error("storage key '" + key + "' is not a plain name");
        std::string name = root + "data/" + key;
        if (!keep->contains(name)) return Status::error("storage record '" + name + "' is missing");
        auto st = keep->read(name);
        if (!st) return st.status();
        return ensureAligned(*st);
    };
    auto obj = unpickle((*pickle)->data, (*pickle)->size, "data.pkl", loader);
    if (!obj) return obj.status().withContext(recordName);
    if (bigEndian) swapStoragesToNative(**obj);
    return obj;
}

std::optional<Value> leafValue(const PyObject& o) {
    Value v;
    switch (o.kind) {
    case K::None: v.kind = Value::Kind::None; return v;
    case K::Bool: v.kind = Value::Kind::Bool; v.b = o.b; return v;
    case K::Int: v.kind = Value::Kind::Int; v.i = o.i; return v;
    case K::Float: v.kind = Value::Kind::Float; v.f = o.f; return v;
    case K::String: v.kind = Value::Kind::String; v.s = o.s; return v;
    case K::Tensor: v.kind = Value::Kind::Tensor; v.tensor = o.tensor; return v;
    case K::Opaque: v.kind = Value::Kind::Opaque; v.s = o.s; return v;
    default: return std::nullopt;
    }
}

Result<std::map<std::string, TensorData>> tensorsFromStateDict(const PyObject& dict, const std::string& recordName) {
    if (dict.kind != K::Dict) return Status::error(recordName + ": expected a dict of tensors, found a " + dict.kindName());
    std::map<std::string, TensorData> out;
    for (const auto& [k, v] : dict.dict) {
        if (k->kind != K::String) return Status::error(recordName + ": state dict key is a " + k->kindName() + ", expected a name");
        if (v->kind != K::Tensor)
            return Status::error(recordName + ": '" + k->s + "' is a " + v->kindName() + ", expected a tensor");
        out[k->s] = v->tensor;
    }
    return out;
}

Result<std::map<std::string, Value>> valuesFromDict(const PyObject& dict, const std::string& recordName) {
    if (dict.kind != K::Dict) return Status::error(recordName + ": expected a dict, found a " + dict.kindName());
    std::map<std::string, Value> out;
    for (const auto& [k, v] : dict.dict) {
        if (k->kind != K::String) return Status::error(recordName + ": key is a " + k->kindName() + ", expected a name");
        auto leaf = leafValue(*v);
        if (!leaf) return Status::error(recordName + ": '" + k->s + "' is a " + v->kindName() + ", expected a tensor");
        out[k->s] = std::move(*leaf);
    }
    return out;
}

Status flattenSampleInputs(const PyObject& pair, std::vector<Value>& args, std::map<std::string, Value>& kwargs,
                           const std::string& recordName) {
    size_t budget = limits::kMaxSampleInputValues;
    const bool argsKwargs = pair.kind == K::Tuple && pair.items.size() == 2 &&
                            (pair.items[0]->kind == K::Tuple || pair.items[0]->kind == K::List) && pair.items[1]->kind == K::Dict;
    if (!argsKwargs) {
        // The spec prose also allows a flat list of inputs; anything else that is not a container is wrong.
        if (pair.kind != K::Tuple && pair.kind != K::List)
            return Status::error(recordName + ": expected (args, kwargs), found a " + std::string(pair.kindName()));
        return flatten(pair, "args", 0, recordName, budget, [&](const std::string&, Value v) { args.push_back(std::move(v)); });
    }
    IRLENS_TRY(flatten(*pair.items[0], "args", 0, recordName, budget,
                       [&](const std::string&, Value v) { args.push_back(std::move(v)); }));
    for (const auto& [k, v] : pair.items[1]->dict) {
        if (k->kind != K::String) return Status::error(recordName + ": kwargs key is a " + std::string(k->kindName()));
        if (auto leaf = leafValue(*v)) { kwargs[k->s] = std::move(*leaf); continue; }
        IRLENS_TRY(flatten(*v, k->s, 1, recordName, budget, [&](const std::string& path, Value x) { kwargs[path] = std::move(x); }));
    }
    return Status::ok();
}

} // namespace irlens::core
