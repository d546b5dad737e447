// libFuzzer target: the safe unpickler (data.pkl of torch.save payloads). Persistent ids resolve to a
// small storage for keys "0".."3" and to an error otherwise, like a torch.save archive with 4 records.
#include "fuzz_targets.h"

#include "core/io/unpickler.h"

#include <vector>

using namespace irlens::core;

std::string irlens::fuzz::pickleInput(const uint8_t* data, size_t size) {
    StorageLoader loader = [](const std::string& key) -> Result<std::shared_ptr<const Storage>> {
        if (key.size() == 1 && key[0] >= '0' && key[0] <= '3')
            return std::shared_ptr<const Storage>(Storage::fromBytes(std::vector<std::byte>(64)));
        return Status::error("no record data/" + key);
    };
    PickleLimits limits;
    limits.maxMemo = 1u << 16; // keep hostile memo indices from costing seconds per input
    limits.maxStack = 1u << 16;
    auto value = unpickle(reinterpret_cast<const std::byte*>(data), size, "data.pkl", loader, limits);
    if (!value) return value.error();
    return std::string("unpickled a ") + (*value ? (*value)->kindName() : "null");
}

#ifndef IRLENS_FUZZ_REPLAY
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    (void)irlens::fuzz::pickleInput(data, size);
    return 0;
}
#endif
