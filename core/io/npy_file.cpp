// NumPy's .npy format (numpy/lib/format.py): the magic "\x93NUMPY", a version, a little-endian header
// length (2 bytes in version 1, 4 in versions 2 and 3), a Python dict literal with 'descr',
// 'fortran_order' and 'shape', then the raw array. Only plain numeric and bool dtypes are read; a
// big-endian array is swapped into a native copy; a Fortran-ordered one keeps its bytes and gets
// column-major strides.
#include "core/io/tensor_file.h"
#include "core/io/tensor_file_detail.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>

namespace irlens::core {
namespace {

using tensor_file_detail::byteSize;
using tensor_file_detail::contiguousStrides;
using tensor_file_detail::viewOrCopy;

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMaxHeader = size_t(1) << 20; // numpy itself refuses headers over 10 kB unless told otherwise

struct NpyHeader {
    std::string descr;
    bool fortran = false;
    std::vector<int64_t> shape;
};

struct DescrType {
    char kind;
    int size;
    ScalarType type;
};

constexpr DescrType kDescr[] = {
    {'f', 2, ScalarType::Float16}, {'f', 4, ScalarType::Float32}, {'f', 8, ScalarType::Float64},
    {'i', 1, ScalarType::Int8},    {'i', 2, ScalarType::Int16},   {'i', 4, ScalarType::Int32},   {'i', 8, ScalarType::Int64},
    {'u', 1, ScalarType::UInt8},   {'u', 2, ScalarType::UInt16},  {'u', 4, ScalarType::UInt32},  {'u', 8, ScalarType::UInt64},
    {'b', 1, ScalarType::Bool},    {'c', 8, ScalarType::Complex64}, {'c', 16, ScalarType::Complex128},
};

// A tiny reader of the header's dict literal: {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
class DictReader {
public:
    explicit DictReader(const std::string& text) : m_s(text) {}
    void skipSpace() {
        while (m_p < m_s.size() && std::isspace(static_cast<unsigned char>(m_s[m_p]))) ++m_p;
    }
    bool eat(char c) {
        skipSpace();
        if (m_p < m_s.size() && m_s[m_p] == c) { ++m_p; return true; }
        return false;
    }
    bool peek(char c) {
        skipSpace();
        return m_p < m_s.size() && m_s[m_p] == c;
    }
    bool string(std::string& out) {
        skipSpace();
        if (m_p >= m_s.size() || (m_s[m_p] != '\'' && m_s[m_p] != '"')) return false;
        const char q = m_s[m_p++];
        const size_t end = m_s.find(q, m_p);
        if (end == std::string::npos) return false;
        out = m_s.substr(m_p, end - m_p);
        m_p = end + 1;
        return true;
    }
    bool word(std::string& out) {
        skipSpace();
        const size_t start = m_p;
        while (m_p < m_s.size() && (std::isalnum(static_cast<unsigned char>(m_s[m_p])) || m_s[m_p] == '_')) ++m_p;
        out = m_s.substr(start, m_p - start);
        return !out.empty();
    }
    bool integer(int64_t& out) {
        std::string w;
        if (!word(w)) return false;
        if (w.back() == 'L') w.pop_back(); // written by Python 2
        if (w.empty() || w.size() > 18 || !std::all_of(w.begin(), w.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
            return false;
        out = std::stoll(w);
        return true;
    }

private:
    const std::string& m_s;
    size_t m_p = 0;
};

Result<NpyHeader> parseHeader(const std::string& text, const std::string& where) {
    auto bad = [&](const std::string& what) { return Status::error(where + ": header " + what + " (got " + text + ")"); };
    NpyHeader h;
    DictReader r(text);
    if (!r.eat('{')) return bad("is not a dict");
    bool haveDescr = false, haveShape = false;
    while (!r.eat('}')) {
        std::string key;
        if (!r.string(key) || !r.eat(':')) return bad("is malformed");
        if (key == "descr") {
            if (!r.string(h.descr)) return bad("has a 'descr' that is not a plain type (structured arrays are not tensors)");
            haveDescr = true;
        } else if (key == "fortran_order") {
            std::string w;
            if (!r.word(w) || (w != "True" && w != "False")) return bad("has a 'fortran_order' that is not True or False");
            h.fortran = w == "True";
        } else if (key == "shape") {
            if (!r.eat('(')) return bad("has a 'shape' that is not a tuple");
            while (!r.eat(')')) {
                int64_t d = 0;
                if (!r.integer(d)) return bad("has a 'shape' entry that is not a size");
                h.shape.push_back(d);
                if (!r.eat(',') && !r.peek(')')) return bad("has a malformed 'shape'");
            }
            haveShape = true;
        } else {
            return bad("has an unknown key '" + key + "'");
        }
        if (!r.eat(',') && !r.peek('}')) return bad("is malformed");
    }
    if (!haveDescr || !haveShape) return bad("lacks 'descr' or 'shape'");
    return h;
}

// '<f4' -> Float32 (and whether the bytes are big-endian).
Result<ScalarType> dtypeOfDescr(const std::string& descr, bool& bigEndian, const std::string& where) {
    if (descr.size() < 3) return Status::error(where + ": unsupported dtype '" + descr + "'");
    const char order = descr[0];
    if (order != '<' && order != '>' && order != '|' && order != '=')
        return Status::error(where + ": unsupported dtype '" + descr + "'");
    bigEndian = order == '>';
    const char kind = descr[1];
    int size = 0;
    try {
        size = std::stoi(descr.substr(2));
    } catch (...) {
        return Status::error(where + ": unsupported dtype '" + descr + "'");
    }
    for (const auto& d : kDescr)
        if (d.kind == kind && d.size == size) return d.type;
    return Status::error(where + ": unsupported dtype '" + descr + "' (float, int, uint, bool and complex arrays are read)");
}

std::string descrOf(ScalarType t) {
    for (const auto& d : kDescr)
        if (d.type == t) return std::string(d.size == 1 ? "|" : "<") + d.kind + std::to_string(d.size);
    return {};
}

uint32_t readLe(const std::byte* p, int bytes) {
    uint32_t v = 0;
    for (int k = bytes; k-- > 0;) v = v << 8 | uint8_t(p[k]);
    return v;
}

} // namespace

Result<TensorData> parseNpy(std::shared_ptr<const Storage> bytes, const std::string& where) {
    const size_t size = bytes ? bytes->size : 0;
    const std::byte* p = bytes ? bytes->data : nullptr;
    if (size < 10 || std::memcmp(p, kMagic, 6) != 0) return Status::error(where + ": not a .npy file (no \\x93NUMPY magic)");
    const int major = int(uint8_t(p[6]));
    if (major < 1 || major > 3) return Status::error(where + ": unsupported .npy version " + std::to_string(major));
    const int lenBytes = major == 1 ? 2 : 4;
    const uint64_t headerLen = readLe(p + 8, lenBytes);
    const uint64_t dataStart = 8 + uint64_t(lenBytes) + headerLen;
    if (headerLen > kMaxHeader || dataStart > size) return Status::error(where + ": truncated .npy header");
    const std::string text(reinterpret_cast<const char*>(p) + 8 + lenBytes, headerLen);
    IRLENS_ASSIGN_OR_RETURN(header, parseHeader(text, where));
    bool bigEndian = false;
    IRLENS_ASSIGN_OR_RETURN(dtype, dtypeOfDescr(header.descr, bigEndian, where));
    const int64_t need = byteSize(header.shape, dtype);
    if (need < 0) return Status::error(where + ": shape too large");
    if (uint64_t(need) > size - dataStart)
        return Status::error(where + ": holds " + std::to_string(size - dataStart) + " bytes of data, " + header.descr + " " +
                             std::to_string(header.shape.size()) + "-d shape needs " + std::to_string(need));
    std::vector<int64_t> strides = contiguousStrides(header.shape);
    if (header.fortran) {
        int64_t s = 1;
        for (size_t k = 0; k < header.shape.size(); ++k) {
            strides[k] = s;
            s *= std::max<int64_t>(header.shape[k], 1);
        }
    }
    if (!bigEndian) return viewOrCopy(std::move(bytes), dataStart, dtype, std::move(header.shape), std::move(strides));
    std::vector<std::byte> swapped(p + dataStart, p + dataStart + need);
    const size_t unit = isComplexType(dtype) ? size_t(elementSize(dtype)) / 2 : size_t(elementSize(dtype));
    for (size_t k = 0; unit > 1 && k + unit <= swapped.size(); k += unit) std::reverse(swapped.begin() + k, swapped.begin() + k + unit);
    return viewOrCopy(Storage::fromBytes(std::move(swapped)), 0, dtype, std::move(header.shape), std::move(strides));
}

Status writeNpy(const std::string& path, const TensorData& tensor) {
    const std::string descr = descrOf(tensor.dtype);
    if (descr.empty()) return Status::error(path + ": .npy has no dtype for " + dtypeName(tensor.dtype));
    std::string shape = "(";
    for (size_t k = 0; k < tensor.sizes.size(); ++k) shape += std::to_string(tensor.sizes[k]) + (tensor.sizes.size() == 1 ? "," : k + 1 < tensor.sizes.size() ? ", " : "");
    shape += ")";
    std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
    // magic (6) + version (2) + length (2) + header + '\n', padded to a multiple of 64 as numpy does
    const size_t total = (10 + header.size() + 1 + 63) / 64 * 64;
    header.append(total - 10 - header.size() - 1, ' ');
    header += '\n';
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) return Status::error("cannot write '" + path + "'");
    out.write(kMagic, 6);
    const char version[4] = {1, 0, char(header.size() & 0xff), char(header.size() >> 8)};
    out.write(version, 4);
    out.write(header.data(), std::streamsize(header.size()));
    const std::vector<std::byte> data = tensor.contiguousBytes();
    out.write(reinterpret_cast<const char*>(data.data()), std::streamsize(data.size()));
    out.close();
    return out ? Status::ok() : Status::error("cannot write '" + path + "'");
}

} // namespace irlens::core
