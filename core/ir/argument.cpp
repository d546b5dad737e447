#include "core/ir/argument.h"
#include "core/ir/graph.h"

#include <algorithm>

namespace irlens::core {

// ---------------------------------------------------------------- TensorMeta

std::string TensorMeta::shortString() const {
    std::string out = dtypeShortName(dtype) + "[";
    for (size_t k = 0; k < sizes.size(); ++k) {
        if (k) out += ", ";
        out += sizes[k].toString();
    }
    return out + "]";
}

std::optional<std::vector<int64_t>> TensorMeta::staticSizes() const {
    std::vector<int64_t> out;
    out.reserve(sizes.size());
    for (const auto& s : sizes) {
        if (s.isExpr()) return std::nullopt;
        out.push_back(s.value);
    }
    return out;
}

template <>
std::string SymInt::toString() const {
    return isExpr() ? prettySymExpr(expr()) : std::to_string(value);
}

// ---------------------------------------------------------------- Argument

Argument Argument::ints(const std::vector<int64_t>& v) {
    Argument a;
    a.kind = ArgKind::Ints;
    for (auto x : v) a.list.push_back(integer(x));
    return a;
}

Argument Argument::tensors(const std::vector<std::string>& names) {
    Argument a;
    a.kind = ArgKind::Tensors;
    for (const auto& n : names) a.list.push_back(tensor(n));
    return a;
}

bool Argument::isList() const {
    switch (kind) {
    case ArgKind::Tensors: case ArgKind::OptionalTensors: case ArgKind::NestedTensors: case ArgKind::Ints:
    case ArgKind::IntLists: case ArgKind::Floats: case ArgKind::FloatLists: case ArgKind::Bools:
    case ArgKind::Strings: case ArgKind::SymInts: case ArgKind::SymBools: case ArgKind::SymFloats:
    case ArgKind::StringToArgument:
        return true;
    default:
        return false;
    }
}

void Argument::collectValueNames(std::vector<std::string>& out) const {
    forEachValueName([&](const std::string& name) { out.push_back(name); });
}

bool Argument::operator==(const Argument& o) const {
    if (kind != o.kind || b != o.b || isName != o.isName || s != o.s || s2() != o.s2() || key() != o.key() ||
        raw() != o.raw() || !(device() == o.device()) || !(list == o.list))
        return false;
    // i and imag share their bytes: a Complex compares its imaginary part as a number
    if (kind == ArgKind::Complex ? imag != o.imag : i != o.i) return false;
    if (!(f == o.f || (f != f && o.f != o.f))) return false;
    if (static_cast<bool>(graph()) != static_cast<bool>(o.graph())) return false;
    return !graph() || *graph() == *o.graph();
}

// ---------------------------------------------------------------- Target

Target Target::parse(const std::string& full) {
    Target t;
    t.full = full;
    auto span = [&](size_t pos, size_t end) {
        pos = std::min(pos, full.size());
        end = std::min(end, full.size());
        return Span{static_cast<uint32_t>(pos), static_cast<uint32_t>(end > pos ? end - pos : 0)};
    };
    if (full.size() > UINT32_MAX) return t; // Unknown: no spans to keep
    if (!full.empty() && full[0] == '#') {
        t.kind = Kind::Extension;
        auto colon = full.find(':');
        t.m_ns = span(1, colon);
        if (colon != std::string::npos) t.m_op = span(colon + 1, full.size());
        return t;
    }
    static const std::string prefix = "torch.ops.";
    if (full.rfind(prefix, 0) == 0) {
        // torch.ops.<ns>.<op>[.<overload, dots and all>]
        const size_t nsEnd = full.find('.', prefix.size());
        if (nsEnd != std::string::npos) {
            const size_t opEnd = full.find('.', nsEnd + 1);
            t.m_ns = span(prefix.size(), nsEnd);
            t.m_op = span(nsEnd + 1, opEnd);
            const bool higherOrder = t.ns() == "higher_order";
            t.kind = higherOrder ? Kind::HigherOrder : Kind::Op;
            if (!higherOrder) {
                if (opEnd == std::string::npos) t.m_defaultOverload = true;
                else t.m_overload = span(opEnd + 1, full.size());
            }
            return t;
        }
    }
    if (full.rfind("_operator.", 0) == 0 || full.rfind("math.", 0) == 0 || full.rfind("torch.sym_", 0) == 0 ||
        full.rfind("operator.", 0) == 0 || full == "builtins.getattr") {
        t.kind = Kind::Symbolic;
        auto dot = full.rfind('.');
        t.m_ns = span(0, dot);
        t.m_op = span(dot + 1, full.size());
        return t;
    }
    t.kind = Kind::Unknown;
    return t;
}

std::string Target::shortName() const {
    if (kind == Kind::Op) return ns() + "." + op() + "." + overload();
    if (kind == Kind::HigherOrder) return "higher_order." + op();
    return full;
}

std::string Target::opKey(const std::string& ns, const std::string& op, const std::string& overload) {
    return ns + "::" + op + "." + (overload.empty() ? "default" : overload);
}

std::string Target::key() const {
    switch (kind) {
    case Kind::Op: return opKey(ns(), op(), overload());
    case Kind::HigherOrder: return "higher_order::" + op();
    default: return full;
    }
}

} // namespace irlens::core
