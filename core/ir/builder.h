#pragma once
// Makes programs in code: the bundled example, tests (clean and deliberately broken programs) and the GUI.
// Inputs, nodes and outputs are recorded in call order, so a test can also build a wrongly ordered graph
// and check that the verifier complains; only build() refuses dangling names.

#include "core/ir/program.h"
#include "core/ir/status.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace irlens::core {

/// A contiguous TensorMeta ("f32[2, 3]"); symbolic sizes get symbolic contiguous strides.
TensorMeta makeTensorMeta(ScalarType dtype, const std::vector<int64_t>& sizes);
TensorMeta makeTensorMeta(ScalarType dtype, const std::vector<SymInt>& sizes);
/// The meta of a real tensor (dtype, sizes, strides, offset, requires_grad, device).
TensorMeta metaOf(const TensorData& t);

/// A contiguous float32 tensor holding `values` (size must match the shape; missing values are 0).
TensorData makeFloatTensor(const std::vector<int64_t>& sizes, const std::vector<float>& values);
/// A contiguous int64 tensor.
TensorData makeInt64Tensor(const std::vector<int64_t>& sizes, const std::vector<int64_t>& values);
/// Deterministic pseudo-random float32 values, uniform in [-scale, scale] (same seed, same bytes).
TensorData makeSeededTensor(const std::vector<int64_t>& sizes, uint64_t seed, float scale);
/// A float32 tensor filled with one value.
TensorData makeFilledTensor(const std::vector<int64_t>& sizes, float value);

/// An `as_graph` argument for a HOP node.
Argument graphArgument(std::string submoduleName, std::shared_ptr<const Graph> graph);

class GraphBuilder;

/// Fills one node; obtained from GraphBuilder::call(). Valid while its GraphBuilder lives and is not moved
/// (it refers to the node by index, so later calls do not invalidate it).
class NodeBuilder {
public:
    NodeBuilder(GraphBuilder* owner, size_t index) : m_owner(owner), m_index(index) {}

    /// A positional argument (ArgumentKind::Positional). HOPs use name "".
    NodeBuilder& arg(std::string name, Argument value);
    NodeBuilder& arg(std::string name, const std::string& tensorName) { return arg(std::move(name), Argument::tensor(tensorName)); }
    /// A keyword argument (ArgumentKind::Keyword).
    NodeBuilder& kwarg(std::string name, Argument value);
    /// An argument of ArgumentKind::Unknown (as in files before schema 8).
    NodeBuilder& argUnknownKind(std::string name, Argument value);

    /// One tensor output named like the node.
    NodeBuilder& out(const TensorMeta& meta);
    /// One tensor output with its own name (tuple element); call repeatedly for a tuple return.
    NodeBuilder& outNamed(const std::string& valueName, const TensorMeta& meta);
    /// A `Tensor[]` return: one `as_tensors` output.
    NodeBuilder& outList(const std::vector<std::pair<std::string, TensorMeta>>& values);
    /// A SymInt output (sym_size, _operator.*), named like the node.
    NodeBuilder& outSymInt(const SymInt& value);
    /// An absent optional result.
    NodeBuilder& outNone();

    NodeBuilder& stackTrace(const std::string& trace);
    /// Appends one nn_module_stack entry (outermost first).
    NodeBuilder& module(const std::string& key, const std::string& path, const std::string& type);
    /// Appends one source_fn_stack entry.
    NodeBuilder& sourceFn(const std::string& name, const std::string& target);
    NodeBuilder& torchFn(const std::string& name, const std::string& qualified);
    /// Any other metadata key, stored as written.
    NodeBuilder& meta(const std::string& key, const std::string& value);
    NodeBuilder& hopSingleTensorReturn(bool single);

    const std::string& name() const;

private:
    Node& node();
    GraphBuilder* m_owner;
    size_t m_index;
};

/// Builds one Graph (the top-level graph or a HOP subgraph, which is its own name scope).
class GraphBuilder {
public:
    /// A tensor placeholder.
    std::string input(const std::string& name, const TensorMeta& meta);
    /// A SymInt placeholder.
    std::string symIntInput(const std::string& name, const SymInt& value);
    /// A constant placeholder (constant_input): the value itself is the graph input.
    void constantInput(const Argument& value);

    /// A call_function node. `name` is the node's name (and its single output's value name).
    NodeBuilder call(const std::string& target, const std::string& name);

    void output(const Argument& value);
    void outputTensor(const std::string& name) { output(Argument::tensor(name)); }
    void setSingleTensorReturn(bool single) { m_graph.isSingleTensorReturn = single; }

    /// Raw access, for tests that need a shape no method makes.
    Graph& graph() { return m_graph; }
    const Graph& graph() const { return m_graph; }

    /// Checks that every name read is defined earlier and no name is defined twice.
    Status check(const std::string& where) const;
    /// The finished graph (parsed metadata views filled); refuses dangling or duplicate names.
    Result<std::shared_ptr<const Graph>> build() const;
    /// The graph as recorded, unchecked (metadata views filled).
    Graph buildUnchecked() const;

private:
    friend class NodeBuilder;
    Graph m_graph;
};

/// Builds a whole Program: signature specs, state, range constraints and sample inputs with the graph.
class ProgramBuilder {
public:
    explicit ProgramBuilder(std::string modelName = "model");

    ProgramBuilder& verifiers(std::vector<std::string> names);
    ProgramBuilder& torchVersion(std::string version);

    /// A user input placeholder; returns its value name.
    std::string userInput(const std::string& name, const TensorMeta& meta);
    std::string userSymInt(const std::string& name, const SymInt& value);
    /// A non-tensor user argument export baked in (constant_input): the graph input is the value itself.
    void constantInput(const std::string& name, const Argument& value);
    /// A parameter placeholder `name` for the state-dict entry `target` (weights[target] = data).
    std::string parameter(const std::string& name, const std::string& target, TensorData data);
    /// A buffer; persistent ones live in weights, non-persistent ones in constants (as the format does).
    std::string buffer(const std::string& name, const std::string& target, TensorData data, bool persistent = true);
    /// A lifted tensor constant (constants[target]).
    std::string tensorConstant(const std::string& name, const std::string& target, TensorData data);

    NodeBuilder call(const std::string& target, const std::string& name) { return m_graph.call(target, name); }

    /// Outputs, in call order (the format puts mutations before user outputs; the verifier checks it).
    void userOutput(const std::string& valueName);
    void bufferMutation(const std::string& valueName, const std::string& bufferTarget);
    void output(OutputKind kind, const Argument& arg, const std::string& target = {});

    void rangeConstraint(const std::string& symbol, std::optional<int64_t> minVal, std::optional<int64_t> maxVal);
    /// One flattened positional sample input.
    void sampleInput(Value value);
    void sampleInput(TensorData tensor);

    GraphBuilder& graph() { return m_graph; }
    Program& program() { return m_program; }

    /// The finished program; refuses dangling or duplicate names (message names the node and value).
    Result<ProgramPtr> build() const;
    /// The program as recorded, unchecked: for tests that build broken programs on purpose.
    Program buildUnchecked() const;

private:
    Program m_program;
    GraphBuilder m_graph;
};

} // namespace irlens::core
