// libFuzzer target: the whole load path (detect, inspect, program JSON, weights, constants, sample
// inputs) on a .pt2 file. loadPt2 maps a path, so each input is written to a per-process file in
// /dev/shm (tmpfs: no disk I/O) first.
#include "fuzz_targets.h"

#include "core/io/pt2_reader.h"

#include <cstdio>
#include <cstdlib>
#include <unistd.h>

using namespace irlens::core;

static const std::string& scratchPath() {
    static const std::string path = [] {
        const char* dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
        return std::string(dir) + "/irlens_fuzz_load_" + std::to_string(getpid()) + ".pt2";
    }();
    return path;
}

static void removeScratch() { std::remove(scratchPath().c_str()); }

// Messages name the scratch file; the outcome says <file> instead so it does not depend on the pid.
static std::string withoutPath(std::string message) {
    const std::string& path = scratchPath();
    for (size_t at; (at = message.find(path)) != std::string::npos;) message.replace(at, path.size(), "<file>");
    return message;
}

std::string irlens::fuzz::loadInput(const uint8_t* data, size_t size) {
    const std::string& path = scratchPath();
    static const bool cleanup = std::atexit(removeScratch) == 0; // leave nothing in /dev/shm
    (void)cleanup;
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return "cannot write " + path;
    if (size) std::fwrite(data, 1, size, f);
    std::fclose(f);
    auto info = inspectPt2(path);
    auto program = loadPt2(path);
    std::string outcome = info ? info->description : "inspect: " + info.error();
    outcome += program ? "; loaded, " + std::to_string((*program)->graph.nodes.size()) + " nodes"
                       : "; load: " + program.error();
    return withoutPath(outcome);
}

#ifndef IRLENS_FUZZ_REPLAY
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    (void)irlens::fuzz::loadInput(data, size);
    return 0;
}
#endif
