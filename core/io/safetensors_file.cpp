// The safetensors format (huggingface/safetensors, "Format"): an 8-byte little-endian header length N,
// N bytes of JSON {"__metadata__": {str: str}, NAME: {"dtype", "shape", "data_offsets": [begin, end]}}
// (trailing spaces allowed), then the tensors' raw little-endian C-contiguous bytes, offsets counted
// from the end of the header, packed without gaps.
#include "core/io/tensor_file.h"
#include "core/io/tensor_file_detail.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace irlens::core {
namespace {

using tensor_file_detail::byteSize;
using tensor_file_detail::contiguousStrides;
using tensor_file_detail::viewOrCopy;

// The safetensors library refuses headers over 100 MB; so does this reader.
constexpr uint64_t kMaxHeaderBytes = 100'000'000;

struct Code {
    const char* code;
    ScalarType type;
};

constexpr Code kCodes[] = {
    {"F64", ScalarType::Float64}, {"F32", ScalarType::Float32}, {"F16", ScalarType::Float16}, {"BF16", ScalarType::BFloat16},
    {"I64", ScalarType::Int64},   {"I32", ScalarType::Int32},   {"I16", ScalarType::Int16},   {"I8", ScalarType::Int8},
    {"U64", ScalarType::UInt64},  {"U32", ScalarType::UInt32},  {"U16", ScalarType::UInt16},  {"U8", ScalarType::UInt8},
    {"BOOL", ScalarType::Bool},   {"F8_E4M3", ScalarType::Float8_e4m3fn}, {"F8_E5M2", ScalarType::Float8_e5m2},
};

Result<TensorFileEntry> readEntry(const std::shared_ptr<const Storage>& bytes, uint64_t dataStart, const std::string& name,
                                  const nlohmann::json& e, const std::string& where) {
    const std::string at = where + ": tensor '" + name + "'";
    if (!e.is_object() || !e.contains("dtype") || !e["dtype"].is_string() || !e.contains("shape") || !e["shape"].is_array() ||
        !e.contains("data_offsets") || !e["data_offsets"].is_array() || e["data_offsets"].size() != 2)
        return Status::error(at + ": needs dtype, shape and data_offsets");
    const std::string code = e["dtype"].get<std::string>();
    const auto known = std::find_if(std::begin(kCodes), std::end(kCodes), [&](const Code& c) { return code == c.code; });
    if (known == std::end(kCodes)) return Status::error(at + ": unsupported dtype '" + code + "'");
    std::vector<int64_t> shape;
    for (const auto& d : e["shape"]) {
        if (!d.is_number_unsigned()) return Status::error(at + ": shape entry is not a size");
        shape.push_back(d.get<int64_t>());
    }
    const auto& off = e["data_offsets"];
    if (!off[0].is_number_unsigned() || !off[1].is_number_unsigned()) return Status::error(at + ": data_offsets are not offsets");
    const uint64_t begin = off[0].get<uint64_t>(), end = off[1].get<uint64_t>();
    const int64_t need = byteSize(shape, known->type);
    if (need < 0 || end < begin || end - begin != uint64_t(need))
        return Status::error(at + ": data_offsets [" + std::to_string(begin) + ", " + std::to_string(end) + "] do not hold " + code +
                             " of " + std::to_string(shape.size()) + "-d shape (" + std::to_string(need) + " bytes)");
    if (end > bytes->size - dataStart)
        return Status::error(at + ": data_offsets end at " + std::to_string(end) + ", past the file's " +
                             std::to_string(bytes->size - dataStart) + " bytes of data (truncated?)");
    TensorFileEntry entry;
    entry.name = name;
    entry.value.kind = Value::Kind::Tensor;
    std::vector<int64_t> strides = contiguousStrides(shape);
    entry.value.tensor = viewOrCopy(bytes, dataStart + begin, known->type, std::move(shape), std::move(strides));
    return entry;
}

uint64_t readLe64(const std::byte* p) {
    uint64_t v = 0;
    for (int k = 8; k-- > 0;) v = v << 8 | uint8_t(p[k]);
    return v;
}

void putLe64(std::byte* p, uint64_t v) {
    for (int k = 0; k < 8; ++k) p[k] = std::byte(uint8_t(v >> (8 * k)));
}

Status pwriteAll(int fd, const void* data, size_t size, uint64_t offset) {
    const auto* p = static_cast<const char*>(data);
    while (size > 0) {
        const ssize_t n = ::pwrite(fd, p, size, off_t(offset));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return Status::error(std::strerror(n < 0 ? errno : EIO));
        p += n;
        size -= size_t(n);
        offset += uint64_t(n);
    }
    return Status::ok();
}

// JSON text of a value; bytes that are not UTF-8 (a file name) become U+FFFD instead of an exception.
std::string jsonText(const nlohmann::json& j) { return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }
std::string jsonString(const std::string& s) { return jsonText(s); }

// Brackets nested deeper than this in a header are refused before parsing (a real header nests 3 deep).
constexpr int kMaxHeaderNesting = 64;

bool nestsTooDeep(const char* text, size_t size) {
    int depth = 0;
    bool inString = false;
    for (size_t k = 0; k < size; ++k) {
        const char c = text[k];
        if (inString) {
            if (c == '\\') ++k;
            else if (c == '"') inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            if (++depth > kMaxHeaderNesting) return true;
        } else if (c == '}' || c == ']') {
            --depth;
        }
    }
    return false;
}

// The widest a shape of `rank` sizes and two offsets can print: 20 digits each and separators.
constexpr size_t kMaxNumber = 20;
size_t widestEntry(const std::string& name, size_t rank) {
    return jsonString(name).size() + std::strlen(R"(:{"dtype":"F8_E4M3","shape":[],"data_offsets":[,]},)") + rank * (kMaxNumber + 1) +
           2 * kMaxNumber;
}

} // namespace

std::string safetensorsDtype(ScalarType dtype) {
    for (const auto& c : kCodes)
        if (c.type == dtype) return c.code;
    return {};
}

Result<TensorFile> tensor_file_detail::parseSafetensors(std::shared_ptr<const Storage> bytes, const std::string& where) {
    const uint64_t size = bytes ? bytes->size : 0;
    if (size < 8) return Status::error(where + ": not a safetensors file (shorter than its 8-byte header length)");
    const uint64_t headerLen = readLe64(bytes->data);
    if (headerLen > kMaxHeaderBytes || headerLen > size - 8)
        return Status::error(where + ": not a safetensors file (header length " + std::to_string(headerLen) + " does not fit its " +
                             std::to_string(size) + " bytes)");
    const auto* text = reinterpret_cast<const char*>(bytes->data + 8);
    if (nestsTooDeep(text, headerLen))
        return Status::error(where + ": safetensors header nests deeper than " + std::to_string(kMaxHeaderNesting) + " levels");
    nlohmann::json header = nlohmann::json::parse(text, text + headerLen, nullptr, false);
    if (header.is_discarded() || !header.is_object()) return Status::error(where + ": safetensors header is not a JSON object");
    TensorFile file;
    file.path = where;
    file.format = TensorFileFormat::Safetensors;
    file.named = true;
    std::vector<std::pair<uint64_t, TensorFileEntry>> byOffset;
    for (auto it = header.begin(); it != header.end(); ++it) {
        if (it.key() == "__metadata__") {
            if (!it->is_object()) return Status::error(where + ": __metadata__ is not an object");
            for (auto m = it->begin(); m != it->end(); ++m)
                file.metadata[m.key()] = m->is_string() ? m->get<std::string>() : jsonText(*m);
            continue;
        }
        IRLENS_ASSIGN_OR_RETURN(entry, readEntry(bytes, 8 + headerLen, it.key(), *it, where));
        byOffset.emplace_back((*it)["data_offsets"][0].get<uint64_t>(), std::move(entry));
    }
    std::stable_sort(byOffset.begin(), byOffset.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& [offset, entry] : byOffset) file.entries.push_back(std::move(entry));
    return file;
}

Status writeSafetensors(const std::string& path, const std::vector<std::pair<std::string, TensorData>>& tensors,
                        const std::map<std::string, std::string>& metadata) {
    std::vector<SafetensorsWriter::Planned> planned;
    for (const auto& [name, t] : tensors) planned.push_back({name, t.sizes.size()});
    IRLENS_ASSIGN_OR_RETURN(writer, SafetensorsWriter::create(path, planned, metadata));
    for (const auto& [name, t] : tensors) IRLENS_TRY(writer->add(name, t));
    return writer->finish();
}

// ---------------------------------------------------------------- SafetensorsWriter

Result<std::unique_ptr<SafetensorsWriter>> SafetensorsWriter::create(const std::string& path, const std::vector<Planned>& planned,
                                                                     const std::map<std::string, std::string>& metadata) {
    std::unique_ptr<SafetensorsWriter> w(new SafetensorsWriter);
    w->m_path = path;
    w->m_tempPath = path + ".part";
    w->m_metadata = metadata;
    size_t reserve = 2; // the braces
    if (!metadata.empty()) reserve += jsonText(nlohmann::json{{"__metadata__", metadata}}).size();
    for (const auto& p : planned) {
        if (p.name == "__metadata__") return Status::error(path + ": a tensor cannot be named __metadata__");
        if (!w->m_rankOf.emplace(p.name, p.rank).second) return Status::error(path + ": tensor '" + p.name + "' planned twice");
        reserve += widestEntry(p.name, p.rank);
    }
    // 8 bytes of length, then the header padded so that the data starts 8-byte aligned
    w->m_reserved = (8 + reserve + 7) / 8 * 8;
    w->m_fd = ::open(w->m_tempPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (w->m_fd < 0) return Status::error("cannot write '" + w->m_tempPath + "': " + std::strerror(errno));
    return w;
}

SafetensorsWriter::~SafetensorsWriter() {
    if (m_fd >= 0) ::close(m_fd);
    if (!m_finished && !m_tempPath.empty()) std::remove(m_tempPath.c_str());
}

Status SafetensorsWriter::fail(const std::string& what) {
    if (m_fd >= 0) ::close(m_fd);
    m_fd = -1;
    std::remove(m_tempPath.c_str());
    return Status::error("writing '" + m_path + "': " + what);
}

Status SafetensorsWriter::add(const std::string& name, ScalarType dtype, const std::vector<int64_t>& shape, const void* data,
                              size_t bytes) {
    if (m_fd < 0 || m_finished) return Status::error("writing '" + m_path + "': the file is closed");
    const auto planned = m_rankOf.find(name);
    if (planned == m_rankOf.end()) return Status::error("writing '" + m_path + "': tensor '" + name + "' was not planned");
    if (shape.size() > planned->second)
        return Status::error("writing '" + m_path + "': tensor '" + name + "' has rank " + std::to_string(shape.size()) + ", planned at most " +
                             std::to_string(planned->second));
    const std::string code = safetensorsDtype(dtype);
    if (code.empty()) return Status::error("writing '" + m_path + "': safetensors has no dtype for " + dtypeName(dtype) + " ('" + name + "')");
    if (int64_t(bytes) != byteSize(shape, dtype)) return Status::error("writing '" + m_path + "': tensor '" + name + "' size mismatch");
    if (Status s = pwriteAll(m_fd, data, bytes, m_reserved + m_dataBytes); !s) return fail(s.message());
    m_entries.push_back({name, code, shape, m_dataBytes, m_dataBytes + bytes});
    m_dataBytes += bytes;
    m_rankOf.erase(planned); // each name once
    return Status::ok();
}

Status SafetensorsWriter::add(const std::string& name, const TensorData& tensor) {
    if (tensor.isContiguous() && tensor.fitsStorage())
        return add(name, tensor.dtype, tensor.sizes, tensor.dataPtr(), size_t(tensor.numel() * elementSize(tensor.dtype)));
    const std::vector<std::byte> bytes = tensor.contiguousBytes();
    return add(name, tensor.dtype, tensor.sizes, bytes.data(), bytes.size());
}

Status SafetensorsWriter::finish() {
    if (m_fd < 0 || m_finished) return Status::error("writing '" + m_path + "': the file is closed");
    std::string header = "{";
    if (!m_metadata.empty()) header += "\"__metadata__\":" + jsonText(m_metadata) + ",";
    for (const auto& e : m_entries) {
        header += jsonString(e.name) + ":{\"dtype\":\"" + e.dtype + "\",\"shape\":[";
        for (size_t k = 0; k < e.shape.size(); ++k) header += (k ? "," : "") + std::to_string(e.shape[k]);
        header += "],\"data_offsets\":[" + std::to_string(e.begin) + "," + std::to_string(e.end) + "]},";
    }
    if (header.back() == ',') header.pop_back();
    header += "}";
    if (header.size() > m_reserved - 8) return fail("header outgrew its reserved room"); // cannot happen: reserve is the widest
    header.append(m_reserved - 8 - header.size(), ' ');
    std::byte length[8];
    putLe64(length, header.size());
    if (Status s = pwriteAll(m_fd, length, 8, 0); !s) return fail(s.message());
    if (Status s = pwriteAll(m_fd, header.data(), header.size(), 8); !s) return fail(s.message());
    if (::close(m_fd) != 0) {
        m_fd = -1;
        return fail(std::strerror(errno));
    }
    m_fd = -1;
    if (std::rename(m_tempPath.c_str(), m_path.c_str()) != 0) return fail(std::string("cannot rename into place: ") + std::strerror(errno));
    m_finished = true;
    return Status::ok();
}

} // namespace irlens::core
