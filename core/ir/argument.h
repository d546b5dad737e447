#pragma once
// Values as the export schema passes them: devices, FakeTensor metadata, the `Argument` union,
// named arguments and call targets.

#include "core/ir/boxed.h"
#include "core/ir/dtype.h"
#include "core/ir/sym.h"

#include <cstdint>
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
    std::vector<SymInt> sizes;
    std::vector<SymInt> strides;
    SymInt storageOffset;
    Device device;
    ScalarType dtype = ScalarType::Float32; // the small members together: 120 bytes in all
    bool requiresGrad = false;
    int layout = 7; // Layout::Strided
    bool operator==(const TensorMeta&) const = default;

    /// "f32[1, 64, 56, 56]" with symbols as written ("f32[s0, 128]").
    std::string shortString() const;
    /// Sizes if every one is a literal.
    std::optional<std::vector<int64_t>> staticSizes() const;
};

// ---------------------------------------------------------------- arguments

enum class ArgKind : uint8_t {
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
/// themselves scalar Arguments, e.g. a SymInts element is a SymInt by name or literal). The parts
/// few kinds use (a custom object's class, an element's key, an opaque member's JSON, a device, a
/// subgraph) sit behind one pointer: a tensor or literal argument is 64 bytes.
struct Argument {
    ArgKind kind = ArgKind::None;
    bool b = false;
    bool isName = false; // Sym*: refers to a value by name (s) rather than a literal
    union {
        int64_t i = 0;
        double imag; // Complex: the imaginary part (no complex kind uses i)
    };
    double f = 0;
    std::string s;
    BoxedVector<Argument> list;

    /// CustomObj: the class_fqn.
    const std::string& s2() const { return m_rare.get().s2; }
    /// StringToArgument element: its key.
    const std::string& key() const { return m_rare.get().key; }
    /// Opaque: the member's JSON text.
    const std::string& raw() const { return m_rare.get().raw; }
    const core::Device& device() const { return m_rare.get().device; }
    /// Graph: the subgraph.
    const std::shared_ptr<const Graph>& graph() const { return m_rare.get().graph; }
    void setS2(std::string v) { m_rare.mutableValue().s2 = std::move(v); }
    void setKey(std::string v) { m_rare.mutableValue().key = std::move(v); }
    void setRaw(std::string v) { m_rare.mutableValue().raw = std::move(v); }
    void setDevice(core::Device v) { m_rare.mutableValue().device = std::move(v); }
    void setGraph(std::shared_ptr<const Graph> g) { m_rare.mutableValue().graph = std::move(g); }

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
    /// The same names, each passed to `f` as a reference into this argument (no copies).
    template <class F>
    void forEachValueName(F&& f) const {
        switch (kind) {
        case ArgKind::Tensor:
        case ArgKind::OptionalTensor:
            if (!s.empty()) f(s);
            break;
        case ArgKind::SymInt: case ArgKind::SymBool: case ArgKind::SymFloat:
            if (isName) f(s);
            break;
        case ArgKind::CustomObj:
            f(s);
            break;
        default:
            for (const auto& e : list) e.forEachValueName(f);
        }
    }
    bool operator==(const Argument& o) const;

private:
    struct Rare {
        std::string s2;
        std::string key;
        std::string raw;
        core::Device device;
        std::shared_ptr<const Graph> graph;
    };
    Boxed<Rare> m_rare;
};

/// How a call passes an argument, as the file records it (torch/_export/serde/schema.py ArgumentKind;
/// the values are the schema's). Unknown leaves the split into args and kwargs to the op's schema.
enum class ArgumentKind : uint8_t { Unknown = 0, Positional = 1, Keyword = 2 };

struct NamedArgument {
    std::string name; // schema argument name; "" for positional HOP arguments
    Argument arg;
    ArgumentKind kind = ArgumentKind::Unknown;
    bool operator==(const NamedArgument&) const = default;
};

// ---------------------------------------------------------------- targets

/// A call target. Its parts are spans of `full`: every node holds one target, which takes 64 bytes
/// of the node this way against 136 as four separate strings.
struct Target {
    enum class Kind : uint8_t { Op, Symbolic, HigherOrder, Extension, Unknown };
    Kind kind = Kind::Unknown;
    std::string full; // as written: "torch.ops.aten.add.Tensor", "_operator.add", "#ns:op"; set by parse()

    /// "aten", "prims", "higher_order", custom namespace
    std::string ns() const { return part(m_ns); }
    /// "add"
    std::string op() const { return part(m_op); }
    /// "Tensor", "default" (also when an op target names no overload), "" for higher-order ops
    std::string overload() const { return m_defaultOverload ? std::string("default") : part(m_overload); }

    /// Parses a target string (section 7 of the format guide).
    static Target parse(const std::string& full);
    /// "aten.add.Tensor" for ops, the full string otherwise.
    std::string shortName() const;
    /// The one canonical key of the target, used by every table that looks an op up (op registry, kernels,
    /// meta functions, decomposition rules, CLI): "aten::add.Tensor", "aten::relu.default" (the overload is
    /// always written) for ops, "higher_order::cond" for higher-order ops, the full string otherwise.
    std::string key() const;
    /// The key of an op overload: "ns::op.overload", "default" when `overload` is empty.
    static std::string opKey(const std::string& ns, const std::string& op, const std::string& overload);
    bool operator==(const Target& o) const { return full == o.full; }

private:
    struct Span {
        uint32_t pos = 0;
        uint32_t len = 0;
    };
    std::string part(Span s) const { return full.substr(s.pos, s.len); }
    Span m_ns, m_op, m_overload;
    bool m_defaultOverload = false;
};

} // namespace irlens::core
