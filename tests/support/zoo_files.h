#pragma once
// The zoo (support/zoo_programs.h) as files, laid out like ../shared's generated fixtures: written once per
// test process with the project's writer into a temporary folder, `<name>/model.pt2` beside a copy of
// `<name>/model.expected/` (PyTorch's numbers for the program, committed in tests/zoo/references/ and made by
// tests/zoo/make_references.py), and zoo/deep_residual_stack/model.pt2 (1,682 nodes) for the big-graph
// paths. Their paths under fixture() are "zoo/<name>/...". Also the list of program
// files the file-level tests iterate over: the zoo always, the shared fixtures when ../shared is present.

#include "core/io/pt2_writer.h"
#include "support/shared_fixtures.h"
#include "support/zoo_programs.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <system_error>
#include <unistd.h>
#include <vector>

namespace irlens::testing {

/// Where the committed PyTorch references of the zoo are.
inline std::filesystem::path zooReferencesDir() { return std::filesystem::path(IRLENS_SOURCE_DIR) / "tests" / "zoo" / "references"; }

/// Writes every zoo program as `<dir>/<name>/model.pt2`; the first error otherwise.
inline core::Status writeZooPrograms(const std::filesystem::path& dir) {
    for (const auto& z : zoo::programs()) {
        std::error_code ec;
        std::filesystem::create_directories(dir / z.name, ec);
        if (ec) return core::Status::error((dir / z.name).string() + ": " + ec.message());
        auto saved = core::savePt2(*z.make(), (dir / z.name / "model.pt2").string());
        if (!saved.isOk()) return saved.withContext(std::string("zoo program ") + z.name);
    }
    return core::Status::ok();
}

namespace detail {
// Removes the folder when the test process ends.
struct ZooFolder {
    std::filesystem::path path;
    ~ZooFolder() {
        std::error_code ec;
        if (!path.empty()) std::filesystem::remove_all(path, ec);
    }
};

inline std::filesystem::path writeZoo() {
    static ZooFolder folder;
    folder.path = std::filesystem::temp_directory_path() / ("irlens-zoo-" + std::to_string(::getpid()));
    std::error_code ec;
    std::filesystem::remove_all(folder.path, ec);
    // A zoo program that does not build or save is a mistake in the test kit: stop every test loudly.
    if (auto written = writeZooPrograms(folder.path); !written.isOk()) {
        std::fprintf(stderr, "writing the zoo: %s\n", written.message().c_str());
        std::abort();
    }
    // the big graph of the layout and view tests, as a file too (not in zoo::programs(): nothing runs it)
    const auto deep = folder.path / "deep_residual_stack";
    std::filesystem::create_directories(deep);
    if (auto saved = core::savePt2(*zoo::byName("deep_residual_stack"), (deep / "model.pt2").string()); !saved.isOk()) {
        std::fprintf(stderr, "writing the zoo: %s\n", saved.message().c_str());
        std::abort();
    }
    for (const auto& z : zoo::programs()) {
        const auto references = zooReferencesDir() / z.name;
        if (std::filesystem::exists(references))
            std::filesystem::copy(references, folder.path / z.name / "model.expected", std::filesystem::copy_options::recursive);
    }
    return folder.path;
}
} // namespace detail

/// The folder holding the zoo's files (written on first use in this process).
inline const std::filesystem::path& zooDir() {
    static const std::filesystem::path dir = [] {
        auto d = detail::writeZoo();
        zooRootSlot() = d;
        return d;
    }();
    return dir;
}

/// Names of the zoo programs, smallest first.
inline std::vector<std::string> zooNames() {
    std::vector<std::string> out;
    for (const auto& z : zoo::programs()) out.push_back(z.name);
    return out;
}

/// "zoo/<name>/model.pt2" for every zoo program (files written; fixture() resolves them).
inline std::vector<std::string> zooProgramFiles() {
    zooDir();
    std::vector<std::string> out;
    for (const auto& z : zoo::programs()) out.push_back(std::string("zoo/") + z.name + "/model.pt2");
    return out;
}

/// The folder (for fixture()) of a program named in a test row: "zoo/<name>" as it is, a generated fixture's
/// name under "generated/"; the zoo is written first.
inline std::string programFolder(const std::string& name) {
    if (name.rfind("zoo/", 0) == 0) {
        zooDir();
        return name;
    }
    return "generated/" + name;
}

/// A generated program of ../shared and the zoo program of the same structure that stands in for it.
struct ZooTwin {
    const char* generated; // "<name>/<file>" under ../shared/fixtures/generated
    const char* zoo;       // a name of zoo::programs()
};

/// The generated programs a zoo program stands in for: the same model (tiny_mlp and its training IR, dtype_mix,
/// buffer_mutation, cond_branch, dynamic_mlp) or the same structure at a size a test affords (a GPT, a BatchNorm
/// ResNet, a depthwise MobileNet, a deep stack of decoder blocks). A test whose purpose is not another writer's
/// bytes (meta, verifier, decomposition, execution, printing, writing) runs the zoo program and not these; what
/// the zoo has no twin of (the legacy archive, transformer_layer and its training IR) and the real files from
/// other projects still come from ../shared.
inline constexpr ZooTwin kZooTwins[] = {
    {"tiny_mlp/model.pt2", "mlp"},
    {"tiny_mlp/model.training.pt2", "mlp_training"},
    {"dtype_mix/model.pt2", "dtype_mix"},
    {"buffer_mutation/model.pt2", "buffer_mutation"},
    {"cond_branch/model.pt2", "cond_branch"},
    {"dynamic_mlp/model.pt2", "dynamic_mlp"},
    {"tiny_gpt/model.pt2", "gpt_block"},
    {"tiny_gpt/model.training.pt2", "gpt_training"},
    {"tiny_gpt_edit/model.pt2", "gpt_block"},
    {"resnet18/model.pt2", "conv_net"},
    {"mobilenet_v2/model.pt2", "depthwise_net"},
    {"mobilenet_v2/model.training.pt2", "depthwise_net_training"},
    {"deep_stack/model.pt2", "decoder_stack"},
    {"llama_deep/model.pt2", "decoder_stack"},
};

/// Whether `relative` ("generated/<name>/<file>", or "<name>/<file>") is a generated program the zoo stands in for.
inline bool hasZooTwin(std::string relative) {
    if (relative.rfind("generated/", 0) == 0) relative = relative.substr(10);
    for (const auto& twin : kZooTwins)
        if (relative == twin.generated) return true;
    return false;
}

namespace detail {
inline std::vector<std::string> withZooFirst(std::vector<std::string> shared) {
    auto out = zooProgramFiles();
    for (auto& rel : shared)
        if (!hasZooTwin(rel)) out.push_back(std::move(rel));
    return out;
}
} // namespace detail

/// Relative paths (for fixture()) of the program files the file-level tests iterate over: every zoo program,
/// then, when ../shared is present, each generated program's `variants` that exist and that the zoo has no twin
/// of (kZooTwins), and every real .pt2/.ep file.
inline std::vector<std::string> programFixtures(
    std::initializer_list<const char*> variants = {"model.pt2", "model.training.pt2", "model.legacy.pt2"}) {
    return detail::withZooFirst(detail::programFixturesOf(kGeneratedFixtures, variants));
}

/// The same over every generated fixture of kAllGeneratedFixtures.
inline std::vector<std::string> allProgramFixtures(
    std::initializer_list<const char*> variants = {"model.pt2", "model.training.pt2", "model.legacy.pt2"}) {
    return detail::withZooFirst(detail::programFixturesOf(kAllGeneratedFixtures, variants));
}

} // namespace irlens::testing
