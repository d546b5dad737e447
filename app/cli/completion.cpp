// The bash completion script of irlens-cli, from the commands' descriptions (help.h): the commands,
// each command's flags, the values a flag takes (its choices, files, folders) and .pt2 files where a
// command takes a program. The build writes it from the built binary, so it lists what the binary parses.
#include "app/cli/help.h"

namespace irlens::cli {

namespace {

const char* const kPrologue = R"(# bash completion for irlens-cli: its commands, each command's flags and their values, and .pt2
# files (and folders) where a command takes a program. Written by `irlens-cli --bash-completion`
# from the commands' own descriptions: regenerate it rather than edit it.

# Files matching the glob $1 ("" any file) and folders to walk into; names as typed so far in $cur.
_irlens_cli_files() {
    local IFS=$'\n'
    compopt -o filenames 2>/dev/null
    if [ -n "$1" ]; then
        COMPREPLY=($(compgen -d -- "$cur") $(compgen -f -X "!$1" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}

_irlens_cli_dirs() {
    local IFS=$'\n'
    compopt -o filenames 2>/dev/null
    COMPREPLY=($(compgen -d -- "$cur"))
}

_irlens_cli() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local command=${COMP_WORDS[1]} flags="" operands=""
    COMPREPLY=()
)";

std::string words(const std::vector<std::string>& list) {
    std::string out;
    for (const auto& w : list) out += (out.empty() ? "" : " ") + w;
    return out;
}

// What completes a value of this kind: the body of a case branch.
std::string valueCompletion(ValueKind kind, const std::vector<std::string>& choices) {
    switch (kind) {
    case ValueKind::Pt2File: return "_irlens_cli_files '*.pt2'";
    case ValueKind::File: return "_irlens_cli_files ''";
    case ValueKind::Directory: return "_irlens_cli_dirs";
    case ValueKind::Choice: return "COMPREPLY=($(compgen -W \"" + words(choices) + "\" -- \"$cur\"))";
    case ValueKind::Text: break;
    }
    return ":";
}

// What an operand of this kind completes to, as the script's $operands names it ("" nothing).
std::string operandWord(ValueKind kind) {
    switch (kind) {
    case ValueKind::Pt2File: return "pt2";
    case ValueKind::File: return "file";
    case ValueKind::Directory: return "dir";
    case ValueKind::Choice:
    case ValueKind::Text: break;
    }
    return "\"\"";
}

} // namespace

std::string bashCompletion() {
    std::vector<std::string> names, programWords;
    for (const Command* c : sortedCommands()) names.push_back(c->name);
    programWords = names;
    programWords.push_back("help");
    for (const auto& f : programFlags()) programWords.push_back(f.name);

    std::string out = kPrologue;
    out += "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
           "        COMPREPLY=($(compgen -W \"" + words(programWords) + "\" -- \"$cur\"))\n"
           "        return\n"
           "    fi\n"
           "    if [ \"$command\" = help ]; then\n"
           "        [ \"$COMP_CWORD\" -eq 2 ] && COMPREPLY=($(compgen -W \"" + words(names) + "\" -- \"$cur\"))\n"
           "        return\n"
           "    fi\n"
           "    # the value of the flag before the cursor\n"
           "    case \"$command $prev\" in\n";
    std::string freeText; // one branch for every value with nothing to offer
    for (const Command* c : sortedCommands())
        for (const auto& f : c->flags) {
            if (!f.takesValue()) continue;
            const std::string pattern = "'" + c->name + " " + f.name + "'";
            if (f.kind == ValueKind::Text) freeText += (freeText.empty() ? "" : "|") + pattern;
            else out += "    " + pattern + ") " + valueCompletion(f.kind, f.choices) + "; return ;;\n";
        }
    if (!freeText.empty()) out += "    " + freeText + ") return ;;\n";
    out += "    esac\n"
           "    case \"$command\" in\n";
    for (const Command* c : sortedCommands()) {
        std::vector<std::string> flags;
        for (const auto& f : c->flags) flags.push_back(f.name);
        flags.push_back("--help");
        out += "    " + c->name + ") flags=\"" + words(flags) + "\"";
        if (!c->operands.empty()) out += "; operands=" + operandWord(c->operands.front().kind);
        out += " ;;\n";
    }
    out += "    *) return ;;\n"
           "    esac\n"
           "    if [[ $cur == -* || -z $operands ]]; then\n"
           "        COMPREPLY=($(compgen -W \"$flags\" -- \"$cur\"))\n"
           "    else\n"
           "        case $operands in\n"
           "        pt2) _irlens_cli_files '*.pt2' ;;\n"
           "        file) _irlens_cli_files '' ;;\n"
           "        dir) _irlens_cli_dirs ;;\n"
           "        esac\n"
           "    fi\n"
           "}\n\n"
           "complete -F _irlens_cli irlens-cli\n";
    return out;
}

} // namespace irlens::cli
