#pragma once
// The Export IR spec as rules with ids (see diagnostic.h for the table). Dialect-aware: a program marked
// verifiers ["TRAINING"] may hold CompositeImplicit and in-place ops; the Core ATen rule applies to
// ATen programs (as a warning) and, as an error, when `coreAtenOnly` is set (decomposition output).
// Recurses into HOP subgraphs. Never throws, never aborts: a broken program is what it is for.

#include "core/ir/program.h"
#include "core/verify/diagnostic.h"

#include <cstddef>
#include <optional>
#include <vector>

namespace irlens::core {

struct VerifyOptions {
    /// Force the Core ATen rule on (error) or off; nullopt = by dialect (ATen programs: warning).
    std::optional<bool> coreAtenOnly;
    /// Check the node metadata contract (stack_trace, nn_module_stack, source_fn_stack) on top-level nodes.
    bool checkMetaPresence = true;
    /// Check that signature targets exist in the loaded state (skipped when the program holds no state).
    bool checkState = true;
    /// Re-infer every node's val with the op library's meta functions and report disagreements (EIR-M006).
    /// Off by default: it costs a pass of shape inference and depends on meta-function coverage.
    bool checkInferredMeta = false;
    /// Stop after this many findings (a hostile file could otherwise produce millions).
    size_t maxDiagnostics = 5000;
};

std::vector<Diagnostic> verify(const Program& program, const VerifyOptions& options = {});

/// EIR-M006 on its own, for a front end that runs it on demand (it costs a pass of shape inference):
/// re-infers every node's outputs with the op library's meta functions (core/ops/meta.h), top-level graph
/// and HOP subgraphs, and reports each disagreement with the recorded val as a finding (graph, node key,
/// FX name in the message). The same findings verify() adds when `checkInferredMeta` is set. Nodes whose
/// op has no meta function are not findings (checkRecordedMeta lists them).
std::vector<Diagnostic> verifyInferredMeta(const Program& program, size_t maxDiagnostics = 5000);

/// Counts by severity.
struct DiagnosticCounts {
    size_t errors = 0, warnings = 0, infos = 0;
};
DiagnosticCounts countDiagnostics(const std::vector<Diagnostic>& diagnostics);

} // namespace irlens::core
