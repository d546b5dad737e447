#pragma once
// A minimal ZIP writer for PT2 archives and nested torch.save files.
//
// Every record is STORED (no compression, so readers can map tensors in place) and its data starts on
// an `alignment`-byte boundary: the local header carries a padding extra field (id "FB", filler 'Z'),
// as PyTorch's own writer does. Sizes and CRC-32 (zlib) go in the local header directly (flags 0x0800,
// UTF-8 names). ZIP64 records and the ZIP64 end of central directory are written when a size, an
// offset or the record count needs them (or always, with `forceZip64`, so tests can reach that path).

#include "core/ir/status.h"

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace irlens::core {

class ZipWriter {
public:
    struct Options {
        uint32_t alignment = 64;
        bool forceZip64 = false;
    };

    /// Writes to a file opened (and later closed) by the caller's path; errors name the path.
    static Result<std::unique_ptr<ZipWriter>> toFile(const std::string& path, const Options& options);
    /// Writes into memory (nested torch.save files); take the bytes with `buffer()` after finish().
    static std::unique_ptr<ZipWriter> toMemory(const Options& options);
    ~ZipWriter();
    ZipWriter(const ZipWriter&) = delete;
    ZipWriter& operator=(const ZipWriter&) = delete;

    /// Appends one STORED record. Names must be unique, relative, and shorter than 64 KiB.
    Status add(std::string_view name, const void* data, uint64_t size);
    Status add(std::string_view name, std::string_view data) { return add(name, data.data(), data.size()); }
    /// Writes the central directory; for files also flushes and closes (fsync'd).
    Status finish();

    std::string& buffer() { return m_buffer; }
    uint64_t bytesWritten() const { return m_offset; }

private:
    struct Entry {
        std::string name;
        uint32_t crc = 0;
        uint64_t size = 0;
        uint64_t headerOffset = 0;
        bool zip64 = false;
    };

    explicit ZipWriter(const Options& o) : m_options(o) {}
    Status write(const void* data, size_t size);
    Status writeCentralDirectory();

    Options m_options;
    std::FILE* m_file = nullptr;
    std::string m_path;
    std::string m_buffer; // memory target
    uint64_t m_offset = 0;
    std::vector<Entry> m_entries;
    std::unordered_set<std::string> m_names;
    bool m_finished = false;
};

} // namespace irlens::core
