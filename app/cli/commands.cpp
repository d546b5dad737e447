// The command registry, the flags several commands share, and the parser every command's arguments go
// through (commands.h).
#include "app/cli/commands.h"

#include "core/io/pt2_reader.h"
#include "core/ir/example_program.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <stdexcept>

namespace irlens::cli {

std::vector<Command>& commands() {
    static std::vector<Command> all;
    return all;
}

std::vector<const Command*> sortedCommands() {
    std::vector<const Command*> out;
    for (const auto& c : commands()) out.push_back(&c);
    std::sort(out.begin(), out.end(), [](const Command* a, const Command* b) { return a->name < b->name; });
    return out;
}

const Command* findCommand(const std::string& name) {
    for (const auto& c : commands())
        if (c.name == name) return &c;
    return nullptr;
}

const Flag* Command::flag(const std::string& flagName) const {
    for (const auto& f : flags)
        if (f.name == flagName) return &f;
    return nullptr;
}

std::string Command::usage() const {
    std::string out = "usage: irlens-cli " + name;
    for (size_t k = 0; k < forms.size(); ++k) out += (k ? " | " + name + " " : " ") + forms[k];
    return out;
}

Flag modelFlag() {
    return {"--model", "NAME", "the model to read from an archive that holds several (default: the only one, or \"model\")"};
}

Flag exampleFlag() { return {"--example", "", "the built-in example program instead of FILE"}; }

Flag jsonFlag(const std::string& what) { return {"--json", "", what + " as JSON on stdout, for scripts"}; }

ExitStatus exitDone(const std::string& what) { return {Ok, what}; }

ExitStatus exitUnusable() {
    return {Unusable, "unreadable input, bad usage or a file that cannot be written; one line on stderr says which and why"};
}

namespace {

// A word that asks for a flag: "-x", "--xyz"; not "-" (a name) nor a negative number.
bool looksLikeFlag(const std::string& a) {
    return a.size() > 1 && a[0] == '-' && !(std::isdigit(static_cast<unsigned char>(a[1])) || a[1] == '.');
}

// What a flag given last lacks: "a file name", or the value as its help shows it.
std::string missingValue(const Flag& flag) {
    if (flag.kind == ValueKind::File || flag.kind == ValueKind::Pt2File) return "a file name";
    if (flag.kind == ValueKind::Directory) return "a folder name";
    return "a value (" + flag.name + " " + flag.value + ")";
}

} // namespace

Args::Args(const Command& command, const std::vector<std::string>& args) : m_command(&command) {
    auto refuse = [this](const std::string& message) {
        if (m_error.empty()) m_error = message;
    };
    bool flagsEnded = false;
    for (size_t k = 0; k < args.size(); ++k) {
        const std::string& a = args[k];
        if (flagsEnded || !looksLikeFlag(a)) {
            m_positional.push_back(a);
            continue;
        }
        if (a == "--") {
            flagsEnded = true;
            continue;
        }
        if (a == "-h" || a == "--help") {
            m_help = true;
            continue;
        }
        const auto eq = a.rfind("--", 0) == 0 ? a.find('=') : std::string::npos;
        const std::string name = a.substr(0, eq);
        const Flag* flag = command.flag(name);
        if (!flag) {
            refuse("unknown flag '" + name + "' for " + command.name + " (see irlens-cli " + command.name + " --help)");
            continue;
        }
        if (!flag->takesValue()) {
            if (eq != std::string::npos) refuse(name + " takes no value");
            m_options.emplace_back(name, std::string());
        } else if (eq != std::string::npos) {
            m_options.emplace_back(name, a.substr(eq + 1));
        } else if (k + 1 < args.size()) {
            m_options.emplace_back(name, args[++k]);
            while (flag->many && k + 1 < args.size() && !looksLikeFlag(args[k + 1])) m_options.emplace_back(name, args[++k]);
        } else {
            refuse(name + " needs " + missingValue(*flag));
        }
    }
}

void Args::check(const std::string& flag) const {
    if (!m_command->flag(flag))
        throw std::logic_error("'" + m_command->name + "' reads " + flag + ", which its description does not list");
}

bool Args::has(const std::string& flag) const {
    check(flag);
    return std::any_of(m_options.begin(), m_options.end(), [&](const auto& o) { return o.first == flag; });
}

std::string Args::value(const std::string& flag, const std::string& fallback) const {
    check(flag);
    for (const auto& o : m_options)
        if (o.first == flag) return o.second;
    return fallback;
}

std::vector<std::string> Args::values(const std::string& flag) const {
    check(flag);
    std::vector<std::string> out;
    for (const auto& o : m_options)
        if (o.first == flag) out.push_back(o.second);
    return out;
}

core::Status Args::count(const std::string& flag, int64_t low, int64_t high, int64_t& out) const {
    if (!has(flag)) return core::Status::ok();
    const std::string text = value(flag);
    try {
        size_t used = 0;
        const long long v = std::stoll(text, &used);
        if (used == text.size() && v >= low && v <= high) {
            out = v;
            return core::Status::ok();
        }
    } catch (const std::exception&) {
        // not a number: the same message as one out of range
    }
    return core::Status::error(flag + " needs a number from " + std::to_string(low) + " to " + std::to_string(high) + " (got '" + text + "')");
}

core::Result<core::ProgramPtr> loadProgramArg(const Args& args, bool weights, bool checkCrc) {
    if (args.has("--example")) return core::ProgramPtr(core::makeExampleProgram());
    core::LoadOptions options;
    options.modelName = args.value("--model");
    options.loadWeights = weights;
    options.checkCrc = checkCrc;
    auto loaded = core::loadPt2(args.positional().at(0), options);
    if (!loaded) return core::Status::error(loaded.error());
    return core::ProgramPtr(loaded.value());
}

int fail(int code, const std::string& message) {
    std::fprintf(stderr, "irlens-cli: %s\n", message.c_str());
    return code;
}

} // namespace irlens::cli
