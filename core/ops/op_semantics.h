#pragma once
// What the elementwise ATen ops and prims mean for promotion: the ELEMENTWISE_TYPE_PROMOTION_KIND of
// each reference (torch/_refs) and which arguments take part in promotion, plus the prim each maps to.

#include "core/ops/type_promotion.h"

#include <string>
#include <vector>

namespace irlens::core {

struct ElementwiseInfo {
    PromotionKind kind = PromotionKind::Default;
    std::vector<std::string> promoting; // schema argument names that take part ("self", "other")
    std::string prim;                   // the prim the reference ends in ("add"); "" when composite
    std::string ref;                    // the reference that defines it ("torch._refs.add")
};

/// The elementwise info of an ATen overload ("add", "Tensor"); nullptr when not elementwise.
const ElementwiseInfo* elementwiseInfo(const std::string& op, const std::string& overload);
/// The output rule of an elementwise prim: DEFAULT (input dtype), ALWAYS_BOOL, COMPLEX_TO_FLOAT.
const ElementwiseInfo* elementwisePrimInfo(const std::string& prim);

} // namespace irlens::core
