#pragma once
// A fixture's program (a zoo file or one of ../shared) as the layout and printer tests want it: graph,
// signature and meta, without the weights.

#include "core/io/pt2_reader.h"
#include "support/zoo_files.h"

#include <string>

namespace irlens::testing {

/// fixture(<relative>) loaded without its weights (the zoo written first for "zoo/..."); nullptr when it does not load.
inline core::ProgramPtr loadFixtureGraph(const std::string& relative) {
    if (relative.rfind("zoo/", 0) == 0) zooDir();
    core::LoadOptions options;
    options.loadWeights = false;
    auto r = core::loadPt2(fixture(relative).string(), options);
    return r.isOk() ? *r : nullptr;
}

} // namespace irlens::testing
