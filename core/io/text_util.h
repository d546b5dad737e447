#pragma once
// Small text helpers shared by the container readers.

#include <string>

namespace irlens::core {

/// `s` without trailing newlines, carriage returns, spaces and NULs (tag records such as byteorder
/// and version are written with or without them).
inline std::string trimmedRight(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ' || s.back() == '\0')) s.pop_back();
    return s;
}

} // namespace irlens::core
