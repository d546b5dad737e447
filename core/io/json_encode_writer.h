#pragma once
// A minimal streaming JSON writer (compact form) used by the program encoder. Internal to core/io.

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace irlens::core::json {

class Writer {
public:
    void reserve(size_t n) { m_out.reserve(n); }
    std::string take() { return std::move(m_out); }

    Writer& beginObject() { prefix(); m_out += '{'; m_needComma = false; return *this; }
    Writer& endObject() { m_out += '}'; m_needComma = true; return *this; }
    Writer& beginArray() { prefix(); m_out += '['; m_needComma = false; return *this; }
    Writer& endArray() { m_out += ']'; m_needComma = true; return *this; }
    Writer& key(std::string_view k) {
        prefix();
        m_needComma = false;
        string(k);
        m_out += ':';
        m_needComma = false;
        return *this;
    }
    Writer& string(std::string_view s); // escapes; values or keys
    Writer& integer(int64_t v);
    Writer& number(double v);           // infinities/NaN as PyTorch's strings
    Writer& boolean(bool b) { prefix(); m_out += b ? "true" : "false"; m_needComma = true; return *this; }
    Writer& null() { prefix(); m_out += "null"; m_needComma = true; return *this; }
    /// Pre-encoded JSON text, written as one value.
    Writer& raw(std::string_view json) { prefix(); m_out += json; m_needComma = true; return *this; }

private:
    void prefix() {
        if (m_needComma) m_out += ',';
    }
    std::string m_out;
    bool m_needComma = false;
};

} // namespace irlens::core::json
