// libFuzzer target: the program JSON decoder (every schema era), as loadPt2 calls it on models/<m>.json.
#include "fuzz_targets.h"

#include "core/io/json_codec.h"

#include <cstdio>
#include <string_view>

using namespace irlens::core;

std::string irlens::fuzz::jsonInput(const uint8_t* data, size_t size) {
    std::string_view json(reinterpret_cast<const char*>(data), size);
    auto program = decodeProgramJson(json, "models/model.json");
    if (!program) return program.error();
    // A decoded program must survive re-encoding (the writer walks every field the decoder filled), and
    // what irlens writes it must read back: a refusal here is a finding, reported as such.
    const std::string encoded = encodeProgramJson(**program);
    auto again = decodeProgramJson(encoded, "re-encoded.json");
    if (!again) return "ROUNDTRIP FAILED: " + again.error();
    return "decoded, " + std::to_string((*program)->graph.nodes.size()) + " nodes";
}

#ifndef IRLENS_FUZZ_REPLAY
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string outcome = irlens::fuzz::jsonInput(data, size);
    if (outcome.rfind("ROUNDTRIP FAILED", 0) == 0) {
        std::fprintf(stderr, "%s\n", outcome.c_str());
        __builtin_trap();
    }
    return 0;
}
#endif
