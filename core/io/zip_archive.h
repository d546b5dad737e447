#pragma once
// Read-only ZIP access for .pt2 files and the torch.save archives nested inside them.
//
// The file is memory-mapped once; STORED records (everything PyTorch writes) are returned as Storage
// views into the mapping, never copied, and the mapping stays alive as long as any view does.
// DEFLATE records (third-party re-zips) are inflated with zlib into owned bytes, with an explicit
// output limit and a CRC check.
//
// The archive is parsed and validated here, not by libzip: opening resnet18's 131 records through
// libzip (ZIP_CHECKCONS + a stat per record) converted every record's DOS date with mktime(), which
// re-stats the time zone file on each call: ~0.5 ms of a 1.96 ms load, next to 0.7 ms for the whole
// program JSON. Dates are never used here, and the checks below are a few compares per record.
// What ZIP_CHECKCONS verified is verified at open instead: the end record and ZIP64 end record, every
// central entry within the directory, the directory before the end record, each local header present
// and agreeing with its central entry (name, method, CRC and sizes unless deferred to a data
// descriptor), each record's data inside the file and before the directory; plus safe and unique names.
// CRCs: text records are checked whenever they are read (readText); STORED binary records (weights)
// are views and are checked only on request (verifyCrc, or ZipLimits::checkStoredCrc for every read),
// as with libzip, which never checked them at open either; DEFLATE records are checked when inflated.

#include "core/io/limits.h"
#include "core/ir/program.h"
#include "core/ir/status.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace irlens::core {

struct ZipLimits {
    uint64_t maxRecords = limits::kMaxZipRecords;
    uint64_t maxInflatedBytes = limits::maxInflatedRecordBytes();
    uint64_t maxInflatedTotal = limits::kMaxInflatedArchiveBytes;
    /// Counts inflated bytes against maxInflatedTotal. Archives opened with the same ZipLimits value
    /// (a .pt2 and the torch.save files nested in it) share one budget; null = a budget of their own.
    std::shared_ptr<std::atomic<uint64_t>> inflatedUsed;
    uint64_t maxStoredBytes = limits::kMaxStoredRecordBytes;
    /// Check the CRC of STORED records in read() too (they are views, unchecked by default so that
    /// opening a program costs no pass over its weights). Passed on to nested archives with the rest.
    bool checkStoredCrc = false;
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
    uint64_t index = 0;         // position in the central directory
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
    /// The whole archive's bytes (the mapping or the parent storage), alive as long as this object.
    const std::byte* bufferData() const { return m_data; }
    /// The limits in force, shared budget included: pass them on to archives nested in this one.
    const ZipLimits& limits() const { return m_limits; }

    /// The record's bytes: a view into the archive for STORED records, inflated bytes for DEFLATE.
    Result<std::shared_ptr<const Storage>> read(std::string_view name) const;
    /// The record as text, refused when larger than `maxBytes`; the CRC is checked.
    Result<std::string> readText(std::string_view name, uint64_t maxBytes) const;
    /// Checks a record's CRC against its bytes (reads the whole record; inflates DEFLATE ones).
    /// read() does not do this for STORED records: weights are viewed, not read, at load time.
    Status verifyCrc(std::string_view name) const;

    /// "<archive>: record '<name>': <what>" — the shape of every error this class returns.
    Status recordError(std::string_view name, const std::string& what) const;

private:
    ZipArchive() = default;
    static Result<std::shared_ptr<ZipArchive>> open(std::shared_ptr<const void> owner, const std::byte* data,
                                                    uint64_t size, std::string displayName, const ZipLimits& limits,
                                                    int fd = -1);
    Status parseCentralDirectory(int fd);
    struct EndRecord { // where the central directory is, from the (ZIP64) end record
        uint64_t offset = 0, size = 0, count = 0, endRecordAt = 0;
        bool zip64 = false;
    };
    Result<EndRecord> readEndRecord() const;
    // The fixed part, name and ZIP64 extra of the central entry at `p` (advanced past it); entry `i`.
    Result<ZipEntry> readCentralEntry(uint64_t& p, uint64_t cdEnd, uint64_t i, uint64_t count) const;
    struct HeaderWindow { // file bytes [start, start + bytes.size()) read while checking local headers
        uint64_t start = 0;
        std::vector<std::byte> bytes;
    };
    Status checkLocalHeader(ZipEntry& e, const std::byte* central, uint64_t cdOffset, int fd,
                            HeaderWindow& scratch) const;
    Result<std::shared_ptr<const Storage>> inflate(const ZipEntry& e) const;
    Result<std::shared_ptr<const Storage>> inflateRaw(const ZipEntry& e) const;

    // Name lookup without building a std::string per query.
    struct NameHash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };

    std::shared_ptr<const void> m_owner; // keeps the mapping (or parent storage) alive
    const std::byte* m_data = nullptr;
    uint64_t m_size = 0;
    std::string m_displayName;
    ZipLimits m_limits;
    std::vector<ZipEntry> m_entries;
    std::unordered_map<std::string, size_t, NameHash, std::equal_to<>> m_byName;
};

/// A record name as messages show it: control bytes (NUL above all, which ends a C string and with
/// it the rest of the message) and non-UTF-8 bytes escaped as \xNN.
std::string printableRecordName(std::string_view name);

/// Whether a record name is safe to resolve (not absolute, no '..' component, no NUL, no drive letter).
bool isSafeRecordName(std::string_view name);

} // namespace irlens::core
