#include "app/common/man_page.h"

#include <cctype>

namespace irlens::app {

namespace {

bool isWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || (c & 0x80); }

// One line of text, escaped, with no line of it starting as a request.
std::string escapeLine(const std::string& text) {
    std::string out;
    for (size_t k = 0; k < text.size(); ++k) {
        const char c = text[k];
        if (c == '\\') out += "\\e";
        else if (c == '-' && (k == 0 || !isWordChar(text[k - 1]))) out += "\\-";
        else out += c;
    }
    if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out.insert(0, "\\&");
    return out;
}

// A command line: a flag bold, a placeholder (a word starting with a capital) italic, the rest roman.
std::string styledCommandLine(const std::string& line) {
    std::string out;
    size_t k = 0;
    while (k < line.size()) {
        if (line[k] == '-' || std::isalnum(static_cast<unsigned char>(line[k]))) {
            size_t end = k;
            while (end < line.size() && line[end] != ' ' && line[end] != '[' && line[end] != ']' && line[end] != '|') ++end;
            const std::string word = line.substr(k, end - k);
            const char* font = word[0] == '-' ? "\\fB" : std::isupper(static_cast<unsigned char>(word[0])) ? "\\fI" : "";
            out += *font ? font + roffText(word) + "\\fR" : roffText(word);
            k = end;
        } else {
            out += line[k] == '\\' ? std::string("\\e") : std::string(1, line[k]);
            ++k;
        }
    }
    return out;
}

std::string itemTerm(const ManItem& item) {
    std::string term = "\\fB" + roffText(item.term) + "\\fR";
    if (!item.value.empty()) term += " \\fI" + roffText(item.value) + "\\fR";
    return term;
}

void renderSection(const ManSection& s, const std::string& macro, std::string& out) {
    out += macro + " \"" + roffText(s.title) + "\"\n";
    for (size_t k = 0; k < s.synopsis.size(); ++k) out += (k ? ".br\n" : "") + styledCommandLine(s.synopsis[k]) + "\n";
    for (const auto& p : s.paragraphs) out += ".PP\n" + roffText(p) + "\n";
    for (const auto& list : s.lists) {
        if (!list.heading.empty()) out += ".PP\n\\fI" + roffText(list.heading) + "\\fR\n";
        for (const auto& item : list.items) out += ".TP\n" + itemTerm(item) + "\n" + roffText(item.text) + "\n";
    }
    for (const auto& sub : s.subsections) renderSection(sub, ".SS", out);
}

} // namespace

std::string roffText(const std::string& text) {
    std::string out;
    size_t start = 0;
    while (start <= text.size()) {
        const size_t end = text.find('\n', start);
        out += escapeLine(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if (end == std::string::npos) break;
        out += '\n';
        start = end + 1;
    }
    return out;
}

std::string renderManPage(const ManPage& page) {
    std::string upper;
    for (char c : page.name) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    std::string out = ".TH " + roffText(upper) + " " + std::to_string(page.section) + " \"\" \"" + roffText(page.source) +
                      "\" \"User Commands\"\n";
    out += ".SH NAME\n" + roffText(page.name) + " \\- " + roffText(page.summary) + "\n";
    for (const auto& s : page.sections) renderSection(s, ".SH", out);
    return out;
}

} // namespace irlens::app
