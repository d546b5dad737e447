// libFuzzer target: the safe unpickler (data.pkl of torch.save payloads). Persistent ids resolve to a
// small storage for keys "0".."3" and to an error otherwise, like a torch.save archive with 4 records.
#include "core/io/unpickler.h"

#include <cstddef>
#include <cstdint>
#include <vector>

using namespace irlens::core;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    StorageLoader loader = [](const std::string& key) -> Result<std::shared_ptr<const Storage>> {
        if (key.size() == 1 && key[0] >= '0' && key[0] <= '3')
            return std::shared_ptr<const Storage>(Storage::fromBytes(std::vector<std::byte>(64)));
        return Status::error("data.pkl: no record data/" + key);
    };
    PickleLimits limits;
    limits.maxMemo = 1u << 16; // keep hostile memo indices from costing seconds per input
    limits.maxStack = 1u << 16;
    (void)unpickle(reinterpret_cast<const std::byte*>(data), size, "data.pkl", loader, limits);
    return 0;
}
