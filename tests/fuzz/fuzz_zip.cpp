// libFuzzer target: the ZIP container layer. Opens the input as an archive held in memory (as nested
// torch.save records are), then reads every record, once as bytes and once as text, as the readers do.
#include "fuzz_targets.h"

#include "core/io/zip_archive.h"

#include <cstring>
#include <vector>

using namespace irlens::core;

std::string irlens::fuzz::zipInput(const uint8_t* data, size_t size) {
    std::vector<std::byte> bytes(size);
    if (size) std::memcpy(bytes.data(), data, size);
    // Smaller limits than a real load, so a deflate bomb is refused quickly instead of inflating 4 GiB.
    ZipLimits limits;
    limits.maxInflatedBytes = 64u << 20;
    auto zip = ZipArchive::openStorage(Storage::fromBytes(std::move(bytes)), "fuzz.zip", limits);
    if (!zip) return zip.error();
    std::string outcome = std::to_string((*zip)->entries().size()) + " records";
    for (const ZipEntry& e : (*zip)->entries()) {
        if (!isSafeRecordName(e.name)) {
            outcome += "; unsafe name";
            continue;
        }
        if (auto r = (*zip)->read(e.name)) {
            volatile std::byte sink{};
            if ((*r)->size) sink = (*r)->data[(*r)->size - 1]; // touch the last byte: ASan checks the bounds
            (void)sink;
        } else {
            outcome += "; " + r.error();
        }
        (void)(*zip)->readText(e.name, 1u << 20);
    }
    return outcome;
}

#ifndef IRLENS_FUZZ_REPLAY
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    (void)irlens::fuzz::zipInput(data, size);
    return 0;
}
#endif
