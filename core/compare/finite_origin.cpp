#include "core/compare/finite_origin.h"

#include <cmath>

namespace irlens::core {
namespace {

using exec::EValue;
using exec::PlanArg;

void literalFlags(const EValue& v, bool& nan, bool& inf) {
    auto flagValue = [&](double d) {
        if (std::isnan(d)) nan = true;
        else if (std::isinf(d)) inf = true;
    };
    if (v.kind == EValue::Kind::Double) flagValue(v.d);
    for (double d : v.doubles) flagValue(d);
}

} // namespace

FiniteOriginTracker::FiniteOriginTracker(const exec::ExecutionPlan& plan, const std::vector<EValue>& userInputs) : m_plan(plan) {
    size_t nextUser = 0;
    for (const auto& in : plan.inputs()) {
        if (in.kind == InputKind::UserInput) {
            const size_t k = nextUser++;
            if (k < userInputs.size() && userInputs[k].isTensor()) m_graphInputs.emplace(in.name, userInputs[k].tensor);
        } else if (in.state.defined()) {
            m_graphInputs.emplace(in.name, in.state);
        }
    }
}

FiniteOriginTracker::Flags FiniteOriginTracker::flagsOf(const std::string& name, NonFiniteOrigin& origin) {
    if (auto it = m_flags.find(name); it != m_flags.end()) return it->second;
    Flags f;
    if (auto in = m_graphInputs.find(name); in != m_graphInputs.end()) {
        const FiniteCount c = countNonFinite(in->second);
        f.nan = c.nan > 0;
        f.inf = c.posInf + c.negInf > 0;
        if (c.total() > 0) origin.nonFiniteInputs.push_back(name);
        m_graphInputs.erase(in);
    }
    m_flags.emplace(name, f);
    return f;
}

void FiniteOriginTracker::afterNode(const exec::PlanNode& pn, const std::vector<int>& records, const std::vector<ValueRecord>& values,
                                    NonFiniteOrigin& origin) {
    Flags out;
    for (int r : records) {
        const FiniteCount& c = values[static_cast<size_t>(r)].finite;
        Flags f{c.nan > 0, c.posInf + c.negInf > 0};
        m_flags[values[static_cast<size_t>(r)].name] = f;
        out.nan |= f.nan;
        out.inf |= f.inf;
    }
    if (!out.nan && !out.inf) return;
    Flags in, literal;
    const auto& names = m_plan.graph().slotNames;
    for (int s : pn.inputSlots) {
        const Flags f = flagsOf(names[static_cast<size_t>(s)], origin);
        in.nan |= f.nan;
        in.inf |= f.inf;
    }
    for (const PlanArg& a : pn.args) {
        if (a.source == PlanArg::Source::Literal) literalFlags(a.literal(), literal.nan, literal.inf);
        for (const auto& [slot, lit] : a.elements)
            if (slot < 0) literalFlags(lit, literal.nan, literal.inf);
    }
    const bool madeNan = out.nan && !in.nan && !literal.nan;
    const bool madeInf = out.inf && !in.nan && !in.inf && !literal.inf;
    const int first = records.front();
    if (madeNan || madeInf) origin.producers.push_back(first);
    else if (!in.nan && !in.inf && (literal.nan || literal.inf)) origin.fromConstants.push_back(first);
    else ++origin.carriers;
}

} // namespace irlens::core
