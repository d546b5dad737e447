#pragma once
// The data a report page draws, as JSON (html_report.h). Keys are short: a 12,000-node program
// holds them 12,000 times.

#include "core/ir/program.h"

#include <nlohmann/json.hpp>

namespace irlens::core::detail {

/// A program as the page's graph view reads it: nodes (target, family, module, producers, `meta['val']`,
/// FX call text, stack trace), graph inputs, outputs, the module tree with its folded repeated
/// blocks, the signature and a summary of the file.
nlohmann::json programJson(const Program& program);

} // namespace irlens::core::detail
