// bench_load [RUNS] — full load (container + graph + weights + sample inputs) of every generated
// fixture, median and spread over RUNS runs; for resnet18 and deep_stack also the JSON decode alone and
// Python's json.load of the same models/model.json (in-process timing, median of RUNS), side by side.
// Not a test: run by hand on an idle machine.
#include "core/io/json_codec.h"
#include "core/io/pt2_reader.h"
#include "core/io/zip_archive.h"
#include "core/ir/large_pages.h"
#include "bench_stats.h"
#include "support/shared_fixtures.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace irlens::core;

namespace {

using irlens::bench::Spread;

// Median and spread of `runs` timed calls of f; all 0 when a call fails.
template <class F>
Spread timeRuns(int runs, F&& f) {
    auto ms = irlens::bench::timeRunsMs(runs, f);
    return static_cast<int>(ms.size()) == runs ? irlens::bench::spread(ms) : Spread{};
}

// Python's json.load of `file`, RUNS times inside one python3 process (the file opened and read each
// time, as json.load(open(...)) does): median, min and max in ms; median < 0 on failure.
Spread pythonJsonLoad(const std::string& file, int runs) {
    std::string cmd = "python3 -c \"import json,time,statistics,sys\n"
                      "ts=[]\n"
                      "for _ in range(" + std::to_string(runs) + "):\n"
                      "    t=time.perf_counter()\n"
                      "    json.load(open(sys.argv[1]))\n"
                      "    ts.append((time.perf_counter()-t)*1000)\n"
                      "print(statistics.median(ts), min(ts), max(ts))\" " + file;
    Spread s;
    s.median = -1;
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return s;
    if (std::fscanf(p, "%lf %lf %lf", &s.median, &s.min, &s.max) != 3) s.median = -1;
    pclose(p);
    return s;
}

} // namespace

int main(int argc, char** argv) {
    irlens::core::preferLargePages(); // as the executables do
    const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 10;
    if (!irlens::testing::haveShared()) {
        std::fprintf(stderr, "bench_load: ../shared/fixtures not found (set IRLENS_SHARED_DIR)\n");
        return 2;
    }
    std::printf("full load (loadPt2: container, graph JSON, weights viewed in place, sample inputs), %d runs\n\n", runs);
    std::printf("%-20s %7s %9s %10s %10s %10s\n", "fixture", "nodes", "file MiB", "median ms", "min ms", "max ms");
    for (const char* name : irlens::testing::kGeneratedFixtures) {
        const std::string path = irlens::testing::fixture(std::string("generated/") + name + "/model.pt2").string();
        size_t nodes = 0;
        Spread s = timeRuns(runs, [&] {
            auto p = loadPt2(path);
            if (!p) { std::fprintf(stderr, "%s: %s\n", name, p.error().c_str()); return false; }
            nodes = (*p)->graph.nodes.size();
            return true;
        });
        std::ifstream f(path, std::ios::binary | std::ios::ate);
        std::printf("%-20s %7zu %9.1f %10.2f %10.2f %10.2f\n", name, nodes, double(f.tellg()) / (1 << 20), s.median, s.min, s.max);
    }

    std::printf("\nmodel.json: irlens decode and full load vs Python json.load (same bytes; %d runs each, median [min-max])\n\n", runs);
    std::printf("%-12s %8s %18s %20s %20s %8s %8s\n", "fixture", "JSON MiB", "decode ms", "loadPt2 ms", "json.load ms",
                "decode x", "load x");
    for (const char* name : {"resnet18", "deep_stack"}) {
        const std::string path = irlens::testing::fixture(std::string("generated/") + name + "/model.pt2").string();
        auto zip = ZipArchive::openFile(path);
        if (!zip) { std::fprintf(stderr, "%s\n", zip.error().c_str()); return 2; }
        auto json = (*zip)->readText("model/models/model.json", uint64_t(1) << 31);
        if (!json) { std::fprintf(stderr, "%s\n", json.error().c_str()); return 2; }
        std::string tmplText = (std::filesystem::temp_directory_path() / "irlens_bench_XXXXXX").string();
        std::vector<char> tmplBuf(tmplText.begin(), tmplText.end());
        tmplBuf.push_back('\0');
        char* tmpl = tmplBuf.data();
        int fd = mkstemp(tmpl);
        if (fd < 0) return 2;
        if (write(fd, json->data(), json->size()) != ssize_t(json->size())) return 2;
        close(fd);
        Spread decode = timeRuns(runs, [&] { return decodeProgramJson(*json, "model.json").isOk(); });
        Spread load = timeRuns(runs, [&] { return loadPt2(path).isOk(); });
        Spread py = pythonJsonLoad(std::string(tmpl), runs);
        unlink(tmpl);
        auto cell = [](const Spread& st) {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%.2f [%.2f-%.2f]", st.median, st.min, st.max);
            return std::string(buf);
        };
        std::printf("%-12s %8.1f %18s %20s %20s %8.2f %8.2f\n", name, double(json->size()) / (1 << 20), cell(decode).c_str(),
                    cell(load).c_str(), cell(py).c_str(), py.median > 0 ? py.median / decode.median : 0,
                    py.median > 0 ? py.median / load.median : 0);
    }
    std::printf("\n(x = json.load median / irlens median; > 1 means irlens is faster)\n");
    return 0;
}
