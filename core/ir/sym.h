#pragma once
// Symbolic values as the export schema stores them: a literal or a sympy expression (srepr or plain).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace irlens::core {

/// SymInt: `{"as_int": n}` or `{"as_expr": {"expr_str": ..., "hint": ...}}`. A literal is its value
/// (24 bytes in all: a tensor's sizes and strides are mostly literals); an expression's text and hint
/// sit behind a shared pointer.
struct SymInt {
    int64_t value = 0; // when !isExpr()

    static SymInt literal(int64_t v) { SymInt s; s.value = v; return s; }
    static SymInt expression(std::string e, std::optional<int64_t> h = std::nullopt) {
        SymInt s;
        s.m_expr = std::make_shared<const Expr>(Expr{std::move(e), h});
        return s;
    }
    bool isExpr() const { return m_expr != nullptr; }
    bool isStatic() const { return !isExpr(); }
    /// The expression's text as stored (srepr or plain form); "" for a literal.
    const std::string& expr() const;
    /// The example value of an expression, when recorded.
    std::optional<int64_t> hint() const { return m_expr ? m_expr->hint : std::nullopt; }
    /// Readable form: "3", "s0", "2*s0" (srepr is pretty-printed).
    std::string toString() const;
    bool operator==(const SymInt& o) const {
        if (isExpr() != o.isExpr()) return false;
        if (!isExpr()) return value == o.value;
        return m_expr == o.m_expr || (m_expr->text == o.m_expr->text && m_expr->hint == o.m_expr->hint);
    }

private:
    struct Expr {
        std::string text;
        std::optional<int64_t> hint;
    };
    std::shared_ptr<const Expr> m_expr;
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
