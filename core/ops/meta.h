#pragma once
// Meta inference: the output TensorMeta(s) of a node from its inputs' recorded metas, as PyTorch's
// meta functions (FakeTensor) compute them: dtype by the op's promotion rule, sizes by broadcasting
// or the op's shape rule, strides as TensorIterator / the view arithmetic lays them out.

#include "core/ir/program.h"
#include "core/ir/status.h"

#include <string>
#include <vector>

namespace irlens::core {

/// One output slot of a node, in the order of the node's outputs with tensor lists flattened.
struct InferredValue {
    enum class Kind { Tensor, SymInt, None };
    Kind kind = Kind::None;
    TensorMeta meta;
    SymInt sym;

    static InferredValue tensor(TensorMeta m) { InferredValue v; v.kind = Kind::Tensor; v.meta = std::move(m); return v; }
    static InferredValue symInt(SymInt s) { InferredValue v; v.kind = Kind::SymInt; v.sym = std::move(s); return v; }
};

/// Whether irlens has a meta function for the target.
bool hasMetaFunction(const Target& target);
/// The keys (Target::key()) of the ops with a meta function of their own, sorted; generic elementwise
/// ops are found by their semantics instead (see hasMetaFunction).
std::vector<std::string> metaFunctionKeys();

/// Infers the outputs of one call_function node. Errors name the node, the argument and what was
/// expected (e.g. a shape that does not broadcast).
Result<std::vector<InferredValue>> inferMeta(const Node& node, const Graph& graph);

/// Convenience: the single tensor output.
Result<TensorMeta> inferSingleMeta(const Node& node, const Graph& graph);

/// Contiguous row-major strides (symbolic sizes give symbolic strides, "12*s0").
std::vector<SymInt> contiguousStrides(const std::vector<SymInt>& sizes);
/// A contiguous meta on `device`.
TensorMeta contiguousMeta(ScalarType dtype, const std::vector<SymInt>& sizes, const Device& device = {});

/// One disagreement between a recorded `val` and the re-inferred one.
struct MetaMismatch {
    std::string node;     // node name
    std::string value;    // output value name
    std::string field;    // "dtype", "sizes", "strides", "rank", "error"
    std::string recorded; // as printed ("f32[4, 8]", "[8, 1]")
    std::string inferred;
    std::string message;  // one line a user reads
};

struct MetaCheckReport {
    int nodesChecked = 0;
    int valuesCompared = 0;
    std::vector<std::string> unsupported; // targets without a meta function (each once)
    std::vector<MetaMismatch> mismatches;
    bool clean() const { return mismatches.empty(); }
};

struct MetaCheckOptions {
    bool compareStrides = true;
    bool recurseIntoSubgraphs = true;
};

/// Re-infers every node's outputs (top-level graph and HOP subgraphs) and reports where the
/// recorded meta disagrees. Nodes whose target has no meta function are listed, not flagged.
MetaCheckReport checkRecordedMeta(const Program& program, const MetaCheckOptions& options = {});
MetaCheckReport checkGraphMeta(const Graph& graph, const MetaCheckOptions& options = {});

} // namespace irlens::core
