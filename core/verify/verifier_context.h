#pragma once
// Shared state of one verification run (internal to core/verify).

#include "core/ir/program.h"
#include "core/verify/verifier.h"

#include <string>
#include <vector>

namespace irlens::core::detail {

struct VerifyContext {
    const Program& program;
    const VerifyOptions& options;
    std::vector<Diagnostic>& out;
    bool truncated = false;

    void report(const char* ruleId, Severity severity, const std::string& graph, const std::string& node,
                std::string message, std::string fix) {
        if (out.size() >= options.maxDiagnostics) {
            truncated = true;
            return;
        }
        out.push_back({ruleId, severity, graph, node, std::move(message), std::move(fix)});
    }
    void report(const char* ruleId, const std::string& graph, const std::string& node, std::string message,
                std::string fix) {
        const RuleInfo* r = findRule(ruleId);
        report(ruleId, r ? r->severity : Severity::Error, graph, node, std::move(message), std::move(fix));
    }
};

/// How a finding names a node: its FX name quoted ("'cond'", as the FX text shows it), followed by the name
/// the program records when that differs ("'x_1' (recorded as 'relu')"). A node the file left unnamed
/// has only its FX name. Findings stay keyed by Node::name (Diagnostic::node), which the GUI selects by.
std::string nodeLabel(const Node& node, const std::string& fxName);

/// The target as the program holds it: "aten.sub" for an overload packet, "aten.sub.Tensor" for an
/// overload (a message must not name an overload the file never chose).
std::string heldName(const Target& t);
/// Target and dialect rules for one node (EIR-S001, S002, S011, D001..D004). `n` is the node's label.
void checkTarget(VerifyContext& ctx, const Node& node, const std::string& path, const std::string& n);

/// Whether a target is made of identifiers (EIR-S013 reports those that are not; no other rule reads them).
bool isOperatorName(const Target& t);

/// The first value name an argument holds ("" for a constant).
std::string firstName(const Argument& a);

/// Structure, dialect and meta rules for one graph; recurses into subgraphs (graphPath names them).
void verifyGraph(VerifyContext& ctx, const Graph& graph, const std::string& graphPath, bool topLevel);
/// Signature rules (EIR-G*).
void verifySignature(VerifyContext& ctx);
/// Every placeholder has a val of the kind its input spec names; lifted state matches the state dict (EIR-G008, G009).
void verifyPlaceholders(VerifyContext& ctx);
/// Buffers the graph writes have their BUFFER_MUTATION output (EIR-G011).
void verifyBufferMutations(VerifyContext& ctx);
/// EIR-G011 for outputs without a spec that sit among the mutation outputs; true when it reported them
/// (then the output specs are accounted for and EIR-G002 stays quiet).
bool reportDroppedMutationOutputs(VerifyContext& ctx);
/// Sample inputs within the range constraints, one value per symbol (EIR-G010).
void verifySampleRanges(VerifyContext& ctx);
/// Elementwise prims: operands of one dtype and one shape (EIR-P001, P002). `n` is the node's label.
void checkPrimOperands(VerifyContext& ctx, const Graph& g, const Node& node, const std::string& path, const std::string& n);
/// Recorded vals against the meta functions, per graph (EIR-M006).
void verifyInferredMeta(VerifyContext& ctx);
/// Sample inputs against the user inputs (EIR-G007).
void verifySampleInputs(VerifyContext& ctx);
/// Range constraints for free symbols (EIR-Y001).
void verifySymbols(VerifyContext& ctx);
/// Tensor metas, target names, named arguments and range constraints (EIR-T001..T003, S013, S014, Y002).
void verifyValues(VerifyContext& ctx);

} // namespace irlens::core::detail
