#pragma once
// A runtime value flowing between nodes: a tensor, a (sym) scalar, a list, or None.

#include "core/exec/tensor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace irlens::core::exec {

struct EValue {
    enum class Kind { None, Tensor, Int, Double, Bool, String, TensorList, IntList, DoubleList, BoolList, Graph, Device };
    Kind kind = Kind::None;
    Tensor tensor;
    int64_t i = 0;   // Int, Graph (subgraph index in the plan node)
    double d = 0;
    bool b = false;
    std::string s;
    std::vector<Tensor> tensors;   // TensorList (undefined entries stand for None)
    std::vector<int64_t> ints;     // IntList
    std::vector<double> doubles;   // DoubleList
    std::vector<bool> bools;       // BoolList

    static EValue none() { return {}; }
    static EValue fromTensor(Tensor t) { EValue v; v.kind = Kind::Tensor; v.tensor = std::move(t); return v; }
    static EValue fromInt(int64_t x) { EValue v; v.kind = Kind::Int; v.i = x; return v; }
    static EValue fromDouble(double x) { EValue v; v.kind = Kind::Double; v.d = x; return v; }
    static EValue fromBool(bool x) { EValue v; v.kind = Kind::Bool; v.b = x; return v; }
    static EValue fromInts(std::vector<int64_t> x) { EValue v; v.kind = Kind::IntList; v.ints = std::move(x); return v; }
    static EValue fromTensors(std::vector<Tensor> x) { EValue v; v.kind = Kind::TensorList; v.tensors = std::move(x); return v; }

    /// Back to None, releasing what the value held; cheaper than assigning a fresh EValue (which
    /// moves every member of this large struct).
    void reset();

    bool isNone() const { return kind == Kind::None; }
    bool isTensor() const { return kind == Kind::Tensor; }
    bool isScalar() const { return kind == Kind::Int || kind == Kind::Double || kind == Kind::Bool; }
    /// Int/Double/Bool as double.
    double toDouble() const { return kind == Kind::Double ? d : kind == Kind::Bool ? (b ? 1.0 : 0.0) : static_cast<double>(i); }
    int64_t toInt() const { return kind == Kind::Double ? static_cast<int64_t>(d) : kind == Kind::Bool ? (b ? 1 : 0) : i; }
    /// "f32[2, 3]", "4", "[1, 2]", "None" ...
    std::string describe() const;
};

} // namespace irlens::core::exec
