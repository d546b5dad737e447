#pragma once
// A tiny ZIP writer for tests: builds well-formed and deliberately malformed archives in memory, so
// hostile inputs are made in code rather than committed as unexplained blobs. Supports what the
// reader must cope with: STORED and DEFLATE, data descriptors with zero local sizes (flags 0x0808),
// zero DOS dates, 64-byte data alignment via an extra field, ZIP64 records; and lies on purpose
// (declared sizes, names, CRCs).

#include "core/ir/program.h"

#include <zlib.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace irlens::testing {

/// An archive built in memory as the Storage ZipArchive::openStorage takes.
inline std::shared_ptr<const irlens::core::Storage> archiveStorage(const std::string& s) {
    return irlens::core::Storage::fromBytes(std::vector<std::byte>(reinterpret_cast<const std::byte*>(s.data()),
                                                                   reinterpret_cast<const std::byte*>(s.data()) + s.size()));
}

struct ZipItem {
    ZipItem(std::string n, std::string d, bool deflate_ = false, bool descriptor_ = false, bool zip64_ = false,
            unsigned align_ = 0, std::optional<uint64_t> declared = {}, std::optional<uint32_t> crc_ = {})
        : name(std::move(n)), data(std::move(d)), deflate(deflate_), descriptor(descriptor_), zip64(zip64_), align(align_),
          declaredSize(declared), crc(crc_) {}
    std::string name;
    std::string data;
    bool deflate = false;
    bool descriptor = false;              // PyTorchFileWriter style: flags 0x0808, zero CRC/sizes locally
    bool zip64 = false;                   // sizes and offset in a ZIP64 extra field
    unsigned align = 0;                   // pad the local extra field so data starts on this boundary
    std::optional<uint64_t> declaredSize; // lie about the uncompressed size (central directory)
    std::optional<uint32_t> crc;          // lie about the CRC
};

inline std::string deflateRaw(const std::string& in) {
    z_stream z{};
    deflateInit2(&z, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY);
    std::string out(deflateBound(&z, in.size()) + 64, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z.avail_in = static_cast<uInt>(in.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    deflate(&z, Z_FINISH);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

class ZipBuilder {
public:
    ZipBuilder& add(ZipItem item) { m_items.push_back(std::move(item)); return *this; }
    ZipBuilder& add(std::string name, std::string data) { return add(ZipItem{std::move(name), std::move(data)}); }

    /// The archive bytes. `zip64End` also writes the ZIP64 end record and locator.
    std::string build(bool zip64End = false) const {
        std::string out, cd;
        for (const auto& it : m_items) {
            const std::string payload = it.deflate ? deflateRaw(it.data) : it.data;
            const uint32_t crc = it.crc ? *it.crc : uint32_t(crc32(0, reinterpret_cast<const Bytef*>(it.data.data()), uInt(it.data.size())));
            const uint64_t usize = it.declaredSize ? *it.declaredSize : it.data.size();
            const uint64_t csize = payload.size();
            const uint64_t offset = out.size();
            const uint16_t flags = it.descriptor ? 0x0808 : 0;
            const uint16_t method = it.deflate ? 8 : 0;

            std::string localExtra;
            if (it.zip64) { put16(localExtra, 1); put16(localExtra, 16); put64(localExtra, it.descriptor ? 0 : usize); put64(localExtra, it.descriptor ? 0 : csize); }
            if (it.align) {
                size_t base = offset + 30 + it.name.size() + localExtra.size() + 4;
                size_t pad = (it.align - base % it.align) % it.align;
                put16(localExtra, 0x4246); // "FB", as PyTorchFileWriter
                put16(localExtra, uint16_t(pad));
                localExtra.append(pad, 'Z');
            }
            put32(out, 0x04034b50);
            put16(out, it.zip64 ? 45 : 20);
            put16(out, flags);
            put16(out, method);
            put16(out, 0); put16(out, 0); // DOS time and date: zero, as PyTorchFileWriter
            put32(out, it.descriptor ? 0 : crc);
            put32(out, it.descriptor ? 0 : (it.zip64 ? 0xFFFFFFFF : uint32_t(csize)));
            put32(out, it.descriptor ? 0 : (it.zip64 ? 0xFFFFFFFF : uint32_t(usize)));
            put16(out, uint16_t(it.name.size()));
            put16(out, uint16_t(localExtra.size()));
            out += it.name;
            out += localExtra;
            out += payload;
            if (it.descriptor) {
                put32(out, 0x08074b50);
                put32(out, crc);
                if (it.zip64) { put64(out, csize); put64(out, usize); }
                else { put32(out, uint32_t(csize)); put32(out, uint32_t(usize)); }
            }

            std::string cdExtra;
            if (it.zip64) { put16(cdExtra, 1); put16(cdExtra, 24); put64(cdExtra, usize); put64(cdExtra, csize); put64(cdExtra, offset); }
            put32(cd, 0x02014b50);
            put16(cd, it.zip64 ? 45 : 20);
            put16(cd, it.zip64 ? 45 : 20);
            put16(cd, flags);
            put16(cd, method);
            put16(cd, 0); put16(cd, 0);
            put32(cd, crc);
            put32(cd, it.zip64 ? 0xFFFFFFFF : uint32_t(csize));
            put32(cd, it.zip64 ? 0xFFFFFFFF : uint32_t(usize));
            put16(cd, uint16_t(it.name.size()));
            put16(cd, uint16_t(cdExtra.size()));
            put16(cd, 0); put16(cd, 0); put16(cd, 0); put32(cd, 0);
            put32(cd, it.zip64 ? 0xFFFFFFFF : uint32_t(offset));
            cd += it.name;
            cd += cdExtra;
        }
        const uint64_t cdOffset = out.size();
        out += cd;
        if (zip64End) {
            const uint64_t z64 = out.size();
            put32(out, 0x06064b50); put64(out, 44); put16(out, 45); put16(out, 45); put32(out, 0); put32(out, 0);
            put64(out, m_items.size()); put64(out, m_items.size()); put64(out, cd.size()); put64(out, cdOffset);
            put32(out, 0x07064b50); put32(out, 0); put64(out, z64); put32(out, 1);
        }
        put32(out, 0x06054b50);
        put16(out, 0); put16(out, 0);
        put16(out, zip64End ? 0xFFFF : uint16_t(m_items.size()));
        put16(out, zip64End ? 0xFFFF : uint16_t(m_items.size()));
        put32(out, zip64End ? 0xFFFFFFFF : uint32_t(cd.size()));
        put32(out, zip64End ? 0xFFFFFFFF : uint32_t(cdOffset));
        put16(out, 0);
        return out;
    }

private:
    static void put16(std::string& s, uint16_t v) { s.push_back(char(v & 0xFF)); s.push_back(char(v >> 8)); }
    static void put32(std::string& s, uint32_t v) { put16(s, uint16_t(v)); put16(s, uint16_t(v >> 16)); }
    static void put64(std::string& s, uint64_t v) { put32(s, uint32_t(v)); put32(s, uint32_t(v >> 32)); }
    std::vector<ZipItem> m_items;
};

} // namespace irlens::testing
