#pragma once
// irlens-cli subcommands. Each lives in its own cmd_<name>.cpp and registers itself with a static
// CommandRegistration, so adding a command touches no other file.
//
// A Command describes itself once: its forms, operands, flags (each with a line of help) and exit
// codes. That one description drives the parser (a flag it does not list is refused), the
// `COMMAND --help` text, the man page and the bash completion, so none of them can drift.
//
// Exit codes: 0 fine, 1 the check found errors (verify, --expect, decompose --check), 2 unreadable input
// or bad usage; the error is one line naming the record, JSON path, node or flag. 70 is a bug of
// irlens-cli itself: a command read a flag its description does not list.

#include "core/ir/program.h"
#include "core/ir/status.h"

#include <functional>
#include <string>
#include <vector>

namespace irlens::cli {

enum ExitCode { Ok = 0, CheckFailed = 1, Unusable = 2, InternalError = 70 };

/// What the value of a flag or an operand is: the help's placeholder says it to people, the
/// completion offers the matching words or files.
enum class ValueKind {
    Text,      // free text or a number: nothing to complete
    Pt2File,   // an existing .pt2 (completes *.pt2 files and folders)
    File,      // any file, often one to write
    Directory, // a folder
    Choice,    // one of Flag::choices
};

/// One flag a command accepts. `value` empty: a switch; else the placeholder of its value ("N").
struct Flag {
    std::string name; // "--threads", "-o"
    std::string value;
    std::string help; // one line
    ValueKind kind = ValueKind::Text;
    std::vector<std::string> choices = {}; // ValueKind::Choice
    bool many = false; // takes every word up to the next flag (`--inputs a.pt b.npy`); repeatable too
    bool takesValue() const { return !value.empty(); }
};

/// A positional argument.
struct Operand {
    std::string name; // "FILE"
    std::string help;
    ValueKind kind = ValueKind::Pt2File;
};

struct ExitStatus {
    int code;
    std::string meaning;
};

class Args;

struct Command {
    std::string name;
    std::vector<std::string> forms; // the ways to call it, after the name: "FILE -o OUT.pt2 [--model NAME]"
    std::string summary;            // one line for the list of commands
    std::string details = {};       // a paragraph for --help and the man page ("" none)
    std::vector<Operand> operands = {};
    std::vector<Flag> flags = {};
    std::vector<ExitStatus> exits = {};
    std::function<int(const Args& args)> run = {};

    const Flag* flag(const std::string& name) const;
    /// "usage: irlens-cli NAME FORM | NAME FORM2": the one line a usage error prints.
    std::string usage() const;
};

/// Every registered command, in registration order (sortedCommands(): by name).
std::vector<Command>& commands();
std::vector<const Command*> sortedCommands();
const Command* findCommand(const std::string& name);

struct CommandRegistration {
    explicit CommandRegistration(Command c) { commands().push_back(std::move(c)); }
};

/// Flags and exit codes several commands share, worded once.
Flag modelFlag();
Flag exampleFlag();
Flag jsonFlag(const std::string& what);
ExitStatus exitDone(const std::string& what);
ExitStatus exitUnusable();

/// The command line of one command, parsed against its description: operands, and flags with or
/// without a value (`--flag VALUE` or `--flag=VALUE`; `--` ends the flags). A flag the description does
/// not list, a switch given a value or a value missing is an error(); `-h`/`--help` sets helpWanted().
class Args {
public:
    Args(const Command& command, const std::vector<std::string>& args);
    const std::vector<std::string>& positional() const { return m_positional; }
    /// has/value/values throw std::logic_error for a flag the command's description does not list:
    /// a bug of the command, reported by main as such (exit 70), never silently false.
    bool has(const std::string& flag) const;
    std::string value(const std::string& flag, const std::string& fallback = {}) const;
    /// Every value given to a flag that may repeat, in order.
    std::vector<std::string> values(const std::string& flag) const;
    /// A whole number from `low` to `high` given to `flag`, stored in `out` (left as it is when the flag
    /// is absent); the usage error "FLAG needs a number from LOW to HIGH (got 'TEXT')" otherwise.
    core::Status count(const std::string& flag, int64_t low, int64_t high, int64_t& out) const;
    const std::string& error() const { return m_error; } // the first unknown flag or missing value
    bool helpWanted() const { return m_help; }
    /// The usage error: "usage: irlens-cli ..." (Command::usage).
    std::string usage() const { return m_command->usage(); }

private:
    void check(const std::string& flag) const;
    const Command* m_command;
    std::vector<std::string> m_positional;
    std::vector<std::pair<std::string, std::string>> m_options;
    std::string m_error;
    bool m_help = false;
};

/// The program a command works on: the built-in example with --example, else the one FILE argument
/// (with --model NAME for multi-model archives). `weights`: load tensor data too; `checkCrc`: check
/// the CRC of every record read (core::LoadOptions::checkCrc).
core::Result<core::ProgramPtr> loadProgramArg(const Args& args, bool weights, bool checkCrc = false);

/// Prints "irlens-cli: <message>" to stderr and returns `code`.
int fail(int code, const std::string& message);

} // namespace irlens::cli
