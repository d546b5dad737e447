#pragma once
// A manual page as plain data, and its roff (man(7) macros). irlens and irlens-cli each describe their
// command line once and print it as --help text and, through this, as their man page (`--man`, run at
// build time), so the two cannot drift. Plain C++: the CLI links no Qt.

#include <string>
#include <vector>

namespace irlens::app {

/// A term and its text: a flag (term "--threads", value "N"), an operand ("FILE"), an exit code ("0").
struct ManItem {
    std::string term;
    std::string value; // a flag's value placeholder, set in italics ("" none)
    std::string text;
};

/// A list under a small heading inside a section ("Options", "Exit status").
struct ManList {
    std::string heading; // "" none
    std::vector<ManItem> items;
};

struct ManSection {
    std::string title;                  // .SH (upper case by convention) or, in subsections, .SS
    std::vector<std::string> synopsis;  // command lines: flags bold, placeholders italic
    std::vector<std::string> paragraphs;
    std::vector<ManList> lists;
    std::vector<ManSection> subsections;
};

struct ManPage {
    std::string name;    // "irlens-cli"
    int section = 1;
    std::string source;  // "irlens 0.1.0"
    std::string summary; // the NAME line: "name \- summary"
    std::vector<ManSection> sections;
};

std::string renderManPage(const ManPage& page);

/// `text` escaped for roff: backslashes, a leading dot or quote, and a '-' that starts a word (a flag's
/// minus sign, "\-") as against one inside a word (a hyphen).
std::string roffText(const std::string& text);

} // namespace irlens::app
