#pragma once
// What irlens-cli says about itself, all from the commands' descriptions (commands.h): the help text
// (`irlens-cli --help`, `irlens-cli COMMAND --help`), the man page irlens-cli(1) (`--man`) and the bash
// completion (`--bash-completion`). The build writes the last two from the built binary.

#include "app/cli/commands.h"

#include <string>
#include <vector>

namespace irlens::cli {

/// The flags of irlens-cli itself (before any command).
const std::vector<Flag>& programFlags();

std::string programHelp();
std::string commandHelp(const Command& command);
std::string manPage();
std::string bashCompletion();

} // namespace irlens::cli
