#pragma once
// The inputs a run, a stepping session or an export of values uses, in one place: the files chosen
// with Run › Inputs… (remembered per file by the Document), else the `model.expected/` folder beside
// the file (which is also the reference its outputs are checked against), else the archive's sample
// inputs or generated ones (core/exec/run_compare.h picks). With chosen inputs, the outputs are
// checked against `model.expected/` only when the choice is that folder: other inputs give other outputs.
//
// Includes core/exec (oneTBB): include it before any Qt header.

#include "core/exec/run_compare.h"

namespace irlens::views {

class Document;

/// Histogram bins of a value's statistics (the Node pane), for runs and steps alike.
constexpr int kValueStatsBins = 24;

core::exec::InputRequest runInputRequest(const Document& document);

/// Checks `paths` as inputs of the program on screen (every file read, every value matched and
/// checked against the program) without running it: "" when they are usable, else the core's one line.
std::string checkInputFiles(const Document& document, const std::vector<std::string>& paths);

} // namespace irlens::views
