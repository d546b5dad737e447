// libFuzzer target: the program JSON decoder (every schema era), as loadPt2 calls it on models/<m>.json.
#include "core/io/json_codec.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

using namespace irlens::core;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view json(reinterpret_cast<const char*>(data), size);
    auto program = decodeProgramJson(json, "models/model.json");
    // A decoded program must survive re-encoding: the writer walks every field the decoder filled.
    if (program) (void)encodeProgramJson(**program);
    return 0;
}
