#include "core/io/zip_crosscheck.h"

#include <zip.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>

namespace irlens::core {
namespace {

std::string hex32(uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", v);
    return buf;
}

struct ZipCloser {
    void operator()(zip_t* z) const { zip_discard(z); }
};

} // namespace

Result<ZipCrossCheck> crossCheckWithLibzip(const ZipArchive& archive) {
    const std::string& name = archive.displayName();
    zip_error_t err;
    zip_error_init(&err);
    // The buffer outlives the source: libzip only reads it, and frees nothing (freep = 0).
    zip_source_t* src = zip_source_buffer_create(archive.bufferData(), archive.bufferSize(), 0, &err);
    if (!src) {
        std::string what = zip_error_strerror(&err);
        zip_error_fini(&err);
        return Status::error(name + ": libzip cannot read the buffer: " + what);
    }
    std::unique_ptr<zip_t, ZipCloser> z(zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &err));
    if (!z) {
        zip_source_free(src);
        std::string what = zip_error_strerror(&err);
        zip_error_fini(&err);
        return Status::error(name + ": libzip refuses the archive that the reader accepted: " + what);
    }
    zip_error_fini(&err);

    const auto& entries = archive.entries();
    zip_int64_t n = zip_get_num_entries(z.get(), 0);
    if (n < 0 || static_cast<uint64_t>(n) != entries.size())
        return Status::error(name + ": libzip lists " + std::to_string(n) + " records, the reader " +
                             std::to_string(entries.size()));
    ZipCrossCheck result;
    for (const ZipEntry& e : entries) {
        zip_stat_t st;
        zip_stat_init(&st);
        if (zip_stat_index(z.get(), e.index, ZIP_FL_ENC_RAW, &st) != 0)
            return archive.recordError(e.name, std::string("libzip cannot stat it: ") + zip_strerror(z.get()));
        std::string libName = st.name ? st.name : "";
        std::replace(libName.begin(), libName.end(), '\\', '/');
        auto disagree = [&](const char* what, const std::string& lib, const std::string& ours) {
            return archive.recordError(e.name, std::string("libzip and the reader disagree on the ") + what +
                                                   " (libzip " + lib + ", reader " + ours + ")");
        };
        if (libName != e.name) return disagree("name", "'" + libName + "'", "'" + e.name + "'");
        if (st.comp_method != e.method) return disagree("method", std::to_string(st.comp_method), std::to_string(e.method));
        if (st.size != e.size) return disagree("size", std::to_string(st.size), std::to_string(e.size));
        if (st.comp_size != e.compressedSize)
            return disagree("compressed size", std::to_string(st.comp_size), std::to_string(e.compressedSize));
        if (st.crc != e.crc) return disagree("CRC", hex32(st.crc), hex32(e.crc));
        IRLENS_TRY(archive.verifyCrc(e.name));
        ++result.records;
        result.bytesChecked += e.size;
    }
    return result;
}

} // namespace irlens::core
