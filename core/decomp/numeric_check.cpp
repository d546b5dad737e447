#include "core/decomp/numeric_check.h"

#include "core/exec/engine.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace irlens::core {

std::string NumericComparison::summary() const {
    char buf[160];
    std::snprintf(buf, sizeof buf, "max abs %.2e, max rel %.2e over %lld values (tolerance %.0e)", maxAbs, maxRel,
                  static_cast<long long>(elements), tolerance);
    return buf;
}

namespace {

Result<std::vector<exec::EValue>> sampleInputs(const Program& p) {
    if (!p.hasSampleInputs) return Status::error("the program has no sample inputs to run the numeric check on");
    // The flattened sample args hold one value per user-level argument: user inputs and constant
    // inputs (a Python number the export baked in). The engine takes the user inputs only.
    std::vector<const Value*> args;
    size_t userLevel = 0;
    for (const auto& spec : p.signature.inputSpecs)
        if (spec.kind == InputKind::UserInput || spec.kind == InputKind::ConstantInput) ++userLevel;
    size_t k = 0;
    if (userLevel == p.sampleArgs.size()) {
        for (const auto& spec : p.signature.inputSpecs) {
            if (spec.kind != InputKind::UserInput && spec.kind != InputKind::ConstantInput) continue;
            if (spec.kind == InputKind::UserInput) args.push_back(&p.sampleArgs[k]);
            ++k;
        }
    } else {
        for (const auto& v : p.sampleArgs) args.push_back(&v);
    }
    std::vector<exec::EValue> out;
    for (const Value* pv : args) {
        const Value& v = *pv;
        switch (v.kind) {
        case Value::Kind::Tensor: {
            auto t = exec::Tensor::fromTensorData(v.tensor);
            if (!t) return t.status().withContext("sample input");
            out.push_back(exec::EValue::fromTensor(*t));
            break;
        }
        case Value::Kind::Int: out.push_back(exec::EValue::fromInt(v.i)); break;
        case Value::Kind::Float: out.push_back(exec::EValue::fromDouble(v.f)); break;
        case Value::Kind::Bool: out.push_back(exec::EValue::fromBool(v.b)); break;
        default: return Status::error("a sample input of this kind cannot be fed to the engine");
        }
    }
    return out;
}

} // namespace

Result<NumericComparison> compareOutputs(ProgramPtr before, ProgramPtr after, double tolerance, int threads) {
    auto inputs = sampleInputs(*before);
    if (!inputs) return inputs.status();
    auto a = exec::compileAndRun(before, *inputs, threads);
    if (!a) return a.status().withContext("the program before the step");
    auto b = exec::compileAndRun(after, *inputs, threads);
    if (!b) return b.status().withContext("the program after the step");
    if (a->userOutputs.size() != b->userOutputs.size()) return Status::error("the number of user outputs changed");
    std::vector<exec::Tensor> xs, ys;
    for (size_t k = 0; k < a->userOutputs.size(); ++k) {
        const auto& x = a->outputs[a->userOutputs[k]];
        const auto& y = b->outputs[b->userOutputs[k]];
        if (!x.isTensor() || !y.isTensor()) continue;
        xs.push_back(x.tensor);
        ys.push_back(y.tensor);
    }
    return compareTensorLists(xs, ys, tolerance);
}

Result<NumericComparison> compareTensorLists(const std::vector<exec::Tensor>& before, const std::vector<exec::Tensor>& after, double tolerance) {
    if (before.size() != after.size()) return Status::error("the number of outputs differs");
    NumericComparison c;
    c.tolerance = tolerance;
    for (size_t k = 0; k < before.size(); ++k) {
        const exec::Tensor& x = before[k];
        const exec::Tensor& y = after[k];
        if (x.sizes() != y.sizes())
            return Status::error("output " + std::to_string(k) + " changed shape: " + x.shapeString() + " -> " + y.shapeString());
        double maxAbs = 0, maxRef = 0;
        for (int64_t i = 0, n = x.numel(); i < n; ++i) {
            double u = x.at(i), v = y.at(i);
            double d = std::fabs(u - v);
            if (std::isnan(u) != std::isnan(v)) d = INFINITY;
            else if (std::isnan(u) || (std::isinf(u) && u == v)) d = 0;
            maxAbs = std::max(maxAbs, d);
            if (std::isfinite(u)) maxRef = std::max(maxRef, std::fabs(u));
        }
        c.elements += x.numel();
        c.maxAbs = std::max(c.maxAbs, maxAbs);
        c.maxRel = std::max(c.maxRel, maxRef > 0 ? maxAbs / maxRef : maxAbs);
    }
    return c;
}

} // namespace irlens::core
