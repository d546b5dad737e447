#pragma once
// Graphviz DOT text of a program's flat graph: one node per placeholder, call_function node and the
// output; node labels carry the op and the output shape, edges the shape of the value they carry.
// Feed it to `dot -Tsvg`. HOP subgraphs are not expanded (the HOP node names them).

#include "core/ir/program.h"

#include <string>

namespace irlens::core {

struct DotOptions {
    bool includePlaceholders = true; // parameters, buffers and inputs as ellipses
    bool includeWeights = true;      // when false, parameter/buffer/constant placeholders are left out
    std::string rankdir = "TB";
};

std::string exportDot(const Program& program, const DotOptions& options = {});

/// Escapes text for a double-quoted DOT string.
std::string dotEscape(const std::string& text);

} // namespace irlens::core
