#pragma once
// The ExportedProgram JSON (models/<m>.json, serialized_exported_program.json) for every schema era.

#include "core/ir/program.h"
#include "core/ir/status.h"

#include <memory>
#include <string>
#include <string_view>

namespace irlens::core {

struct JsonDecodeOptions {
    size_t maxDepth = 512;    // nesting limit (hostile files); values above 4096 are clamped
};

/// Decodes the program JSON into a Program (graph, signature, range constraints, module call graph,
/// versions, verifiers). Leaves weights/constants/sample inputs empty: the container reader fills them.
/// `recordName` is used in error messages ("models/model.json: $.graph_module.graph.nodes[3].target: ...").
/// Tolerated oddities (a schema major other than 8, the 2.1 signature form) land in Program::warnings.
Result<std::shared_ptr<Program>> decodeProgramJson(std::string_view json, const std::string& recordName,
                                                   const JsonDecodeOptions& options = {});

/// The schema version encodeProgramJson writes, whatever the program was read from: 8.12 (torch 2.9's
/// archive era; every field we write exists there, newer optional ones only when the program has them).
inline constexpr int kEncodedSchemaMajor = 8;
inline constexpr int kEncodedSchemaMinor = 12;

/// The graph_module.metadata key that names the program that wrote the file ("irlens 0.1.0"). torch's
/// deserializer reads only "custom" from that map and ignores other keys, so every loader tolerates it;
/// torch_version keeps naming the torch that exported the graph (loaders do not read it either, and it is
/// the only record of where the ops' semantics come from).
inline constexpr const char* kWriterMetadataKey = "irlens_writer";
/// The graph_module.metadata key holding Program::torchVersionEstimate when the program records no
/// torch version ("<=2.4"): torch_version is then left out, so that no reader takes the estimate for
/// a version. The decoder moves it back out of the metadata.
inline constexpr const char* kTorchEstimateMetadataKey = "irlens_torch_version_estimate";

/// Encodes a Program as schema-8 JSON (current producers' form: single-key unions, {major, minor},
/// `kind` on named arguments, sympy expressions kept as stored). A non-empty `writer` is recorded under
/// graph_module.metadata[kWriterMetadataKey], replacing an earlier writer's.
std::string encodeProgramJson(const Program& program, const std::string& writer = {});

/// TensorMeta as schema-8 JSON (also the `tensor_meta` of payload configs; the reader parses those).
std::string encodeTensorMetaJson(const TensorMeta& meta);


} // namespace irlens::core
