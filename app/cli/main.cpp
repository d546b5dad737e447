// irlens-cli: the headless face of the same core the GUI uses.
#include "app/cli/commands.h"

#include "core/io/pt2_reader.h"
#include "core/ir/example_program.h"
#include "core/ir/large_pages.h"

#include <algorithm>
#include <cstdio>
#include <iostream>

namespace irlens::cli {

std::vector<Command>& commands() {
    static std::vector<Command> all;
    return all;
}

Args::Args(const std::vector<std::string>& args, const std::vector<std::string>& flagsWithValue) {
    for (size_t k = 0; k < args.size(); ++k) {
        const std::string& a = args[k];
        if (a.size() > 2 && a.rfind("--", 0) == 0) {
            std::string flag = a, value;
            if (auto eq = a.find('='); eq != std::string::npos) {
                flag = a.substr(0, eq);
                value = a.substr(eq + 1);
            } else if (std::find(flagsWithValue.begin(), flagsWithValue.end(), a) != flagsWithValue.end()) {
                if (k + 1 >= args.size()) { m_error = a + " needs a value"; continue; }
                value = args[++k];
            }
            m_options.emplace_back(flag, value);
        } else if (a == "-o") {
            if (k + 1 >= args.size()) { m_error = "-o needs a file name"; continue; }
            m_options.emplace_back("-o", args[++k]);
        } else {
            m_positional.push_back(a);
        }
    }
}

bool Args::has(const std::string& flag) const {
    return std::any_of(m_options.begin(), m_options.end(), [&](const auto& o) { return o.first == flag; });
}

std::string Args::value(const std::string& flag, const std::string& fallback) const {
    for (const auto& o : m_options)
        if (o.first == flag) return o.second;
    return fallback;
}

std::vector<std::string> Args::values(const std::string& flag) const {
    std::vector<std::string> out;
    for (const auto& o : m_options)
        if (o.first == flag) out.push_back(o.second);
    return out;
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

namespace {

void printHelp() {
    std::printf("irlens-cli — inspect, check, convert, run and decompose torch.export programs (.pt2)\n\n"
                "usage: irlens-cli COMMAND [ARGS]\n"
                "       irlens-cli --version\n\n");
    auto cmds = irlens::cli::commands();
    std::sort(cmds.begin(), cmds.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    for (const auto& c : cmds) std::printf("  %-48s %s\n", c.usage.c_str(), c.summary.c_str());
    std::printf("\nexit codes: 0 fine, 1 the check found errors, 2 unreadable input or bad usage\n");
}

} // namespace

int main(int argc, char** argv) {
    irlens::core::preferLargePages();
    std::ios::sync_with_stdio(false);
    if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h" || std::string(argv[1]) == "help") {
        printHelp();
        return argc < 2 ? irlens::cli::Unusable : irlens::cli::Ok;
    }
    if (std::string(argv[1]) == "--version" || std::string(argv[1]) == "version") {
        std::printf("irlens-cli %s\n", IRLENS_VERSION);
        return irlens::cli::Ok;
    }
    std::string name = argv[1];
    std::vector<std::string> args(argv + 2, argv + argc);
    for (const auto& c : irlens::cli::commands())
        if (c.name == name) return c.run(args);
    return irlens::cli::fail(irlens::cli::Unusable, "unknown command '" + name + "' (see irlens-cli --help)");
}
