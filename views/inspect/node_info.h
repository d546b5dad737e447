#pragma once
// The node inspector's content for one node, as an InfoRow tree, named as the Export IR spec and
// torch.fx name things (opcode, target, args / kwargs, meta['val'] ...): op, overload, op level, schema,
// arguments (linked to their producers), outputs as FakeTensor rows, stack trace (with the source
// around each line when the file exists here), module stack, source_fn_stack, torch_fn, raw meta.

#include "core/ir/program.h"
#include "core/ir/value_index.h"
#include "views/inspect/info_tree_model.h"

#include <memory>

namespace irlens::views {

/// `program` (optional) adds the program's dialect beside the op's level; `values` (optional, built
/// here when absent) is the graph's producers and users, kept by callers that ask for many nodes.
std::unique_ptr<InfoRow> buildNodeInfo(const core::Graph& graph, int nodeIndex, const core::Program* program = nullptr,
                                       const core::ValueIndex* values = nullptr);
/// A placeholder of the FX graph (`value`: a user input or lifted state): its InputKind, state_dict
/// target, persistence, meta['val'] and users (`values` as for buildNodeInfo, of the program's graph).
std::unique_ptr<InfoRow> buildPlaceholderInfo(const core::Program& program, const std::string& value,
                                              const core::ValueIndex* values = nullptr);
/// The output node: each returned position with its OutputKind and target, buffer mutations linked
/// to their paths, and the in_spec / out_spec pytrees as trees.
std::unique_ptr<InfoRow> buildOutputInfo(const core::Program& program);

/// An argument as Python would write it ("[1, 1]", "None", "%conv", "torch.float32").
QString formatArgument(const core::Argument& arg);
/// Symbols used in a tensor's sizes ("s0", "s1"), in order, without repeats.
QStringList symbolsOf(const core::TensorMeta& meta);
/// Up to `context` lines either side of `line` from `file` ("" when unreadable or too large).
QString sourceAround(const QString& file, int line, int context = 3);

} // namespace irlens::views
