// irlens-cli: the headless face of the same core the GUI uses.
#include "app/cli/commands.h"
#include "app/cli/help.h"

#include "core/ir/large_pages.h"

#include <cstdio>
#include <iostream>
#include <stdexcept>

namespace {

using namespace irlens::cli;

int print(const std::string& text) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return Ok;
}

// `irlens-cli help [COMMAND]`
int help(const std::vector<std::string>& args) {
    if (args.empty()) return print(programHelp());
    const Command* c = findCommand(args[0]);
    if (!c || args.size() > 1) return fail(Unusable, "usage: irlens-cli help [COMMAND] (commands: irlens-cli --help)");
    return print(commandHelp(*c));
}

int runCommand(const Command& command, const std::vector<std::string>& raw) {
    Args args(command, raw);
    if (args.helpWanted()) return print(commandHelp(command));
    if (!args.error().empty()) return fail(Unusable, args.error());
    try {
        return command.run(args);
    } catch (const std::logic_error& e) {
        return fail(InternalError, std::string("internal error: ") + e.what());
    }
}

} // namespace

int main(int argc, char** argv) {
    irlens::core::preferLargePages();
    std::ios::sync_with_stdio(false);
    if (argc < 2) {
        print(programHelp());
        return Unusable;
    }
    const std::string first = argv[1];
    std::vector<std::string> args(argv + 2, argv + argc);
    if (first == "--help" || first == "-h") return print(programHelp());
    if (first == "help") return help(args);
    if (first == "--version" || first == "version") return print(std::string("irlens-cli ") + IRLENS_VERSION + "\n");
    if (first == "--man") return print(manPage());
    if (first == "--bash-completion") return print(bashCompletion());
    if (const Command* c = findCommand(first)) return runCommand(*c, args);
    return fail(Unusable, "unknown command '" + first + "' (see irlens-cli --help)");
}
