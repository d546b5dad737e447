#pragma once
// Shared state of one verification run (internal to core/verify).

#include "core/ir/program.h"
#include "core/verify/verifier.h"

#include <deque>
#include <map>
#include <string>
#include <vector>

namespace irlens::core::detail {

/// How findings name the first nodes of one graph: each node's FX name (fxNodeNames) and its label
/// (nodeLabel), made as far as a finding has needed them. Deques: a name handed out stays where it is
/// while later ones are added.
struct GraphNames {
    std::deque<std::string> fx;
    std::deque<std::string> labels;
};

struct VerifyContext;

/// Node `k` of a graph as a finding names it: its label, made only when a message is built.
class NodeRef {
public:
    NodeRef(VerifyContext& ctx, const Graph& g, size_t k) : m_ctx(&ctx), m_graph(&g), m_index(k) {}
    const std::string& str() const;
    operator const std::string&() const { return str(); }
    friend std::string operator+(const char* a, const NodeRef& b) { return a + b.str(); }
    friend std::string operator+(std::string a, const NodeRef& b) { return std::move(a) + b.str(); }

private:
    VerifyContext* m_ctx;
    const Graph* m_graph;
    size_t m_index;
};

struct VerifyContext {
    VerifyContext(const Program& p, const VerifyOptions& o, std::vector<Diagnostic>& diagnostics)
        : program(p), options(o), out(diagnostics) {}

    const Program& program;
    const VerifyOptions& options;
    std::vector<Diagnostic>& out;
    bool truncated = false;

    /// Whether another finding is kept; when not, the run is marked truncated. Rules that find something
    /// on every node (a million-node graph without metadata has three findings a node) ask first, and
    /// build no message nobody will read.
    bool room() {
        if (out.size() < options.maxDiagnostics) return true;
        truncated = true;
        return false;
    }
    void report(const char* ruleId, Severity severity, const std::string& graph, const std::string& node,
                std::string message, std::string fix) {
        if (!room()) return;
        out.push_back({ruleId, severity, graph, node, std::move(message), std::move(fix)});
    }
    void report(const char* ruleId, const std::string& graph, const std::string& node, std::string message,
                std::string fix) {
        if (!room()) return;
        const RuleInfo* r = findRule(ruleId);
        report(ruleId, r ? r->severity : Severity::Error, graph, node, std::move(message), std::move(fix));
    }

    /// What findings call node `k` of `g` (nodeLabel) and its FX name. Naming replays FX's namespace
    /// over the nodes in order, which at a million nodes costs as much as all the rules together: it
    /// runs only once a finding needs a name, and only over the nodes up to it (a node's FX name
    /// depends on the inputs and the nodes before it alone), doubling as later findings need more.
    const std::string& label(const Graph& g, size_t k) { return namedUpTo(g, k).labels[k]; }
    const std::string& fxName(const Graph& g, size_t k) { return namedUpTo(g, k).fx[k]; }

private:
    const GraphNames& namedUpTo(const Graph& g, size_t k);
    std::map<const Graph*, GraphNames> m_names;
};

inline const std::string& NodeRef::str() const { return m_ctx->label(*m_graph, m_index); }

/// How a finding names a node: its FX name quoted ("'cond'", as the FX text shows it), followed by the name
/// the program records when that differs ("'x_1' (recorded as 'relu')"). A node the file left unnamed
/// has only its FX name. Findings stay keyed by Node::name (Diagnostic::node), which the GUI selects by.
std::string nodeLabel(const Node& node, const std::string& fxName);

/// The target as the program holds it: "aten.sub" for an overload packet, "aten.sub.Tensor" for an
/// overload (a message must not name an overload the file never chose).
std::string heldName(const Target& t);
/// Target and dialect rules for one node (EIR-S001, S002, S011, D001..D004). `n` is the node's label.
void checkTarget(VerifyContext& ctx, const Node& node, const std::string& path, const NodeRef& n);

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
void checkPrimOperands(VerifyContext& ctx, const Graph& g, const Node& node, const std::string& path, const NodeRef& n);
/// Recorded vals against the meta functions, per graph (EIR-M006).
void verifyInferredMeta(VerifyContext& ctx);
/// Sample inputs against the user inputs (EIR-G007).
void verifySampleInputs(VerifyContext& ctx);
/// Range constraints for free symbols (EIR-Y001).
void verifySymbols(VerifyContext& ctx);
/// Tensor metas, target names, named arguments and range constraints (EIR-T001..T003, S013, S014, Y002).
void verifyValues(VerifyContext& ctx);

} // namespace irlens::core::detail
