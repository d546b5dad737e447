#pragma once
// A second opinion on an archive: libzip reads it independently of ZipArchive's own parser (which the
// load path uses for speed, see zip_archive.h) and the two must agree on every record. Used by
// `irlens-cli records FILE --check` and by the tests over every fixture, nested archives included.

#include "core/io/zip_archive.h"
#include "core/ir/status.h"

#include <cstdint>

namespace irlens::core {

struct ZipCrossCheck {
    uint64_t records = 0;     // records both readers listed
    uint64_t bytesChecked = 0; // uncompressed bytes whose CRC was recomputed
};

/// Opens `archive`'s bytes with libzip (ZIP_CHECKCONS), compares the record list, names, methods, sizes
/// and CRCs with `archive`'s, then recomputes every record's CRC. The first disagreement is an error
/// naming the archive and the record.
Result<ZipCrossCheck> crossCheckWithLibzip(const ZipArchive& archive);

} // namespace irlens::core
