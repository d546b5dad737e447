#pragma once
// Matching two programs node by node: through a decomposition's old -> new map (two levels of one
// program), by PT2E's numeric debug handles (a float program and its quantized copy), or by
// structure (two independent exports, whose node names mean nothing across files).
// The result pairs every node of both sides as same, changed (which attributes), added or removed,
// with a per-module summary of op counts and parameters that differ.

#include "core/ir/program.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace irlens::core {

class DecompSession;

enum class MatchKind { Same, Changed, Added, Removed };
const char* matchKindName(MatchKind kind); // "same", "changed", "added", "removed"

/// What differs between the two nodes of a changed pair (bit flags).
enum ChangeFlag : unsigned {
    ChangeTarget = 1u,
    ChangeArgs = 2u,
    ChangeDtype = 4u,
    ChangeShape = 8u,
    ChangeModule = 16u,
};
/// "target, shape" for a set of flags.
std::string changeFlagsText(unsigned flags);

/// One entry of a match: a left node and what stands for it on the right.
struct NodePair {
    MatchKind kind = MatchKind::Same;
    int left = -1;          // node index in the left program's top-level graph; -1 when added
    std::vector<int> right; // node indices on the right: one for a structural match, the replacements
                            // for a decomposition; empty when removed
    unsigned changes = 0;   // ChangeFlag bits (changed pairs)
    std::string detail;     // "aten.gelu.default -> aten.silu.default; module type GELU -> SiLU"
};

/// A parameter or buffer whose shape or dtype differs, or that exists on one side only.
struct ParamDiff {
    std::string fqn;
    std::string left;  // "f32[128, 512]", "" when absent
    std::string right;
};

/// One module (by FQN, "" for the root) whose ops or parameters differ.
struct ModuleDiff {
    std::string path;
    int leftNodes = 0;  // nodes in the module and its descendants
    int rightNodes = 0;
    std::map<std::string, std::pair<int, int>> opCounts; // ops whose counts differ: short op -> (left, right)
    std::vector<ParamDiff> params;
    bool onLeft = true;
    bool onRight = true;
};

struct ProgramMatch {
    enum class Method { Structural, Decomposition, DebugHandle };
    Method method = Method::Structural;
    ProgramPtr left;
    ProgramPtr right;
    /// Every node of both sides exactly once, in the left program's order with added nodes placed
    /// after the matched node that precedes them on the right.
    std::vector<NodePair> pairs;
    std::vector<int> leftPair;  // left node index -> index into pairs
    std::vector<int> rightPair; // right node index -> index into pairs
    std::vector<ModuleDiff> modules;
    std::vector<std::string> signatureNotes; // user inputs / outputs that differ

    size_t count(MatchKind kind) const;
    /// Indices into `pairs` of everything that is not `same`.
    std::vector<int> differences() const;
    /// No node, module or signature difference.
    bool identical() const;
    /// "210 nodes vs 260: 209 same, 1 changed, 50 added, 0 removed".
    std::string summary() const;
    /// The right-hand node names of a pair, comma separated ("" when none).
    std::string rightNames(const NodePair& pair) const;
    std::string leftName(const NodePair& pair) const;
};

struct StructuralMatchOptions {
    /// Above this many cells (left x right nodes of one module scope) the in-order alignment falls
    /// back to matching equal signatures occurrence by occurrence (linear time).
    size_t maxAlignmentCells = size_t(4) << 20;
};

/// "structural", "decomposition", "debug handle".
const char* matchMethodName(ProgramMatch::Method method);

/// Two independent exports: within each nn_module_stack scope, nodes are aligned by signature (op
/// target, argument structure, source_fn / torch_fn, output meta) in graph order, the unmatched rest
/// of each gap paired by likeness, then leftovers anywhere paired by signature (a moved node).
ProgramMatch matchStructurally(ProgramPtr left, ProgramPtr right, const StructuralMatchOptions& options = {});

/// PT2E's numeric debug handle of a node: meta["custom"]["numeric_debug_handle"], which
/// torch.ao.quantization's generate_numeric_debug_handle assigns and the export serializer keeps (the
/// custom metadata is written as JSON text); nullopt when the node carries none.
std::optional<int64_t> numericDebugHandle(const Node& node);
/// Whether any top-level node of `program` carries a numeric debug handle.
bool carriesDebugHandles(const Program& program);

/// A program and a transformed copy that both carry numeric debug handles (a float program and its
/// PT2E-quantized copy): each left node is paired with every right node carrying its handle (the
/// node itself, the dequantize that PT2E's convert gives the same handle, the nodes a decomposition
/// made of it); nodes without a shared handle are matched structurally where their counterparts are
/// free, the rest added or removed (the quantize and dequantize nodes of inputs and weights).
ProgramMatch matchByDebugHandle(ProgramPtr left, ProgramPtr right, const StructuralMatchOptions& options = {});

/// Two levels of one program: `oldToNew` maps a left node to the right nodes that replaced it
/// (possibly none); unmapped nodes stand for the right node of the same name.
ProgramMatch matchThroughReplacements(ProgramPtr left, ProgramPtr right,
                                      const std::map<std::string, std::vector<std::string>>& oldToNew);

/// The session's original program -> its current one: every replaced original node with the current
/// nodes that stand for it (steps composed), and the match through that map.
std::map<std::string, std::vector<std::string>> composeReplacements(const DecompSession& session);
ProgramMatch matchDecomposition(const DecompSession& session);
/// One history step (0-based): the program before it against the program after it.
ProgramMatch matchDecompositionStep(const DecompSession& session, size_t step);

} // namespace irlens::core
