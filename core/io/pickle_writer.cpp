#include "core/io/pickle_writer.h"

#include "core/io/zip_writer.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace irlens::core {

PickleWriter::PickleWriter() {
    m_out += '\x80';
    m_out += '\x02';
}

void PickleWriter::global(std::string_view module, std::string_view name) {
    m_out += 'c';
    m_out += module;
    m_out += '\n';
    m_out += name;
    m_out += '\n';
}

void PickleWriter::mark() { m_out += '('; }
void PickleWriter::tuple() { m_out += 't'; }
void PickleWriter::tuple(size_t n) {
    static const char ops[] = {')', '\x85', '\x86', '\x87'};
    m_out += ops[n < 4 ? n : 0];
}
void PickleWriter::emptyList() { m_out += ']'; }
void PickleWriter::appends() { m_out += 'e'; }
void PickleWriter::emptyDict() { m_out += '}'; }
void PickleWriter::setitems() { m_out += 'u'; }
void PickleWriter::none() { m_out += 'N'; }
void PickleWriter::boolean(bool b) { m_out += b ? '\x88' : '\x89'; }
void PickleWriter::reduce() { m_out += 'R'; }
void PickleWriter::persistentId() { m_out += 'Q'; }

void PickleWriter::integer(int64_t v) {
    if (v >= 0 && v < 256) {
        m_out += 'K';
        m_out += static_cast<char>(v);
    } else if (v >= 0 && v < 65536) {
        m_out += 'M';
        m_out += static_cast<char>(v & 0xFF);
        m_out += static_cast<char>(v >> 8);
    } else if (v >= INT32_MIN && v <= INT32_MAX) {
        m_out += 'J';
        uint32_t u = static_cast<uint32_t>(static_cast<int32_t>(v));
        for (int k = 0; k < 4; ++k) m_out += static_cast<char>((u >> (8 * k)) & 0xFF);
    } else {
        // LONG1: little-endian two's complement, 8 bytes always suffice for int64.
        m_out += '\x8a';
        m_out += '\x08';
        uint64_t u = static_cast<uint64_t>(v);
        for (int k = 0; k < 8; ++k) m_out += static_cast<char>((u >> (8 * k)) & 0xFF);
    }
}

void PickleWriter::floating(double v) {
    m_out += 'G';
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    for (int k = 7; k >= 0; --k) m_out += static_cast<char>((bits >> (8 * k)) & 0xFF); // big-endian
}

void PickleWriter::string(std::string_view s) {
    m_out += 'X';
    uint32_t n = static_cast<uint32_t>(s.size());
    for (int k = 0; k < 4; ++k) m_out += static_cast<char>((n >> (8 * k)) & 0xFF);
    m_out += s;
}

std::string PickleWriter::finish() {
    m_out += '.';
    return std::move(m_out);
}

namespace {

// Typed storage classes torch.save uses for the classic dtypes; the rest go through UntypedStorage.
const char* typedStorageName(ScalarType t) {
    switch (t) {
    case ScalarType::Float32: return "FloatStorage";
    case ScalarType::Float64: return "DoubleStorage";
    case ScalarType::Float16: return "HalfStorage";
    case ScalarType::BFloat16: return "BFloat16Storage";
    case ScalarType::Int64: return "LongStorage";
    case ScalarType::Int32: return "IntStorage";
    case ScalarType::Int16: return "ShortStorage";
    case ScalarType::Int8: return "CharStorage";
    case ScalarType::UInt8: return "ByteStorage";
    case ScalarType::Bool: return "BoolStorage";
    case ScalarType::Complex64: return "ComplexFloatStorage";
    case ScalarType::Complex128: return "ComplexDoubleStorage";
    default: return nullptr;
    }
}

struct StorageRecord {
    std::string key;
    const std::byte* data = nullptr;
    uint64_t size = 0;
    std::vector<std::byte> zeros; // for meta-only tensors
};

class SampleWriter {
public:
    Status value(const Value& v, const std::string& what) {
        switch (v.kind) {
        case Value::Kind::None: m_p.none(); return Status::ok();
        case Value::Kind::Int: m_p.integer(v.i); return Status::ok();
        case Value::Kind::Float: m_p.floating(v.f); return Status::ok();
        case Value::Kind::Bool: m_p.boolean(v.b); return Status::ok();
        case Value::Kind::String: m_p.string(v.s); return Status::ok();
        case Value::Kind::Tensor: return tensor(v.tensor, what);
        case Value::Kind::Opaque: return Status::error(what + ": cannot write an opaque object (" + v.s + ") into torch.save");
        }
        return Status::ok();
    }

    PickleWriter& pickle() { return m_p; }
    std::vector<StorageRecord>& storages() { return m_storages; }

private:
    Status tensor(const TensorData& t, const std::string& what) {
        const int64_t es = elementSize(t.dtype);
        if (es == 0) return Status::error(what + ": cannot write a tensor of dtype " + dtypeName(t.dtype));
        const std::byte* data = t.storage ? t.storage->data : nullptr;
        uint64_t bytes = t.storage ? t.storage->size : 0;
        std::string key;
        for (const auto& s : m_storages)
            if (data && s.data == data && s.size == bytes) key = s.key;
        if (key.empty()) {
            StorageRecord rec;
            rec.key = std::to_string(m_storages.size());
            if (!data) {
                // Meta-only tensor: write zeros covering the view so torch.load gets a valid tensor.
                if (!t.fitsStorage() && t.storage) return Status::error(what + ": tensor view exceeds its storage");
                int64_t extent = t.numel() ? t.storageOffset + 1 : 0;
                for (size_t k = 0; k < t.sizes.size() && t.numel(); ++k) extent += (t.sizes[k] - 1) * t.strides[k];
                rec.zeros.assign(static_cast<size_t>(extent * es), std::byte{0});
                rec.data = rec.zeros.data();
                rec.size = rec.zeros.size();
            } else {
                rec.data = data;
                rec.size = bytes;
            }
            key = rec.key;
            m_storages.push_back(std::move(rec));
        }
        const StorageRecord& rec = *std::find_if(m_storages.begin(), m_storages.end(), [&](const auto& s) { return s.key == key; });
        const char* typed = typedStorageName(t.dtype);
        m_p.global("torch._utils", typed ? "_rebuild_tensor_v2" : "_rebuild_tensor_v3");
        m_p.mark();
        // persistent id: ("storage", <class>, key, location, count)
        m_p.mark();
        m_p.string("storage");
        m_p.global("torch", typed ? typed : "UntypedStorage");
        m_p.string(key);
        m_p.string(t.device.empty() ? "cpu" : t.device);
        m_p.integer(typed ? static_cast<int64_t>(rec.size / static_cast<uint64_t>(es)) : static_cast<int64_t>(rec.size));
        m_p.tuple();
        m_p.persistentId();
        m_p.integer(t.storageOffset);
        m_p.mark();
        for (auto s : t.sizes) m_p.integer(s);
        m_p.tuple();
        m_p.mark();
        for (auto s : t.strides) m_p.integer(s);
        m_p.tuple();
        m_p.boolean(t.requiresGrad);
        m_p.global("collections", "OrderedDict");
        m_p.tuple(0);
        m_p.reduce();
        if (!typed) {
            std::string name = dtypeName(t.dtype);
            m_p.global("torch", name.rfind("torch.", 0) == 0 ? name.substr(6) : name);
        }
        m_p.tuple();
        m_p.reduce();
        return Status::ok();
    }

    PickleWriter m_p;
    std::vector<StorageRecord> m_storages;
};

} // namespace

Result<std::string> torchSaveSampleInputs(const std::vector<Value>& args, const std::map<std::string, Value>& kwargs,
                                          const std::string& root) {
    SampleWriter w;
    auto& p = w.pickle();
    p.mark();
    for (size_t k = 0; k < args.size(); ++k) IRLENS_TRY(w.value(args[k], "sample input " + std::to_string(k)));
    p.tuple();
    p.emptyDict();
    if (!kwargs.empty()) {
        p.mark();
        for (const auto& [name, v] : kwargs) {
            p.string(name);
            IRLENS_TRY(w.value(v, "sample input '" + name + "'"));
        }
        p.setitems();
    }
    p.tuple(2);
    std::string pickle = p.finish();

    auto zip = ZipWriter::toMemory({});
    IRLENS_TRY(zip->add(root + "/data.pkl", pickle));
    IRLENS_TRY(zip->add(root + "/byteorder", std::string_view(std::endian::native == std::endian::big ? "big" : "little")));
    for (const auto& s : w.storages()) IRLENS_TRY(zip->add(root + "/data/" + s.key, s.data, s.size));
    IRLENS_TRY(zip->add(root + "/version", std::string_view("3\n")));
    IRLENS_TRY(zip->finish());
    return std::move(zip->buffer());
}

} // namespace irlens::core
