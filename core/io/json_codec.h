#pragma once
// The ExportedProgram JSON (models/<m>.json, serialized_exported_program.json) for every schema era.

#include "core/ir/program.h"
#include "core/ir/status.h"

#include <memory>
#include <string>
#include <string_view>

namespace irlens::core {

struct JsonDecodeOptions {
    size_t maxDepth = 512;    // nesting limit (hostile files)
};

/// Decodes the program JSON into a Program (graph, signature, range constraints, module call graph,
/// versions, verifiers). Leaves weights/constants/sample inputs empty: the container reader fills them.
/// `recordName` is used in error messages ("models/model.json: $.graph_module.graph.nodes[3].target: ...").
Result<std::shared_ptr<Program>> decodeProgramJson(std::string_view json, const std::string& recordName,
                                                   const JsonDecodeOptions& options = {});

/// Encodes a Program as schema-8 JSON (current producers' form: single-key unions, {major, minor}).
std::string encodeProgramJson(const Program& program);

} // namespace irlens::core
