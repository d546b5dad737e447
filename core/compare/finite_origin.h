#pragma once
// Follows NaN and infinities through a run node by node (numeric_run.h): a node that makes a NaN
// from inputs holding none, or an infinity from finite inputs, produced it; a node whose non-finite
// literal argument explains its output (masked_fill(x, mask, -inf)) made it on purpose; every other
// node holding one only carried it on.

#include "core/compare/numeric_run.h"
#include "core/exec/plan.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace irlens::core {

class FiniteOriginTracker {
public:
    /// `userInputs` in signature order, as bound for the run.
    FiniteOriginTracker(const exec::ExecutionPlan& plan, const std::vector<exec::EValue>& userInputs);

    /// After node `pn` ran: `records` are the indices into `values` of its tensor outputs.
    void afterNode(const exec::PlanNode& pn, const std::vector<int>& records, const std::vector<ValueRecord>& values,
                   NonFiniteOrigin& origin);

private:
    struct Flags {
        bool nan = false;
        bool inf = false;
    };
    /// A value's flags: a node output's as recorded, a graph input's counted on first use.
    Flags flagsOf(const std::string& name, NonFiniteOrigin& origin);

    const exec::ExecutionPlan& m_plan;
    std::unordered_map<std::string, exec::Tensor> m_graphInputs; // not yet counted
    std::unordered_map<std::string, Flags> m_flags;
};

} // namespace irlens::core
