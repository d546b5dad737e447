#pragma once
// Read-only ZIP access for .pt2 files and the torch.save archives nested inside them.
//
// The file is memory-mapped once; STORED records (everything PyTorch writes) are returned as Storage
// views into the mapping, never copied, and the mapping stays alive as long as any view does.
// DEFLATE records (third-party re-zips) are inflated through libzip into owned bytes, with an explicit
// output limit. libzip validates the archive (ZIP_CHECKCONS); the central directory is also parsed
// here because libzip does not expose where a record's data starts, which in-place views need.

#include "core/io/limits.h"
#include "core/ir/program.h"
#include "core/ir/status.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

struct zip;        // libzip handles, kept out of the header
struct zip_source;

namespace irlens::core {

struct ZipLimits {
    uint64_t maxRecords = limits::kMaxZipRecords;
    uint64_t maxInflatedBytes = limits::kMaxInflatedRecordBytes;
    uint64_t maxInflatedTotal = limits::kMaxInflatedArchiveBytes;
    /// Counts inflated bytes against maxInflatedTotal. Archives opened with the same ZipLimits value
    /// (a .pt2 and the torch.save files nested in it) share one budget; null = a budget of their own.
    std::shared_ptr<std::atomic<uint64_t>> inflatedUsed;
    uint64_t maxStoredBytes = limits::kMaxStoredRecordBytes;
};

/// One central directory entry, sizes and offsets resolved (ZIP64 included).
struct ZipEntry {
    std::string name;           // as stored, with '\' normalised to '/'
    uint16_t method = 0;        // 0 stored, 8 deflate
    uint16_t flags = 0;         // general-purpose bits (0x0808 for PyTorchFileWriter)
    uint32_t crc = 0;
    uint64_t compressedSize = 0;
    uint64_t size = 0;          // uncompressed
    uint64_t localHeaderOffset = 0;
    uint64_t dataOffset = 0;    // first byte of the record's data in the archive buffer
    uint64_t libzipIndex = 0;
};

class ZipArchive {
public:
    ~ZipArchive();
    ZipArchive(const ZipArchive&) = delete;
    ZipArchive& operator=(const ZipArchive&) = delete;

    /// Maps `path` and opens it. `displayName` (default: the path) prefixes every error message.
    static Result<std::shared_ptr<ZipArchive>> openFile(const std::string& path, const ZipLimits& limits = {});
    /// Opens a ZIP held in `bytes` (e.g. a nested torch.save record); views keep `bytes` alive.
    static Result<std::shared_ptr<ZipArchive>> openStorage(std::shared_ptr<const Storage> bytes,
                                                           std::string displayName, const ZipLimits& limits = {});

    const std::string& displayName() const { return m_displayName; }
    const std::vector<ZipEntry>& entries() const { return m_entries; }
    std::vector<std::string> names() const;
    const ZipEntry* find(std::string_view name) const;
    bool contains(std::string_view name) const { return find(name) != nullptr; }
    uint64_t bufferSize() const { return m_size; }
    /// The limits in force, shared budget included: pass them on to archives nested in this one.
    const ZipLimits& limits() const { return m_limits; }

    /// The record's bytes: a view into the archive for STORED records, inflated bytes for DEFLATE.
    Result<std::shared_ptr<const Storage>> read(std::string_view name) const;
    /// The record as text, refused when larger than `maxBytes`; the CRC is checked.
    Result<std::string> readText(std::string_view name, uint64_t maxBytes) const;

    /// "<archive>: record '<name>': <what>" — the shape of every error this class returns.
    Status recordError(std::string_view name, const std::string& what) const;

private:
    ZipArchive() = default;
    static Result<std::shared_ptr<ZipArchive>> open(std::shared_ptr<const void> owner, const std::byte* data,
                                                    uint64_t size, std::string displayName, const ZipLimits& limits);
    Status parseCentralDirectory();
    Status openWithLibzip();
    Result<std::shared_ptr<const Storage>> inflate(const ZipEntry& e) const;

    std::shared_ptr<const void> m_owner; // keeps the mapping (or parent storage) alive
    const std::byte* m_data = nullptr;
    uint64_t m_size = 0;
    std::string m_displayName;
    ZipLimits m_limits;
    std::vector<ZipEntry> m_entries;
    std::unordered_map<std::string, size_t> m_byName;
    ::zip* m_zip = nullptr;
    ::zip_source* m_source = nullptr;
    mutable std::mutex m_zipMutex; // libzip handles are not thread-safe; only DEFLATE reads take it
};

/// Whether a record name is safe to resolve (not absolute, no '..' component, no NUL, no drive letter).
bool isSafeRecordName(std::string_view name);

} // namespace irlens::core
