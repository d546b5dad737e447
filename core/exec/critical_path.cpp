#include "core/exec/critical_path.h"

#include <algorithm>

namespace irlens::core::exec {

CriticalPath criticalPath(const PlanGraph& g, const std::vector<int64_t>& nodeNs) {
    CriticalPath path;
    const size_t n = g.nodes.size();
    if (n == 0) return path;
    auto weight = [&](size_t k) { return k < nodeNs.size() ? std::max<int64_t>(0, nodeNs[k]) : 0; };
    // Successors always come later in the plan (a node waits only on earlier ones), so one sweep
    // from the back gives each node the longest path that starts there.
    std::vector<int64_t> longest(n, 0);
    std::vector<int> next(n, -1);
    for (size_t k = n; k-- > 0;) {
        int64_t best = 0;
        for (int s : g.nodes[k].successors) {
            const int64_t via = longest[static_cast<size_t>(s)];
            if (next[k] < 0 || via > best || (via == best && s < next[k])) {
                best = via;
                next[k] = s;
            }
        }
        longest[k] = weight(k) + best;
    }
    size_t start = 0;
    for (size_t k = 1; k < n; ++k)
        if (longest[k] > longest[start]) start = k;
    path.lengthNs = longest[start];
    for (int k = static_cast<int>(start); k >= 0; k = next[static_cast<size_t>(k)]) path.nodes.push_back(k);
    return path;
}

} // namespace irlens::core::exec
