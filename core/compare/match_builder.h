#pragma once
// Internal to core/compare: turns a node-to-node assignment into a ProgramMatch (pairs in order,
// the index maps, the module summary).

#include "core/compare/node_signature.h"
#include "core/compare/program_match.h"

#include <vector>

namespace irlens::core {

/// One left node's counterpart(s) on the right, as the matchers decide it.
struct Assignment {
    std::vector<std::vector<int>> leftToRight; // per left node: right nodes (empty = removed)
    std::vector<char> rightUsed;               // per right node: claimed by some left node
};

/// Pairs in left order with added right nodes placed after the matched node preceding them on the
/// right; kinds and change flags from the signatures (a one-to-many pair is changed, target).
ProgramMatch assembleMatch(ProgramMatch::Method method, ProgramPtr left, ProgramPtr right, const Assignment& assignment,
                           const std::vector<NodeSignature>& leftSigs, const std::vector<NodeSignature>& rightSigs);

/// Per-module op counts and parameter shapes that differ (modules on one side only included).
std::vector<ModuleDiff> summarizeModules(const Program& left, const Program& right);

/// User inputs and outputs whose count, dtype or shape differ between the two signatures.
std::vector<std::string> compareSignatures(const Program& left, const Program& right);

} // namespace irlens::core
