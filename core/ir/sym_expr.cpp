#include "core/ir/sym.h"
#include "core/ir/free_symbols.h"

#include <cctype>
#include <set>
#include <string_view>
#include <vector>

namespace irlens::core {
namespace {

// A tiny srepr reader: Name(args...) | 'quoted' | number | key=value. Enough to pretty-print.
struct SNode {
    std::string head;              // function name, symbol, or literal text
    std::vector<SNode> args;
    bool isCall = false;
    bool keyword = false; // `name=value` inside a call: dropped when rendering
};

class SreprParser {
public:
    explicit SreprParser(std::string_view text) : m_text(text) {}

    bool parse(SNode& out) {
        if (!parseNode(out, 0)) return false;
        skipSpace();
        return m_pos == m_text.size();
    }

private:
    void skipSpace() { while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos]))) ++m_pos; }

    bool parseNode(SNode& out, int depth) {
        if (depth > 200) return false;
        skipSpace();
        if (m_pos >= m_text.size()) return false;
        char c = m_text[m_pos];
        if (c == '\'' || c == '"') {
            size_t end = m_text.find(c, m_pos + 1);
            if (end == std::string_view::npos) return false;
            out.head = std::string(m_text.substr(m_pos + 1, end - m_pos - 1));
            m_pos = end + 1;
            return true;
        }
        size_t start = m_pos;
        while (m_pos < m_text.size() && (std::isalnum(static_cast<unsigned char>(m_text[m_pos])) || m_text[m_pos] == '_' ||
                                          m_text[m_pos] == '.' || m_text[m_pos] == '-'))
            ++m_pos;
        if (start == m_pos) return false;
        out.head = std::string(m_text.substr(start, m_pos - start));
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == '=') { // keyword argument: drop the key
            ++m_pos;
            if (!parseNode(out, depth + 1)) return false;
            out.keyword = true;
            return true;
        }
        if (m_pos < m_text.size() && m_text[m_pos] == '(') {
            out.isCall = true;
            ++m_pos;
            skipSpace();
            if (m_pos < m_text.size() && m_text[m_pos] == ')') { ++m_pos; return true; }
            while (true) {
                SNode child;
                if (!parseNode(child, depth + 1)) return false;
                if (!child.keyword) out.args.push_back(std::move(child)); // drop integer=True and the like
                skipSpace();
                if (m_pos >= m_text.size()) return false;
                if (m_text[m_pos] == ',') { ++m_pos; continue; }
                if (m_text[m_pos] == ')') { ++m_pos; return true; }
                return false;
            }
        }
        return true;
    }

    std::string_view m_text;
    size_t m_pos = 0;
};

int precedence(const SNode& n) {
    if (!n.isCall) return 4;
    if (n.head == "Add") return 1;
    if (n.head == "Mul") return 2;
    if (n.head == "Pow") return 3;
    return 4;
}

std::string render(const SNode& n);

std::string renderChild(const SNode& child, int parentPrec) {
    std::string s = render(child);
    return precedence(child) < parentPrec ? "(" + s + ")" : s;
}

std::string render(const SNode& n) {
    if (!n.isCall) return n.head;
    const auto& h = n.head;
    if ((h == "Symbol" || h == "Integer" || h == "Float" || h == "Dummy") && !n.args.empty()) return n.args[0].head;
    if (h == "Rational" && n.args.size() == 2) return n.args[0].head + "/" + n.args[1].head;
    if (h == "true" || h == "BooleanTrue") return "True";
    if (h == "false" || h == "BooleanFalse") return "False";
    if (h == "NegativeOne") return "-1";
    if (h == "One") return "1";
    if (h == "Zero") return "0";
    if (h == "Add") {
        std::string out;
        for (size_t k = 0; k < n.args.size(); ++k) {
            std::string term = renderChild(n.args[k], 1);
            if (k && !term.empty() && term[0] == '-') out += " - " + term.substr(1);
            else out += (k ? " + " : "") + term;
        }
        return out;
    }
    if (h == "Mul") {
        std::string out;
        size_t k = 0;
        if (!n.args.empty() && render(n.args[0]) == "-1" && n.args.size() > 1) { out = "-"; k = 1; }
        for (size_t j = k; j < n.args.size(); ++j) out += (j > k ? "*" : "") + renderChild(n.args[j], 2);
        return out;
    }
    if (h == "Pow" && n.args.size() == 2) return renderChild(n.args[0], 4) + "**" + renderChild(n.args[1], 4);
    std::string out = h + "(";
    for (size_t k = 0; k < n.args.size(); ++k) out += (k ? ", " : "") + render(n.args[k]);
    return out + ")";
}

} // namespace

std::string prettySymExpr(const std::string& expr) {
    // Plain forms ("s0", "2*s0") have no srepr heads; return them as they are.
    if (expr.find('(') == std::string::npos) return expr;
    SNode root;
    SreprParser p(expr);
    if (!p.parse(root)) return expr;
    return render(root);
}

std::vector<std::string> freeSymbols(const std::string& expr) {
    static const std::set<std::string> notSymbols = {"oo", "zoo", "nan", "True", "False", "pi", "E", "I", "integer", "positive"};
    std::set<std::string> out;
    const std::string plain = prettySymExpr(expr);
    for (size_t k = 0; k < plain.size();) {
        const unsigned char c = static_cast<unsigned char>(plain[k]);
        if (!std::isalpha(c) && c != '_') {
            ++k;
            continue;
        }
        const size_t start = k;
        while (k < plain.size() && (std::isalnum(static_cast<unsigned char>(plain[k])) || plain[k] == '_')) ++k;
        std::string word = plain.substr(start, k - start);
        size_t next = k;
        while (next < plain.size() && plain[next] == ' ') ++next;
        const bool isCall = next < plain.size() && plain[next] == '(';
        if (!isCall && !notSymbols.count(word)) out.insert(std::move(word));
    }
    return {out.begin(), out.end()};
}

} // namespace irlens::core
