#pragma once
// Opens a .pt2 (PT2 archive or legacy zip), detects what it is by content, and loads a Program
// with weights, constants and sample inputs.

#include "core/ir/program.h"
#include "core/ir/status.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace irlens::core {

struct LoadOptions {
    std::string modelName;              // "" = the only model, or "model"
    bool loadWeights = true;
    std::function<void(double)> progress;   // 0..1, optional
    const std::atomic<bool>* cancel = nullptr;
};

/// What a file is, without loading the graph.
struct ArchiveInfo {
    enum class Kind { Pt2Archive, LegacyZip, AotInductorPackage, TorchScript, TorchSave, NotZip, Unknown };
    Kind kind = Kind::Unknown;
    std::string root;                 // PT2 archive root folder ("linear_3/"), "" for legacy
    std::vector<std::string> models;  // model names (PT2 archive: models/<m>.json; legacy: "model")
    std::vector<std::string> records; // every record name
    std::string description;          // one line a user reads: "PT2 archive, root 'archive/', 1 model"
};

Result<ArchiveInfo> inspectPt2(const std::string& path);

/// Loads one model. Errors name the record, the JSON path or the node.
Result<ProgramPtr> loadPt2(const std::string& path, const LoadOptions& options = {});

} // namespace irlens::core
