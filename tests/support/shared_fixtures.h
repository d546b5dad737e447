#pragma once
// Finds ../shared (fixtures from other projects and generated programs). Tests that need it call
// IRLENS_REQUIRE_SHARED() and skip with a message when it is absent (a user's fresh clone).

#include <cstdlib>
#include <filesystem>
#include <string>

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

inline std::filesystem::path fixture(const std::string& relative) { return sharedDir() / "fixtures" / relative; }

/// Names of the generated fixtures (each has model.pt2 and model.expected/).
inline const char* const kGeneratedFixtures[] = {"tiny_mlp", "resnet18", "mobilenet_v2", "transformer_layer", "tiny_gpt",
                                                 "dtype_mix", "buffer_mutation", "cond_branch", "dynamic_mlp", "deep_stack"};

} // namespace irlens::testing

/// Inside a Qt Test function: skip when ../shared is absent.
#define IRLENS_REQUIRE_SHARED()                                                                              \
    do {                                                                                                     \
        if (!::irlens::testing::haveShared())                                                                \
            QSKIP("../shared/fixtures not found (set IRLENS_SHARED_DIR); this test needs the shared fixtures"); \
    } while (0)
