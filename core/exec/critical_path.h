#pragma once
// The critical path of a run: the longest chain of dependent nodes through the plan's DAG (the
// successor edges the engine waits on), each node weighted by its measured self time. However many
// workers there are, a run cannot be shorter than this chain; a node off it can only shorten the
// run by freeing a worker. Fused nodes (PlanNode::fusedInto) pass their input on, so they weigh
// about nothing.

#include "core/exec/plan.h"

#include <cstdint>
#include <vector>

namespace irlens::core::exec {

struct CriticalPath {
    std::vector<int> nodes;   // plan node indices, each a successor of the one before
    int64_t lengthNs = 0;     // sum of the nodes' times
    /// The path's length as a fraction of `wallNs` (0 when wallNs <= 0).
    double share(int64_t wallNs) const { return wallNs > 0 ? static_cast<double>(lengthNs) / static_cast<double>(wallNs) : 0.0; }
};

/// The longest path through `g` weighted by `nodeNs` (one per node; negative times count as 0).
/// Among equally long paths the one through the lowest node indices is taken.
CriticalPath criticalPath(const PlanGraph& g, const std::vector<int64_t>& nodeNs);

} // namespace irlens::core::exec
