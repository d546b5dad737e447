#pragma once
// What irlens knows about each operator: its schema and IR level, from the reference tables
// (core_aten_ops.tsv, prims_ops.tsv, compiled in at build time) plus the training-IR ops the
// fixtures use.

#include "core/ir/program.h"
#include "core/ir/status.h"

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace irlens::core {

enum class IrLevel { Training, CoreAten, Prims, HigherOrder, Symbolic, Custom, Unknown };
const char* irLevelName(IrLevel level);  // "training", "core ATen", "prims", "higher-order", "symbolic", "custom", "unknown"
char irLevelBadge(IrLevel level);        // 'T', 'C', 'P', 'H', 'S', 'X', '?'
/// The level of one op, as opposed to a program's stage: an ATen op outside the core set is
/// "non-core ATen" (badge 'N') whatever the program's dialect; the other levels as irLevelName.
const char* opLevelName(IrLevel level);
char opLevelBadge(IrLevel level);        // 'N', 'C', 'P', 'H', 'S', 'X', '?'

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
    std::vector<std::string> tags; // PyTorch's: "core", "pointwise", "reduction", ...; irlens's layer tags
                                   // (core/ops/op_tags.h): "linear", "normalization", "activation", "pooling", "view"
    // Prims only (prims_ops.tsv): "elementwise_unary", "view", "reduction", ...; the prim's
    // ELEMENTWISE_PRIM_TYPE_PROMOTION_KIND as written ("DEFAULT", "ALWAYS_BOOL", "-"); "NEW"/"VIEW"/...
    std::string primKind;
    std::string primTypePromotion;
    std::string primReturnType;
    std::string notes;        // the table's notes column, if any
    std::string source;       // "core_aten_ops.tsv", "prims_ops.tsv", "training table", "in-place variant"

    bool hasTag(const std::string& tag) const;
    /// The canonical key, the same as the Target::key() of a node calling it: "aten::add.Tensor",
    /// "prims::convert_element_type.default".
    std::string key() const;
};

/// Parses "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor".
std::optional<OpSchema> parseSchema(const std::string& text);
/// The same, with the reason when the text is not a schema ("missing '->' in ...").
Result<OpSchema> parseSchemaDetailed(const std::string& text);

class OpRegistry {
public:
    static const OpRegistry& instance();

    /// The op for a call_function target; nullptr when unknown.
    const OpInfo* find(const Target& target) const;
    const OpInfo* find(const std::string& ns, const std::string& op, const std::string& overload) const;
    /// The level of any target (HOPs, symbolic ops, unknown custom ops included).
    IrLevel levelOf(const Target& target) const;
    const std::vector<OpInfo>& all() const { return m_ops; }
    /// How many overloads carry the `core` tag (193 with the bundled table).
    size_t coreOverloadCount() const;

private:
    OpRegistry();
    void add(OpInfo info);
    std::vector<OpInfo> m_ops;
    std::unordered_map<std::string, size_t> m_index; // OpInfo::key() -> m_ops index
};

} // namespace irlens::core
