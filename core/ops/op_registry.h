#pragma once
// What irlens knows about each operator: its schema and IR level, from the reference tables
// (core_aten_ops.tsv, prims_ops.tsv, compiled in at build time) plus the training-IR ops the
// fixtures use.

#include "core/ir/program.h"

#include <optional>
#include <string>
#include <vector>

namespace irlens::core {

enum class IrLevel { Training, CoreAten, Prims, HigherOrder, Symbolic, Custom, Unknown };
const char* irLevelName(IrLevel level);  // "training", "core ATen", "prims", "higher-order", "symbolic", "custom", "unknown"
char irLevelBadge(IrLevel level);        // 'T', 'C', 'P', 'H', 'S', 'X', '?'

/// One argument of a schema: `int[2] stride=[1, 1]`, `*, Scalar alpha=1`.
struct SchemaArg {
    std::string name;
    std::string type;         // as written: "Tensor", "Tensor?", "int[]", "SymInt[]", "Scalar", "ScalarType?" ...
    std::optional<std::string> defaultValue; // as written: "1", "None", "[]", "False"
    bool kwargOnly = false;
    bool mutates = false;     // Tensor(a!)
};

struct OpSchema {
    std::string name;         // "add"
    std::string overload;     // "Tensor" ("default" for none)
    std::vector<SchemaArg> args;
    std::vector<SchemaArg> returns;
    std::string text;         // the full schema string
    bool isInplace() const;   // name ends with '_' or an argument mutates
    bool isOut() const;       // overload "out" or a mutating kwarg-only out argument
};

struct OpInfo {
    std::string ns;           // "aten", "prims"
    OpSchema schema;
    IrLevel level = IrLevel::Unknown;
    std::vector<std::string> tags; // "core", "pointwise", "reduction", ...
};

/// Parses "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor".
std::optional<OpSchema> parseSchema(const std::string& text);

class OpRegistry {
public:
    static const OpRegistry& instance();

    /// The op for a call_function target; nullptr when unknown.
    const OpInfo* find(const Target& target) const;
    const OpInfo* find(const std::string& ns, const std::string& op, const std::string& overload) const;
    /// The level of any target (HOPs, symbolic ops, unknown custom ops included).
    IrLevel levelOf(const Target& target) const;
    const std::vector<OpInfo>& all() const { return m_ops; }

private:
    OpRegistry();
    std::vector<OpInfo> m_ops;
};

} // namespace irlens::core
