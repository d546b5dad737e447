#pragma once
// Errors are values at core's boundary: no exception leaves core, nothing aborts on bad input.

#include <optional>
#include <string>
#include <utility>

namespace irlens::core {

/// A success or an error with a message a user can act on (which record, JSON path, node, what was expected).
class Status {
public:
    Status() = default;
    static Status ok() { return {}; }
    static Status error(std::string message) { Status s; s.m_ok = false; s.m_message = std::move(message); return s; }

    bool isOk() const { return m_ok; }
    explicit operator bool() const { return m_ok; }
    const std::string& message() const { return m_message; }

    /// Prefixes the message with context ("in models/model.json: ...").
    Status withContext(const std::string& context) const {
        return m_ok ? *this : error(context + ": " + m_message);
    }

private:
    bool m_ok = true;
    std::string m_message;
};

/// A value or the Status that explains why there is none.
template <class T>
class Result {
public:
    Result(T value) : m_value(std::move(value)) {}
    Result(Status status) : m_status(std::move(status)) {}

    bool isOk() const { return m_value.has_value(); }
    explicit operator bool() const { return isOk(); }
    const Status& status() const { return m_status; }
    const std::string& error() const { return m_status.message(); }

    T& value() & { return *m_value; }
    const T& value() const& { return *m_value; }
    T&& value() && { return std::move(*m_value); }
    T* operator->() { return &*m_value; }
    const T* operator->() const { return &*m_value; }
    T& operator*() { return *m_value; }
    const T& operator*() const { return *m_value; }

private:
    std::optional<T> m_value;
    Status m_status;
};

} // namespace irlens::core

/// Returns early from a function returning Status or Result<T> when `expr` (a Status) failed.
#define IRLENS_TRY(expr)                                  \
    do {                                                  \
        ::irlens::core::Status _irlens_s = (expr);        \
        if (!_irlens_s.isOk()) return _irlens_s;          \
    } while (0)

/// Declares `var` holding the value of `expr` (a Result<T>), or returns its error from a function returning
/// Status or Result<U>.
#define IRLENS_ASSIGN_OR_RETURN(var, expr)  \
    auto var##_r = (expr);                 \
    if (!var##_r) return var##_r.status(); \
    auto var = std::move(*var##_r)
