#include "core/io/zip_writer.h"
#include "core/io/zip_format.h"

#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace irlens::core {

namespace {

using namespace zipfmt;
constexpr uint16_t kFlagsUtf8 = 0x0800;
constexpr uint16_t kDosTime = 0;
constexpr uint16_t kDosDate = 0x0021; // 1980-01-01: fixed, so archives are reproducible
constexpr uint16_t kPadId = 0x4246;   // "FB", PyTorch's alignment padding field
constexpr uint32_t k32Max = 0xFFFFFFFFu;

void put16(std::string& s, uint16_t v) {
    s += static_cast<char>(v & 0xFF);
    s += static_cast<char>(v >> 8);
}
void put32(std::string& s, uint32_t v) {
    for (int k = 0; k < 4; ++k) s += static_cast<char>((v >> (8 * k)) & 0xFF);
}
void put64(std::string& s, uint64_t v) {
    for (int k = 0; k < 8; ++k) s += static_cast<char>((v >> (8 * k)) & 0xFF);
}

uint32_t crc32Of(const void* data, uint64_t size) {
    uLong crc = crc32(0L, Z_NULL, 0);
    const auto* p = static_cast<const Bytef*>(data);
    while (size > 0) {
        uInt chunk = size > (1u << 30) ? (1u << 30) : static_cast<uInt>(size);
        crc = crc32(crc, p, chunk);
        p += chunk;
        size -= chunk;
    }
    return static_cast<uint32_t>(crc);
}

} // namespace

Result<std::unique_ptr<ZipWriter>> ZipWriter::toFile(const std::string& path, const Options& options) {
    std::unique_ptr<ZipWriter> w(new ZipWriter(options));
    w->m_path = path;
    w->m_file = std::fopen(path.c_str(), "wb");
    if (!w->m_file) return Status::error(path + ": cannot create (" + std::strerror(errno) + ")");
    return w;
}

std::unique_ptr<ZipWriter> ZipWriter::toMemory(const Options& options) {
    return std::unique_ptr<ZipWriter>(new ZipWriter(options));
}

ZipWriter::~ZipWriter() {
    if (m_file) std::fclose(m_file);
}

Status ZipWriter::write(const void* data, size_t size) {
    if (size == 0) return Status::ok();
    if (m_file) {
        if (std::fwrite(data, 1, size, m_file) != size)
            return Status::error(m_path + ": write failed (" + std::strerror(errno) + ")");
    } else {
        m_buffer.append(static_cast<const char*>(data), size);
    }
    m_offset += size;
    return Status::ok();
}

Status ZipWriter::add(std::string_view name, const void* data, uint64_t size) {
    if (m_finished) return Status::error("zip writer: record '" + std::string(name) + "' added after finish");
    // Names a reader could resolve outside its folder are refused (absolute, "..", NUL, backslash).
    bool unsafe = name.empty() || name.size() >= 0xFFFF || name.front() == '/' ||
                  name.find('\0') != std::string_view::npos || name.find('\\') != std::string_view::npos ||
                  name == ".." || name.rfind("../", 0) == 0 || name.find("/../") != std::string_view::npos ||
                  (name.size() >= 3 && name.compare(name.size() - 3, 3, "/..") == 0);
    if (unsafe) return Status::error("zip writer: unsafe record name '" + std::string(name) + "'");
    if (!m_names.insert(std::string(name)).second)
        return Status::error("zip writer: duplicate record '" + std::string(name) + "'");

    Entry e;
    e.name.assign(name);
    e.size = size;
    e.crc = crc32Of(data, size);
    e.headerOffset = m_offset;
    e.zip64 = m_options.forceZip64 || size >= k32Max || m_offset >= k32Max;

    std::string h;
    put32(h, kLocalHeaderSig);
    put16(h, e.zip64 ? 45 : 20);
    put16(h, kFlagsUtf8);
    put16(h, 0); // STORED
    put16(h, kDosTime);
    put16(h, kDosDate);
    put32(h, e.crc);
    put32(h, e.zip64 ? k32Max : static_cast<uint32_t>(size));
    put32(h, e.zip64 ? k32Max : static_cast<uint32_t>(size));
    put16(h, static_cast<uint16_t>(name.size()));
    size_t extraLenPos = h.size();
    put16(h, 0); // extra length, patched below
    h.append(name);
    std::string extra;
    if (e.zip64) {
        put16(extra, 0x0001);
        put16(extra, 16);
        put64(extra, size);
        put64(extra, size);
    }
    // Pad so the data begins on the alignment boundary; a padding field needs at least its 4-byte header.
    if (m_options.alignment > 1) {
        uint64_t dataStart = m_offset + h.size() + extra.size();
        uint64_t pad = (m_options.alignment - dataStart % m_options.alignment) % m_options.alignment;
        if (pad > 0 && pad < 4) pad += m_options.alignment;
        if (pad > 0) {
            put16(extra, kPadId);
            put16(extra, static_cast<uint16_t>(pad - 4));
            extra.append(static_cast<size_t>(pad - 4), 'Z');
        }
    }
    h[extraLenPos] = static_cast<char>(extra.size() & 0xFF);
    h[extraLenPos + 1] = static_cast<char>(extra.size() >> 8);
    h += extra;
    IRLENS_TRY(write(h.data(), h.size()));
    // fwrite takes size_t; chunk so 32-bit size_t platforms stay correct.
    const char* p = static_cast<const char*>(data);
    for (uint64_t left = size; left > 0;) {
        size_t chunk = left > (1u << 30) ? (1u << 30) : static_cast<size_t>(left);
        IRLENS_TRY(write(p, chunk));
        p += chunk;
        left -= chunk;
    }
    m_entries.push_back(std::move(e));
    return Status::ok();
}

Status ZipWriter::writeCentralDirectory() {
    const uint64_t cdStart = m_offset;
    bool anyZip64 = m_options.forceZip64 || m_entries.size() >= 0xFFFF;
    std::string cd;
    for (const auto& e : m_entries) {
        bool big = e.zip64 || e.headerOffset >= k32Max;
        anyZip64 = anyZip64 || big;
        put32(cd, kCentralSig);
        put16(cd, big ? 45 : 20); // version made by (MS-DOS host)
        put16(cd, big ? 45 : 20); // version needed
        put16(cd, kFlagsUtf8);
        put16(cd, 0);
        put16(cd, kDosTime);
        put16(cd, kDosDate);
        put32(cd, e.crc);
        put32(cd, big ? k32Max : static_cast<uint32_t>(e.size));
        put32(cd, big ? k32Max : static_cast<uint32_t>(e.size));
        put16(cd, static_cast<uint16_t>(e.name.size()));
        put16(cd, big ? 28 : 0); // extra: zip64 sizes + offset
        put16(cd, 0);            // comment
        put16(cd, 0);            // disk
        put16(cd, 0);            // internal attributes
        put32(cd, 0);            // external attributes
        put32(cd, big ? k32Max : static_cast<uint32_t>(e.headerOffset));
        cd += e.name;
        if (big) {
            put16(cd, 0x0001);
            put16(cd, 24);
            put64(cd, e.size);
            put64(cd, e.size);
            put64(cd, e.headerOffset);
        }
        if (cd.size() > (1u << 20)) {
            IRLENS_TRY(write(cd.data(), cd.size()));
            cd.clear();
        }
    }
    IRLENS_TRY(write(cd.data(), cd.size()));
    const uint64_t cdSize = m_offset - cdStart;
    anyZip64 = anyZip64 || cdStart >= k32Max || cdSize >= k32Max;

    std::string end;
    if (anyZip64) {
        const uint64_t zip64EndOffset = m_offset;
        put32(end, kZip64EndSig);
        put64(end, 44); // size of the remaining record
        put16(end, 45);
        put16(end, 45);
        put32(end, 0);
        put32(end, 0);
        put64(end, m_entries.size());
        put64(end, m_entries.size());
        put64(end, cdSize);
        put64(end, cdStart);
        put32(end, kZip64LocatorSig);
        put32(end, 0);
        put64(end, zip64EndOffset);
        put32(end, 1);
    }
    const uint16_t count16 = anyZip64 ? 0xFFFF : static_cast<uint16_t>(m_entries.size());
    put32(end, kEndSig);
    put16(end, 0);
    put16(end, 0);
    put16(end, count16);
    put16(end, count16);
    put32(end, anyZip64 ? k32Max : static_cast<uint32_t>(cdSize));
    put32(end, anyZip64 ? k32Max : static_cast<uint32_t>(cdStart));
    put16(end, 0);
    return write(end.data(), end.size());
}

Status ZipWriter::finish() {
    if (m_finished) return Status::ok();
    m_finished = true;
    IRLENS_TRY(writeCentralDirectory());
    if (m_file) {
        bool ok = std::fflush(m_file) == 0 && ::fsync(fileno(m_file)) == 0;
        int err = errno;
        ok = (std::fclose(m_file) == 0) && ok;
        m_file = nullptr;
        if (!ok) return Status::error(m_path + ": cannot finish writing (" + std::strerror(err) + ")");
    }
    return Status::ok();
}

} // namespace irlens::core
