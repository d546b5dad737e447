#pragma once
// Decomposition rules: training IR -> Core ATen (what ExportedProgram.run_decompositions() does with
// the default table) and Core ATen -> Prims (what the torch._refs references trace to). Each rule
// says which source it follows, so the session can teach it.

#include "core/decomp/rewrite_builder.h"
#include "core/ir/program.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace irlens::core {

enum class DecompStage { ToCore, ToPrims };
const char* decompStageName(DecompStage s); // "training -> core ATen", "core ATen -> prims"

struct DecompRule {
    std::string key;       // "aten::linear.default"; generic rules: "aten::<in-place pointwise>", "aten::<elementwise>"
    DecompStage stage = DecompStage::ToCore;
    std::string title;     // "linear -> t + addmm (2-D input with bias)"
    std::string reference; // "ATen Linear.cpp (CompositeImplicitAutograd)", "torch._refs.add"
    std::string teaching;  // a few sentences: what the rule does and why
    std::function<Status(RewriteBuilder&)> apply;
};

/// The rule for this node at this stage; nullptr when the op has none.
const DecompRule* findRule(const Node& node, DecompStage stage);
/// Why an op stays at this stage ("convolution has no prim: ..."); nullopt when a rule exists or
/// the op is already below the stage.
std::optional<std::string> whyNoRule(const Target& target, DecompStage stage);

/// Every registered specific rule (generic elementwise / in-place rules listed once each).
std::vector<const DecompRule*> allRules();

namespace rules {
void registerTraining(std::vector<DecompRule>& out);
void registerPrimsElementwise(std::vector<DecompRule>& out);
void registerPrimsStructural(std::vector<DecompRule>& out);
/// Generic rules, chosen by op semantics rather than by key.
const DecompRule& inplaceToFunctional();
const DecompRule& elementwiseToPrims();
} // namespace rules

} // namespace irlens::core
