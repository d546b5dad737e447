// libFuzzer target: the whole load path (detect, inspect, program JSON, weights, constants, sample
// inputs) on a .pt2 file. loadPt2 maps a path, so each input is written to a per-process file in
// /dev/shm (tmpfs: no disk I/O) first.
#include "core/io/pt2_reader.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <unistd.h>

using namespace irlens::core;

static const std::string& scratchPath() {
    static const std::string path = [] {
        const char* dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
        return std::string(dir) + "/irlens_fuzz_load_" + std::to_string(getpid()) + ".pt2";
    }();
    return path;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string& path = scratchPath();
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return 0;
    if (size) std::fwrite(data, 1, size, f);
    std::fclose(f);
    (void)inspectPt2(path);
    (void)loadPt2(path);
    return 0;
}
