#include "core/io/zip_archive.h"
#include "core/io/mapped_file.h"
#include "core/io/zip_format.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace irlens::core {

namespace {

using namespace zipfmt;

uint16_t rd16(const std::byte* p) { return uint16_t(uint8_t(p[0]) | uint8_t(p[1]) << 8); }
uint32_t rd32(const std::byte* p) { return uint32_t(rd16(p)) | uint32_t(rd16(p + 2)) << 16; }
uint64_t rd64(const std::byte* p) { return uint64_t(rd32(p)) | uint64_t(rd32(p + 4)) << 32; }

// Whether [offset, offset + length) lies inside a buffer of `size` bytes, without overflow.
bool inside(uint64_t offset, uint64_t length, uint64_t size) { return offset <= size && length <= size - offset; }

// zlib's crc32_z over a whole record.
uint32_t crcOf(const std::byte* data, size_t size) {
    return uint32_t(crc32_z(0L, reinterpret_cast<const Bytef*>(data), size));
}

// The ZIP64 extra field (id 0x0001) of a header: the 64-bit values, in order, of the fields whose
// fixed 32-bit slot is saturated (0xFFFFFFFF). Fields not saturated keep their value.
void applyZip64Extra(const std::byte* x, uint64_t extraLen, std::initializer_list<uint64_t*> fields) {
    for (uint64_t off = 0; off + 4 <= extraLen;) {
        const uint16_t id = rd16(x + off), len = rd16(x + off + 2);
        if (off + 4 + len > extraLen) break;
        if (id == 0x0001) {
            const std::byte* v = x + off + 4;
            uint64_t used = 0;
            for (uint64_t* f : fields)
                if (*f == 0xFFFFFFFF && used + 8 <= len) { *f = rd64(v + used); used += 8; }
            return;
        }
        off += 4 + len;
    }
}

} // namespace

namespace limits {
uint64_t maxInflatedRecordBytes() {
    // Read once: archives opened later in the same process see the same limit.
    static const uint64_t value = [] {
        const char* text = std::getenv(kMaxInflatedRecordEnv);
        char* end = nullptr;
        const unsigned long long mib = text ? std::strtoull(text, &end, 10) : 0;
        if (!text || end == text || *end != '\0' || mib == 0 || mib > (uint64_t(1) << 24)) return kMaxInflatedRecordBytes;
        return uint64_t(mib) << 20;
    }();
    return value;
}
} // namespace limits

std::string printableRecordName(std::string_view name) {
    std::string out;
    out.reserve(name.size());
    static const char* hex = "0123456789abcdef";
    for (size_t k = 0; k < name.size(); ++k) {
        const auto c = uint8_t(name[k]);
        // A UTF-8 sequence stays as it is when its continuation bytes are all there.
        size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
        bool whole = len > 1 && k + len <= name.size();
        for (size_t j = 1; whole && j < len; ++j) whole = (uint8_t(name[k + j]) >> 6) == 0x2;
        if (whole) {
            out.append(name.substr(k, len));
            k += len - 1;
        } else if (len == 1 && c >= 0x20 && c != 0x7f && c != '\\') {
            out.push_back(char(c));
        } else {
            out += "\\x";
            out.push_back(hex[c >> 4]);
            out.push_back(hex[c & 0xF]);
        }
    }
    return out;
}

bool isSafeRecordName(std::string_view name) {
    if (name.empty() || name.front() == '/' || name.find('\0') != std::string_view::npos) return false;
    if (name.size() >= 2 && name[1] == ':') return false; // "C:..." drive letters
    size_t start = 0;
    while (start <= name.size()) {
        size_t end = name.find('/', start);
        if (end == std::string_view::npos) end = name.size();
        if (name.substr(start, end - start) == "..") return false;
        start = end + 1;
    }
    return true;
}

ZipArchive::~ZipArchive() = default;

Status ZipArchive::recordError(std::string_view name, const std::string& what) const {
    return Status::error(m_displayName + ": record '" + printableRecordName(name) + "': " + what);
}

Result<std::shared_ptr<ZipArchive>> ZipArchive::openFile(const std::string& path, const ZipLimits& limits) {
    int fd = -1;
    IRLENS_ASSIGN_OR_RETURN(mapping, mapFile(path, &fd));
    if (mapping->size == 0) {
        ::close(fd);
        return Status::error(path + ": file is empty (0 bytes), not a ZIP archive");
    }
    // The descriptor stays open while the directory is parsed (local headers are read through it,
    // see checkLocalHeader); the mapping stays valid without it.
    const std::byte* data = mapping->data;
    const uint64_t size = mapping->size;
    auto archive = open(std::move(mapping), data, size, path, limits, fd);
    ::close(fd);
    return archive;
}

Result<std::shared_ptr<ZipArchive>> ZipArchive::openStorage(std::shared_ptr<const Storage> bytes, std::string displayName,
                                                            const ZipLimits& limits) {
    if (!bytes || bytes->size == 0) return Status::error(displayName + ": empty record, not a ZIP archive");
    const std::byte* data = bytes->data;
    uint64_t size = bytes->size;
    return open(std::move(bytes), data, size, std::move(displayName), limits);
}

Result<std::shared_ptr<ZipArchive>> ZipArchive::open(std::shared_ptr<const void> owner, const std::byte* data,
                                                     uint64_t size, std::string displayName, const ZipLimits& limits,
                                                     int fd) {
    std::shared_ptr<ZipArchive> a(new ZipArchive);
    a->m_owner = std::move(owner);
    a->m_data = data;
    a->m_size = size;
    a->m_displayName = std::move(displayName);
    a->m_limits = limits;
    if (!a->m_limits.inflatedUsed) a->m_limits.inflatedUsed = std::make_shared<std::atomic<uint64_t>>(0);
    IRLENS_TRY(a->parseCentralDirectory(fd));
    return a;
}

Result<ZipArchive::EndRecord> ZipArchive::readEndRecord() const {
    const std::string& file = m_displayName;
    if (m_size < kEndSize)
        return Status::error(file + ": not a ZIP archive (only " + std::to_string(m_size) + " bytes; truncated?)");

    // The end-of-central-directory record sits within the last 64 KiB + 22 bytes (its comment is at
    // most 65535 bytes). Scan backwards for a signature whose comment ends inside the file.
    uint64_t eocd = UINT64_MAX;
    uint64_t lowest = m_size > kEndSize + 0xFFFF ? m_size - kEndSize - 0xFFFF : 0;
    for (uint64_t pos = m_size - kEndSize + 1; pos-- > lowest;) {
        if (rd32(m_data + pos) == kEndSig && pos + kEndSize + rd16(m_data + pos + 20) <= m_size) {
            eocd = pos;
            break;
        }
    }
    if (eocd == UINT64_MAX)
        return Status::error(file + ": no end-of-central-directory record (truncated file, or not a ZIP archive)");

    const std::byte* e = m_data + eocd;
    EndRecord r;
    r.endRecordAt = eocd;
    r.count = rd16(e + 10);
    r.size = rd32(e + 12);
    r.offset = rd32(e + 16);
    if (rd16(e + 4) != 0 && rd16(e + 4) != 0xFFFF)
        return Status::error(file + ": multi-disk (split) ZIP archives are not supported");

    // ZIP64: a locator right before the classic record points to the 64-bit end record.
    if (eocd >= 20 && rd32(m_data + eocd - 20) == kZip64LocatorSig) {
        uint64_t z64 = rd64(m_data + eocd - 20 + 8);
        if (!inside(z64, 56, m_size) || rd32(m_data + z64) != kZip64EndSig)
            return Status::error(file + ": ZIP64 end record missing or damaged (truncated file?)");
        r.zip64 = true;
        r.count = rd64(m_data + z64 + 32);
        r.size = rd64(m_data + z64 + 40);
        r.offset = rd64(m_data + z64 + 48);
    } else if (r.count == 0xFFFF || r.size == 0xFFFFFFFF || r.offset == 0xFFFFFFFF) {
        return Status::error(file + ": ZIP64 sizes announced but no ZIP64 end record found (truncated file?)");
    }
    if (r.count > m_limits.maxRecords)
        return Status::error(file + ": " + std::to_string(r.count) + " records, more than the limit of " +
                             std::to_string(m_limits.maxRecords));
    if (!inside(r.offset, r.size, m_size))
        return Status::error(file + ": central directory lies outside the file (truncated or damaged archive)");
    // The end record (and the ZIP64 one) follow the directory; a directory running into them is damaged.
    if (r.offset + r.size > eocd)
        return Status::error(file + ": central directory overlaps the end-of-central-directory record (damaged archive)");
    return r;
}

Result<ZipEntry> ZipArchive::readCentralEntry(uint64_t& p, uint64_t cdEnd, uint64_t i, uint64_t count) const {
    const std::string& file = m_displayName;
    if (!inside(p, kCentralSize, cdEnd) || rd32(m_data + p) != kCentralSig) {
        if (i >= count)
            return Status::error(file + ": central directory holds " + std::to_string(cdEnd - p) + " bytes after its " +
                                 std::to_string(count) + " declared records that are not a record (damaged archive)");
        return Status::error(file + ": central directory entry " + std::to_string(i) + " of " + std::to_string(count) +
                             " is damaged (truncated archive?)");
    }
    const std::byte* c = m_data + p;
    ZipEntry en;
    en.flags = rd16(c + 8);
    en.method = rd16(c + 10);
    en.crc = rd32(c + 16);
    en.compressedSize = rd32(c + 20);
    en.size = rd32(c + 24);
    const uint64_t nameLen = rd16(c + 28), extraLen = rd16(c + 30), commentLen = rd16(c + 32);
    en.localHeaderOffset = rd32(c + 42);
    if (!inside(p + kCentralSize, nameLen + extraLen + commentLen, cdEnd))
        return Status::error(file + ": central directory entry " + std::to_string(i) + " runs past its end");
    en.name.assign(reinterpret_cast<const char*>(c + kCentralSize), nameLen);
    if (en.name.find('\\') != std::string::npos) std::replace(en.name.begin(), en.name.end(), '\\', '/');

    // ZIP64 extra field: 64-bit values appear only for the fields saturated in the fixed part.
    applyZip64Extra(c + kCentralSize + nameLen, extraLen, {&en.size, &en.compressedSize, &en.localHeaderOffset});
    p += kCentralSize + nameLen + extraLen + commentLen;
    if (!isSafeRecordName(en.name))
        return recordError(en.name, std::string("unsafe name (") +
                                        (en.name.find('\0') != std::string::npos ? "NUL byte" : "absolute path or '..' component") +
                                        "); refusing the archive");
    en.index = i;
    return en;
}

Status ZipArchive::parseCentralDirectory(int fd) {
    IRLENS_ASSIGN_OR_RETURN(cd, readEndRecord());
    // A hostile end record may claim up to the record limit; reserve no more than the directory can hold.
    m_entries.reserve(std::min<uint64_t>(cd.count, cd.size / kCentralSize));
    m_byName.reserve(m_entries.capacity());
    uint64_t p = cd.offset;
    const uint64_t cdEnd = cd.offset + cd.size;
    HeaderWindow scratch; // local header bytes read through `fd`
    // The classic end record counts records in 16 bits: 200,007 records written without ZIP64 read as
    // 3,399. The directory's size is the truth (as for libzip and Python's zipfile): read entries until
    // it ends, and refuse a count that disagrees with what it holds beyond that 16-bit wrap.
    for (uint64_t i = 0; i < cd.count || (!cd.zip64 && p < cdEnd); ++i) {
        if (i >= m_limits.maxRecords)
            return Status::error(m_displayName + ": more than " + std::to_string(m_limits.maxRecords) +
                                 " records in the central directory, more than the limit");
        const std::byte* c = m_data + p;
        IRLENS_ASSIGN_OR_RETURN(en, readCentralEntry(p, cdEnd, i, cd.count));
        if (!m_byName.try_emplace(en.name, m_entries.size()).second)
            return recordError(en.name, "appears twice in the central directory; refusing the archive");
        IRLENS_TRY(checkLocalHeader(en, c, cd.offset, fd, scratch));
        m_entries.push_back(std::move(en));
    }
    if (!cd.zip64 && (m_entries.size() & 0xFFFF) != cd.count)
        return Status::error(m_displayName + ": the end record declares " + std::to_string(cd.count) +
                             " records but the central directory holds " + std::to_string(m_entries.size()) +
                             " (damaged archive)");
    return Status::ok();
}

Status ZipArchive::checkLocalHeader(ZipEntry& en, const std::byte* c, uint64_t cdOffset, int fd,
                                    HeaderWindow& scratch) const {
    if (!inside(en.localHeaderOffset, kLocalSize, m_size))
        return recordError(en.name, "local header missing or damaged (truncated or corrupted archive)");
    // A mapped file's local headers are read with pread, not through the mapping: touching them there
    // page-faults once per record (each fault also maps the pages around it, which munmap must then
    // tear down again). For resnet18's 131 records that would be ~120 us of a ~1 ms load; pread of the few
    // header bytes is ~0.3 us each and leaves the weights' pages untouched until something reads them.
    const uint64_t centralNameLen = rd16(c + 28);
    // One read fetches a page from the header on: the small records (biases, norms, tags) sit close
    // together, so the next headers are often in it already (resnet18: 41 reads for 131 headers).
    auto fetch = [&](uint64_t offset, uint64_t length) -> const std::byte* {
        if (fd < 0) return m_data + offset;
        if (offset >= scratch.start && offset + length <= scratch.start + scratch.bytes.size())
            return scratch.bytes.data() + (offset - scratch.start);
        const uint64_t want = std::min(std::max<uint64_t>(length, 4096), m_size - offset);
        scratch.bytes.resize(size_t(want));
        scratch.start = offset;
        uint64_t got = 0;
        while (got < want) {
            ssize_t n = ::pread(fd, scratch.bytes.data() + got, size_t(want - got), off_t(offset + got));
            if (n < 0 && errno == EINTR) continue;
            if (n == 0) errno = EIO; // the file shrank under us
            if (n <= 0) {
                scratch.bytes.clear();
                return nullptr;
            }
            got += uint64_t(n);
        }
        return scratch.bytes.data();
    };
    // The fixed part and the name (which must be the central one's), in one read.
    const uint64_t headLen = std::min(kLocalSize + centralNameLen, m_size - en.localHeaderOffset);
    const std::byte* l = fetch(en.localHeaderOffset, headLen);
    if (!l) return recordError(en.name, std::string("local header cannot be read (") + std::strerror(errno) + ")");
    if (rd32(l) != kLocalHeaderSig)
        return recordError(en.name, "local header missing or damaged (truncated or corrupted archive)");
    const uint64_t nameLen = rd16(l + 26), extraLen = rd16(l + 28);
    // Data starts after the local header, whose own extra length may differ from the central one
    // (PyTorchFileWriter pads the local extra field to align data on 64 bytes).
    en.dataOffset = en.localHeaderOffset + kLocalSize + nameLen + extraLen;
    if (!inside(en.localHeaderOffset + kLocalSize, nameLen + extraLen, m_size))
        return recordError(en.name, "local header missing or damaged (truncated or corrupted archive)");
    if (!inside(en.dataOffset, en.compressedSize, m_size))
        return recordError(en.name, "data runs past the end of the file (truncated archive?)");
    // Two readers of one record must see the same thing: a local header that names another record, or
    // claims another method, CRC or size, means the archive was spliced or damaged, and which bytes
    // belong to which name is no longer certain. (DOS dates and "version needed" are not compared:
    // they do not change what is read.)
    if (nameLen != centralNameLen || std::memcmp(l + kLocalSize, c + kCentralSize, nameLen) != 0)
        return recordError(en.name, "local header names a different record (corrupted archive)");
    if (rd16(l + 8) != en.method)
        return recordError(en.name, "local and central headers disagree on the compression method (corrupted archive)");
    uint32_t crc = rd32(l + 14);
    uint64_t csize = rd32(l + 18), usize = rd32(l + 22);
    // With a data descriptor (flag bit 3, as PyTorchFileWriter writes) the local values may be zero.
    const bool deferred = (rd16(l + 6) & 0x8) != 0;
    if (!(deferred && crc == 0) && crc != en.crc)
        return recordError(en.name, "local and central headers disagree on the CRC (corrupted archive)");
    if (usize == 0xFFFFFFFF || csize == 0xFFFFFFFF) { // only then is the local extra field needed
        // (this read may move the window: `l` is not used past this point)
        const std::byte* x = fetch(en.localHeaderOffset + kLocalSize + nameLen, extraLen);
        if (!x) return recordError(en.name, std::string("local header cannot be read (") + std::strerror(errno) + ")");
        applyZip64Extra(x, extraLen, {&usize, &csize});
    }
    // Saturated values without a ZIP64 field to resolve them are left unresolved rather than refused.
    auto agrees = [&](uint64_t local, uint64_t central) { return local == central || local == 0xFFFFFFFF || (deferred && local == 0); };
    if (!agrees(csize, en.compressedSize) || !agrees(usize, en.size))
        return recordError(en.name, "local and central headers disagree on the sizes (corrupted archive)");
    // Record data belongs before the central directory; data running into it is not data.
    if (en.dataOffset + en.compressedSize > cdOffset)
        return recordError(en.name, "data overlaps the central directory (damaged archive)");
    return Status::ok();
}

std::vector<std::string> ZipArchive::names() const {
    std::vector<std::string> out;
    out.reserve(m_entries.size());
    for (const auto& e : m_entries) out.push_back(e.name);
    return out;
}

const ZipEntry* ZipArchive::find(std::string_view name) const {
    auto it = m_byName.find(name);
    return it == m_byName.end() ? nullptr : &m_entries[it->second];
}

Result<std::shared_ptr<const Storage>> ZipArchive::read(std::string_view name) const {
    const ZipEntry* e = find(name);
    if (!e) return Status::error(m_displayName + ": no record '" + printableRecordName(name) + "'");
    if (e->flags & 0x1) return recordError(name, "is encrypted; encrypted archives are not supported");
    if (e->method == 0) {
        if (e->compressedSize != e->size)
            return recordError(name, "stored (uncompressed) but its sizes differ (" + std::to_string(e->compressedSize) +
                                         " vs " + std::to_string(e->size) + " bytes)");
        if (e->size > m_limits.maxStoredBytes)
            return recordError(name, std::to_string(e->size) + " bytes, more than the limit of " +
                                         std::to_string(m_limits.maxStoredBytes));
        auto st = std::make_shared<Storage>();
        st->owner = m_owner;
        st->data = m_data + e->dataOffset;
        st->size = static_cast<size_t>(e->size);
        if (m_limits.checkStoredCrc && crcOf(st->data, st->size) != e->crc)
            return recordError(name, "CRC mismatch (corrupted archive)");
        return std::shared_ptr<const Storage>(std::move(st));
    }
    if (e->method == 8) return inflate(*e);
    return recordError(name, "compression method " + std::to_string(e->method) +
                                 " is not supported (only stored and deflate)");
}

Result<std::shared_ptr<const Storage>> ZipArchive::inflate(const ZipEntry& e) const {
    if (e.size > m_limits.maxInflatedBytes)
        return recordError(e.name, "declares " + std::to_string(e.size) + " bytes uncompressed, more than the limit of " +
                                       std::to_string(m_limits.maxInflatedBytes) + " (deflate bomb? " +
                                       limits::kMaxInflatedRecordEnv + "=<MiB> raises the limit)");
    // Reserve the bytes first so concurrent readers of a shared budget cannot both slip under it.
    std::atomic<uint64_t>& used = *m_limits.inflatedUsed;
    if (used.fetch_add(e.size) + e.size > m_limits.maxInflatedTotal) {
        used.fetch_sub(e.size);
        return recordError(e.name, "inflating it would take the archive past " + std::to_string(m_limits.maxInflatedTotal) +
                                       " inflated bytes in total (overlapping deflate records?)");
    }
    auto result = inflateRaw(e);
    if (!result) used.fetch_sub(e.size);
    return result;
}

Result<std::shared_ptr<const Storage>> ZipArchive::inflateRaw(const ZipEntry& e) const {
    z_stream z{};
    if (inflateInit2(&z, -MAX_WBITS) != Z_OK) return recordError(e.name, "cannot be inflated (zlib could not start)");
    std::vector<std::byte> out(static_cast<size_t>(e.size));
    const std::byte* in = m_data + e.dataOffset;
    uint64_t inLeft = e.compressedSize, outDone = 0;
    constexpr uint64_t kChunk = uint64_t(1) << 30; // zlib counts in 32-bit units
    std::string failure;
    int rc = Z_OK;
    // Inflate exactly the declared size; the stream must end there.
    while (rc != Z_STREAM_END) {
        if (z.avail_in == 0 && inLeft > 0) {
            z.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(in));
            z.avail_in = uInt(std::min(inLeft, kChunk));
            in += z.avail_in;
            inLeft -= z.avail_in;
        }
        const bool full = outDone == e.size;
        Bytef probe[1];
        z.next_out = full ? probe : reinterpret_cast<Bytef*>(out.data() + outDone);
        z.avail_out = full ? 1 : uInt(std::min(e.size - outDone, kChunk));
        const uInt before = z.avail_out;
        rc = ::inflate(&z, Z_NO_FLUSH);
        const uint64_t produced = before - z.avail_out;
        if (full && produced > 0) {
            // Anything past the declared size means the header lies about the output: a deflate bomb.
            failure = "inflates to more than its declared " + std::to_string(e.size) + " bytes (deflate bomb?)";
            break;
        }
        outDone += produced;
        if (rc == Z_STREAM_END) break;
        if (rc == Z_BUF_ERROR && z.avail_in == 0 && inLeft == 0) {
            failure = "cannot be inflated (compressed data ends early; truncated or corrupted archive)";
            break;
        }
        if (rc != Z_OK && rc != Z_BUF_ERROR) {
            failure = std::string("cannot be inflated (zlib: ") + (z.msg ? z.msg : "error " + std::to_string(rc)) + ")";
            break;
        }
    }
    inflateEnd(&z);
    if (failure.empty() && outDone < e.size)
        failure = "inflates to " + std::to_string(outDone) + " bytes, less than its declared " + std::to_string(e.size);
    if (failure.empty() && e.size > 0 && crcOf(out.data(), out.size()) != e.crc) failure = "CRC mismatch (corrupted archive)";
    if (failure.empty() && e.size == 0 && e.crc != 0) failure = "CRC mismatch (corrupted archive)";
    if (!failure.empty()) return recordError(e.name, failure);
    return std::shared_ptr<const Storage>(Storage::fromBytes(std::move(out)));
}

Result<std::string> ZipArchive::readText(std::string_view name, uint64_t maxBytes) const {
    const ZipEntry* e = find(name);
    if (!e) return Status::error(m_displayName + ": no record '" + printableRecordName(name) + "'");
    if (e->size > maxBytes)
        return recordError(name, std::to_string(e->size) + " bytes, more than the " + std::to_string(maxBytes) +
                                     " expected for this record");
    auto bytes = read(name);
    if (!bytes) return bytes.status();
    const Storage& s = **bytes;
    // Stored records are viewed without a CRC check (weights are never touched at open); text records
    // are read whole anyway, so they are checked. inflate() already checked inflated ones.
    if (e->method == 0 && !m_limits.checkStoredCrc && crcOf(s.data, s.size) != e->crc)
        return recordError(name, "CRC mismatch (corrupted archive)");
    return std::string(reinterpret_cast<const char*>(s.data), s.size);
}

Status ZipArchive::verifyCrc(std::string_view name) const {
    auto bytes = read(name); // inflating checks the CRC already
    if (!bytes) return bytes.status();
    const ZipEntry* e = find(name);
    if (e->method == 0 && !m_limits.checkStoredCrc && crcOf((*bytes)->data, (*bytes)->size) != e->crc)
        return recordError(name, "CRC mismatch (corrupted archive)");
    return Status::ok();
}

} // namespace irlens::core
