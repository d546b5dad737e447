#pragma once
// A shared fixture's program as the layout and printer tests want it: graph, signature and meta,
// without the weights.

#include "core/io/pt2_reader.h"
#include "support/shared_fixtures.h"

#include <string>

namespace irlens::testing {

/// fixtures/<relative> loaded without its weights; nullptr when it does not load.
inline core::ProgramPtr loadFixtureGraph(const std::string& relative) {
    core::LoadOptions options;
    options.loadWeights = false;
    auto r = core::loadPt2(fixture(relative).string(), options);
    return r.isOk() ? *r : nullptr;
}

} // namespace irlens::testing
