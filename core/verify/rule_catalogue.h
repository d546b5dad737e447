#pragma once
// The rule catalogue's two halves (internal to core/verify): rules on the graph's nodes and on the
// program around them. verifierRules() joins them in this order.

#include "core/verify/diagnostic.h"

#include <vector>

namespace irlens::core::detail {

/// Structure, targets, tensor metas, dialect and prims rules (EIR-S*, T*, D*, P*).
std::vector<RuleInfo> graphRuleCatalogue();
/// Node metadata, signature, state, samples and symbols rules (EIR-M*, G*, Y*).
std::vector<RuleInfo> programRuleCatalogue();

} // namespace irlens::core::detail
