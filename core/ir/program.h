#pragma once
// The Export IR model: everything a .pt2 holds, as plain immutable data.
// A Program is built once (by the reader, the builder or a decomposition step) and shared as
// std::shared_ptr<const Program>; edits make a new Program.

#include "core/ir/dtype.h"
#include "core/ir/sym.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace irlens::core {

struct Graph;

// ---------------------------------------------------------------- devices, tensor meta

struct Device {
    std::string type = "cpu";
    std::optional<int> index;
    std::string toString() const { return index ? type + ":" + std::to_string(*index) : type; }
    bool operator==(const Device&) const = default;
};

/// A FakeTensor's metadata (`tensor_values[name]`).
struct TensorMeta {
    ScalarType dtype = ScalarType::Float32;
    std::vector<SymInt> sizes;
    std::vector<SymInt> strides;
    SymInt storageOffset;
    bool requiresGrad = false;
    Device device;
    int layout = 7; // Layout::Strided
    bool operator==(const TensorMeta&) const = default;

    /// "f32[1, 64, 56, 56]" with symbols as written ("f32[s0, 128]").
    std::string shortString() const;
    /// Sizes if every one is a literal.
    std::optional<std::vector<int64_t>> staticSizes() const;
};

// ---------------------------------------------------------------- arguments

enum class ArgKind {
    None,
    Tensor,          // name
    Tensors,         // list of Tensor
    OptionalTensor,  // name, or None when `isNone`
    OptionalTensors, // list of Tensor / None
    NestedTensors,   // list of Tensors
    Int,             // i
    Ints,            // list of Int
    IntLists,        // list of Ints
    Float,           // f
    Floats,          // list of Float
    FloatLists,      // list of Floats
    Bool,            // b
    Bools,           // list of Bool
    String,          // s
    Strings,         // list of String
    Complex,         // f (real), imag
    SymInt,          // name (s) or literal (i): `isName` tells
    SymInts,         // list of SymInt
    SymBool,         // name (s) or literal (b)
    SymBools,
    SymFloat,        // name (s) or literal (f)
    SymFloats,
    ScalarType,      // i
    MemoryFormat,    // i
    Layout,          // i
    Device,          // device
    Graph,           // s = submodule name, graph
    CustomObj,       // s = name, s2 = class_fqn
    Operator,        // s = "torch.ops.aten.add.Tensor"
    StringToArgument,// list of elements, each with `key`
    Opaque,          // an Argument member this build does not know: s = member name, raw = JSON text
};

/// One `Argument` union value. Scalar members use i/f/b/s; list members use `list` (elements are
/// themselves scalar Arguments, e.g. a SymInts element is a SymInt by name or literal).
struct Argument {
    ArgKind kind = ArgKind::None;
    int64_t i = 0;
    double f = 0;
    double imag = 0;
    bool b = false;
    bool isName = false; // Sym*: refers to a value by name (s) rather than a literal
    std::string s;
    std::string s2;
    std::string key; // StringToArgument element key
    std::string raw; // Opaque: the JSON text
    Device device;
    std::vector<Argument> list;
    std::shared_ptr<const Graph> graph;

    static Argument none() { return {}; }
    static Argument tensor(std::string name) { Argument a; a.kind = ArgKind::Tensor; a.s = std::move(name); return a; }
    static Argument integer(int64_t v) { Argument a; a.kind = ArgKind::Int; a.i = v; return a; }
    static Argument floating(double v) { Argument a; a.kind = ArgKind::Float; a.f = v; return a; }
    static Argument boolean(bool v) { Argument a; a.kind = ArgKind::Bool; a.b = v; return a; }
    static Argument string(std::string v) { Argument a; a.kind = ArgKind::String; a.s = std::move(v); return a; }
    static Argument ints(const std::vector<int64_t>& v);
    static Argument tensors(const std::vector<std::string>& names);
    static Argument symIntName(std::string name) { Argument a; a.kind = ArgKind::SymInt; a.isName = true; a.s = std::move(name); return a; }
    static Argument scalarType(ScalarType t) { Argument a; a.kind = ArgKind::ScalarType; a.i = static_cast<int>(t); return a; }

    bool isList() const;
    /// Names of every value this argument reads (tensors and sym values, recursively; not subgraph internals).
    void collectValueNames(std::vector<std::string>& out) const;
    bool operator==(const Argument& o) const;
};

struct NamedArgument {
    std::string name; // schema argument name; "" for positional HOP arguments
    Argument arg;
    int kind = 0;     // 0 unknown, 1 positional, 2 keyword
    bool operator==(const NamedArgument&) const = default;
};

// ---------------------------------------------------------------- nodes

struct Target {
    enum class Kind { Op, Symbolic, HigherOrder, Extension, Unknown };
    Kind kind = Kind::Unknown;
    std::string full;     // as written: "torch.ops.aten.add.Tensor", "_operator.add", "#ns:op"
    std::string ns;       // "aten", "prims", "higher_order", custom namespace
    std::string op;       // "add"
    std::string overload; // "Tensor", "default"

    /// Parses a target string (section 7 of the format guide).
    static Target parse(const std::string& full);
    /// "aten.add.Tensor" for ops, the full string otherwise.
    std::string shortName() const;
    /// "aten::add.Tensor" for ops (schema table key form is "add.Tensor").
    std::string qualifiedOp() const;
    bool operator==(const Target& o) const { return full == o.full; }
};

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

struct Node {
    std::string name;  // the serialized `name` if present, else derived from the first output
    Target target;
    std::vector<NamedArgument> inputs;
    std::vector<Argument> outputs;
    NodeMeta meta;
    std::optional<bool> isHopSingleTensorReturn;
    bool hasSerializedName = false;
    /// For nodes made by a decomposition step: the name of the node it replaced.
    std::string derivedFrom;

    const NamedArgument* input(const std::string& argName) const;
    /// Names of the values this node defines (tensor and sym outputs, list outputs flattened).
    std::vector<std::string> outputNames() const;
    /// One entry per output slot, as getitem indexes them: tensor lists flattened, "" for None or a
    /// slot that names no value.
    std::vector<std::string> outputSlots() const;
    bool operator==(const Node& o) const {
        return name == o.name && target == o.target && inputs == o.inputs && outputs == o.outputs &&
               meta == o.meta && isHopSingleTensorReturn == o.isHopSingleTensorReturn;
    }
};

struct CustomObjMeta {
    std::string name;
    std::string classFqn;
    bool operator==(const CustomObjMeta&) const = default;
};

struct Graph {
    std::vector<Argument> inputs;
    std::vector<Argument> outputs;
    std::vector<Node> nodes;
    std::map<std::string, TensorMeta> tensorValues;
    std::map<std::string, SymInt> symIntValues;
    std::map<std::string, SymBool> symBoolValues;
    std::map<std::string, SymFloat> symFloatValues;
    std::map<std::string, CustomObjMeta> customObjValues;
    bool isSingleTensorReturn = false;

    const TensorMeta* tensorMeta(const std::string& name) const {
        auto it = tensorValues.find(name);
        return it == tensorValues.end() ? nullptr : &it->second;
    }
    bool operator==(const Graph&) const = default;
};

// ---------------------------------------------------------------- signature

enum class InputKind { UserInput, Parameter, Buffer, TensorConstant, CustomObj, Token, ConstantInput };
enum class OutputKind {
    UserOutput, LossOutput, BufferMutation, ParameterMutation, GradientToParameter,
    GradientToUserInput, UserInputMutation, Token
};
const char* inputKindName(InputKind k);   // "USER_INPUT", "PARAMETER", ... as torch prints them
const char* outputKindName(OutputKind k); // "USER_OUTPUT", "BUFFER_MUTATION", ...

struct InputSpec {
    InputKind kind = InputKind::UserInput;
    Argument arg;                    // the graph input it describes (for ConstantInput: the value)
    std::string target;              // parameter_name / buffer_name / tensor_constant_name / custom_obj_name
    std::optional<bool> persistent;  // buffers (absent in 2.2-era files)
    std::string name;                // ConstantInput: the input name
    bool operator==(const InputSpec&) const = default;
};

struct OutputSpec {
    OutputKind kind = OutputKind::UserOutput;
    Argument arg;
    std::string target; // buffer_name / parameter_name / user_input_name
    bool operator==(const OutputSpec&) const = default;
};

struct GraphSignature {
    std::vector<InputSpec> inputSpecs;
    std::vector<OutputSpec> outputSpecs;
    bool operator==(const GraphSignature&) const = default;
};

struct RangeConstraint {
    std::optional<int64_t> minVal; // nullopt = unbounded
    std::optional<int64_t> maxVal;
    bool operator==(const RangeConstraint&) const = default;
};

struct ModuleCallSignature {
    std::vector<Argument> inputs;
    std::vector<Argument> outputs;
    std::string inSpec;  // JSON text as stored
    std::string outSpec;
    std::optional<std::vector<std::string>> forwardArgNames;
    bool operator==(const ModuleCallSignature&) const = default;
};

struct ModuleCallEntry {
    std::string fqn;
    std::optional<ModuleCallSignature> signature;
    bool operator==(const ModuleCallEntry&) const = default;
};

// ---------------------------------------------------------------- weights and values

/// Bytes of one storage. Either a view into a buffer kept alive by `owner` (the mapped archive)
/// or owned bytes. Never copied when the archive stores it uncompressed.
struct Storage {
    std::shared_ptr<const void> owner;
    const std::byte* data = nullptr;
    size_t size = 0;

    static std::shared_ptr<Storage> fromBytes(std::vector<std::byte> bytes);
};

/// A real tensor: dtype, sizes and strides in elements, offset, shared storage (views are views).
struct TensorData {
    ScalarType dtype = ScalarType::Float32;
    std::vector<int64_t> sizes;
    std::vector<int64_t> strides;
    int64_t storageOffset = 0;
    std::shared_ptr<const Storage> storage; // null = meta only (no data)
    bool isParameter = false;
    bool requiresGrad = false;
    std::string device = "cpu";

    int64_t numel() const;
    bool isContiguous() const;
    /// Pointer to element [0,...,0]; nullptr when there is no storage.
    const std::byte* dataPtr() const;
    /// Whether the view stays inside its storage.
    bool fitsStorage() const;
    /// Bytes of the view in C-contiguous order (copies when strided).
    std::vector<std::byte> contiguousBytes() const;
};

/// A leaf of sample inputs or constants: a tensor, a Python scalar, or something we only describe.
struct Value {
    enum class Kind { None, Tensor, Int, Float, Bool, String, Opaque };
    Kind kind = Kind::None;
    TensorData tensor;
    int64_t i = 0;
    double f = 0;
    bool b = false;
    std::string s; // String value, or the Opaque description ("TorchBind object __torch__...")
};

// ---------------------------------------------------------------- the program

enum class ContainerKind { Pt2Archive, LegacyZip, Builder };
const char* containerKindName(ContainerKind k); // "PT2 archive", "legacy zip", "built in code"

struct SchemaVersion {
    int major = 8;
    int minor = 0;
    bool bareInteger = false; // the oldest files wrote a bare integer
    std::string toString() const { return bareInteger ? std::to_string(major) : std::to_string(major) + "." + std::to_string(minor); }
    bool operator==(const SchemaVersion&) const = default;
};

struct Program {
    // provenance
    ContainerKind container = ContainerKind::Builder;
    std::string modelName = "model";
    std::string sourcePath;

    // ExportedProgram
    SchemaVersion schemaVersion;
    std::string torchVersion;
    std::map<std::string, int64_t> opsetVersion;
    std::vector<std::string> verifiers; // ["TRAINING"], ["ATEN"], ...
    std::string dialect;                // oldest files only
    std::vector<std::string> guardsCode;
    std::map<std::string, RangeConstraint> rangeConstraints;

    // GraphModule
    Graph graph;
    GraphSignature signature;
    std::vector<ModuleCallEntry> moduleCallGraph;
    std::map<std::string, std::string> metadata;
    std::string treespecNamedtupleFieldsJson; // raw JSON text, "" when absent

    // state
    std::map<std::string, TensorData> weights;   // parameters and persistent buffers by FQN
    std::map<std::string, Value> constants;      // tensor constants, non-persistent buffers, opaque objects
    std::vector<Value> sampleArgs;               // flattened positional sample inputs
    std::map<std::string, Value> sampleKwargs;
    bool hasSampleInputs = false;
    std::map<std::string, std::string> extraFiles;

    /// Things a reader tolerated but a user should know (an unexpected schema major, ...). Not compared.
    std::vector<std::string> warnings;

    /// True when the program is at the training IR (verifiers ["TRAINING"]).
    bool isTrainingDialect() const;
    /// The tensor for a graph input that the signature maps to a parameter, buffer or constant; nullptr otherwise.
    const TensorData* stateTensorFor(const InputSpec& spec) const;
};

using ProgramPtr = std::shared_ptr<const Program>;

/// Deep equality of graph, signature, metadata and state (weights compared byte for byte), ignoring
/// provenance (container, path). Returns an empty string when equal, else the first difference found.
std::string compareProgramsDetail(const Program& a, const Program& b);

} // namespace irlens::core
