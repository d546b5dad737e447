#pragma once
// Finds ../shared (fixtures from other projects and generated programs). Tests that need it call
// IRLENS_REQUIRE_SHARED() and skip with a message when it is absent (a user's fresh clone); rows over
// fixture files call IRLENS_REQUIRE_FIXTURE(row), which lets the zoo's rows run (support/zoo_files.h).

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <string>
#include <vector>

namespace irlens::testing {

inline std::filesystem::path sharedDir() {
    if (const char* env = std::getenv("IRLENS_SHARED_DIR"); env && *env) return env;
#ifdef IRLENS_SHARED_DIR
    return IRLENS_SHARED_DIR;
#else
    return {};
#endif
}

inline bool haveShared() {
    auto d = sharedDir();
    return !d.empty() && std::filesystem::exists(d / "fixtures");
}

/// The folder support/zoo_files.h wrote the zoo into (empty until a test asks for the zoo).
inline std::filesystem::path& zooRootSlot() {
    static std::filesystem::path root;
    return root;
}

/// A fixture file: "zoo/<name>/..." in the zoo's folder (support/zoo_files.h), anything else under ../shared/fixtures.
inline std::filesystem::path fixture(const std::string& relative) {
    if (relative.rfind("zoo/", 0) == 0) return zooRootSlot() / relative.substr(4);
    return sharedDir() / "fixtures" / relative;
}

/// The bytes of a file ("" when it cannot be read).
inline std::string readFile(const std::filesystem::path& p) {
    std::ifstream f(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), {});
}

/// Names of the generated fixtures (each has model.pt2 and model.expected/).
inline const char* const kGeneratedFixtures[] = {"tiny_mlp", "resnet18", "mobilenet_v2", "transformer_layer", "tiny_gpt",
                                                 "dtype_mix", "buffer_mutation", "cond_branch", "dynamic_mlp", "deep_stack"};

/// Every generated fixture: the list above plus the comparison copy of tiny_gpt and the 12k-node
/// llama_deep (the execution and decomposition tests run them all; see support/zoo_files.h's allProgramFixtures).
inline const char* const kAllGeneratedFixtures[] = {"tiny_mlp", "resnet18", "mobilenet_v2", "transformer_layer", "tiny_gpt",
                                                    "dtype_mix", "buffer_mutation", "cond_branch", "dynamic_mlp", "deep_stack",
                                                    "tiny_gpt_edit", "llama_deep"};

namespace detail {
template <class Names>
std::vector<std::string> programFixturesOf(const Names& names, std::initializer_list<const char*> variants) {
    std::vector<std::string> out;
    if (!haveShared()) return out;
    for (const char* name : names)
        for (const char* file : variants) {
            std::string rel = std::string("generated/") + name + "/" + file;
            if (std::filesystem::exists(fixture(rel))) out.push_back(rel);
        }
    std::vector<std::string> real;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(fixture("real"))) {
        auto ext = entry.path().extension().string();
        if (ext == ".pt2" || ext == ".ep")
            real.push_back(std::filesystem::relative(entry.path(), sharedDir() / "fixtures").generic_string());
    }
    std::sort(real.begin(), real.end());
    out.insert(out.end(), real.begin(), real.end());
    return out;
}
} // namespace detail

} // namespace irlens::testing

/// Inside a Qt Test function: skip when ../shared is absent.
#define IRLENS_REQUIRE_SHARED()                                                                              \
    do {                                                                                                     \
        if (!::irlens::testing::haveShared())                                                                \
            QSKIP("../shared/fixtures not found (set IRLENS_SHARED_DIR); this test needs the shared fixtures"); \
    } while (0)

/// Inside a Qt Test function, after fetching the row's fixture: skip when it is not the zoo's ("zoo/...",
/// support/zoo_files.h) and ../shared is absent.
#define IRLENS_REQUIRE_FIXTURE(relative)                                                                     \
    do {                                                                                                     \
        if (!QString(relative).startsWith("zoo/")) IRLENS_REQUIRE_SHARED();                                  \
    } while (0)
