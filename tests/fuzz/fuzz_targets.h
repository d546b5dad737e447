#pragma once
// The four fuzz targets' bodies, callable outside libFuzzer. Each fuzz_<t>.cpp defines one of these and
// its LLVMFuzzerTestOneInput only calls it; the normal test suite (tests/fuzz_replay) links all four
// (built with IRLENS_FUZZ_REPLAY, which leaves out LLVMFuzzerTestOneInput) and replays
// tests/fuzz/regressions/<t>/ through them. Each returns the outcome in one line, the error message
// when the input is refused, so the replay can compare it with the expected one.
#include <cstddef>
#include <cstdint>
#include <string>

namespace irlens::fuzz {

std::string zipInput(const uint8_t* data, size_t size);    // fuzz_zip
std::string jsonInput(const uint8_t* data, size_t size);   // fuzz_json
std::string pickleInput(const uint8_t* data, size_t size); // fuzz_pickle
std::string loadInput(const uint8_t* data, size_t size);   // fuzz_load

} // namespace irlens::fuzz
