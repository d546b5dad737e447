#include "core/io/zip_archive.h"
#include "core/io/zip_format.h"

#include <zip.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace irlens::core {

namespace {

using namespace zipfmt;

uint16_t rd16(const std::byte* p) { return uint16_t(uint8_t(p[0]) | uint8_t(p[1]) << 8); }
uint32_t rd32(const std::byte* p) { return uint32_t(rd16(p)) | uint32_t(rd16(p + 2)) << 16; }
uint64_t rd64(const std::byte* p) { return uint64_t(rd32(p)) | uint64_t(rd32(p + 4)) << 32; }

// Whether [offset, offset + length) lies inside a buffer of `size` bytes, without overflow.
bool inside(uint64_t offset, uint64_t length, uint64_t size) { return offset <= size && length <= size - offset; }

struct Mapping {
    void* addr = nullptr;
    size_t size = 0;
    ~Mapping() {
        if (addr && size) ::munmap(addr, size);
    }
};

std::string libzipMessage(zip_error_t* err) {
    const char* s = zip_error_strerror(err);
    return s ? s : "unknown libzip error";
}

} // namespace

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

ZipArchive::~ZipArchive() {
    if (m_zip) zip_discard(m_zip);
}

Status ZipArchive::recordError(std::string_view name, const std::string& what) const {
    return Status::error(m_displayName + ": record '" + std::string(name) + "': " + what);
}

Result<std::shared_ptr<ZipArchive>> ZipArchive::openFile(const std::string& path, const ZipLimits& limits) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return Status::error("cannot open '" + path + "': " + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return Status::error("cannot open '" + path + "': not a regular file");
    }
    auto mapping = std::make_shared<Mapping>();
    mapping->size = static_cast<size_t>(st.st_size);
    if (mapping->size > 0) {
        void* addr = ::mmap(nullptr, mapping->size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (addr == MAP_FAILED) {
            int e = errno;
            ::close(fd);
            return Status::error("cannot map '" + path + "': " + std::strerror(e));
        }
        mapping->addr = addr;
    }
    ::close(fd); // the mapping stays valid without the descriptor
    if (mapping->size == 0) return Status::error(path + ": file is empty (0 bytes), not a ZIP archive");
    auto data = static_cast<const std::byte*>(mapping->addr);
    return open(mapping, data, mapping->size, path, limits);
}

Result<std::shared_ptr<ZipArchive>> ZipArchive::openStorage(std::shared_ptr<const Storage> bytes, std::string displayName,
                                                            const ZipLimits& limits) {
    if (!bytes || bytes->size == 0) return Status::error(displayName + ": empty record, not a ZIP archive");
    const std::byte* data = bytes->data;
    uint64_t size = bytes->size;
    return open(std::move(bytes), data, size, std::move(displayName), limits);
}

Result<std::shared_ptr<ZipArchive>> ZipArchive::open(std::shared_ptr<const void> owner, const std::byte* data,
                                                     uint64_t size, std::string displayName, const ZipLimits& limits) {
    std::shared_ptr<ZipArchive> a(new ZipArchive);
    a->m_owner = std::move(owner);
    a->m_data = data;
    a->m_size = size;
    a->m_displayName = std::move(displayName);
    a->m_limits = limits;
    if (!a->m_limits.inflatedUsed) a->m_limits.inflatedUsed = std::make_shared<std::atomic<uint64_t>>(0);
    IRLENS_TRY(a->parseCentralDirectory());
    IRLENS_TRY(a->openWithLibzip());
    return a;
}

Status ZipArchive::parseCentralDirectory() {
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
    uint64_t count = rd16(e + 10);
    uint64_t cdSize = rd32(e + 12);
    uint64_t cdOffset = rd32(e + 16);
    if (rd16(e + 4) != 0 && rd16(e + 4) != 0xFFFF)
        return Status::error(file + ": multi-disk (split) ZIP archives are not supported");

    // ZIP64: a locator right before the classic record points to the 64-bit end record.
    if (eocd >= 20 && rd32(m_data + eocd - 20) == kZip64LocatorSig) {
        uint64_t z64 = rd64(m_data + eocd - 20 + 8);
        if (!inside(z64, 56, m_size) || rd32(m_data + z64) != kZip64EndSig)
            return Status::error(file + ": ZIP64 end record missing or damaged (truncated file?)");
        count = rd64(m_data + z64 + 32);
        cdSize = rd64(m_data + z64 + 40);
        cdOffset = rd64(m_data + z64 + 48);
    } else if (count == 0xFFFF || cdSize == 0xFFFFFFFF || cdOffset == 0xFFFFFFFF) {
        return Status::error(file + ": ZIP64 sizes announced but no ZIP64 end record found (truncated file?)");
    }
    if (count > m_limits.maxRecords)
        return Status::error(file + ": " + std::to_string(count) + " records, more than the limit of " +
                             std::to_string(m_limits.maxRecords));
    if (!inside(cdOffset, cdSize, m_size))
        return Status::error(file + ": central directory lies outside the file (truncated or damaged archive)");

    // A hostile end record may claim up to the record limit; reserve no more than the directory can hold.
    m_entries.reserve(std::min<uint64_t>(count, cdSize / kCentralSize));
    uint64_t p = cdOffset;
    const uint64_t cdEnd = cdOffset + cdSize;
    for (uint64_t i = 0; i < count; ++i) {
        if (!inside(p, kCentralSize, cdEnd) || rd32(m_data + p) != kCentralSig)
            return Status::error(file + ": central directory entry " + std::to_string(i) + " of " +
                                 std::to_string(count) + " is damaged (truncated archive?)");
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
        std::replace(en.name.begin(), en.name.end(), '\\', '/');

        // ZIP64 extra field: 64-bit values appear only for the fields saturated in the fixed part.
        const std::byte* x = c + kCentralSize + nameLen;
        for (uint64_t off = 0; off + 4 <= extraLen;) {
            uint16_t id = rd16(x + off), len = rd16(x + off + 2);
            if (off + 4 + len > extraLen) break;
            if (id == 0x0001) {
                const std::byte* v = x + off + 4;
                uint64_t used = 0;
                auto take = [&](uint64_t& field) {
                    if (field == 0xFFFFFFFF && used + 8 <= len) { field = rd64(v + used); used += 8; }
                };
                take(en.size);
                take(en.compressedSize);
                take(en.localHeaderOffset);
            }
            off += 4 + len;
        }
        p += kCentralSize + nameLen + extraLen + commentLen;

        if (!isSafeRecordName(en.name))
            return recordError(en.name, "unsafe name (absolute path or '..' component); refusing the archive");
        if (m_byName.count(en.name))
            return recordError(en.name, "appears twice in the central directory; refusing the archive");

        // Data starts after the local header, whose own name/extra lengths may differ from the central
        // ones (PyTorchFileWriter pads the local extra field to align data on 64 bytes).
        if (!inside(en.localHeaderOffset, kLocalSize, m_size) || rd32(m_data + en.localHeaderOffset) != kLocalHeaderSig)
            return recordError(en.name, "local header missing or damaged (truncated or corrupted archive)");
        const std::byte* l = m_data + en.localHeaderOffset;
        en.dataOffset = en.localHeaderOffset + kLocalSize + rd16(l + 26) + rd16(l + 28);
        if (!inside(en.dataOffset, en.compressedSize, m_size))
            return recordError(en.name, "data runs past the end of the file (truncated archive?)");
        en.libzipIndex = i;
        m_byName.emplace(en.name, m_entries.size());
        m_entries.push_back(std::move(en));
    }
    return Status::ok();
}

Status ZipArchive::openWithLibzip() {
    zip_error_t err;
    zip_error_init(&err);
    m_source = zip_source_buffer_create(m_data, m_size, 0, &err);
    if (!m_source) {
        std::string msg = libzipMessage(&err);
        zip_error_fini(&err);
        return Status::error(m_displayName + ": libzip cannot read the buffer: " + msg);
    }
    m_zip = zip_open_from_source(m_source, ZIP_RDONLY | ZIP_CHECKCONS, &err);
    if (!m_zip) {
        std::string msg = libzipMessage(&err);
        zip_error_fini(&err);
        zip_source_free(m_source);
        m_source = nullptr;
        return Status::error(m_displayName + ": damaged ZIP archive (libzip: " + msg + ")");
    }
    zip_error_fini(&err);
    // Both readings of the central directory must agree, or the offsets used for views are suspect.
    zip_int64_t n = zip_get_num_entries(m_zip, 0);
    if (n < 0 || static_cast<uint64_t>(n) != m_entries.size())
        return Status::error(m_displayName + ": central directory is inconsistent (libzip sees " +
                             std::to_string(n) + " records, the directory lists " + std::to_string(m_entries.size()) + ")");
    for (auto& e : m_entries) {
        zip_stat_t st;
        zip_stat_init(&st);
        if (zip_stat_index(m_zip, e.libzipIndex, ZIP_FL_UNCHANGED, &st) != 0 ||
            ((st.valid & ZIP_STAT_SIZE) && st.size != e.size) ||
            ((st.valid & ZIP_STAT_COMP_SIZE) && st.comp_size != e.compressedSize))
            return recordError(e.name, "central directory is inconsistent (sizes disagree)");
    }
    return Status::ok();
}

std::vector<std::string> ZipArchive::names() const {
    std::vector<std::string> out;
    out.reserve(m_entries.size());
    for (const auto& e : m_entries) out.push_back(e.name);
    return out;
}

const ZipEntry* ZipArchive::find(std::string_view name) const {
    auto it = m_byName.find(std::string(name));
    return it == m_byName.end() ? nullptr : &m_entries[it->second];
}

Result<std::shared_ptr<const Storage>> ZipArchive::read(std::string_view name) const {
    const ZipEntry* e = find(name);
    if (!e) return Status::error(m_displayName + ": no record '" + std::string(name) + "'");
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
        return std::shared_ptr<const Storage>(std::move(st));
    }
    if (e->method == 8) return inflate(*e);
    return recordError(name, "compression method " + std::to_string(e->method) +
                                 " is not supported (only stored and deflate)");
}

Result<std::shared_ptr<const Storage>> ZipArchive::inflate(const ZipEntry& e) const {
    if (e.size > m_limits.maxInflatedBytes)
        return recordError(e.name, "declares " + std::to_string(e.size) + " bytes uncompressed, more than the limit of " +
                                       std::to_string(m_limits.maxInflatedBytes) + " (deflate bomb?)");
    std::lock_guard lock(m_zipMutex);
    // Reserve the bytes first so concurrent readers of a shared budget cannot both slip under it.
    std::atomic<uint64_t>& used = *m_limits.inflatedUsed;
    if (used.fetch_add(e.size) + e.size > m_limits.maxInflatedTotal) {
        used.fetch_sub(e.size);
        return recordError(e.name, "inflating it would take the archive past " + std::to_string(m_limits.maxInflatedTotal) +
                                       " inflated bytes in total (overlapping deflate records?)");
    }
    zip_file_t* zf = zip_fopen_index(m_zip, e.libzipIndex, 0);
    if (!zf) return recordError(e.name, std::string("cannot be opened (libzip: ") + zip_strerror(m_zip) + ")");
    std::vector<std::byte> out(static_cast<size_t>(e.size));
    uint64_t got = 0;
    std::string failure;
    while (got < e.size) {
        zip_int64_t n = zip_fread(zf, out.data() + got, std::min<uint64_t>(e.size - got, uint64_t(1) << 24));
        if (n < 0) { failure = std::string("cannot be inflated (libzip: ") + zip_file_strerror(zf) + ")"; break; }
        if (n == 0) { failure = "inflates to " + std::to_string(got) + " bytes, less than its declared " + std::to_string(e.size); break; }
        got += static_cast<uint64_t>(n);
    }
    if (failure.empty()) {
        // Anything past the declared size means the header lies about the output: a deflate bomb.
        char probe[1];
        zip_int64_t extra = zip_fread(zf, probe, 1);
        if (extra > 0)
            failure = "inflates to more than its declared " + std::to_string(e.size) + " bytes (deflate bomb?)";
        else if (extra < 0)
            failure = std::string("cannot be inflated (libzip: ") + zip_file_strerror(zf) + ")";
    }
    zip_fclose(zf);
    if (!failure.empty()) {
        used.fetch_sub(e.size);
        return recordError(e.name, failure);
    }
    return std::shared_ptr<const Storage>(Storage::fromBytes(std::move(out)));
}

Result<std::string> ZipArchive::readText(std::string_view name, uint64_t maxBytes) const {
    const ZipEntry* e = find(name);
    if (!e) return Status::error(m_displayName + ": no record '" + std::string(name) + "'");
    if (e->size > maxBytes)
        return recordError(name, std::to_string(e->size) + " bytes, more than the " + std::to_string(maxBytes) +
                                     " expected for this record");
    auto bytes = read(name);
    if (!bytes) return bytes.status();
    const Storage& s = **bytes;
    // Stored records are viewed without a CRC check (weights are never touched at open); text records
    // are read whole anyway, so they are checked. libzip already checked inflated ones.
    if (e->method == 0 && s.size > 0 && crc32_z(0L, reinterpret_cast<const Bytef*>(s.data), s.size) != e->crc)
        return recordError(name, "CRC mismatch (corrupted archive)");
    return std::string(reinterpret_cast<const char*>(s.data), s.size);
}

} // namespace irlens::core
