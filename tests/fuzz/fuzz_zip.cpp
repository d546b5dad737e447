// libFuzzer target: the ZIP container layer. Opens the input as an archive held in memory (as nested
// torch.save records are), then reads every record, once as bytes and once as text, as the readers do.
#include "core/io/zip_archive.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

using namespace irlens::core;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::vector<std::byte> bytes(size);
    if (size) std::memcpy(bytes.data(), data, size);
    // Smaller limits than a real load, so a deflate bomb is refused quickly instead of inflating 4 GiB.
    ZipLimits limits;
    limits.maxInflatedBytes = 64u << 20;
    auto zip = ZipArchive::openStorage(Storage::fromBytes(std::move(bytes)), "fuzz.zip", limits);
    if (!zip) return 0;
    for (const ZipEntry& e : (*zip)->entries()) {
        if (!isSafeRecordName(e.name)) continue;
        if (auto r = (*zip)->read(e.name)) {
            volatile std::byte sink{};
            if ((*r)->size) sink = (*r)->data[(*r)->size - 1];
            (void)sink;
        }
        (void)(*zip)->readText(e.name, 1u << 20);
    }
    return 0;
}
