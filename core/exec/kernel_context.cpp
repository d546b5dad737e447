#include "core/exec/kernel_context.h"

namespace irlens::core::exec {

void EValue::reset() {
    kind = Kind::None;
    tensor = Tensor();
    i = 0;
    d = 0;
    b = false;
    // the containers are usually empty: leave those untouched
    if (!s.empty() || s.capacity() > std::string().capacity()) s = std::string();
    if (tensors.capacity()) tensors = {};
    if (ints.capacity()) ints = {};
    if (doubles.capacity()) doubles = {};
    if (bools.capacity()) bools = {};
}

std::string EValue::describe() const {
    auto list = [](const auto& xs) {
        std::string s = "[";
        for (size_t k = 0; k < xs.size(); ++k) s += (k ? ", " : "") + std::to_string(xs[k]);
        return s + "]";
    };
    switch (kind) {
    case Kind::None: return "None";
    case Kind::Tensor: return tensor.defined() ? tensor.shapeString() : "None";
    case Kind::Int: return std::to_string(i);
    case Kind::Double: return std::to_string(d);
    case Kind::Bool: return b ? "True" : "False";
    case Kind::String: return "'" + s + "'";
    case Kind::TensorList: {
        std::string r = "[";
        for (size_t k = 0; k < tensors.size(); ++k) r += (k ? ", " : "") + (tensors[k].defined() ? tensors[k].shapeString() : "None");
        return r + "]";
    }
    case Kind::IntList: return list(ints);
    case Kind::DoubleList: return list(doubles);
    case Kind::BoolList: return list(std::vector<int>(bools.begin(), bools.end()));
    case Kind::Graph: return "<graph " + std::to_string(i) + ">";
    case Kind::Device: return "device";
    }
    return "?";
}

const EValue* KernelContext::find(std::string_view name, int position) const {
    for (const auto& a : m_args)
        if (a.name && *a.name == name) return a.value && !a.value->isNone() ? a.value : nullptr;
    if (position >= 0 && static_cast<size_t>(position) < m_args.size()) {
        const auto& a = m_args[static_cast<size_t>(position)];
        // Positional-only targets have unnamed arguments; the first argument is the primary input
        // whatever its schema calls it (self, input, a, inp).
        if (!a.name || a.name->empty() || position == 0) return a.value && !a.value->isNone() ? a.value : nullptr;
    }
    return nullptr;
}

namespace {
std::string argLabel(std::string_view name) { return "argument '" + std::string(name) + "'"; }
}

Tensor KernelContext::tensor(std::string_view name, int position) const {
    const EValue* v = find(name, position);
    if (!v) kernelFail(argLabel(name) + " is missing (expected a tensor)");
    if (v->kind == EValue::Kind::Tensor && v->tensor.defined()) return v->tensor;
    // A Python number where a Tensor is expected (add.Tensor(x, 2)): the export JSON keeps it as a scalar.
    if (v->kind == EValue::Kind::Int) return Tensor::scalar(ScalarType::Int64, static_cast<double>(v->i));
    if (v->kind == EValue::Kind::Double) return Tensor::scalar(ScalarType::Float64, v->d);
    if (v->kind == EValue::Kind::Bool) return Tensor::scalar(ScalarType::Bool, v->b ? 1 : 0);
    kernelFail(argLabel(name) + " should be a tensor, got " + v->describe());
}

std::optional<Tensor> KernelContext::optTensor(std::string_view name, int position) const {
    const EValue* v = find(name, position);
    if (!v || (v->kind == EValue::Kind::Tensor && !v->tensor.defined())) return std::nullopt;
    return tensor(name, position);
}

std::vector<Tensor> KernelContext::tensors(std::string_view name, int position) const {
    const EValue* v = find(name, position);
    if (!v) kernelFail(argLabel(name) + " is missing (expected a list of tensors)");
    if (v->kind == EValue::Kind::TensorList) return v->tensors;
    if (v->kind == EValue::Kind::Tensor) return {v->tensor};
    kernelFail(argLabel(name) + " should be a list of tensors, got " + v->describe());
}

std::optional<int64_t> KernelContext::optInt(std::string_view name, int position) const {
    const EValue* v = find(name, position);
    if (!v) return std::nullopt;
    if (v->kind == EValue::Kind::Int || v->kind == EValue::Kind::Bool) return v->toInt();
    if (v->kind == EValue::Kind::Double) return static_cast<int64_t>(v->d);
    if (v->kind == EValue::Kind::IntList && v->ints.size() == 1) return v->ints[0];
    if (v->kind == EValue::Kind::Tensor && v->tensor.numel() == 1) return static_cast<int64_t>(v->tensor.at(0));
    kernelFail(argLabel(name) + " should be an int, got " + v->describe());
}

int64_t KernelContext::intArg(std::string_view name, int position, int64_t fallback) const {
    auto v = optInt(name, position);
    return v ? *v : fallback;
}

int64_t KernelContext::intArg(std::string_view name, int position) const {
    auto v = optInt(name, position);
    if (!v) kernelFail(argLabel(name) + " is missing (expected an int)");
    return *v;
}

std::optional<double> KernelContext::optFloat(std::string_view name, int position) const {
    const EValue* v = find(name, position);
    if (!v) return std::nullopt;
    if (v->isScalar()) return v->toDouble();
    if (v->kind == EValue::Kind::Tensor && v->tensor.numel() == 1) return v->tensor.at(0);
    kernelFail(argLabel(name) + " should be a number, got " + v->describe());
}

double KernelContext::floatArg(std::string_view name, int position, double fallback) const {
    auto v = optFloat(name, position);
    return v ? *v : fallback;
}

bool KernelContext::boolArg(std::string_view name, int position, bool fallback) const {
    const EValue* v = find(name, position);
    if (!v) return fallback;
    if (v->isScalar()) return v->toDouble() != 0;
    if (v->kind == EValue::Kind::Tensor && v->tensor.numel() == 1) return v->tensor.at(0) != 0;
    kernelFail(argLabel(name) + " should be a bool, got " + v->describe());
}

std::optional<std::vector<int64_t>> KernelContext::optInts(std::string_view name, int position) const {
    const EValue* v = find(name, position);
    if (!v) return std::nullopt;
    if (v->kind == EValue::Kind::IntList) return v->ints;
    if (v->kind == EValue::Kind::Int) return std::vector<int64_t>{v->i};
    if (v->kind == EValue::Kind::TensorList && v->tensors.empty()) return std::vector<int64_t>{};
    kernelFail(argLabel(name) + " should be a list of ints, got " + v->describe());
}

std::vector<int64_t> KernelContext::ints(std::string_view name, int position, std::vector<int64_t> fallback) const {
    auto v = optInts(name, position);
    return v ? *v : fallback;
}

std::vector<int64_t> KernelContext::ints(std::string_view name, int position) const {
    auto v = optInts(name, position);
    if (!v) kernelFail(argLabel(name) + " is missing (expected a list of ints)");
    return *v;
}

Scalar KernelContext::scalar(std::string_view name, int position, std::optional<Scalar> fallback) const {
    const EValue* v = find(name, position);
    if (!v) {
        if (fallback) return *fallback;
        kernelFail(argLabel(name) + " is missing (expected a scalar)");
    }
    Scalar s;
    switch (v->kind) {
    case EValue::Kind::Int: s.value = static_cast<double>(v->i); s.kind = Scalar::Kind::Int; return s;
    case EValue::Kind::Double: s.value = v->d; s.kind = Scalar::Kind::Float; return s;
    case EValue::Kind::Bool: s.value = v->b ? 1 : 0; s.kind = Scalar::Kind::Bool; return s;
    case EValue::Kind::Tensor:
        if (v->tensor.numel() == 1) {
            s.value = v->tensor.at(0);
            s.kind = isFloatingType(v->tensor.dtype()) ? Scalar::Kind::Float
                     : v->tensor.dtype() == ScalarType::Bool ? Scalar::Kind::Bool : Scalar::Kind::Int;
            return s;
        }
        break;
    default: break;
    }
    kernelFail(argLabel(name) + " should be a scalar, got " + v->describe());
}

std::optional<ScalarType> KernelContext::dtypeArg(std::string_view name, int position) const {
    const EValue* v = find(name, position);
    if (!v) return std::nullopt;
    if (v->kind != EValue::Kind::Int) kernelFail(argLabel(name) + " should be a dtype, got " + v->describe());
    auto t = static_cast<ScalarType>(v->i);
    if (elementSize(t) == 0) kernelFail(argLabel(name) + ": unsupported dtype " + dtypeName(t));
    return t;
}

std::string KernelContext::stringArg(std::string_view name, int position, std::string fallback) const {
    const EValue* v = find(name, position);
    if (!v) return fallback;
    if (v->kind != EValue::Kind::String) kernelFail(argLabel(name) + " should be a string, got " + v->describe());
    return v->s;
}

Tensor KernelContext::alloc(ScalarType dtype, const Shape& sizes) {
    Tensor t = unwrap(Tensor::empty(dtype, sizes, m_tracker));
    m_bytes += t.nbytes();
    return t;
}

Tensor KernelContext::allocZeros(ScalarType dtype, const Shape& sizes) {
    Tensor t = unwrap(Tensor::zeros(dtype, sizes, m_tracker));
    m_bytes += t.nbytes();
    return t;
}

void KernelContext::setOutput(size_t index, EValue v) {
    if (index >= m_outputs.size()) m_outputs.resize(index + 1);
    m_outputs[index] = std::move(v);
}

} // namespace irlens::core::exec
