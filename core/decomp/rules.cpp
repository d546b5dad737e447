// The rule table: specific rules by op key, then the generic in-place and elementwise rules.

#include "core/decomp/rules.h"

#include "core/ops/op_registry.h"
#include "core/ops/op_semantics.h"

#include <unordered_map>

namespace irlens::core {

const char* decompStageName(DecompStage s) {
    return s == DecompStage::ToCore ? "training -> core ATen" : "core ATen -> prims";
}

namespace {

struct Table {
    std::vector<DecompRule> rules;
    std::unordered_map<std::string, size_t> core, prims;
};

const Table& table() {
    static const Table t = [] {
        Table t;
        rules::registerTraining(t.rules);
        rules::registerPrimsElementwise(t.rules);
        rules::registerPrimsStructural(t.rules);
        for (size_t i = 0; i < t.rules.size(); ++i)
            (t.rules[i].stage == DecompStage::ToCore ? t.core : t.prims).emplace(t.rules[i].key, i);
        return t;
    }();
    return t;
}

// Why core ops without a reference stay ATen at the prims level.
const std::unordered_map<std::string, std::string>& noPrimReasons() {
    static const std::unordered_map<std::string, std::string> reasons = {
        {"convolution", "convolution has no prim and no torch._refs reference: it stays an ATen call at the prims level"},
        {"mm", "matrix products have no prim: mm stays an ATen call at the prims level"},
        {"bmm", "matrix products have no prim: bmm stays an ATen call at the prims level"},
        {"max_pool2d_with_indices", "pooling has no prim: max_pool2d_with_indices stays an ATen call"},
        {"avg_pool2d", "pooling has no prim: avg_pool2d stays an ATen call"},
        {"_adaptive_avg_pool2d", "pooling has no prim: _adaptive_avg_pool2d stays an ATen call"},
        {"embedding", "gathers have no prim: embedding stays an ATen call (its ATen decomposition is index_select)"},
        {"index_select", "gathers have no prim: index_select stays an ATen call"},
        {"index", "indexing has no prim: index.Tensor stays an ATen call"},
        {"gather", "gathers have no prim"},
        {"scatter", "scatters have no prim"},
        {"sort", "sorting has no prim"},
        {"topk", "topk has no prim"},
        {"native_dropout", "native_dropout's RNG has no prim here: it stays an ATen call"},
        {"split_with_sizes", "the recent prims have no slice prim (slice/slice_in_dim were removed): split_with_sizes stays an ATen call"},
        {"slice", "the recent prims have no slice prim (slice/slice_in_dim were removed): slice.Tensor stays an ATen call"},
        {"select", "select is a slice plus squeeze; without a slice prim it stays an ATen call"},
        {"arange", "prims.iota only covers integer ranges; arange stays an ATen call here"},
        {"div", "div with a rounding mode (trunc/floor) is not decomposed by irlens yet"},
    };
    return reasons;
}

} // namespace

const DecompRule* findRule(const Node& node, DecompStage stage) {
    const Target& t = node.target;
    if (t.kind != Target::Kind::Op || t.ns() != "aten") return nullptr;
    const Table& tab = table();
    const auto& index = stage == DecompStage::ToCore ? tab.core : tab.prims;
    if (auto it = index.find(t.key()); it != index.end()) return &tab.rules[it->second];
    if (stage == DecompStage::ToCore) {
        if (!t.op().empty() && t.op().back() == '_' && t.op().size() > 1) {
            const OpInfo* base = OpRegistry::instance().find("aten", t.op().substr(0, t.op().size() - 1), t.overload());
            if (base && base->level == IrLevel::CoreAten) return &rules::inplaceToFunctional();
        }
        return nullptr;
    }
    const ElementwiseInfo* e = elementwiseInfo(t.op(), t.overload());
    if (e && !e->prim.empty() && t.overload().find("mode") == std::string::npos) return &rules::elementwiseToPrims();
    return nullptr;
}

std::optional<std::string> whyNoRule(const Target& target, DecompStage stage) {
    IrLevel level = OpRegistry::instance().levelOf(target);
    if (target.kind == Target::Kind::HigherOrder) return std::string("higher-order ops are not decomposed; their subgraphs are left as they are");
    if (target.kind != Target::Kind::Op) return std::nullopt;
    if (stage == DecompStage::ToCore) {
        if (level != IrLevel::Training) return std::nullopt;
        return "irlens has no training -> core rule for " + target.shortName() + " yet";
    }
    if (level != IrLevel::CoreAten && level != IrLevel::Training) return std::nullopt;
    if (auto it = noPrimReasons().find(target.op()); it != noPrimReasons().end()) return it->second;
    return "irlens has no core -> prims rule for " + target.shortName() + " yet";
}

std::vector<const DecompRule*> allRules() {
    std::vector<const DecompRule*> out;
    for (const auto& r : table().rules) out.push_back(&r);
    out.push_back(&rules::inplaceToFunctional());
    out.push_back(&rules::elementwiseToPrims());
    return out;
}

} // namespace irlens::core
