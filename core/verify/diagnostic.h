#pragma once
// What the verifier reports: a finding names the rule (stable id), the graph and node, what is wrong and
// how to fix it. The rule table is public so the GUI can list every rule with its spec reference.

#include <string>
#include <vector>

namespace irlens::core {

enum class Severity { Error, Warning, Info };
const char* severityName(Severity s); // "error", "warning", "info"

struct Diagnostic {
    std::string ruleId;   // "EIR-S006"
    Severity severity = Severity::Error;
    std::string graph;    // "" for the top-level graph, "cond.true_graph_0" inside a HOP subgraph
    std::string node;     // the node (Node::name, the key to select it by), placeholder or signature entry; "" for
                          // the program. The message calls a node by its FX name, with this one when they differ.
    std::string message;  // what is wrong, with the names involved
    std::string fix;      // what to do about it
};

/// "error EIR-S006 [add]: node 'add' reads 'y' ... — fix: ..."
std::string formatDiagnostic(const Diagnostic& d);

/// One rule of the catalogue: what the GUI's rule browser and `irlens-cli verify --rules` show.
/// Every field is static text; a finding (Diagnostic) adds the names of the program at hand.
struct RuleInfo {
    const char* id;
    const char* title;
    const char* specRef;      // where the Export IR spec (or the .pt2 format guide) states it
    Severity severity;        // the usual severity (some rules lower it by dialect)
    const char* explanation;  // one paragraph: what the rule asks, in the spec's terms, and why it matters
    const char* passage;      // the spec passage it enforces (quoted where the spec says it in words)
    const char* breakingExample; // a short program (described) that breaks it
    const char* fix;          // what makes such a program pass
};

/// Every rule the verifier checks, in a fixed order.
const std::vector<RuleInfo>& verifierRules();
const RuleInfo* findRule(const std::string& id);

} // namespace irlens::core
