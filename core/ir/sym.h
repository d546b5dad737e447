#pragma once
// Symbolic values as the export schema stores them: a literal or a sympy expression (srepr or plain).

#include <cstdint>
#include <optional>
#include <string>

namespace irlens::core {

/// SymInt: `{"as_int": n}` or `{"as_expr": {"expr_str": ..., "hint": ...}}`.
struct SymInt {
    bool isExpr = false;
    int64_t value = 0;           // when !isExpr
    std::string expr;            // when isExpr: the text as stored (srepr or plain form)
    std::optional<int64_t> hint; // the example value, when recorded

    static SymInt literal(int64_t v) { SymInt s; s.value = v; return s; }
    static SymInt expression(std::string e, std::optional<int64_t> h = std::nullopt) {
        SymInt s; s.isExpr = true; s.expr = std::move(e); s.hint = h; return s;
    }
    bool isStatic() const { return !isExpr; }
    /// Readable form: "3", "s0", "2*s0" (srepr is pretty-printed).
    std::string toString() const;
    bool operator==(const SymInt&) const = default;
};

/// SymBool: `{"as_bool": b}` or `{"as_expr": ...}`.
struct SymBool {
    bool isExpr = false;
    bool value = false;
    std::string expr;
    std::optional<bool> hint;
    bool operator==(const SymBool&) const = default;
};

/// SymFloat: `{"as_float": x}` or `{"as_expr": ...}`.
struct SymFloat {
    bool isExpr = false;
    double value = 0;
    std::string expr;
    std::optional<double> hint;
    bool operator==(const SymFloat& o) const {
        return isExpr == o.isExpr && expr == o.expr && hint == o.hint &&
               (value == o.value || (value != value && o.value != o.value));
    }
};

/// Pretty-prints a sympy expression stored as srepr (`Mul(Integer(2), Symbol('s0', ...))`) or plain (`2*s0`).
/// Returns the input unchanged if it cannot be parsed. Implemented in sym_expr.cpp.
std::string prettySymExpr(const std::string& expr);

} // namespace irlens::core
