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

/// Structure, dialect and meta rules for one graph; recurses into subgraphs (graphPath names them).
void verifyGraph(VerifyContext& ctx, const Graph& graph, const std::string& graphPath, bool topLevel);
/// Signature rules (EIR-G*).
void verifySignature(VerifyContext& ctx);
/// Sample inputs against the user inputs (EIR-G007).
void verifySampleInputs(VerifyContext& ctx);
/// Range constraints for free symbols (EIR-Y001).
void verifySymbols(VerifyContext& ctx);
/// Tensor metas, target names, named arguments and range constraints (EIR-T001..T003, S013, S014, Y002).
void verifyValues(VerifyContext& ctx);

} // namespace irlens::core::detail
