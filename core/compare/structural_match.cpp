// Structural matching of two independent exports. Per nn_module_stack scope (by FQN, present on both
// sides), the nodes in graph order are aligned on their strong signature (longest common
// subsequence after trimming the common head and tail), so that an inserted or removed layer only
// leaves its own nodes unmatched. The unmatched nodes between two aligned ones are then paired by
// likeness (an op swapped in place), and what is still left anywhere is paired by signature across
// scopes (a node that moved to another module).
#include "core/compare/match_builder.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <unordered_map>

namespace irlens::core {
namespace {

using Sigs = std::vector<NodeSignature>;

struct Scopes {
    std::map<std::string, std::vector<int>> left, right; // scope -> node indices in graph order
};

Scopes groupByScope(const Sigs& left, const Sigs& right) {
    Scopes s;
    for (size_t k = 0; k < left.size(); ++k) s.left[left[k].scope].push_back(static_cast<int>(k));
    for (size_t k = 0; k < right.size(); ++k) s.right[right[k].scope].push_back(static_cast<int>(k));
    return s;
}

/// Positions (i, j) of an in-order alignment of a[] and b[] on equal strong signatures.
std::vector<std::pair<int, int>> alignSequences(const std::vector<int>& a, const std::vector<int>& b, const Sigs& la,
                                                const Sigs& rb, size_t maxCells) {
    auto eq = [&](int i, int j) { return la[static_cast<size_t>(a[static_cast<size_t>(i)])].strong ==
                                         rb[static_cast<size_t>(b[static_cast<size_t>(j)])].strong; };
    std::vector<std::pair<int, int>> head, tail;
    int i0 = 0, j0 = 0, i1 = static_cast<int>(a.size()), j1 = static_cast<int>(b.size());
    while (i0 < i1 && j0 < j1 && eq(i0, j0)) head.emplace_back(i0++, j0++);
    while (i1 > i0 && j1 > j0 && eq(i1 - 1, j1 - 1)) tail.emplace_back(--i1, --j1);
    const size_t n = static_cast<size_t>(i1 - i0), m = static_cast<size_t>(j1 - j0);
    std::vector<std::pair<int, int>> mid;
    if (n && m && n * m <= maxCells) {
        // LCS table over the middle, then walk it back.
        std::vector<uint32_t> dp((n + 1) * (m + 1), 0);
        auto at = [&](size_t i, size_t j) -> uint32_t& { return dp[i * (m + 1) + j]; };
        for (size_t i = n; i-- > 0;)
            for (size_t j = m; j-- > 0;)
                at(i, j) = eq(i0 + static_cast<int>(i), j0 + static_cast<int>(j)) ? at(i + 1, j + 1) + 1
                                                                                    : std::max(at(i + 1, j), at(i, j + 1));
        for (size_t i = 0, j = 0; i < n && j < m;) {
            if (eq(i0 + static_cast<int>(i), j0 + static_cast<int>(j))) mid.emplace_back(i0 + static_cast<int>(i++), j0 + static_cast<int>(j++));
            else if (at(i + 1, j) >= at(i, j + 1)) ++i;
            else ++j;
        }
    } else if (n && m) {
        // Too big for a table: k-th occurrence of a signature to its k-th occurrence, kept in order.
        std::unordered_map<std::string, std::vector<int>> byStrong;
        for (int j = j1 - 1; j >= j0; --j) byStrong[rb[static_cast<size_t>(b[static_cast<size_t>(j)])].strong].push_back(j);
        int lastJ = j0 - 1;
        for (int i = i0; i < i1; ++i) {
            auto it = byStrong.find(la[static_cast<size_t>(a[static_cast<size_t>(i)])].strong);
            if (it == byStrong.end()) continue;
            while (!it->second.empty() && it->second.back() <= lastJ) it->second.pop_back();
            if (it->second.empty()) continue;
            lastJ = it->second.back();
            it->second.pop_back();
            mid.emplace_back(i, lastJ);
        }
    }
    head.insert(head.end(), mid.begin(), mid.end());
    head.insert(head.end(), tail.rbegin(), tail.rend());
    return head;
}

int likeness(const NodeSignature& a, const NodeSignature& b) {
    return (a.target == b.target ? 4 : 0) + (a.outKey == b.outKey ? 2 : 0) + (a.origin == b.origin ? 1 : 0) +
           (a.args == b.args ? 1 : 0);
}

/// The unmatched nodes between two aligned ones: pairs of at least this likeness are one node changed.
constexpr int kMinLikeness = 2;

void pairGap(const std::vector<int>& lg, const std::vector<int>& rg, const Sigs& ls, const Sigs& rs, Assignment& out) {
    std::vector<char> taken(rg.size(), 0);
    for (int l : lg) {
        int best = -1, bestScore = kMinLikeness - 1;
        for (size_t k = 0; k < rg.size(); ++k) {
            if (taken[k]) continue;
            int score = likeness(ls[static_cast<size_t>(l)], rs[static_cast<size_t>(rg[k])]);
            if (score > bestScore) { bestScore = score; best = static_cast<int>(k); }
        }
        if (best < 0) continue;
        taken[static_cast<size_t>(best)] = 1;
        out.leftToRight[static_cast<size_t>(l)] = {rg[static_cast<size_t>(best)]};
        out.rightUsed[static_cast<size_t>(rg[static_cast<size_t>(best)])] = 1;
    }
}

void matchScope(const std::vector<int>& a, const std::vector<int>& b, const Sigs& ls, const Sigs& rs, size_t maxCells,
                Assignment& out) {
    auto aligned = alignSequences(a, b, ls, rs, maxCells);
    int pi = -1, pj = -1;
    aligned.emplace_back(static_cast<int>(a.size()), static_cast<int>(b.size())); // sentinel closes the last gap
    for (const auto& [i, j] : aligned) {
        if (i - pi > 1 && j - pj > 1) {
            std::vector<int> lg(a.begin() + pi + 1, a.begin() + i), rg(b.begin() + pj + 1, b.begin() + j);
            pairGap(lg, rg, ls, rs, out);
        }
        if (i < static_cast<int>(a.size())) {
            out.leftToRight[static_cast<size_t>(a[static_cast<size_t>(i)])] = {b[static_cast<size_t>(j)]};
            out.rightUsed[static_cast<size_t>(b[static_cast<size_t>(j)])] = 1;
        }
        pi = i;
        pj = j;
    }
}

/// Leftovers on both sides with the same signature apart from the scope: a node that moved.
void pairMovedNodes(const Sigs& ls, const Sigs& rs, Assignment& out) {
    std::unordered_map<std::string, std::vector<int>> freeRight;
    for (size_t r = rs.size(); r-- > 0;)
        if (!out.rightUsed[r]) freeRight[rs[r].strong].push_back(static_cast<int>(r));
    if (freeRight.empty()) return;
    for (size_t l = 0; l < ls.size(); ++l) {
        if (!out.leftToRight[l].empty()) continue;
        auto it = freeRight.find(ls[l].strong);
        if (it == freeRight.end() || it->second.empty()) continue;
        int r = it->second.back();
        it->second.pop_back();
        out.leftToRight[l] = {r};
        out.rightUsed[static_cast<size_t>(r)] = 1;
    }
}

} // namespace

ProgramMatch matchStructurally(ProgramPtr left, ProgramPtr right, const StructuralMatchOptions& options) {
    const Sigs ls = nodeSignatures(*left), rs = nodeSignatures(*right);
    Assignment as;
    as.leftToRight.resize(ls.size());
    as.rightUsed.assign(rs.size(), 0);
    Scopes scopes = groupByScope(ls, rs);
    for (const auto& [scope, a] : scopes.left) {
        auto it = scopes.right.find(scope);
        if (it != scopes.right.end()) matchScope(a, it->second, ls, rs, options.maxAlignmentCells, as);
    }
    pairMovedNodes(ls, rs, as);
    return assembleMatch(ProgramMatch::Method::Structural, std::move(left), std::move(right), as, ls, rs);
}

} // namespace irlens::core
