#pragma once
// Opens a .pt2 (PT2 archive or legacy zip), detects what it is by content, and loads a Program
// with weights, constants and sample inputs.

#include "core/ir/program.h"
#include "core/ir/status.h"

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace irlens::core {

struct LoadOptions {
    std::string modelName;              // "" = the only model, or "model"
    bool loadWeights = true;
    std::function<void(double)> progress;   // 0..1, optional
    const std::atomic<bool>* cancel = nullptr;
    /// Check the CRC of every record read, weights included (verify and run do; a weight record whose
    /// CRC does not match otherwise loads and runs). Off by default: opening a program then costs
    /// time in proportion to its graph, not its weights.
    bool checkCrc = false;
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

class ZipArchive;

/// The container layer on its own (what loadPt2 is made of): open and detect once, then read the
/// program JSON and the state (weights, constants, sample inputs, extra files) of one model.
class Pt2Reader {
public:
    /// `checkCrc`: every record read through this reader has its CRC checked (LoadOptions::checkCrc).
    static Result<std::unique_ptr<Pt2Reader>> open(const std::string& path, bool checkCrc = false);

    const ArchiveInfo& info() const { return m_info; }
    const ZipArchive& archive() const { return *m_zip; }
    const std::string& path() const { return m_path; }

    /// "" picks the only model (or "model"); an unknown name is an error listing the models.
    Result<std::string> resolveModel(const std::string& requested) const;
    /// The program JSON record's name ("linear_3/models/model.json", "serialized_exported_program.json").
    std::string programRecord(const std::string& model) const;
    /// The program JSON bytes, viewed in place when the record is stored.
    Result<std::shared_ptr<const Storage>> programJson(const std::string& model) const;
    /// Fills weights, constants, sample inputs and extra files of `program` (progress from `from` to 1).
    Status loadState(Program& program, const std::string& model, const LoadOptions& options, double from = 0) const;

private:
    Pt2Reader() = default;
    std::string m_path;
    std::shared_ptr<ZipArchive> m_zip;
    ArchiveInfo m_info;
};

} // namespace irlens::core
