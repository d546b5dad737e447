#pragma once
// One rewriting pass over a program's top-level graph: nodes chosen by a callback are replaced by
// what their rule emits (recursively, when asked: a rule may emit ops that have rules too), uses are
// renamed in later nodes, graph outputs, the signature and the module call graph.

#include "core/decomp/rules.h"
#include "core/ir/program.h"
#include "core/ir/status.h"

#include <functional>
#include <string>
#include <vector>

namespace irlens::core {

struct AppliedRewrite {
    std::string oldNode;               // the replaced node
    std::string oldTarget;             // "aten.linear.default"
    const DecompRule* rule = nullptr;  // the (outermost) rule applied
    std::vector<std::string> newNodes; // the nodes that now stand in its place (empty: it vanished)
};

struct SkippedNode {
    std::string node;
    std::string target;
    std::string reason; // the rule's refusal ("batch_norm in training mode ...")
};

struct PassResult {
    std::vector<AppliedRewrite> applied;
    std::vector<SkippedNode> skipped;
};

/// Chooses the rule for a node (nullptr = keep it). `depth` 0 for original nodes, >0 for emitted ones.
using RuleChooser = std::function<const DecompRule*(const Node& node, int depth)>;

/// Rewrites `program` (a private copy) in place. Errors leave `program` unusable.
Result<PassResult> rewriteProgram(Program& program, const RuleChooser& choose);

} // namespace irlens::core
