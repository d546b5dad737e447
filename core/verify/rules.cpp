#include "core/verify/diagnostic.h"

#include "core/verify/rule_catalogue.h"

namespace irlens::core {

const char* severityName(Severity s) {
    switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Info: return "info";
    }
    return "?";
}

std::string formatDiagnostic(const Diagnostic& d) {
    std::string where = d.graph.empty() ? d.node : d.graph + (d.node.empty() ? "" : ":" + d.node);
    std::string out = std::string(severityName(d.severity)) + " " + d.ruleId;
    if (!where.empty()) out += " [" + where + "]";
    out += ": " + d.message;
    if (!d.fix.empty()) out += " (fix: " + d.fix + ")";
    return out;
}

const std::vector<RuleInfo>& verifierRules() {
    // Spec references: the Export IR specification (torch.export docs, "IR Spec"), the checks of
    // torch/_export/verifier.py, and sections of the .pt2 format guide (../shared/reference/pt2-format.md).
    static const std::vector<RuleInfo> rules = [] {
        std::vector<RuleInfo> all = detail::graphRuleCatalogue();
        const std::vector<RuleInfo> program = detail::programRuleCatalogue();
        all.insert(all.end(), program.begin(), program.end());
        return all;
    }();
    return rules;
}

const RuleInfo* findRule(const std::string& id) {
    for (const auto& r : verifierRules())
        if (id == r.id) return &r;
    return nullptr;
}

} // namespace irlens::core
