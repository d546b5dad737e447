// irlens-cli records FILE [--check]: what the container is and every record in it, without loading the
// graph; --check has libzip read the archive too and recomputes every CRC.
// Works on anything that is a ZIP (AOTInductor packages, torch.save look-alikes included), so a user
// can see why a file is refused.
#include "app/cli/commands.h"
#include "core/io/pt2_reader.h"
#include "core/io/zip_archive.h"
#include "core/io/zip_crosscheck.h"

#include <cstdio>

namespace irlens::cli {
namespace {

using namespace irlens::core;

const char* methodName(uint16_t m) { return m == 0 ? "stored" : m == 8 ? "deflate" : "other"; }

int runRecords(const Args& args) {
    if (args.positional().size() != 1) return fail(Unusable, args.usage());
    const std::string path = args.positional()[0];
    auto reader = Pt2Reader::open(path);
    if (!reader) {
        auto info = inspectPt2(path); // a non-ZIP file is described rather than reported as damaged
        return fail(Unusable, info && info->kind == ArchiveInfo::Kind::NotZip ? path + ": " + info->description : reader.error());
    }
    const ArchiveInfo& info = (*reader)->info();
    std::printf("file:      %s\n", path.c_str());
    std::printf("container: %s\n", info.description.c_str());
    if (!info.models.empty()) {
        std::printf("models:   ");
        for (const auto& m : info.models) std::printf(" %s", m.c_str());
        std::printf("\n");
    }
    const auto& entries = (*reader)->archive().entries();
    std::printf("records:   %zu\n\n", entries.size());
    std::printf("%-8s %12s %12s %12s %5s  %s\n", "method", "size", "compressed", "offset", "al64", "name");
    for (const auto& e : entries)
        std::printf("%-8s %12llu %12llu %12llu %5s  %s\n", methodName(e.method), (unsigned long long)e.size,
                    (unsigned long long)e.compressedSize, (unsigned long long)e.dataOffset,
                    e.dataOffset % 64 == 0 ? "yes" : "no", e.name.c_str());
    if (args.has("--check")) {
        auto check = crossCheckWithLibzip((*reader)->archive());
        if (!check) return fail(CheckFailed, check.error());
        std::printf("\ncheck:     libzip agrees on all %llu records; %llu bytes, every CRC matches\n",
                    (unsigned long long)check->records, (unsigned long long)check->bytesChecked);
    }
    return Ok;
}

const CommandRegistration registeredInspect({
    .name = "records",
    .forms = {"FILE [--check]"},
    .summary = "list the container kind, models and every ZIP record (no graph load); --check: libzip cross-check and CRCs",
    .details = "Works on any ZIP file (AOTInductor packages and torch.save files too), so it shows why a file is refused.",
    .operands = {{"FILE", "a .pt2 or any other ZIP file"}},
    .flags = {{"--check", "", "also have libzip read the archive and recompute every record's CRC"}},
    .exits = {exitDone("listed (and with --check, every record reads back and every CRC matches)"),
              {CheckFailed, "--check found a record that does not read back or whose CRC differs"},
              exitUnusable()},
    .run = runRecords,
});

} // namespace
} // namespace irlens::cli
