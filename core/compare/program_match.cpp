#include "core/compare/program_match.h"

#include "core/compare/match_builder.h"

#include <algorithm>
#include <cstdio>

namespace irlens::core {

const char* matchKindName(MatchKind kind) {
    switch (kind) {
    case MatchKind::Same: return "same";
    case MatchKind::Changed: return "changed";
    case MatchKind::Added: return "added";
    case MatchKind::Removed: return "removed";
    }
    return "?";
}

std::string changeFlagsText(unsigned flags) {
    static const std::pair<unsigned, const char*> names[] = {
        {ChangeTarget, "target"}, {ChangeArgs, "args"}, {ChangeDtype, "dtype"}, {ChangeShape, "shape"}, {ChangeModule, "module"}};
    std::string out;
    for (const auto& [bit, name] : names)
        if (flags & bit) out += (out.empty() ? "" : ", ") + std::string(name);
    return out;
}

size_t ProgramMatch::count(MatchKind kind) const {
    return static_cast<size_t>(std::count_if(pairs.begin(), pairs.end(), [&](const NodePair& p) { return p.kind == kind; }));
}

std::vector<int> ProgramMatch::differences() const {
    std::vector<int> out;
    for (size_t k = 0; k < pairs.size(); ++k)
        if (pairs[k].kind != MatchKind::Same) out.push_back(static_cast<int>(k));
    return out;
}

bool ProgramMatch::identical() const {
    return differences().empty() && modules.empty() && signatureNotes.empty();
}

std::string ProgramMatch::summary() const {
    char buf[256];
    std::snprintf(buf, sizeof buf, "%zu nodes vs %zu: %zu same, %zu changed, %zu added, %zu removed",
                  left ? left->graph.nodes.size() : 0, right ? right->graph.nodes.size() : 0, count(MatchKind::Same),
                  count(MatchKind::Changed), count(MatchKind::Added), count(MatchKind::Removed));
    return buf;
}

std::string ProgramMatch::leftName(const NodePair& pair) const {
    return pair.left >= 0 ? left->graph.nodes[static_cast<size_t>(pair.left)].name : std::string();
}

std::string ProgramMatch::rightNames(const NodePair& pair) const {
    std::string out;
    for (int r : pair.right) out += (out.empty() ? "" : ", ") + right->graph.nodes[static_cast<size_t>(r)].name;
    return out;
}

namespace {

NodePair makePair(int l, const std::vector<int>& rights, const std::vector<NodeSignature>& leftSigs,
                  const std::vector<NodeSignature>& rightSigs) {
    NodePair p;
    p.left = l;
    p.right = rights;
    if (rights.empty()) {
        p.kind = MatchKind::Removed;
        return p;
    }
    const NodeSignature& a = leftSigs[static_cast<size_t>(l)];
    if (rights.size() == 1) {
        const NodeSignature& b = rightSigs[static_cast<size_t>(rights[0])];
        p.changes = signatureChanges(a, b);
        if (p.changes) p.detail = describeChanges(a, b, p.changes);
    } else {
        p.changes = ChangeTarget;
        p.detail = Target::parse(a.target).shortName() + " -> ";
        for (size_t k = 0; k < rights.size(); ++k)
            p.detail += (k ? " + " : "") + Target::parse(rightSigs[static_cast<size_t>(rights[k])].target).shortName();
    }
    p.kind = p.changes ? MatchKind::Changed : MatchKind::Same;
    return p;
}

} // namespace

ProgramMatch assembleMatch(ProgramMatch::Method method, ProgramPtr left, ProgramPtr right, const Assignment& assignment,
                           const std::vector<NodeSignature>& leftSigs, const std::vector<NodeSignature>& rightSigs) {
    ProgramMatch m;
    m.method = method;
    m.left = std::move(left);
    m.right = std::move(right);
    const size_t nl = m.left->graph.nodes.size(), nr = m.right->graph.nodes.size();
    // Added right nodes go after the left node matched to the nearest matched right node before them.
    std::vector<std::vector<int>> addedAfter(nl + 1); // slot 0 = before every left node
    std::vector<int> rightToLeft(nr, -1);
    for (size_t l = 0; l < nl; ++l)
        for (int r : assignment.leftToRight[l]) rightToLeft[static_cast<size_t>(r)] = static_cast<int>(l);
    int lastLeft = -1;
    for (size_t r = 0; r < nr; ++r) {
        if (rightToLeft[r] >= 0) lastLeft = std::max(lastLeft, rightToLeft[r]);
        else addedAfter[static_cast<size_t>(lastLeft + 1)].push_back(static_cast<int>(r));
    }
    m.leftPair.assign(nl, -1);
    m.rightPair.assign(nr, -1);
    auto emitAdded = [&](size_t slot) {
        for (int r : addedAfter[slot]) {
            NodePair p;
            p.kind = MatchKind::Added;
            p.right = {r};
            m.rightPair[static_cast<size_t>(r)] = static_cast<int>(m.pairs.size());
            m.pairs.push_back(std::move(p));
        }
    };
    emitAdded(0);
    for (size_t l = 0; l < nl; ++l) {
        NodePair p = makePair(static_cast<int>(l), assignment.leftToRight[l], leftSigs, rightSigs);
        m.leftPair[l] = static_cast<int>(m.pairs.size());
        for (int r : p.right) m.rightPair[static_cast<size_t>(r)] = static_cast<int>(m.pairs.size());
        m.pairs.push_back(std::move(p));
        emitAdded(l + 1);
    }
    m.modules = summarizeModules(*m.left, *m.right);
    m.signatureNotes = compareSignatures(*m.left, *m.right);
    return m;
}

} // namespace irlens::core
