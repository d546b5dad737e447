#pragma once
// irlens-cli subcommands. Each lives in its own cmd_<name>.cpp and registers itself with a static
// CommandRegistration, so adding a command touches no other file.
//
// Exit codes: 0 fine, 1 the check found errors (verify, --expect, decompose --check), 2 unreadable input
// or bad usage; the error is one line naming the record, JSON path or node.

#include "core/ir/program.h"
#include "core/ir/status.h"

#include <functional>
#include <string>
#include <vector>

namespace irlens::cli {

enum ExitCode { Ok = 0, CheckFailed = 1, Unusable = 2 };

struct Command {
    std::string name;
    std::string usage;   // "info FILE"
    std::string summary; // one line for the help text
    std::function<int(const std::vector<std::string>& args)> run;
};

std::vector<Command>& commands();

struct CommandRegistration {
    explicit CommandRegistration(Command c) { commands().push_back(std::move(c)); }
};

/// Small argument helper: positional arguments and --options (with or without a value).
class Args {
public:
    Args(const std::vector<std::string>& args, const std::vector<std::string>& flagsWithValue);
    const std::vector<std::string>& positional() const { return m_positional; }
    bool has(const std::string& flag) const;
    std::string value(const std::string& flag, const std::string& fallback = {}) const;
    /// Every value given to a flag that may repeat, in order.
    std::vector<std::string> values(const std::string& flag) const;
    const std::string& error() const { return m_error; } // unknown/missing values
private:
    std::vector<std::string> m_positional;
    std::vector<std::pair<std::string, std::string>> m_options;
    std::string m_error;
};

/// The program a command works on: the built-in example with --example, else the one FILE argument
/// (with --model NAME for multi-model archives). `weights`: load tensor data too; `checkCrc`: check
/// the CRC of every record read (core::LoadOptions::checkCrc).
core::Result<core::ProgramPtr> loadProgramArg(const Args& args, bool weights, bool checkCrc = false);

/// Prints "irlens-cli: <message>" to stderr and returns `code`.
int fail(int code, const std::string& message);

} // namespace irlens::cli
