#pragma once
// The Export IR model: everything a .pt2 holds, as plain immutable data.
// A Program is built once (by the reader, the builder or a decomposition step) and shared as
// std::shared_ptr<const Program>; edits make a new Program.
//
// This header is also the umbrella of the model: the parts live in argument.h (values, targets),
// node_meta.h, graph.h (nodes and graphs), signature.h and tensor_data.h (weights and values).

#include "core/ir/argument.h"
#include "core/ir/graph.h"
#include "core/ir/node_meta.h"
#include "core/ir/signature.h"
#include "core/ir/tensor_data.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace irlens::core {

enum class ContainerKind { Pt2Archive, LegacyZip, Builder };
const char* containerKindName(ContainerKind k); // "PT2 archive", "legacy zip", "built in code"

struct SchemaVersion {
    int major = 8;
    int minor = 0;
    bool bareInteger = false; // the oldest files wrote a bare integer
    std::string toString() const { return bareInteger ? std::to_string(major) : std::to_string(major) + "." + std::to_string(minor); }
    bool operator==(const SchemaVersion&) const = default;
};

struct Program {
    // provenance
    ContainerKind container = ContainerKind::Builder;
    std::string modelName = "model";
    std::string sourcePath;

    // ExportedProgram
    SchemaVersion schemaVersion;
    /// The torch that exported the program, as the file's torch_version records it; empty when the
    /// file records none.
    std::string torchVersion;
    /// What irlens estimates instead when torchVersion is empty: "<=2.4" for a file without the field
    /// (torch added it in 2.5), "irlens-builder" for a program built in code. Files irlens writes keep
    /// it in graph_module.metadata (kTorchEstimateMetadataKey), never in torch_version, which other
    /// readers take for a version.
    std::string torchVersionEstimate;
    /// torchVersion, else its estimate: what `info` and the window's status show.
    const std::string& torchVersionOrEstimate() const { return torchVersion.empty() ? torchVersionEstimate : torchVersion; }
    std::map<std::string, int64_t> opsetVersion;
    std::vector<std::string> verifiers; // ["TRAINING"], ["ATEN"], ...
    std::string dialect;                // oldest files only
    std::vector<std::string> guardsCode;
    std::map<std::string, RangeConstraint> rangeConstraints;

    // GraphModule
    Graph graph;
    GraphSignature signature;
    std::vector<ModuleCallEntry> moduleCallGraph;
    std::map<std::string, std::string> metadata;
    std::string treespecNamedtupleFieldsJson; // raw JSON text, "" when absent

    // state
    std::map<std::string, TensorData> weights;   // parameters and persistent buffers by FQN
    std::map<std::string, Value> constants;      // tensor constants, non-persistent buffers, opaque objects
    std::vector<Value> sampleArgs;               // flattened positional sample inputs
    std::map<std::string, Value> sampleKwargs;
    bool hasSampleInputs = false;
    std::map<std::string, std::string> extraFiles;

    /// Things a reader tolerated but a user should know (an unexpected schema major, ...). Not compared.
    std::vector<std::string> warnings;

    /// True when the program is at the training IR (verifiers ["TRAINING"]).
    bool isTrainingDialect() const;
    /// The tensor for a graph input that the signature maps to a parameter, buffer or constant; nullptr otherwise.
    const TensorData* stateTensorFor(const InputSpec& spec) const;
};

using ProgramPtr = std::shared_ptr<const Program>;

/// Deep equality of graph, signature, metadata and state (weights compared byte for byte), ignoring
/// provenance (container, path). Returns an empty string when equal, else the first difference found.
std::string compareProgramsDetail(const Program& a, const Program& b);

} // namespace irlens::core
