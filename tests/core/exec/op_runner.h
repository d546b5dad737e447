#pragma once
// Test helper: runs one operator on hand-made tensors through the real plan + engine, so kernel
// tests exercise argument binding, output mapping and error reporting too.

#include "core/exec/engine.h"
#include "core/exec/kernels/util/half.h"

#include <QMetaType>

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace irlens::testing {

using namespace irlens::core;
using namespace irlens::core::exec;

template <class T>
inline Tensor makeTensor(ScalarType dt, const Shape& shape, const std::vector<T>& values) {
    Tensor t = *Tensor::empty(dt, shape);
    for (size_t i = 0; i < values.size() && static_cast<int64_t>(i) < t.numel(); ++i) {
        switch (dt) {
        case ScalarType::Float32: t.data<float>()[i] = static_cast<float>(values[i]); break;
        case ScalarType::Float64: t.data<double>()[i] = static_cast<double>(values[i]); break;
        case ScalarType::Int64: t.data<int64_t>()[i] = static_cast<int64_t>(values[i]); break;
        case ScalarType::Int32: t.data<int32_t>()[i] = static_cast<int32_t>(values[i]); break;
        case ScalarType::Int8: t.data<int8_t>()[i] = static_cast<int8_t>(values[i]); break;
        case ScalarType::UInt8: t.data<uint8_t>()[i] = static_cast<uint8_t>(values[i]); break;
        case ScalarType::Bool: t.data<bool>()[i] = values[i] != 0; break;
        case ScalarType::Float16: case ScalarType::BFloat16: t.data<uint16_t>()[i] = floatToReduced(dt, static_cast<float>(values[i])); break;
        default: break;
        }
    }
    return t;
}

inline Tensor f32(const Shape& shape, const std::vector<double>& v) { return makeTensor(ScalarType::Float32, shape, v); }

inline std::vector<double> values(const Tensor& t) {
    std::vector<double> out;
    for (int64_t i = 0; i < t.numel(); ++i) out.push_back(t.at(i));
    return out;
}

/// Empty when `t` has dtype `dtype`, shape `shape` and the values `expect` (floats within 1e-6
/// relative, NaN matching NaN, and with `signedZeros` a zero's sign too); else what differs.
inline std::string mismatch(const Tensor& t, ScalarType dtype, const Shape& shape, const std::vector<double>& expect, bool signedZeros = false) {
    if (t.dtype() != dtype) return "dtype " + dtypeName(t.dtype()) + ", expected " + dtypeName(dtype);
    if (t.sizes() != shape) return "shape " + shapeToString(t.sizes()) + ", expected " + shapeToString(shape);
    auto got = values(t);
    if (got.size() != expect.size()) return std::to_string(got.size()) + " values, expected " + std::to_string(expect.size());
    for (size_t k = 0; k < got.size(); ++k) {
        bool same = std::isnan(expect[k]) ? std::isnan(got[k])
                                          : got[k] == expect[k] || // infinities too
                                                std::abs(got[k] - expect[k]) <= (isFloatingType(dtype) ? 1e-6 * std::max(1.0, std::abs(expect[k])) : 0.0);
        if (same && signedZeros && expect[k] == 0 && std::signbit(got[k]) != std::signbit(expect[k])) same = false;
        if (!same) {
            char buf[160];
            std::snprintf(buf, sizeof buf, "element %zu: got %.10g, expected %.10g", k, got[k], expect[k]);
            return buf;
        }
    }
    return {};
}

/// One argument of the op: a tensor input (fed as a user input) or a literal Argument.
struct OpArg {
    std::string name;
    std::optional<Tensor> tensor;
    Argument literal;
    static OpArg t(std::string n, Tensor x) { OpArg a; a.name = std::move(n); a.tensor = std::move(x); return a; }
    static OpArg lit(std::string n, Argument x) { OpArg a; a.name = std::move(n); a.literal = std::move(x); return a; }
};

/// One row of a kernel table: the op, its arguments and what output `pick` must be.
struct KernelCase {
    std::string target;
    std::vector<OpArg> args;
    ScalarType dtype = ScalarType::Float32;
    Shape shape;
    std::vector<double> expect;
    int outputs = 1;
    int pick = 0;       // which output to check
    bool list = false;  // single list output (split)
    std::vector<bool> absent = {}; // outputs the node leaves None (a gradient's output_mask); pick counts the others
};

/// Builds a one-node program "torch.ops.<target>" with `outputs` tensor outputs and runs it; an
/// output marked in `absent` is None in the node and not a graph output.
inline Result<std::vector<EValue>> runOp(const std::string& target, const std::vector<OpArg>& args, int outputs = 1, int threads = 1,
                                         bool listOutput = false, const std::vector<bool>& absent = {}) {
    auto p = std::make_shared<Program>();
    Node n;
    n.name = "n0";
    n.target = Target::parse("torch.ops." + target);
    std::vector<EValue> inputs;
    int k = 0;
    for (const auto& a : args) {
        NamedArgument na;
        na.name = a.name;
        na.kind = core::ArgumentKind::Positional;
        if (a.tensor) {
            std::string vn = "in" + std::to_string(k++);
            na.arg = Argument::tensor(vn);
            p->graph.inputs.push_back(Argument::tensor(vn));
            InputSpec spec;
            spec.kind = InputKind::UserInput;
            spec.arg = Argument::tensor(vn);
            p->signature.inputSpecs.push_back(spec);
            inputs.push_back(EValue::fromTensor(*a.tensor));
        } else {
            na.arg = a.literal;
        }
        n.inputs.push_back(na);
    }
    if (listOutput) {
        std::vector<std::string> names;
        for (int o = 0; o < outputs; ++o) names.push_back("out" + std::to_string(o));
        n.outputs.push_back(Argument::tensors(names));
    } else {
        for (int o = 0; o < outputs; ++o)
            n.outputs.push_back(o < static_cast<int>(absent.size()) && absent[static_cast<size_t>(o)] ? Argument::none() : Argument::tensor("out" + std::to_string(o)));
    }
    for (int o = 0; o < outputs; ++o) {
        if (o < static_cast<int>(absent.size()) && absent[static_cast<size_t>(o)]) continue;
        p->graph.outputs.push_back(Argument::tensor("out" + std::to_string(o)));
        OutputSpec os;
        os.arg = Argument::tensor("out" + std::to_string(o));
        p->signature.outputSpecs.push_back(os);
    }
    p->graph.nodes.push_back(n);
    auto plan = ExecutionPlan::compile(p);
    if (!plan) return plan.status();
    Engine e(*plan);
    RunOptions ro;
    ro.threads = threads;
    auto r = e.run(inputs, ro);
    if (!r) return r.status();
    return r->outputs;
}

} // namespace irlens::testing

Q_DECLARE_METATYPE(irlens::testing::KernelCase)
