#pragma once
// Symbolic values as the export schema stores them: a literal or a sympy expression (srepr or plain).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>

namespace irlens::core {

/// A symbolic value as the export schema stores it: a literal (`{"as_int": n}`, `{"as_bool": b}`,
/// `{"as_float": x}`) or a sympy expression with an optional example value (`{"as_expr":
/// {"expr_str": ..., "hint": ...}}`). SymInt, SymBool and SymFloat are this one shape. A literal is
/// its value (a SymInt is 24 bytes: a tensor's sizes and strides are mostly literals); an
/// expression's text and hint sit behind a shared pointer.
template <class T>
struct Sym {
    T value{}; // when !isExpr()

    static Sym literal(T v) { Sym s; s.value = v; return s; }
    static Sym expression(std::string text, std::optional<T> hint = std::nullopt) {
        Sym s;
        s.m_expr = std::make_shared<const Expr>(Expr{std::move(text), hint});
        return s;
    }
    bool isExpr() const { return m_expr != nullptr; }
    bool isStatic() const { return !isExpr(); }
    /// The expression's text as stored (srepr or plain form); "" for a literal.
    const std::string& expr() const {
        static const std::string none;
        return m_expr ? m_expr->text : none;
    }
    /// The example value of an expression, when recorded.
    std::optional<T> hint() const { return m_expr ? m_expr->hint : std::nullopt; }
    /// Readable form: "3", "s0", "2*s0" (srepr is pretty-printed). Defined for SymInt.
    std::string toString() const;
    /// Literals compare by value (a NaN SymFloat equals a NaN), expressions by text and hint.
    bool operator==(const Sym& o) const {
        if (isExpr() != o.isExpr()) return false;
        if (!isExpr()) {
            if constexpr (std::is_floating_point_v<T>)
                if (value != value && o.value != o.value) return true;
            return value == o.value;
        }
        return m_expr == o.m_expr || (m_expr->text == o.m_expr->text && m_expr->hint == o.m_expr->hint);
    }

private:
    struct Expr {
        std::string text;
        std::optional<T> hint;
    };
    std::shared_ptr<const Expr> m_expr;
};

using SymInt = Sym<int64_t>;
using SymBool = Sym<bool>;
using SymFloat = Sym<double>;

template <>
std::string SymInt::toString() const;

/// The export schema's names for Sym<T>: the type ("SymInt") and the member of a literal ("as_int").
template <class T>
struct SymSchema;
template <>
struct SymSchema<int64_t> {
    static constexpr const char* type = "SymInt";
    static constexpr const char* literalKey = "as_int";
};
template <>
struct SymSchema<bool> {
    static constexpr const char* type = "SymBool";
    static constexpr const char* literalKey = "as_bool";
};
template <>
struct SymSchema<double> {
    static constexpr const char* type = "SymFloat";
    static constexpr const char* literalKey = "as_float";
};

/// Pretty-prints a sympy expression stored as srepr (`Mul(Integer(2), Symbol('s0', ...))`) or plain (`2*s0`).
/// Returns the input unchanged if it cannot be parsed. Implemented in sym_expr.cpp.
std::string prettySymExpr(const std::string& expr);

} // namespace irlens::core
