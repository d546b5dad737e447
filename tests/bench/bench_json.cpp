// bench_json [RUNS] — the program JSON (models/model.json) of resnet18, deep_stack and llama_deep read
// side by side in one process, RUNS runs each (median [min-max] ms):
//
//   scan        irlens' own scanner into its flat records (json::JsonDoc::parse), what the decoder walks
//   decode      irlens' whole decodeProgramJson (scan + the Program built from the records)
//   simdjson    simdjson 3 DOM parse alone (with its copy into a padded buffer), a fresh parser each run
//   simd+flat   simdjson DOM parse, then its tree copied into the same flat records the decoder walks:
//               what replacing the scanner by simdjson would cost before any decoding (and it still
//               lacks the source offsets the decoder uses for raw JSON text and error messages)
//   ondemand    simdjson On-Demand touching every value once (a lower bound of a decoder written
//               against On-Demand)
//   nlohmann    nlohmann::json::parse into its DOM
//
// Not a test: run by hand on an idle machine. Built with simdjson when libsimdjson-dev is present.
#include "bench_stats.h"
#include "core/io/json_codec.h"
#include "core/io/json_decode_dom.h"
#include "core/io/zip_archive.h"
#include "support/shared_fixtures.h"

#include <nlohmann/json.hpp>
#ifdef IRLENS_HAVE_SIMDJSON
#include <simdjson.h>
#endif

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

using namespace irlens::core;
using irlens::bench::Spread;

namespace {

std::string cell(const Spread& s) {
    if (s.median <= 0) return "-";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f [%.2f-%.2f]", s.median, s.min, s.max);
    return buf;
}

template <class F>
Spread timed(int runs, F&& f) {
    auto ms = irlens::bench::timeRunsMs(runs, f, 1);
    return static_cast<int>(ms.size()) == runs ? irlens::bench::spread(ms) : Spread{};
}

#ifdef IRLENS_HAVE_SIMDJSON
// The decoder's record (json::JNode) filled from simdjson's tree, in pre-order with subtree ends.
void flatten(simdjson::dom::element e, std::string_view key, std::vector<json::JNode>& out) {
    const size_t idx = out.size();
    out.emplace_back();
    out[idx].key = key;
    uint32_t count = 0;
    switch (e.type()) {
    case simdjson::dom::element_type::ARRAY:
        out[idx].type = json::JType::Array;
        for (simdjson::dom::element c : simdjson::dom::array(e)) {
            flatten(c, {}, out);
            ++count;
        }
        break;
    case simdjson::dom::element_type::OBJECT:
        out[idx].type = json::JType::Object;
        for (simdjson::dom::key_value_pair kv : simdjson::dom::object(e)) {
            flatten(kv.value, kv.key, out);
            ++count;
        }
        break;
    case simdjson::dom::element_type::INT64: out[idx].type = json::JType::Int; out[idx].i = int64_t(e); break;
    case simdjson::dom::element_type::UINT64: out[idx].type = json::JType::Float; out[idx].d = double(uint64_t(e)); break;
    case simdjson::dom::element_type::DOUBLE: out[idx].type = json::JType::Float; out[idx].d = double(e); break;
    case simdjson::dom::element_type::STRING: out[idx].type = json::JType::String; break;
    case simdjson::dom::element_type::BOOL: out[idx].type = json::JType::Bool; out[idx].flags = bool(e); break;
    case simdjson::dom::element_type::NULL_VALUE: break;
    }
    out[idx].count = count;
    out[idx].end = static_cast<uint32_t>(out.size());
}

// Touches every value of an On-Demand document once; returns how many scalars it read.
size_t walk(simdjson::ondemand::value v) {
    size_t n = 0;
    switch (v.type()) {
    case simdjson::ondemand::json_type::array:
        for (auto c : v.get_array()) n += walk(c.value());
        return n;
    case simdjson::ondemand::json_type::object:
        for (auto f : v.get_object()) {
            (void)f.unescaped_key();
            n += walk(f.value());
        }
        return n;
    default:
        return v.raw_json_token().size() > 0;
    }
}
#endif

} // namespace

int main(int argc, char** argv) {
    const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 15;
    if (!irlens::testing::haveShared()) {
        std::fprintf(stderr, "bench_json: ../shared/fixtures not found (set IRLENS_SHARED_DIR)\n");
        return 2;
    }
    std::printf("program JSON read side by side, %d runs each, median [min-max] ms; load average %s\n\n", runs,
                irlens::bench::loadAverage().c_str());
    std::printf("%-12s %8s %20s %20s %20s %20s %20s %20s\n", "fixture", "JSON MiB", "scan", "decode", "simdjson", "simd+flat",
                "ondemand", "nlohmann");
    for (const char* name : {"resnet18", "deep_stack", "llama_deep"}) {
        const std::string path = irlens::testing::fixture(std::string("generated/") + name + "/model.pt2").string();
        auto zip = ZipArchive::openFile(path);
        if (!zip) { std::printf("%-12s %s\n", name, zip.error().c_str()); continue; }
        auto text = (*zip)->readText("model/models/model.json", uint64_t(1) << 31);
        if (!text) { std::printf("%-12s %s\n", name, text.error().c_str()); continue; }
        const std::string& js = *text;
        const Spread scan = timed(runs, [&] { json::JsonDoc doc; return doc.parse(js, 512).isOk(); });
        const Spread decode = timed(runs, [&] { return decodeProgramJson(js, "model.json").isOk(); });
        const Spread nl = timed(runs, [&] { return !nlohmann::json::parse(js, nullptr, false).is_discarded(); });
        Spread simd, flat, ondemand;
#ifdef IRLENS_HAVE_SIMDJSON
        // every reader starts from fresh buffers, as a load of one file does: a parser or record array
        // reused across runs would skip the page faults of its first use, which dominate at this size
        simd = timed(runs, [&] {
            simdjson::dom::parser parser;
            return !parser.parse(js.data(), js.size()).error();
        });
        flat = timed(runs, [&] {
            simdjson::dom::parser parser;
            simdjson::dom::element root;
            if (parser.parse(js.data(), js.size()).get(root)) return false;
            std::vector<json::JNode> records;
            records.reserve(js.size() / 12 + 16); // as JsonDoc::parse
            flatten(root, {}, records);
            return !records.empty();
        });
        ondemand = timed(runs, [&] {
            simdjson::ondemand::parser od;
            const simdjson::padded_string padded(js); // as the DOM parse, the copy into a padded buffer counts
            auto doc = od.iterate(padded);
            simdjson::ondemand::value root;
            if (doc.get_value().get(root)) return false;
            return walk(root) > 0;
        });
#endif
        std::printf("%-12s %8.2f %20s %20s %20s %20s %20s %20s\n", name, double(js.size()) / (1 << 20), cell(scan).c_str(),
                    cell(decode).c_str(), cell(simd).c_str(), cell(flat).c_str(), cell(ondemand).c_str(), cell(nl).c_str());
        std::fflush(stdout);
    }
    std::printf("\nload average at end %s\n", irlens::bench::loadAverage().c_str());
    return 0;
}
