#pragma once
// Stepping a program's decomposition: one node, every node of one op, or everything to a level;
// undo/redo over immutable Program snapshots; an old -> new node map per step; the verifier, the
// meta check and (optionally) the numeric check re-run after each step; a history with the
// teaching text of every rule applied.

#include "core/decomp/graph_rewriter.h"
#include "core/decomp/numeric_check.h"
#include "core/decomp/rules.h"
#include "core/ir/program.h"
#include "core/ir/status.h"
#include "core/ops/op_registry.h"
#include "core/verify/diagnostic.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace irlens::core {

struct DecompSessionOptions {
    bool verify = true;          // run the verifier after each step
    bool checkMeta = true;       // re-infer every node's meta after each step
    bool numericCheck = false;   // run before/after with the engine (needs sample inputs)
    double tolerance = 1e-5;     // numeric check: normwise relative error
    int threads = 1;             // engine threads for the numeric check
};

/// A node that can be stepped.
struct DecompCandidate {
    std::string node;
    std::string target;     // "aten.linear.default"
    const DecompRule* rule = nullptr;
};

/// A node that stays at this stage, and why.
struct DecompBlocked {
    std::string node;
    std::string target;
    std::string reason;
};

/// Where a running step is: the rewrite pass counts the program's nodes it has looked at, the
/// re-checks count 0/1 each; Done 1/1 closes it. Reported from the thread that runs the step.
struct DecompProgress {
    enum class Phase { Rewrite, Verify, MetaCheck, NumericCheck, Done };
    Phase phase = Phase::Rewrite;
    size_t done = 0;
    size_t total = 0;
};
const char* decompPhaseName(DecompProgress::Phase phase); // "rewriting", "verifying", ...

/// Called while a step runs; returning false cancels it (the session then stays where it was).
using DecompProgressFn = std::function<bool(const DecompProgress&)>;

struct DecompStep {
    std::string title;                   // "step linear_1", "step every aten.t.default", "decompose to core ATen"
    DecompStage stage = DecompStage::ToCore;
    std::vector<AppliedRewrite> applied; // one per replaced node
    std::vector<SkippedNode> skipped;    // rules that refused (the node stayed)
    size_t nodesBefore = 0, nodesAfter = 0;
    double millis = 0;                   // rewrite + meta inference time

    // re-checks after the step
    size_t verifyErrors = 0, verifyWarnings = 0;
    std::vector<Diagnostic> diagnostics; // first findings (at most 50)
    size_t metaMismatches = 0;
    std::optional<NumericComparison> numeric;
    std::string numericNote;             // why the numeric check did not run, or its failure

    bool flagged() const { return numeric && !numeric->withinTolerance(); }
    /// old node -> the nodes that replaced it (empty when it vanished).
    std::map<std::string, std::vector<std::string>> oldToNew() const;
    /// The distinct rules applied, with their reference and teaching text, one paragraph each.
    std::string teaching() const;
};

class DecompSession {
public:
    explicit DecompSession(ProgramPtr program, DecompSessionOptions options = {});

    ProgramPtr original() const { return m_snapshots.front(); }
    ProgramPtr current() const { return m_snapshots[m_position]; }
    /// The program after `steps` steps (0 = the original); for before/after views of one step.
    ProgramPtr snapshot(size_t steps) const { return m_snapshots[std::min(steps, m_snapshots.size() - 1)]; }
    const DecompSessionOptions& options() const { return m_options; }
    void setOptions(const DecompSessionOptions& options) { m_options = options; }

    /// Nodes of the current program that have a rule at this stage, in graph order.
    std::vector<DecompCandidate> candidates(DecompStage stage) const;
    /// Candidate counts by target ("aten.linear.default" -> 4).
    std::map<std::string, int> candidateCounts(DecompStage stage) const;
    /// Nodes that stay at this stage, with the reason (no prim, no rule yet, HOP).
    std::vector<DecompBlocked> blocked(DecompStage stage) const;

    Result<const DecompStep*> stepNode(const std::string& nodeName, DecompStage stage);
    /// Every node whose target is `target` ("aten.t.default", "torch.ops.aten.t.default" or "t").
    Result<const DecompStep*> stepOp(const std::string& target, DecompStage stage);
    /// Every node, repeatedly, until nothing at this stage has a rule.
    Result<const DecompStep*> stepAll(DecompStage stage);
    /// Core ATen = stepAll(ToCore); prims = ToCore then ToPrims (two history entries).
    Result<const DecompStep*> stepToLevel(IrLevel level);

    bool canUndo() const { return m_position > 0; }
    bool canRedo() const { return m_position + 1 < m_snapshots.size(); }
    Status undo();
    Status redo();

    /// History up to the current position (undone steps stay available to redo but are not listed).
    std::vector<const DecompStep*> history() const;
    size_t position() const { return m_position; }

    /// The nodes of the current program that stand for `nodeName` of the original program
    /// (follows replacements across steps; the node itself if it was never replaced).
    std::vector<std::string> currentNodesFor(const std::string& originalNode) const;

    /// Progress / cancel hook for the steps that follow (called from the stepping thread, at most
    /// every `kProgressEvery` nodes). A cancelled step returns an error whose message is
    /// kCancelledMessage and leaves the snapshots, the history and the position untouched.
    void setProgress(DecompProgressFn progress) { m_progress = std::move(progress); }
    static constexpr size_t kProgressEvery = 32;
    static constexpr const char* kCancelledMessage = "step cancelled: the program is as it was before the step";
    static bool isCancelled(const std::string& error) { return error == kCancelledMessage; }

    /// Hook: replaces the verifier call (tests, or a GUI that verifies elsewhere).
    std::function<std::vector<Diagnostic>(const Program&)> verifier;

private:
    Result<const DecompStep*> apply(std::string title, DecompStage stage, const RuleChooser& choose);
    /// False when the step was cancelled during a re-check.
    bool recheck(DecompStep& step, const ProgramPtr& before, const ProgramPtr& after) const;
    bool report(DecompProgress::Phase phase, size_t done, size_t total) const;

    DecompSessionOptions m_options;
    std::vector<ProgramPtr> m_snapshots; // [0] = original; [i] = after step i
    // m_steps[i] made m_snapshots[i + 1]. A deque: a step appended on a worker never moves the steps
    // a GUI's history list points at.
    std::deque<DecompStep> m_steps;
    size_t m_position = 0;
    DecompProgressFn m_progress;
};

} // namespace irlens::core
