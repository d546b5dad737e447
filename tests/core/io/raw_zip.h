#pragma once
// A ZIP builder for hostile archives. Unlike core/io/zip_writer.h it writes whatever it is told:
// unsafe or duplicate names, DEFLATE records whose headers lie about their sizes, ZIP64 extra fields
// with impossible values, a record count in the end record that is not the real one.

#include <zlib.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace irlens::testing {

struct RawZipEntry {
    std::string name;
    std::string data;                       // the uncompressed bytes
    bool deflate = false;                   // compress with raw DEFLATE (method 8)
    std::optional<uint64_t> declaredSize;   // lie about the uncompressed size
    std::optional<uint64_t> zip64Size;      // write a ZIP64 extra field with this uncompressed size
    std::optional<std::string> deflated = std::nullopt; // the DEFLATE payload as is (data unused): a bomb too big to hold
    std::optional<uint32_t> crc = std::nullopt;         // the CRC to write (default: data's)
};

struct RawZipOptions {
    std::optional<uint16_t> declaredCount;  // lie about the number of records in the end record
    std::optional<uint64_t> zip64Count;     // write a ZIP64 end record (and locator) with this record count
};

inline void putLe(std::string& out, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(i < 8 ? char((v >> (8 * i)) & 0xFF) : char(0));
}

inline std::string rawDeflate(const std::string& in) {
    z_stream z{};
    deflateInit2(&z, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY);
    std::string out(deflateBound(&z, in.size()) + 16, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z.avail_in = uInt(in.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = uInt(out.size());
    deflate(&z, Z_FINISH);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

/// A DEFLATE record of `mib` MiB of zeros, made without holding them: each MiB is compressed after a
/// full flush (which resets the compressor), so every MiB after the first compresses to the same bytes.
inline RawZipEntry zerosBomb(const std::string& name, uint64_t mib) {
    const std::string zeros(size_t(1) << 20, '\0');
    z_stream z{};
    deflateInit2(&z, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY);
    auto chunk = [&](int flush, uInt inBytes) {
        std::string out(deflateBound(&z, zeros.size()) + 64, '\0');
        z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(zeros.data()));
        z.avail_in = inBytes;
        z.next_out = reinterpret_cast<Bytef*>(out.data());
        z.avail_out = uInt(out.size());
        deflate(&z, flush);
        out.resize(out.size() - z.avail_out);
        return out;
    };
    const std::string first = chunk(Z_FULL_FLUSH, uInt(zeros.size()));
    const std::string next = chunk(Z_FULL_FLUSH, uInt(zeros.size()));
    const std::string last = chunk(Z_FINISH, 0);
    deflateEnd(&z);
    std::string payload = first;
    for (uint64_t k = 1; k < mib; ++k) payload += next;
    payload += last;
    // CRC of the zeros by doubling: crc(A || A) = crc32_combine(crc(A), crc(A), |A|).
    uLong crc = crc32(0, reinterpret_cast<const Bytef*>(zeros.data()), uInt(zeros.size()));
    uLong total = crc32(0, nullptr, 0);
    for (uint64_t bit = 0, len = zeros.size(); (mib >> bit) != 0; ++bit, crc = crc32_combine(crc, crc, z_off_t(len)), len *= 2)
        if ((mib >> bit) & 1) total = crc32_combine(total, crc, z_off_t(len));
    RawZipEntry e{name, {}, false, mib << 20, {}};
    e.deflated = std::move(payload);
    e.crc = uint32_t(total);
    return e;
}

inline std::string buildRawZip(const std::vector<RawZipEntry>& entries, const RawZipOptions& options = {}) {
    std::string out, central;
    for (const RawZipEntry& e : entries) {
        const std::string payload = e.deflated ? *e.deflated : e.deflate ? rawDeflate(e.data) : e.data;
        const uint32_t crc = e.crc ? *e.crc : uint32_t(crc32(0, reinterpret_cast<const Bytef*>(e.data.data()), uInt(e.data.size())));
        const uint64_t size = e.declaredSize.value_or(e.data.size());
        std::string extra;
        if (e.zip64Size) {
            putLe(extra, 0x0001, 2);
            putLe(extra, 16, 2);
            putLe(extra, *e.zip64Size, 8);
            putLe(extra, payload.size(), 8);
        }
        auto header = [&](bool local) {
            std::string h;
            putLe(h, local ? 0x04034b50 : 0x02014b50, 4);
            if (!local) putLe(h, 45, 2);                 // made by
            putLe(h, 45, 2);                             // needed
            putLe(h, 0x0800, 2);                         // UTF-8 names
            putLe(h, e.deflate || e.deflated ? 8 : 0, 2);
            putLe(h, 0, 4);                              // time, date
            putLe(h, crc, 4);
            putLe(h, e.zip64Size ? 0xFFFFFFFFu : payload.size(), 4);
            putLe(h, e.zip64Size ? 0xFFFFFFFFu : size, 4);
            putLe(h, e.name.size(), 2);
            putLe(h, extra.size(), 2);
            if (!local) {
                putLe(h, 0, 2 + 2 + 2 + 4);              // comment, disk, internal, external attributes
                putLe(h, out.size(), 4);                 // local header offset
            }
            return h + e.name + extra;
        };
        central += header(false);
        out += header(true) + payload;
    }
    const uint64_t cdOffset = out.size();
    out += central;
    if (options.zip64Count) {
        const uint64_t z64 = out.size();
        putLe(out, 0x06064b50, 4);
        putLe(out, 44, 8);                  // size of the rest of this record
        putLe(out, 45, 2);
        putLe(out, 45, 2);
        putLe(out, 0, 8);                   // disk numbers
        putLe(out, *options.zip64Count, 8);
        putLe(out, *options.zip64Count, 8);
        putLe(out, central.size(), 8);
        putLe(out, cdOffset, 8);
        putLe(out, 0x07064b50, 4);          // locator
        putLe(out, 0, 4);
        putLe(out, z64, 8);
        putLe(out, 1, 4);
    }
    const uint16_t count = options.zip64Count ? 0xFFFF : options.declaredCount.value_or(uint16_t(entries.size()));
    putLe(out, 0x06054b50, 4);
    putLe(out, 0, 4);
    putLe(out, count, 2);
    putLe(out, count, 2);
    putLe(out, central.size(), 4);
    putLe(out, cdOffset, 4);
    putLe(out, 0, 2);
    return out;
}

} // namespace irlens::testing
