#pragma once
// Writes a Program as a PT2 archive in the torch 2.9+ layout (schema 8.x, raw weights with payload
// configs, sample inputs as a torch.save pickle, 64-byte aligned stored records).

#include "core/ir/program.h"
#include "core/ir/status.h"

#include <string>

namespace irlens::core {

/// "irlens <version>": what savePt2 records as the file's writer (graph_module.metadata["irlens_writer"],
/// see kWriterMetadataKey), so a file irlens rewrote at schema 8.12 does not pass for torch's own output.
std::string irlensWriterName();

/// Saves atomically: writes a temporary file beside `path`, then renames it. A failed save leaves
/// an existing file untouched. The program JSON records irlensWriterName() as its writer.
Status savePt2(const Program& program, const std::string& path);

} // namespace irlens::core
