#pragma once
// A whole file mapped read-only into memory, as a Storage that keeps the mapping alive: archives,
// tensor files and reference values are viewed in place, so opening a file costs no copy of its data.

#include "core/ir/status.h"
#include "core/ir/tensor_data.h"

#include <memory>
#include <string>

namespace irlens::core {

/// Maps the regular file `path` (an empty file gives an empty Storage). With `keepFd`, the open
/// descriptor is handed to the caller (who closes it) instead of being closed here. Errors name the
/// path and the system's reason.
Result<std::shared_ptr<const Storage>> mapFile(const std::string& path, int* keepFd = nullptr);

} // namespace irlens::core
