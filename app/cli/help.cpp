// The help text and the man page of irlens-cli, from the commands' descriptions (help.h).
#include "app/cli/help.h"

#include "app/common/man_page.h"

#include <algorithm>
#include <cctype>

namespace irlens::cli {

namespace {

constexpr size_t kWidth = 100;    // columns of the help text
constexpr size_t kMaxTerm = 26;   // a longer term puts its text on the next line
const char* const kTitle = "inspect, check, convert, run and decompose torch.export programs (.pt2)";

const Flag kHelpFlag{"--help", "", "print the help and exit (also -h)"};

// `text` word-wrapped at kWidth: the first line continues `lead`, the others start at column `indent`.
std::string wrapped(std::string lead, const std::string& text, size_t indent) {
    std::string out;
    size_t column = lead.size();
    out += lead;
    size_t k = 0;
    bool lineEmpty = true;
    while (k < text.size()) {
        const size_t end = std::min(text.find(' ', k), text.size());
        const std::string word = text.substr(k, end - k);
        k = end + 1;
        if (word.empty()) continue;
        if (!lineEmpty && column + 1 + word.size() > kWidth) {
            out += "\n" + std::string(indent, ' ');
            column = indent;
            lineEmpty = true;
        }
        if (!lineEmpty) {
            out += ' ';
            ++column;
        }
        out += word;
        column += word.size();
        lineEmpty = false;
    }
    return out + "\n";
}

struct Row {
    std::string term, text;
};

// Two columns: the terms, then their text aligned after the widest term (up to kMaxTerm).
std::string table(const std::vector<Row>& rows) {
    size_t width = 0;
    for (const auto& r : rows)
        if (r.term.size() <= kMaxTerm) width = std::max(width, r.term.size());
    const size_t indent = 2 + width + 2;
    std::string out;
    for (const auto& r : rows) {
        std::string lead = "  " + r.term;
        if (lead.size() + 2 > indent) {
            out += lead + "\n";
            lead = std::string(indent, ' ');
        } else {
            lead.resize(indent, ' ');
        }
        out += wrapped(lead, r.text, indent);
    }
    return out;
}

std::string term(const Flag& f) { return f.takesValue() ? f.name + " " + f.value : f.name; }

std::string sentence(std::string s) {
    if (!s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
    if (!s.empty() && s.back() != '.') s += '.';
    return s;
}

std::vector<app::ManItem> manItems(const std::vector<Flag>& flags) {
    std::vector<app::ManItem> items;
    for (const auto& f : flags) items.push_back({f.name, f.value, f.help});
    return items;
}

app::ManSection manSection(const Command& c) {
    app::ManSection s;
    s.title = c.name;
    for (const auto& form : c.forms) s.synopsis.push_back("irlens-cli " + c.name + (form.empty() ? "" : " " + form));
    s.paragraphs.push_back(sentence(c.summary));
    if (!c.details.empty()) s.paragraphs.push_back(c.details);
    if (!c.operands.empty()) {
        app::ManList list{"Arguments", {}};
        for (const auto& o : c.operands) list.items.push_back({o.name, "", o.help});
        s.lists.push_back(std::move(list));
    }
    if (!c.flags.empty()) s.lists.push_back({"Options", manItems(c.flags)});
    app::ManList exits{"Exit status", {}};
    for (const auto& e : c.exits) exits.items.push_back({std::to_string(e.code), "", e.meaning});
    s.lists.push_back(std::move(exits));
    return s;
}

} // namespace

const std::vector<Flag>& programFlags() {
    static const std::vector<Flag> flags{
        kHelpFlag,
        {"--version", "", "print the version and exit"},
        {"--man", "", "print the manual page irlens-cli(1) as roff and exit"},
        {"--bash-completion", "", "print the bash completion script of irlens-cli and exit"},
    };
    return flags;
}

std::string programHelp() {
    std::string out = std::string("irlens-cli — ") + kTitle + "\n\n"
                      "usage: irlens-cli COMMAND [ARGS]\n"
                      "       irlens-cli COMMAND --help     (or: irlens-cli help COMMAND) what the command takes and its exit codes\n"
                      "       irlens-cli --version | --help | --man | --bash-completion\n\ncommands:\n";
    std::vector<Row> rows;
    for (const Command* c : sortedCommands()) rows.push_back({c->name, c->summary});
    out += table(rows) + "\noptions:\n";
    rows.clear();
    for (const auto& f : programFlags()) rows.push_back({term(f), f.help});
    out += table(rows);
    return out + "\nexit codes: 0 fine, 1 the check found errors, 2 unreadable input or bad usage\n";
}

std::string commandHelp(const Command& c) {
    std::string out;
    for (size_t k = 0; k < c.forms.size(); ++k) {
        const std::string lead = std::string(k ? "   or: " : "usage: ") + "irlens-cli " + c.name + " ";
        out += wrapped(lead, c.forms[k], lead.size());
    }
    out += "\n" + wrapped("", sentence(c.summary), 0);
    if (!c.details.empty()) out += "\n" + wrapped("", c.details, 0);
    std::vector<Row> rows;
    if (!c.operands.empty()) {
        for (const auto& o : c.operands) rows.push_back({o.name, o.help});
        out += "\narguments:\n" + table(rows);
    }
    rows.clear();
    for (const auto& f : c.flags) rows.push_back({term(f), f.help});
    rows.push_back({"-h, --help", "print this help and exit"});
    out += "\noptions:\n" + table(rows);
    rows.clear();
    for (const auto& e : c.exits) rows.push_back({std::to_string(e.code), e.meaning});
    return out + "\nexit codes:\n" + table(rows);
}

std::string manPage() {
    app::ManPage page;
    page.name = "irlens-cli";
    page.source = std::string("irlens ") + IRLENS_VERSION;
    page.summary = kTitle;
    app::ManSection synopsis{"SYNOPSIS", {"irlens-cli COMMAND [ARGS]", "irlens-cli COMMAND --help",
                                          "irlens-cli --version | --help | --man | --bash-completion"}, {}, {}, {}};
    app::ManSection description{"DESCRIPTION", {}, {
        "irlens-cli is the headless face of irlens(1): the same library reads the programs torch.export writes "
        "(every .pt2 format era) and AOTInductor packages, prints them, checks them against the Export IR rules, "
        "converts, decomposes, compares, draws and runs them, with no display and no Qt.",
        "Each command reads its own flags, listed below and by irlens-cli COMMAND --help; a flag the command does "
        "not take is refused. A flag's value follows it (--threads 4) or an equals sign (--threads=4); -- ends the "
        "flags, so a file name may start with a dash."}, {}, {}};
    app::ManSection options{"OPTIONS", {}, {}, {{"", manItems(programFlags())}}, {}};
    app::ManSection commandsSection{"COMMANDS", {}, {}, {}, {}};
    for (const Command* c : sortedCommands()) commandsSection.subsections.push_back(manSection(*c));
    app::ManSection exitStatus{"EXIT STATUS", {}, {}, {{"", {
        {"0", "", "fine"},
        {"1", "", "the check found errors: verify found errors, run's outputs differ from --expect, diff found differences, "
                  "decompose --check or records --check failed"},
        {"2", "", "unreadable input or bad usage; the error is one line on stderr naming the file, record, JSON path, "
                  "node or flag"}}}}, {}};
    app::ManSection seeAlso{"SEE ALSO", {}, {"irlens(1)"}, {}, {}};
    page.sections = {synopsis, description, options, commandsSection, exitStatus, seeAlso};
    return app::renderManPage(page);
}

} // namespace irlens::cli
