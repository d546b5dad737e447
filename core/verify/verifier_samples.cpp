// EIR-G010: the sample inputs are inputs the program accepts. A dynamic dimension is a symbol with a
// range; the example torch.export traced with gave each symbol one value inside its range, so a stored
// sample outside it (or giving one symbol two values) is not an input this program was exported for,
// and running it proves nothing. Dtype, rank and static sizes are EIR-G007's.
#include "core/verify/verifier_context.h"

#include <cctype>
#include <map>

namespace irlens::core::detail {
namespace {

// The symbol a size is, when it is exactly one symbol ("s0"); "" for literals and expressions (2*s0).
std::string bareSymbol(const SymInt& s) {
    if (s.isStatic()) return {};
    const std::string text = prettySymExpr(s.expr());
    if (text.empty() || !(std::isalpha(static_cast<unsigned char>(text[0])) || text[0] == '_')) return {};
    for (char c : text)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return {};
    return text;
}

std::string rangeText(const RangeConstraint& r) {
    return "[" + (r.minVal ? std::to_string(*r.minVal) : std::string("-inf")) + ", " +
           (r.maxVal ? std::to_string(*r.maxVal) : std::string("inf")) + "]";
}

class SymbolValues {
public:
    explicit SymbolValues(VerifyContext& ctx) : m_ctx(ctx) {}

    /// One observation: `where` ("dimension 0 of 'x'") gives `symbol` the value `v`.
    void observe(const std::string& symbol, int64_t v, const std::string& where, const std::string& input) {
        auto [it, fresh] = m_seen.emplace(symbol, std::make_pair(v, where));
        if (!fresh && it->second.first != v) {
            m_ctx.report("EIR-G010", "", input,
                         "the sample inputs give symbol '" + symbol + "' two values: " + std::to_string(it->second.first) + " (" +
                             it->second.second + ") and " + std::to_string(v) + " (" + where + ")",
                         "store sample inputs that agree on every dimension the program ties together");
            return;
        }
        auto range = m_ctx.program.rangeConstraints.find(symbol);
        if (!fresh || range == m_ctx.program.rangeConstraints.end()) return; // no range is EIR-Y001's
        const RangeConstraint& r = range->second;
        if ((r.minVal && v < *r.minVal) || (r.maxVal && v > *r.maxVal))
            m_ctx.report("EIR-G010", "", input,
                         "the sample inputs give " + where + " the value " + std::to_string(v) + ", outside the range " +
                             rangeText(r) + " of its symbol '" + symbol + "'",
                         "store a sample inside range_constraints['" + symbol + "'] (or export again with a wider range)");
    }

private:
    VerifyContext& m_ctx;
    std::map<std::string, std::pair<int64_t, std::string>> m_seen;
};

} // namespace

void verifySampleRanges(VerifyContext& ctx) {
    const Program& p = ctx.program;
    if (!p.hasSampleInputs || !p.sampleKwargs.empty()) return; // kwargs: the flattening order is the treespec's
    std::vector<const InputSpec*> users;
    for (const auto& spec : p.signature.inputSpecs)
        if (spec.kind == InputKind::UserInput || spec.kind == InputKind::ConstantInput) users.push_back(&spec);
    if (users.size() != p.sampleArgs.size()) return; // EIR-G007 reports the count
    SymbolValues symbols(ctx);
    for (size_t k = 0; k < users.size(); ++k) {
        const Argument& arg = users[k]->arg;
        const Value& v = p.sampleArgs[k];
        const std::string name = firstName(arg);
        if (arg.kind == ArgKind::SymInt && arg.isName && v.kind == Value::Kind::Int) {
            auto sym = p.graph.symIntValues.find(arg.s);
            if (sym != p.graph.symIntValues.end())
                if (std::string s = bareSymbol(sym->second); !s.empty()) symbols.observe(s, v.i, "'" + name + "'", name);
            continue;
        }
        const TensorMeta* meta = arg.kind == ArgKind::Tensor ? p.graph.tensorMeta(arg.s) : nullptr;
        if (!meta || v.kind != Value::Kind::Tensor || v.tensor.sizes.size() != meta->sizes.size()) continue;
        for (size_t d = 0; d < meta->sizes.size(); ++d)
            if (std::string s = bareSymbol(meta->sizes[d]); !s.empty())
                symbols.observe(s, v.tensor.sizes[d], "dimension " + std::to_string(d) + " of '" + name + "'", name);
    }
}

} // namespace irlens::core::detail
