// Matching two levels of one program through the decomposition's own record of what replaced what.
#include "core/compare/match_builder.h"

#include "core/decomp/decomp_session.h"

#include <algorithm>
#include <unordered_map>

namespace irlens::core {

ProgramMatch matchThroughReplacements(ProgramPtr left, ProgramPtr right,
                                      const std::map<std::string, std::vector<std::string>>& oldToNew) {
    const std::vector<NodeSignature> ls = nodeSignatures(*left), rs = nodeSignatures(*right);
    std::unordered_map<std::string, int> rightIndex;
    for (size_t k = 0; k < right->graph.nodes.size(); ++k) rightIndex[right->graph.nodes[k].name] = static_cast<int>(k);
    Assignment as;
    as.leftToRight.resize(ls.size());
    as.rightUsed.assign(rs.size(), 0);
    for (size_t l = 0; l < left->graph.nodes.size(); ++l) {
        const std::string& name = left->graph.nodes[l].name;
        auto mapped = oldToNew.find(name);
        std::vector<std::string> names = mapped == oldToNew.end() ? std::vector<std::string>{name} : mapped->second;
        for (const auto& n : names) {
            auto it = rightIndex.find(n);
            if (it == rightIndex.end() || as.rightUsed[static_cast<size_t>(it->second)]) continue;
            as.leftToRight[l].push_back(it->second);
            as.rightUsed[static_cast<size_t>(it->second)] = 1;
        }
    }
    ProgramMatch m = assembleMatch(ProgramMatch::Method::Decomposition, std::move(left), std::move(right), as, ls, rs);
    // A replacement by one node of another op is a change of target even when the signatures
    // happen to agree (the map says it was rewritten).
    for (auto& p : m.pairs) {
        if (p.left < 0 || p.right.size() != 1) continue;
        const auto& from = m.left->graph.nodes[static_cast<size_t>(p.left)];
        if (oldToNew.count(from.name) && m.right->graph.nodes[static_cast<size_t>(p.right[0])].target.full != from.target.full) {
            p.kind = MatchKind::Changed;
            p.changes |= ChangeTarget;
        }
    }
    return m;
}

std::map<std::string, std::vector<std::string>> composeReplacements(const DecompSession& session) {
    // Forward over the steps: every node a step made descends from the original node its replaced
    // node descends from. Then the current nodes are grouped by that origin, in graph order.
    std::unordered_map<std::string, std::string> origin; // node made by a step -> original node
    std::map<std::string, std::vector<std::string>> composed;
    for (const DecompStep* step : session.history()) {
        for (const auto& [old, news] : step->oldToNew()) {
            auto o = origin.find(old);
            const std::string root = o == origin.end() ? old : o->second;
            composed[root]; // replaced at least once (it may have vanished)
            for (const auto& n : news) origin[n] = root;
        }
    }
    for (const auto& n : session.current()->graph.nodes)
        if (auto o = origin.find(n.name); o != origin.end()) composed[o->second].push_back(n.name);
    return composed;
}

ProgramMatch matchDecomposition(const DecompSession& session) {
    return matchThroughReplacements(session.original(), session.current(), composeReplacements(session));
}

ProgramMatch matchDecompositionStep(const DecompSession& session, size_t step) {
    const auto history = session.history();
    if (step >= history.size()) return matchThroughReplacements(session.current(), session.current(), {});
    return matchThroughReplacements(session.snapshot(step), session.snapshot(step + 1), history[step]->oldToNew());
}

} // namespace irlens::core
