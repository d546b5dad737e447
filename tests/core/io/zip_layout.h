#pragma once
// Test helper: walks a ZIP's local headers on its own (independent of the writer and of libzip) to
// check what PyTorch's readers rely on: STORED records, data on 64-byte boundaries, sizes, CRCs.

#include <zlib.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace irlens::testing {

struct LocalRecord {
    std::string name;
    uint16_t method = 0;
    uint64_t dataOffset = 0;
    uint64_t size = 0;
    uint32_t crc = 0;
    bool crcOk = false;
};

inline uint64_t le(const std::string& b, size_t at, int n) {
    uint64_t v = 0;
    for (int k = n - 1; k >= 0; --k) v = (v << 8) | static_cast<unsigned char>(b[at + static_cast<size_t>(k)]);
    return v;
}

/// Local records in file order; stops at the central directory. Empty plus `error` when malformed.
inline std::vector<LocalRecord> localRecords(const std::string& bytes, std::string& error) {
    std::vector<LocalRecord> out;
    size_t pos = 0;
    while (pos + 30 <= bytes.size() && le(bytes, pos, 4) == 0x04034b50) {
        LocalRecord r;
        r.method = static_cast<uint16_t>(le(bytes, pos + 8, 2));
        r.crc = static_cast<uint32_t>(le(bytes, pos + 14, 4));
        r.size = le(bytes, pos + 22, 4);
        size_t n = le(bytes, pos + 26, 2), e = le(bytes, pos + 28, 2);
        if (pos + 30 + n + e > bytes.size()) { error = "truncated local header"; return {}; }
        r.name = bytes.substr(pos + 30, n);
        for (size_t x = pos + 30 + n; x + 4 <= pos + 30 + n + e;) {
            uint64_t id = le(bytes, x, 2), len = le(bytes, x + 2, 2);
            if (id == 0x0001 && len >= 8) r.size = le(bytes, x + 4, 8);
            x += 4 + len;
        }
        r.dataOffset = pos + 30 + n + e;
        if (r.dataOffset + r.size > bytes.size()) { error = "record data past the end: " + r.name; return {}; }
        uLong crc = crc32(0L, Z_NULL, 0);
        crc = crc32(crc, reinterpret_cast<const Bytef*>(bytes.data() + r.dataOffset), static_cast<uInt>(r.size));
        r.crcOk = static_cast<uint32_t>(crc) == r.crc;
        pos = r.dataOffset + r.size;
        out.push_back(std::move(r));
    }
    if (pos + 4 > bytes.size() || le(bytes, pos, 4) != 0x02014b50) error = "no central directory after the records";
    return out;
}

} // namespace irlens::testing
