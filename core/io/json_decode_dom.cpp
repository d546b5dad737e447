#include "core/io/json_decode_dom.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

namespace irlens::core::json {

namespace {

// One input byte for a message: printable ASCII as itself, anything else (NUL above all, which would
// end the message when printed as a C string) as \xNN.
std::string quotedChar(char c) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f) return std::string("'") + c + "'";
    static const char* hex = "0123456789abcdef";
    return std::string("byte \\x") + hex[u >> 4] + hex[u & 0xF];
}

} // namespace

const char* describeType(JType t) {
    switch (t) {
    case JType::Null: return "null";
    case JType::Bool: return "a boolean";
    case JType::Int: case JType::Float: return "a number";
    case JType::String: return "a string";
    case JType::Array: return "an array";
    case JType::Object: return "an object";
    }
    return "?";
}

uint32_t JsonDoc::member(uint32_t index, std::string_view key) const {
    const JNode& obj = m_nodes[index];
    if (obj.type != JType::Object) return kNoNode;
    // The last duplicate wins, as in Python's json module (what PyTorch's own loader would see).
    uint32_t found = kNoNode;
    for (uint32_t c = index + 1; c < obj.end; c = m_nodes[c].end)
        if (m_nodes[c].key == key) found = c;
    return found;
}

// Recursive descent, bounded by maxDepth (clamped so a huge option cannot overflow the stack).
class JsonParser {
public:
    JsonParser(JsonDoc& doc, std::string_view text, size_t maxDepth, const std::vector<KeyPath>* deferred = nullptr,
               Deferral how = Deferral::Scan)
        : m_doc(doc), m_p(text.data()), m_begin(text.data()), m_end(text.data() + text.size()),
          m_maxDepth(clampDepth(maxDepth)), m_deferPaths(deferred), m_how(how) {
        if (deferred)
            for (const auto& path : *deferred) m_trackedDepth = std::max(m_trackedDepth, path.size());
    }

    static size_t clampDepth(size_t maxDepth) { return maxDepth > 4096 ? 4096 : maxDepth; }

    Status run() {
        // A UTF-8 byte order mark is tolerated (Python's json accepts it in bytes input).
        if (m_end - m_p >= 3 && std::memcmp(m_p, "\xEF\xBB\xBF", 3) == 0) m_p += 3;
        skipWs();
        if (!parseValue(0)) return Status::error(m_error);
        skipWs();
        if (m_p != m_end) {
            error("unexpected text after the JSON value");
            return Status::error(m_error);
        }
        return Status::ok();
    }

    /// One element of a deferred container, from `begin` (an object member: at its key) to `end`.
    Status runElement(size_t begin, size_t end, size_t depth, bool member) {
        m_p = m_begin + begin;
        uint32_t idx = static_cast<uint32_t>(m_doc.m_nodes.size());
        std::string_view key;
        if (member) {
            if (m_p >= m_end || *m_p != '"') {
                error("expected a quoted key in an object");
                return Status::error(m_error);
            }
            if (!parseString(key)) return Status::error(m_error);
            skipWs();
            if (m_p >= m_end || *m_p != ':') {
                error("expected ':' after an object key");
                return Status::error(m_error);
            }
            ++m_p;
            skipWs();
            idx = static_cast<uint32_t>(m_doc.m_nodes.size());
        }
        if (!parseValue(depth)) return Status::error(m_error);
        if (m_p != m_begin + end) {
            error("expected the element to end here");
            return Status::error(m_error);
        }
        m_doc.m_nodes[idx].key = key;
        return Status::ok();
    }

private:
    JsonDoc& m_doc;
    const char* m_p;
    const char* m_begin;
    const char* m_end;
    size_t m_maxDepth;
    std::string m_error;
    // Deferred containers: the object keys from the root to where the parse is (an array element
    // adds kItem), kept only as deep as the longest deferred path; none inside a deferred container.
    const std::vector<KeyPath>* m_deferPaths = nullptr;
    Deferral m_how = Deferral::Scan;
    size_t m_trackedDepth = 0;
    std::vector<std::string_view> m_keys;
    int m_inDeferred = 0;
    static constexpr const char* kItem = "[]";

    bool tracking() const { return m_inDeferred == 0 && m_keys.size() < m_trackedDepth; }
    bool deferHere() const {
        if (m_inDeferred || !m_deferPaths) return false;
        for (const auto& path : *m_deferPaths) {
            if (path.size() != m_keys.size()) continue;
            bool same = true;
            for (size_t k = 0; k < path.size() && same; ++k) same = m_keys[k].data() != kItem && m_keys[k] == path[k];
            if (same) return true;
        }
        return false;
    }

    /// Starts the element list of deferred container `idx`, whose elements sit at `depth`.
    size_t startDeferred(uint32_t idx, size_t depth, bool members) {
        const size_t list = m_doc.m_deferred.size();
        m_doc.m_deferred.push_back({{}, {}, depth, members});
        m_doc.m_nodes[idx].flags |= JNode::kDeferred;
        m_doc.m_nodes[idx].i = static_cast<int64_t>(list);
        ++m_inDeferred;
        return list;
    }
    /// Ends an element of a deferred container read with Deferral::Check: where it ends is noted and
    /// what it added (from `nodes` records and `unescaped` strings on) is forgotten.
    void closeCheckedElement(size_t list, size_t nodes, size_t unescaped) {
        m_doc.m_deferred[list].ends.push_back(offset());
        m_doc.m_nodes.resize(nodes);
        m_doc.m_unescaped.resize(unescaped);
    }
    /// A member's value (`key`) or an array element's (kItem), the key path followed when `track`.
    bool parseValueAt(std::string_view key, bool track, size_t depth) {
        if (track) m_keys.push_back(key);
        const bool parsed = parseValue(depth);
        if (track) m_keys.pop_back();
        return parsed;
    }
    uint32_t offset() const { return static_cast<uint32_t>(m_p - m_begin); }

    // ---- Deferral::Scan: the structure of a deferred container only

    /// Past a string (on entry *m_p == '"'); escapes are only stepped over.
    bool skipString() {
        ++m_p;
        for (;;) {
            skipPlainBytes();
            while (m_p < m_end && *m_p != '"' && *m_p != '\\' && static_cast<unsigned char>(*m_p) >= 0x20) ++m_p;
            if (m_p >= m_end) return error("unterminated string");
            if (*m_p == '"') {
                ++m_p;
                return true;
            }
            if (*m_p != '\\') return error("control character inside a string");
            if (m_end - m_p < 2) return error("unterminated string");
            m_p += 2;
        }
    }

    static bool scalarByte(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '+' || c == '.';
    }

    /// Past one value at `depth`: a string, a run of scalar bytes, or balanced brackets.
    bool skipValue(size_t depth) {
        if (m_p >= m_end) return error("unexpected end of input");
        if (*m_p == '"') return skipString();
        if (*m_p != '{' && *m_p != '[') {
            const char* start = m_p;
            while (m_p < m_end && scalarByte(*m_p)) ++m_p;
            return m_p > start || error("unexpected character " + quotedChar(*m_p));
        }
        size_t open = 0;
        while (m_p < m_end) {
            const char c = *m_p;
            if (c == '"') {
                if (!skipString()) return false;
                continue;
            }
            if (c == '{' || c == '[') {
                if (depth + ++open > m_maxDepth) return error("nested deeper than " + std::to_string(m_maxDepth) + " levels");
            } else if (c == '}' || c == ']') {
                if (--open == 0) {
                    ++m_p;
                    return true;
                }
            }
            ++m_p;
        }
        return error("unexpected end of input");
    }

    /// A deferred container (m_p on its opening bracket) read for where its elements begin and end.
    bool scanContainer(uint32_t idx, size_t list, size_t depth, bool members) {
        const char close = members ? '}' : ']';
        ++m_p;
        skipWs();
        uint32_t count = 0;
        if (m_p < m_end && *m_p == close) {
            ++m_p;
        } else {
            for (;;) {
                skipWs();
                m_doc.m_deferred[list].begins.push_back(offset());
                if (members) {
                    if (m_p >= m_end || *m_p != '"') return error("expected a quoted key in an object");
                    if (!skipString()) return false;
                    skipWs();
                    if (m_p >= m_end || *m_p != ':') return error("expected ':' after an object key");
                    ++m_p;
                    skipWs();
                }
                if (!skipValue(depth + 1)) return false;
                m_doc.m_deferred[list].ends.push_back(offset());
                ++count;
                skipWs();
                if (m_p >= m_end) return error(members ? "unterminated object" : "unterminated array");
                if (*m_p == ',') { ++m_p; continue; }
                if (*m_p == close) { ++m_p; break; }
                return error(members ? "expected ',' or '}' in an object" : "expected ',' or ']' in an array");
            }
        }
        --m_inDeferred;
        m_doc.m_nodes[idx].count = count;
        finish(idx);
        return true;
    }

    bool error(const std::string& what) {
        size_t line = 1, col = 1;
        for (const char* c = m_begin; c < m_p && c < m_end; ++c) {
            if (*c == '\n') { ++line; col = 1; } else { ++col; }
        }
        m_error = "invalid JSON at line " + std::to_string(line) + ", column " + std::to_string(col) + ": " + what;
        return false;
    }

    void skipWs() {
        while (m_p < m_end && (*m_p == ' ' || *m_p == '\n' || *m_p == '\r' || *m_p == '\t')) ++m_p;
    }

    uint32_t pushNode(JType t) {
        JNode n;
        n.type = t;
        n.srcBegin = static_cast<uint32_t>(m_p - m_begin);
        m_doc.m_nodes.push_back(n);
        return static_cast<uint32_t>(m_doc.m_nodes.size() - 1);
    }

    void finish(uint32_t idx) {
        JNode& n = m_doc.m_nodes[idx];
        n.end = static_cast<uint32_t>(m_doc.m_nodes.size());
        n.srcEnd = static_cast<uint32_t>(m_p - m_begin);
    }

    bool literal(const char* word) {
        size_t len = std::strlen(word);
        if (static_cast<size_t>(m_end - m_p) < len || std::memcmp(m_p, word, len) != 0) return false;
        m_p += len;
        return true;
    }

    bool parseValue(size_t depth) {
        if (m_p >= m_end) return error("unexpected end of input");
        switch (*m_p) {
        case '{': return parseObject(depth);
        case '[': return parseArray(depth);
        case '"': {
            uint32_t idx = pushNode(JType::String);
            std::string_view s;
            size_t before = m_doc.m_unescaped.size();
            if (!parseString(s)) return false;
            if (m_doc.m_unescaped.size() != before) {
                m_doc.m_nodes[idx].flags |= JNode::kEscaped;
                m_doc.m_nodes[idx].i = static_cast<int64_t>(before);
            }
            finish(idx);
            return true;
        }
        case 't': case 'f': case 'n': {
            uint32_t idx = pushNode(JType::Null);
            if (literal("true")) { m_doc.m_nodes[idx].type = JType::Bool; m_doc.m_nodes[idx].flags |= JNode::kTrue; }
            else if (literal("false")) { m_doc.m_nodes[idx].type = JType::Bool; }
            else if (!literal("null")) return error("unknown literal");
            finish(idx);
            return true;
        }
        case 'N': case 'I': {
            // Python's json module writes bare NaN/Infinity unless told not to; accept them.
            uint32_t idx = pushNode(JType::Float);
            if (literal("NaN")) m_doc.m_nodes[idx].d = std::numeric_limits<double>::quiet_NaN();
            else if (literal("Infinity")) m_doc.m_nodes[idx].d = std::numeric_limits<double>::infinity();
            else return error("unknown literal");
            finish(idx);
            return true;
        }
        default:
            if (*m_p == '-' || (*m_p >= '0' && *m_p <= '9')) return parseNumber();
            return error("unexpected character " + quotedChar(*m_p));
        }
    }

    bool parseNumber() {
        uint32_t idx = pushNode(JType::Int);
        const char* start = m_p;
        if (*m_p == '-' && m_end - m_p >= 9 && std::memcmp(m_p, "-Infinity", 9) == 0) {
            m_p += 9;
            m_doc.m_nodes[idx].type = JType::Float;
            m_doc.m_nodes[idx].d = -std::numeric_limits<double>::infinity();
            finish(idx);
            return true;
        }
        bool isFloat = false;
        const char* q = m_p;
        if (q < m_end && *q == '-') ++q;
        const char* digits = q;
        while (q < m_end && *q >= '0' && *q <= '9') ++q;
        if (q == digits) return error("a number needs digits");
        if (q < m_end && *q == '.') {
            isFloat = true;
            ++q;
            const char* frac = q;
            while (q < m_end && *q >= '0' && *q <= '9') ++q;
            if (q == frac) return error("a number needs digits after '.'");
        }
        if (q < m_end && (*q == 'e' || *q == 'E')) {
            isFloat = true;
            ++q;
            if (q < m_end && (*q == '+' || *q == '-')) ++q;
            const char* ex = q;
            while (q < m_end && *q >= '0' && *q <= '9') ++q;
            if (q == ex) return error("a number needs digits in its exponent");
        }
        JNode& n = m_doc.m_nodes[idx];
        if (!isFloat) {
            int64_t v = 0;
            auto r = std::from_chars(start, q, v);
            if (r.ec == std::errc::result_out_of_range) {
                n.flags |= JNode::kIntOverflow;
                double dv = 0;
                std::from_chars(start, q, dv);
                n.d = dv;
            } else {
                n.i = v;
            }
        } else {
            n.type = JType::Float;
            double dv = 0;
            auto r = std::from_chars(start, q, dv);
            n.d = r.ec == std::errc::result_out_of_range ? (*start == '-' ? -1.0 : 1.0) * HUGE_VAL : dv;
        }
        m_p = q;
        finish(idx);
        return true;
    }

    static void appendUtf8(std::string& out, uint32_t cp) {
        if (cp < 0x80) {
            out += static_cast<char>(cp);
        } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (cp >> 18));
            out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        }
    }

    bool hex4(uint32_t& out) {
        if (m_end - m_p < 4) return error("truncated \\u escape");
        out = 0;
        for (int k = 0; k < 4; ++k) {
            char c = m_p[k];
            out <<= 4;
            if (c >= '0' && c <= '9') out |= static_cast<uint32_t>(c - '0');
            else if (c >= 'a' && c <= 'f') out |= static_cast<uint32_t>(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F') out |= static_cast<uint32_t>(c - 'A' + 10);
            else return error("bad hex digit in \\u escape");
        }
        m_p += 4;
        return true;
    }

    // Advances m_p over plain string bytes 8 at a time, stopping at or before the first '"', '\\'
    // or control character (the byte loops after it find which). Strings are most of the text.
    void skipPlainBytes() {
        constexpr uint64_t kOnes = 0x0101010101010101ull, kHigh = 0x8080808080808080ull;
        while (m_end - m_p >= 8) {
            uint64_t w;
            std::memcpy(&w, m_p, 8);
            auto zeroByte = [&](uint64_t x) { return (x - kOnes) & ~x & kHigh; };
            const uint64_t stop = zeroByte(w ^ (kOnes * '"')) | zeroByte(w ^ (kOnes * '\\')) | ((w - kOnes * 0x20) & ~w & kHigh);
            if (stop) return;
            m_p += 8;
        }
    }

    // On entry *m_p == '"'. Fast path: no escapes -> a view into the source.
    bool parseString(std::string_view& out) {
        ++m_p;
        const char* start = m_p;
        skipPlainBytes();
        while (m_p < m_end && *m_p != '"' && *m_p != '\\') {
            if (static_cast<unsigned char>(*m_p) < 0x20) return error("control character inside a string");
            ++m_p;
        }
        if (m_p >= m_end) return error("unterminated string");
        if (*m_p == '"') {
            out = std::string_view(start, static_cast<size_t>(m_p - start));
            ++m_p;
            return true;
        }
        std::string buf(start, m_p);
        while (m_p < m_end && *m_p != '"') {
            char c = *m_p;
            if (static_cast<unsigned char>(c) < 0x20) return error("control character inside a string");
            if (c != '\\') { // copy the run up to the next escape or quote at once (stack traces are long)
                const char* run = m_p;
                skipPlainBytes();
                while (m_p < m_end && *m_p != '"' && *m_p != '\\' && static_cast<unsigned char>(*m_p) >= 0x20) ++m_p;
                buf.append(run, m_p);
                continue;
            }
            ++m_p;
            if (m_p >= m_end) return error("unterminated string");
            char e = *m_p++;
            switch (e) {
            case '"': buf += '"'; break;
            case '\\': buf += '\\'; break;
            case '/': buf += '/'; break;
            case 'b': buf += '\b'; break;
            case 'f': buf += '\f'; break;
            case 'n': buf += '\n'; break;
            case 'r': buf += '\r'; break;
            case 't': buf += '\t'; break;
            case 'u': {
                uint32_t cp;
                if (!hex4(cp)) return false;
                if (cp >= 0xD800 && cp < 0xDC00 && m_end - m_p >= 6 && m_p[0] == '\\' && m_p[1] == 'u') {
                    m_p += 2;
                    uint32_t lo;
                    if (!hex4(lo)) return false;
                    if (lo >= 0xDC00 && lo < 0xE000) cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    else { appendUtf8(buf, cp); cp = lo; }
                }
                appendUtf8(buf, cp);
                break;
            }
            default: --m_p; return error(std::string("bad escape '\\") + e + "'");
            }
        }
        if (m_p >= m_end) return error("unterminated string");
        ++m_p;
        m_doc.m_unescaped.push_back(std::move(buf));
        out = m_doc.m_unescaped.back();
        return true;
    }

    bool enter(size_t depth) {
        if (depth + 1 > m_maxDepth)
            return error("nested deeper than " + std::to_string(m_maxDepth) + " levels");
        return true;
    }

    bool parseArray(size_t depth) {
        if (!enter(depth)) return false;
        uint32_t idx = pushNode(JType::Array);
        const bool defer = deferHere();
        const size_t list = defer ? startDeferred(idx, depth + 1, false) : 0;
        if (defer && m_how == Deferral::Scan) return scanContainer(idx, list, depth, false);
        const bool track = tracking();
        ++m_p;
        skipWs();
        uint32_t count = 0;
        if (m_p < m_end && *m_p == ']') {
            ++m_p;
        } else {
            for (;;) {
                skipWs();
                const size_t nodes = m_doc.m_nodes.size(), unescaped = m_doc.m_unescaped.size();
                if (defer) m_doc.m_deferred[list].begins.push_back(offset());
                if (!parseValueAt(std::string_view(kItem, 0), track, depth + 1)) return false;
                if (defer) closeCheckedElement(list, nodes, unescaped);
                ++count;
                skipWs();
                if (m_p >= m_end) return error("unterminated array");
                if (*m_p == ',') { ++m_p; continue; }
                if (*m_p == ']') { ++m_p; break; }
                return error("expected ',' or ']' in an array");
            }
        }
        if (defer) --m_inDeferred;
        m_doc.m_nodes[idx].count = count;
        finish(idx);
        return true;
    }

    bool parseObject(size_t depth) {
        if (!enter(depth)) return false;
        uint32_t idx = pushNode(JType::Object);
        const bool defer = deferHere();
        const size_t list = defer ? startDeferred(idx, depth + 1, true) : 0;
        if (defer && m_how == Deferral::Scan) return scanContainer(idx, list, depth, true);
        const bool track = tracking();
        ++m_p;
        skipWs();
        uint32_t count = 0;
        if (m_p < m_end && *m_p == '}') {
            ++m_p;
        } else {
            for (;;) {
                skipWs();
                if (m_p >= m_end || *m_p != '"') return error("expected a quoted key in an object");
                const size_t nodes = m_doc.m_nodes.size(), unescaped = m_doc.m_unescaped.size();
                if (defer) m_doc.m_deferred[list].begins.push_back(offset());
                std::string_view key;
                if (!parseString(key)) return false;
                skipWs();
                if (m_p >= m_end || *m_p != ':') return error("expected ':' after an object key");
                ++m_p;
                skipWs();
                uint32_t valueIdx = static_cast<uint32_t>(m_doc.m_nodes.size());
                if (!parseValueAt(key, track, depth + 1)) return false;
                if (defer) closeCheckedElement(list, nodes, unescaped);
                else m_doc.m_nodes[valueIdx].key = key;
                ++count;
                skipWs();
                if (m_p >= m_end) return error("unterminated object");
                if (*m_p == ',') { ++m_p; continue; }
                if (*m_p == '}') { ++m_p; break; }
                return error("expected ',' or '}' in an object");
            }
        }
        if (defer) --m_inDeferred;
        m_doc.m_nodes[idx].count = count;
        finish(idx);
        return true;
    }
};

Status JsonDoc::parse(std::string_view text, size_t maxDepth, const std::vector<KeyPath>& deferred, Deferral how) {
    m_nodes.clear();
    m_unescaped.clear();
    m_deferred.clear();
    if (text.size() >= UINT32_MAX) return Status::error("JSON text larger than 4 GiB");
    m_text = text;
    m_maxDepth = JsonParser::clampDepth(maxDepth);
    // A rough size guess saves most reallocations of the node array (deferred containers are most
    // of a program's text: what stays is small).
    m_nodes.reserve(deferred.empty() ? text.size() / 12 + 16 : 4096);
    JsonParser parser(*this, text, maxDepth, deferred.empty() ? nullptr : &deferred, how);
    return parser.run();
}

Status JsonDoc::parseElement(uint32_t index, size_t k, JsonDoc& element) const {
    const DeferredElements& list = m_deferred[static_cast<size_t>(m_nodes[index].i)];
    element.m_nodes.clear();
    element.m_unescaped.clear();
    element.m_deferred.clear();
    element.m_text = m_text;
    element.m_maxDepth = m_maxDepth;
    if (k >= list.begins.size()) return Status::error("no element " + std::to_string(k) + " in a deferred container");
    JsonParser parser(element, m_text, m_maxDepth);
    return parser.runElement(list.begins[k], list.ends[k], list.depth, list.members);
}

} // namespace irlens::core::json
