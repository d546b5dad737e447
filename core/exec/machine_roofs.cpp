#include "core/exec/machine_roofs.h"

#include "core/exec/engine.h"
#include "core/exec/inputs.h"
#include "core/ir/builder.h"

#ifdef IRLENS_HAVE_DNNL
#include <oneapi/dnnl/dnnl.h>
#endif

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <thread>
#include <unistd.h>
#include <vector>

namespace irlens::core::exec {

namespace fs = std::filesystem;

namespace {

constexpr int kGemmRuns = 5;
constexpr int kTriadPasses = 5;
constexpr int64_t kMiB = int64_t(1) << 20;
constexpr const char* kCacheFormat = "irlens roofs 1";

std::string readFirstLine(const fs::path& path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

// "32768K" -> 33554432; 0 when unreadable.
int64_t parseCacheSize(const std::string& text) {
    char* end = nullptr;
    const long long n = std::strtoll(text.c_str(), &end, 10);
    if (end == text.c_str() || n <= 0) return 0;
    switch (*end) {
    case 'K': return n * 1024;
    case 'M': return n * kMiB;
    case 'G': return n * 1024 * kMiB;
    default: return n;
    }
}

// The one-minute load average of /proc/loadavg; -1 when unreadable.
double loadAverageNow() {
    std::ifstream in("/proc/loadavg");
    double load = -1;
    return in >> load ? load : -1.0;
}

std::string utcNow() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

// A one-node program: c = a @ b, all n x n float32.
Result<std::shared_ptr<ExecutionPlan>> gemmPlan(int64_t n) {
    ProgramBuilder b("roof_gemm");
    const TensorMeta square = makeTensorMeta(ScalarType::Float32, std::vector<int64_t>{n, n});
    b.userInput("a", square);
    b.userInput("b", square);
    b.call("torch.ops.aten.mm.default", "c").arg("self", "a").arg("mat2", "b").out(square);
    b.userOutput("c");
    IRLENS_ASSIGN_OR_RETURN(program, b.build());
    return ExecutionPlan::compile(program);
}

// Each thread's share of the triad, [begin, end) of n elements.
std::pair<int64_t, int64_t> shareOf(int64_t n, int threads, int k) { return {n * k / threads, n * (k + 1) / threads}; }

// Runs fn(k) for k in [0, threads): k = 0 on the calling thread.
template <class Fn>
void onThreads(int threads, Fn fn) {
    std::vector<std::thread> pool;
    for (int k = 1; k < threads; ++k) pool.emplace_back(fn, k);
    fn(0);
    for (auto& t : pool) t.join();
}

nlohmann::json entryJson(const MachineRoofs& r) {
    return {{"cpu", r.cpu}, {"gemm", r.gemmLibrary}, {"threads", r.threads}, {"peak_gflops", r.peakGflops},
            {"bandwidth_gbs", r.bandwidthGBs}, {"llc_bytes", r.llcBytes}, {"triad_bytes", r.triadBytes},
            {"gemm_size", r.gemmSize}, {"measure_seconds", r.measureSeconds}, {"measured_at", r.measuredAt},
            {"load_average", r.loadAverage}, {"cpus", r.cpus}};
}

bool matches(const nlohmann::json& e, const std::string& cpu, const std::string& gemm, int threads) {
    return e.is_object() && e.value("cpu", std::string()) == cpu && e.value("gemm", std::string()) == gemm && e.value("threads", -1) == threads;
}

// The cache file's entries; an unreadable or foreign file reads as none, with the reason in `note`.
nlohmann::json readCache(const fs::path& path, std::string& note) {
    std::error_code ec;
    if (!fs::exists(path, ec)) return nlohmann::json::array();
    std::ifstream in(path);
    const nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || doc.value("format", std::string()) != kCacheFormat || !doc.contains("entries") ||
        !doc["entries"].is_array()) {
        note = path.string() + " is not a roofs cache irlens wrote; measured again and rewrote it";
        return nlohmann::json::array();
    }
    return doc["entries"];
}

// The entry as MachineRoofs when it holds both roofs as positive numbers.
bool fromEntry(const nlohmann::json& e, MachineRoofs& r) {
    auto number = [&](const char* key) { return e.contains(key) && e[key].is_number() ? e[key].get<double>() : -1.0; };
    if (number("peak_gflops") <= 0 || number("bandwidth_gbs") <= 0) return false;
    r.peakGflops = number("peak_gflops");
    r.bandwidthGBs = number("bandwidth_gbs");
    r.llcBytes = static_cast<int64_t>(std::max(0.0, number("llc_bytes")));
    r.triadBytes = static_cast<int64_t>(std::max(0.0, number("triad_bytes")));
    r.gemmSize = static_cast<int64_t>(std::max(0.0, number("gemm_size")));
    r.measureSeconds = std::max(0.0, number("measure_seconds"));
    r.loadAverage = number("load_average");
    r.cpus = static_cast<int>(std::max(0.0, number("cpus")));
    r.measuredAt = e.value("measured_at", std::string());
    return true;
}

// Replaces this machine's entry in the cache (written to a temporary file, then renamed over it, so a
// reader never sees half a file). Returns "" or why it could not.
std::string writeCache(const fs::path& path, nlohmann::json entries, const MachineRoofs& r) {
    nlohmann::json kept = nlohmann::json::array();
    for (const auto& e : entries)
        if (!matches(e, r.cpu, r.gemmLibrary, r.threads)) kept.push_back(e);
    kept.push_back(entryJson(r));
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    if (ec) return "cannot create " + path.parent_path().string() + ": " + ec.message();
    const fs::path tmp = path.string() + ".tmp" + std::to_string(static_cast<long long>(::getpid()));
    {
        std::ofstream out(tmp);
        out << nlohmann::json{{"format", kCacheFormat}, {"entries", kept}}.dump(2) << "\n";
        if (!out) return "cannot write " + tmp.string();
    }
    fs::rename(tmp, path, ec);
    if (ec) {
        fs::remove(tmp, ec);
        return "cannot write " + path.string();
    }
    return {};
}

} // namespace

double MachineRoofs::attainableGflops(double flopsPerByte) const { return std::min(peakGflops, flopsPerByte * bandwidthGBs); }

std::string cpuModelName() {
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
        }
    return "unknown CPU";
}

std::string gemmLibraryName() {
#ifdef IRLENS_HAVE_DNNL
    const dnnl_version_t* v = dnnl_version();
    return "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch);
#else
    return "built-in loops";
#endif
}

int64_t lastLevelCacheBytes() {
    int bestLevel = 0;
    int64_t bytes = 0;
    std::error_code ec;
    for (const auto& dir : fs::directory_iterator("/sys/devices/system/cpu/cpu0/cache", ec)) {
        if (dir.path().filename().string().rfind("index", 0) != 0) continue;
        const std::string type = readFirstLine(dir.path() / "type");
        if (type != "Data" && type != "Unified") continue;
        const int level = std::atoi(readFirstLine(dir.path() / "level").c_str());
        const int64_t size = parseCacheSize(readFirstLine(dir.path() / "size"));
        if (level > bestLevel && size > 0) {
            bestLevel = level;
            bytes = size;
        }
    }
    return bytes;
}

int64_t triadFootprint(int64_t llcBytes) { return std::clamp<int64_t>(4 * llcBytes, 64 * kMiB, 1024 * kMiB); }

std::string defaultRoofCacheDir() {
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return (fs::path(xdg) / "irlens").string();
    if (const char* home = std::getenv("HOME"); home && *home) return (fs::path(home) / ".cache" / "irlens").string();
    return {};
}

Result<double> measureGemmGflops(int threads, int64_t n) {
    IRLENS_ASSIGN_OR_RETURN(plan, gemmPlan(n));
    IRLENS_ASSIGN_OR_RETURN(inputs, generateInputs(*plan, 1));
    Engine engine(plan);
    RunOptions options;
    options.threads = threads;
    double best = 0;
    for (int k = 0; k <= kGemmRuns; ++k) { // run 0 warms up: the output block, the library's first call
        IRLENS_ASSIGN_OR_RETURN(r, engine.run(inputs, options));
        if (k > 0 && r.wallNs > 0) best = std::max(best, 2.0 * static_cast<double>(n) * n * n / static_cast<double>(r.wallNs));
    }
    return best;
}

double measureTriadGBs(int threads, int64_t bytes) {
    threads = std::max(1, threads);
    const int64_t n = std::max<int64_t>(threads, bytes / (3 * static_cast<int64_t>(sizeof(float))));
    // not std::vector: its value-initialisation would touch every page on this thread; each thread
    // touches its own share first, as the kernels' outputs are touched by the thread that writes them
    std::unique_ptr<float[]> a(new float[static_cast<size_t>(n)]), b(new float[static_cast<size_t>(n)]), c(new float[static_cast<size_t>(n)]);
    onThreads(threads, [&](int k) {
        auto [lo, hi] = shareOf(n, threads, k);
        for (int64_t i = lo; i < hi; ++i) {
            a[i] = 0.f;
            b[i] = 1.f;
            c[i] = 2.f;
        }
    });
    const float s = 3.f;
    double bestSeconds = 0;
    for (int pass = 0; pass < kTriadPasses; ++pass) {
        const auto t0 = std::chrono::steady_clock::now();
        onThreads(threads, [&](int k) {
            auto [lo, hi] = shareOf(n, threads, k);
            float* __restrict pa = a.get();
            const float* __restrict pb = b.get();
            const float* __restrict pc = c.get();
            for (int64_t i = lo; i < hi; ++i) pa[i] = pb[i] + s * pc[i];
        });
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (pass == 0 || seconds < bestSeconds) bestSeconds = seconds;
    }
    // read a result so the passes cannot be optimised away
    if (a[static_cast<size_t>(n - 1)] != 7.f) return 0;
    return bestSeconds > 0 ? 3.0 * static_cast<double>(sizeof(float)) * static_cast<double>(n) / bestSeconds / 1e9 : 0.0;
}

Result<MachineRoofs> measureRoofs(int threads) {
    const auto t0 = std::chrono::steady_clock::now();
    MachineRoofs r;
    r.cpu = cpuModelName();
    r.gemmLibrary = gemmLibraryName();
    r.threads = std::max(1, threads);
    r.gemmSize = 1024;
    r.cpus = Engine::hardwareThreads();
    r.loadAverage = loadAverageNow();
    auto peak = measureGemmGflops(r.threads, r.gemmSize);
    if (!peak) return peak.status().withContext("measuring the GEMM roof");
    r.peakGflops = *peak;
    r.llcBytes = lastLevelCacheBytes();
    r.triadBytes = triadFootprint(r.llcBytes);
    r.bandwidthGBs = measureTriadGBs(r.threads, r.triadBytes);
    if (r.peakGflops <= 0 || r.bandwidthGBs <= 0) return Status::error("measuring the roofs gave no rate (the clock did not advance)");
    r.measureSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.measuredAt = utcNow();
    return r;
}

Result<MachineRoofs> machineRoofs(int threads, const RoofOptions& options) {
    threads = std::max(1, threads);
    const std::string dir = options.cacheDir.empty() ? defaultRoofCacheDir() : options.cacheDir;
    const fs::path path = dir.empty() ? fs::path() : fs::path(dir) / "roofs.json";
    const std::string cpu = cpuModelName(), gemm = gemmLibraryName();
    std::string note;
    nlohmann::json entries = path.empty() ? nlohmann::json::array() : readCache(path, note);
    if (!options.remeasure)
        for (const auto& e : entries) {
            MachineRoofs r;
            if (!matches(e, cpu, gemm, threads) || !fromEntry(e, r)) continue;
            r.cpu = cpu;
            r.gemmLibrary = gemm;
            r.threads = threads;
            r.fromCache = true;
            r.cachePath = path.string();
            return r;
        }
    IRLENS_ASSIGN_OR_RETURN(r, measureRoofs(threads));
    r.cachePath = path.string();
    r.cacheNote = note;
    if (path.empty()) {
        r.cacheNote = "neither XDG_CACHE_HOME nor HOME is set: the roofs are not cached";
    } else if (std::string why = writeCache(path, entries, r); !why.empty()) {
        r.cacheNote = why + ": the roofs are not cached";
    }
    return r;
}

} // namespace irlens::core::exec
