#include "core/decomp/decomp_session.h"

#include "core/ops/meta.h"
#include "core/verify/verifier.h"

#include <chrono>
#include <set>

namespace irlens::core {

const char* decompPhaseName(DecompProgress::Phase phase) {
    switch (phase) {
    case DecompProgress::Phase::Rewrite: return "rewriting";
    case DecompProgress::Phase::Verify: return "verifying";
    case DecompProgress::Phase::MetaCheck: return "checking meta";
    case DecompProgress::Phase::NumericCheck: return "numeric check";
    case DecompProgress::Phase::Done: return "finishing";
    }
    return "?";
}

bool DecompSession::report(DecompProgress::Phase phase, size_t done, size_t total) const {
    return !m_progress || m_progress(DecompProgress{phase, done, total});
}

std::map<std::string, std::vector<std::string>> DecompStep::oldToNew() const {
    std::map<std::string, std::vector<std::string>> m;
    for (const auto& a : applied) m[a.oldNode] = a.newNodes;
    return m;
}

std::string DecompStep::teaching() const {
    std::string out;
    std::set<const DecompRule*> seen;
    for (const auto& a : applied) {
        if (!a.rule || !seen.insert(a.rule).second) continue;
        if (!out.empty()) out += "\n\n";
        out += a.rule->title + " [" + a.rule->reference + "]\n" + a.rule->teaching;
    }
    return out;
}

DecompSession::DecompSession(ProgramPtr program, DecompSessionOptions options) : m_options(options) {
    m_snapshots.push_back(std::move(program));
}

std::vector<DecompCandidate> DecompSession::candidates(DecompStage stage) const {
    std::vector<DecompCandidate> out;
    for (const auto& n : current()->graph.nodes)
        if (const DecompRule* r = findRule(n, stage)) out.push_back({n.name, n.target.shortName(), r});
    return out;
}

std::map<std::string, int> DecompSession::candidateCounts(DecompStage stage) const {
    std::map<std::string, int> counts;
    for (const auto& c : candidates(stage)) ++counts[c.target];
    return counts;
}

std::vector<DecompBlocked> DecompSession::blocked(DecompStage stage) const {
    std::vector<DecompBlocked> out;
    for (const auto& n : current()->graph.nodes) {
        if (findRule(n, stage)) continue;
        if (auto why = whyNoRule(n.target, stage)) out.push_back({n.name, n.target.shortName(), *why});
    }
    return out;
}

namespace {
bool matchesTarget(const Target& t, const std::string& query) {
    return t.full == query || t.shortName() == query || t.op() == query || (t.op() + "." + t.overload()) == query;
}
} // namespace

Result<const DecompStep*> DecompSession::stepNode(const std::string& nodeName, DecompStage stage) {
    const Node* node = nullptr;
    for (const auto& n : current()->graph.nodes)
        if (n.name == nodeName) node = &n;
    if (!node) return Status::error("no node named '" + nodeName + "' in the current program");
    if (!findRule(*node, stage)) {
        auto why = whyNoRule(node->target, stage);
        return Status::error("node '" + nodeName + "' (" + node->target.shortName() + ") has no " + decompStageName(stage) + " rule" +
                             (why ? ": " + *why : ""));
    }
    return apply("step " + nodeName, stage, [&](const Node& n, int depth) -> const DecompRule* {
        return depth == 0 && n.name == nodeName ? findRule(n, stage) : nullptr;
    });
}

Result<const DecompStep*> DecompSession::stepOp(const std::string& target, DecompStage stage) {
    bool any = false;
    for (const auto& n : current()->graph.nodes) any = any || (matchesTarget(n.target, target) && findRule(n, stage));
    if (!any) return Status::error("no node of '" + target + "' has a " + std::string(decompStageName(stage)) + " rule");
    return apply("step every " + target, stage, [&](const Node& n, int depth) -> const DecompRule* {
        return depth == 0 && matchesTarget(n.target, target) ? findRule(n, stage) : nullptr;
    });
}

Result<const DecompStep*> DecompSession::stepAll(DecompStage stage) {
    return apply(stage == DecompStage::ToCore ? "decompose to core ATen" : "decompose to prims", stage,
                 [&](const Node& n, int) { return findRule(n, stage); });
}

Result<const DecompStep*> DecompSession::stepToLevel(IrLevel level) {
    if (level != IrLevel::CoreAten && level != IrLevel::Prims) return Status::error("can only decompose to core ATen or prims");
    auto core = stepAll(DecompStage::ToCore);
    if (!core || level == IrLevel::CoreAten) return core;
    return stepAll(DecompStage::ToPrims);
}

Result<const DecompStep*> DecompSession::apply(std::string title, DecompStage stage, const RuleChooser& choose) {
    auto start = std::chrono::steady_clock::now();
    ProgramPtr before = current();
    auto next = std::make_shared<Program>(*before);
    // The chooser sees every original node once at depth 0: that is the pass's progress. Once
    // cancelled it keeps every remaining node, so the pass ends quickly; its result is dropped.
    const size_t total = before->graph.nodes.size();
    size_t seen = 0;
    bool cancelled = !report(DecompProgress::Phase::Rewrite, 0, total);
    RuleChooser counted = [&](const Node& n, int depth) -> const DecompRule* {
        if (depth == 0 && !cancelled && ++seen % kProgressEvery == 0)
            cancelled = !report(DecompProgress::Phase::Rewrite, seen, total);
        return cancelled ? nullptr : choose(n, depth);
    };
    auto pass = rewriteProgram(*next, m_progress ? counted : choose);
    if (cancelled || (m_progress && !report(DecompProgress::Phase::Rewrite, total, total)))
        return Status::error(kCancelledMessage);
    if (!pass) return pass.status();
    // A program with nothing left above core ATen is an ATen-dialect program (what run_decompositions returns).
    if (stage == DecompStage::ToCore && next->isTrainingDialect()) {
        bool training = false;
        for (const auto& n : next->graph.nodes) training = training || OpRegistry::instance().levelOf(n.target) == IrLevel::Training;
        if (!training) next->verifiers = {"ATEN"};
    }
    DecompStep step;
    step.title = std::move(title);
    step.stage = stage;
    step.applied = std::move(pass->applied);
    step.skipped = std::move(pass->skipped);
    step.nodesBefore = before->graph.nodes.size();
    step.nodesAfter = next->graph.nodes.size();
    step.millis = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    // A step that changed nothing keeps the program it started from: no second copy held for undo
    // (stepping a core ATen program to core ATen held the whole program twice).
    const bool unchanged = step.applied.empty() && next->graph.nodes.size() == before->graph.nodes.size() && next->verifiers == before->verifiers;
    ProgramPtr after = unchanged ? before : ProgramPtr(next);
    next.reset();
    if (!recheck(step, before, after)) return Status::error(kCancelledMessage);

    // A new step drops the redo tail.
    m_snapshots.resize(m_position + 1);
    m_steps.resize(m_position);
    m_snapshots.push_back(after);
    m_steps.push_back(std::move(step));
    ++m_position;
    return &m_steps.back();
}

bool DecompSession::recheck(DecompStep& step, const ProgramPtr& before, const ProgramPtr& after) const {
    using Phase = DecompProgress::Phase;
    if (m_options.verify) {
        if (!report(Phase::Verify, 0, 1)) return false;
        auto diags = verifier ? verifier(*after) : verify(*after);
        auto counts = countDiagnostics(diags);
        step.verifyErrors = counts.errors;
        step.verifyWarnings = counts.warnings;
        if (diags.size() > 50) diags.resize(50);
        step.diagnostics = std::move(diags);
    }
    if (m_options.checkMeta) {
        if (!report(Phase::MetaCheck, 0, 1)) return false;
        step.metaMismatches = checkRecordedMeta(*after).mismatches.size();
    }
    if (m_options.numericCheck) {
        if (!report(Phase::NumericCheck, 0, 1)) return false;
        if (step.applied.empty()) {
            step.numericNote = "nothing changed";
        } else {
            auto c = compareOutputs(before, after, m_options.tolerance, m_options.threads);
            if (c) step.numeric = *c;
            else step.numericNote = c.error();
        }
    }
    return report(Phase::Done, 1, 1);
}

Status DecompSession::undo() {
    if (!canUndo()) return Status::error("nothing to undo");
    --m_position;
    return Status::ok();
}

Status DecompSession::redo() {
    if (!canRedo()) return Status::error("nothing to redo");
    ++m_position;
    return Status::ok();
}

std::vector<const DecompStep*> DecompSession::history() const {
    std::vector<const DecompStep*> out;
    for (size_t i = 0; i < m_position; ++i) out.push_back(&m_steps[i]);
    return out;
}

std::vector<std::string> DecompSession::currentNodesFor(const std::string& originalNode) const {
    std::vector<std::string> frontier{originalNode};
    for (size_t i = 0; i < m_position; ++i) {
        auto map = m_steps[i].oldToNew();
        std::vector<std::string> next;
        for (const auto& n : frontier) {
            auto it = map.find(n);
            if (it == map.end()) next.push_back(n);
            else next.insert(next.end(), it->second.begin(), it->second.end());
        }
        frontier = std::move(next);
    }
    return frontier;
}

} // namespace irlens::core
