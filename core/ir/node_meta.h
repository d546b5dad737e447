#pragma once
// Node metadata: the raw key/value pairs as stored and the parsed views of them (stack frames,
// nn_module_stack, source_fn_stack).

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace irlens::core {

struct StackFrame {
    std::string file;
    int line = 0;
    std::string function;
    std::string code;
    bool operator==(const StackFrame&) const = default;
};

struct ModuleStackEntry {
    std::string key;  // internal id, e.g. "L__self__linear"
    std::string path; // module FQN, "" for the root
    std::string type; // class qualified name
    bool operator==(const ModuleStackEntry&) const = default;
};

struct SourceFnEntry {
    std::string name;
    std::string target;
    bool operator==(const SourceFnEntry&) const = default;
};

/// Node metadata. `raw` holds every key as stored (the source of truth for writing back);
/// the other members are parsed views of it.
struct NodeMeta {
    std::map<std::string, std::string> raw;

    std::optional<std::string> stackTrace;
    std::vector<StackFrame> frames;
    std::optional<std::vector<ModuleStackEntry>> moduleStack;
    std::optional<std::vector<SourceFnEntry>> sourceFnStack;
    std::optional<std::string> torchFn;
    std::optional<std::string> custom;

    /// Fills the parsed members from `raw` (stack frames, module stack in both eras, source_fn).
    void parseFromRaw();
    bool operator==(const NodeMeta& o) const { return raw == o.raw; }
};

} // namespace irlens::core
