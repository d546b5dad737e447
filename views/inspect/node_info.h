#pragma once
// The node inspector's content for one node, as an InfoRow tree: op, overload, IR level, schema,
// arguments (linked to their producers), outputs as FakeTensor rows, stack trace (with the source
// around each line when the file exists here), module stack, source_fn_stack, torch_fn, raw meta.

#include "core/ir/program.h"
#include "views/inspect/info_tree_model.h"

#include <memory>

namespace irlens::views {

std::unique_ptr<InfoRow> buildNodeInfo(const core::Graph& graph, int nodeIndex);

/// An argument as Python would write it ("[1, 1]", "None", "%conv", "torch.float32").
QString formatArgument(const core::Argument& arg);
/// Symbols used in a tensor's sizes ("s0", "s1"), in order, without repeats.
QStringList symbolsOf(const core::TensorMeta& meta);
/// Up to `context` lines either side of `line` from `file` ("" when unreadable or too large).
QString sourceAround(const QString& file, int line, int context = 3);

} // namespace irlens::views
