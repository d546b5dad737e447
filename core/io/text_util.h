#pragma once
// Small text helpers shared by the container readers and the writers of SVG and HTML.

#include <string>
#include <string_view>

namespace irlens::core {

/// `s` without trailing newlines, carriage returns, spaces and NULs (tag records such as byteorder
/// and version are written with or without them).
inline std::string trimmedRight(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ' || s.back() == '\0')) s.pop_back();
    return s;
}

/// Appends `text` as XML and HTML text or attribute content: & < > " escaped, control bytes (not allowed
/// in XML 1.0; names from a file may hold them) as spaces.
inline void appendXmlEscaped(std::string& out, std::string_view text) {
    for (char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        default: out += static_cast<unsigned char>(c) < 0x20 && c != '\t' ? ' ' : c;
        }
    }
}

} // namespace irlens::core
