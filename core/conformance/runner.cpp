#include "core/conformance/runner.h"

#include "core/exec/engine.h"
#include "core/exec/kernel_registry.h"

#include <algorithm>
#include <memory>
#include <optional>

namespace irlens::core::conformance {

namespace {

using exec::EValue;
using exec::Tensor;

// Ops whose result depends on the order of a long accumulation (PyTorch vectorises and blocks its
// sums differently from a plain loop; FFTW and PyTorch's FFT library split their transforms differently);
// PyTorch's own OpInfo tests use looser tolerances for them too.
const char* const kAccumulating[] = {
    "sum", "mean", "prod", "var", "std", "var_mean", "cumsum", "cumprod", "logsumexp", "norm", "mm", "bmm", "addmm",
    "convolution", "_softmax", "_log_softmax", "native_layer_norm", "native_group_norm", "native_batch_norm",
    "_native_batch_norm_legit", "_native_batch_norm_legit_no_training", "avg_pool2d", "avg_pool3d", "avg_pool1d",
    "adaptive_avg_pool1d", "_adaptive_avg_pool2d", "_adaptive_avg_pool3d", "upsample_bilinear2d", "pdist", "_cdist_forward",
    "dot", "_fft_r2c", "_fft_c2r", "_fft_c2c", "fft_r2c", "fft_c2r", "fft_c2c"};

// Ops PyTorch's own OpInfo tests check more loosely against their references (precisionOverride in
// common_methods_invocations: special.bessel_j0/j1, erfinv): PyTorch 1.13's answers are that far off
// (bessel_j0(5.5) = -0.0068440327 for -0.0068438694; erfinv(1 - 2^-24) = 3.8325372 for 3.8325069 in
// float32), so the same absolute tolerance applies here.
struct AtolOverride {
    const char* op;
    ScalarType dtype;
    double atol;
};
const AtolOverride kPyTorchAtol[] = {
    {"bessel_j0", ScalarType::Float32, 1e-4}, {"bessel_j0", ScalarType::Float64, 1e-5},
    {"bessel_j1", ScalarType::Float32, 1e-4}, {"bessel_j1", ScalarType::Float64, 1e-5},
    {"erf_inv", ScalarType::Float16, 1e-2},   {"erf_inv", ScalarType::BFloat16, 1e-2},
    {"erf_inv", ScalarType::Float32, 1e-4},   {"erfinv", ScalarType::Float16, 1e-2},
    {"erfinv", ScalarType::BFloat16, 1e-2},   {"erfinv", ScalarType::Float32, 1e-4}};

std::string opName(const std::string& key) {
    auto colons = key.find("::");
    auto dot = key.find('.', colons == std::string::npos ? 0 : colons + 2);
    return key.substr(colons == std::string::npos ? 0 : colons + 2, dot == std::string::npos ? std::string::npos : dot - colons - 2);
}

// "aten::add.Tensor" -> the node target "torch.ops.aten.add.Tensor"
Target targetOf(const std::string& key) {
    std::string s = key;
    auto colons = s.find("::");
    if (colons != std::string::npos) s.replace(colons, 2, ".");
    return Target::parse("torch.ops." + s);
}

struct Built {
    std::shared_ptr<Program> program;
    std::vector<EValue> inputs;
};

std::string addInput(Built& b, const Corpus& corpus, const TensorRecord& r) {
    std::string name = "in" + std::to_string(b.inputs.size());
    b.program->graph.inputs.push_back(Argument::tensor(name));
    InputSpec spec;
    spec.kind = InputKind::UserInput;
    spec.arg = Argument::tensor(name);
    b.program->signature.inputSpecs.push_back(spec);
    b.inputs.push_back(EValue::fromTensor(corpus.input(r)));
    return name;
}

// One node calling the recorded op, its tensors as user inputs, every output a graph output.
Built build(const Corpus& corpus, const CaseRecord& c) {
    Built b;
    b.program = std::make_shared<Program>();
    Node n;
    n.name = "call";
    n.target = targetOf(c.op);
    for (const auto& a : c.args) {
        NamedArgument na;
        na.name = a.name;
        na.kind = a.keyword ? ArgumentKind::Keyword : ArgumentKind::Positional;
        if (a.kind == ArgRecord::Kind::Tensor) {
            na.arg = Argument::tensor(addInput(b, corpus, *a.tensors[0]));
        } else if (a.kind == ArgRecord::Kind::TensorList) {
            na.arg.kind = ArgKind::OptionalTensors;
            for (const auto& t : a.tensors) na.arg.list.push_back(t ? Argument::tensor(addInput(b, corpus, *t)) : Argument::none());
        } else {
            na.arg = a.literal;
        }
        n.inputs.push_back(na);
    }
    std::vector<std::string> names;
    for (size_t k = 0; k < c.outputs.size(); ++k) names.push_back("out" + std::to_string(k));
    if (c.listOutput) n.outputs.push_back(Argument::tensors(names));
    else for (const auto& o : names) n.outputs.push_back(Argument::tensor(o));
    for (const auto& o : names) {
        b.program->graph.outputs.push_back(Argument::tensor(o));
        OutputSpec os;
        os.arg = Argument::tensor(o);
        b.program->signature.outputSpecs.push_back(os);
    }
    b.program->graph.nodes.push_back(std::move(n));
    return b;
}

// A number the kernel returned against PyTorch's (a 0-dim tensor of the op's dtype): its kind (a float
// dtype wants a float, an integer dtype an int, bool a bool) and value; int64 compared exactly.
std::string compareScalar(const EValue& v, const Tensor& expected, Tolerance tol) {
    ScalarType dt = expected.dtype();
    if (dt == ScalarType::Bool) {
        if (v.kind != EValue::Kind::Bool) return "a bool expected, got " + v.describe();
        return v.b == (expected.at(0) != 0) ? std::string() : "got " + v.describe() + ", PyTorch gives the other bool";
    }
    if (!isFloatingType(dt)) {
        if (v.kind != EValue::Kind::Int) return "an int expected, got " + v.describe();
        int64_t want = dt == ScalarType::Int64 ? *expected.data<int64_t>() : static_cast<int64_t>(expected.at(0));
        return v.i == want ? std::string() : "got " + std::to_string(v.i) + ", PyTorch gives " + std::to_string(want);
    }
    if (v.kind != EValue::Kind::Double) return "a float expected, got " + v.describe();
    return compareTensor(Tensor::scalar(ScalarType::Float64, v.d), Tensor::scalar(ScalarType::Float64, expected.at(0)), {}, tol, true);
}

bool isDtypeRefusal(const std::string& message) {
    return message.find("is not supported by this kernel") != std::string::npos;
}

} // namespace

Tolerance toleranceFor(const std::string& op, ScalarType dtype) {
    // torch.testing.assert_close's defaults per dtype
    Tolerance t;
    switch (dtype) {
    case ScalarType::Float16: t = {1e-5, 1e-3}; break;
    case ScalarType::BFloat16: t = {1e-5, 1.6e-2}; break;
    case ScalarType::Float32: t = {1e-5, 1.3e-6}; break;
    case ScalarType::Float64: t = {1e-7, 1e-7}; break;
    case ScalarType::Complex64: t = {1e-5, 1.3e-6}; break;  // per part, as float32
    case ScalarType::Complex128: t = {1e-7, 1e-7}; break;
    default: return {};
    }
    std::string name = opName(op);
    if (std::find(std::begin(kAccumulating), std::end(kAccumulating), name) != std::end(kAccumulating)) {
        t.atol *= 10;
        bool single = dtype == ScalarType::Float32 || dtype == ScalarType::Complex64;
        bool dbl = dtype == ScalarType::Float64 || dtype == ScalarType::Complex128;
        t.rtol = single ? 1e-4 : dbl ? 1e-6 : t.rtol * 10;
    }
    for (const auto& o : kPyTorchAtol)
        if (name == o.op && dtype == o.dtype) t.atol = std::max(t.atol, o.atol);
    return t;
}

namespace {

// A number argument of the case by name (low / high, mean / std of the random ops), else `fallback`.
double literalArg(const CaseRecord& c, const std::string& name, double fallback) {
    for (const auto& a : c.args)
        if (a.name == name && a.kind == ArgRecord::Kind::Literal) {
            if (a.literal.kind == ArgKind::Float) return a.literal.f;
            if (a.literal.kind == ArgKind::Int) return static_cast<double>(a.literal.i);
        }
    return fallback;
}

} // namespace

CaseResult runCase(const Corpus& corpus, const CaseRecord& c, int threads) {
    if (!exec::KernelRegistry::instance().has(c.op)) return {Outcome::NoKernel, "no kernel"};
    Built b = build(corpus, c);
    auto plan = exec::ExecutionPlan::compile(b.program);
    if (!plan) return {Outcome::Fail, plan.error()};
    exec::Engine engine(*plan);
    exec::RunOptions options;
    options.threads = threads;
    auto run = engine.run(b.inputs, options);
    if (!run) return {isDtypeRefusal(run.error()) ? Outcome::Unsupported : Outcome::Fail, run.error()};
    if (run->outputs.size() != c.outputs.size())
        return {Outcome::Fail, std::to_string(run->outputs.size()) + " outputs, PyTorch gives " + std::to_string(c.outputs.size())};
    for (size_t k = 0; k < c.outputs.size(); ++k) {
        const EValue& v = run->outputs[k];
        if (c.scalar) {
            std::string diff = compareScalar(v, corpus.expected(c.outputs[k]), toleranceFor(c.op, c.outputs[k].dtype));
            if (!diff.empty()) return {Outcome::Fail, "output " + std::to_string(k) + ": " + diff};
            continue;
        }
        if (!v.isTensor() || !v.tensor.defined()) return {Outcome::Fail, "output " + std::to_string(k) + " is " + v.describe()};
        const TensorRecord& r = c.outputs[k];
        // an SVD's singular vectors carry LAPACK's arbitrary signs: only S by value, U and Vh by checkSvd
        const bool byValue = c.values && (c.check != "svd" || k == 1);
        std::optional<exec::Tensor> scalarPath;
        if (k == 0 && c.scalarPath) scalarPath = corpus.expected(*c.scalarPath);
        std::string diff = compareTensor(v.tensor, corpus.expected(r), r.strides, toleranceFor(c.op, r.dtype), byValue,
                                         scalarPath ? &*scalarPath : nullptr);
        if (diff.empty() && !c.distribution.empty()) {
            const bool normal = c.distribution == "normal";
            diff = checkDistribution(v.tensor, c.distribution, literalArg(c, normal ? "mean" : "low", 0.0), literalArg(c, normal ? "std" : "high", 1.0));
        }
        if (!diff.empty()) return {Outcome::Fail, "output " + std::to_string(k) + ": " + diff};
    }
    if (c.check == "svd" && run->outputs.size() == 3 && !b.inputs.empty()) {
        const double eps = b.inputs[0].tensor.dtype() == ScalarType::Float64 ? 1e-10 : 1e-4;
        std::string diff = checkSvd(b.inputs[0].tensor, run->outputs[0].tensor, run->outputs[1].tensor, run->outputs[2].tensor, eps);
        if (!diff.empty()) return {Outcome::Fail, diff};
    }
    return {Outcome::Pass, {}};
}

CorpusReport runCorpus(const Corpus& corpus, const KnownFailures& known, const std::vector<int>& threads) {
    CorpusReport report;
    for (const auto& c : corpus.cases) {
        ++report.cases;
        CaseResult result;
        int failedAt = 0;
        for (int t : threads) {
            result = runCase(corpus, c, t);
            failedAt = t;
            if (result.outcome != Outcome::Pass) break;
        }
        Cell& cell = report.cells[c.op][c.dtype];
        cell.known = known.contains(c.op, c.dtype);
        switch (result.outcome) {
        case Outcome::Pass: ++cell.pass; break;
        case Outcome::Unsupported: ++cell.unsupported; break;
        case Outcome::NoKernel: ++cell.noKernel; break;
        case Outcome::Fail: {
            ++cell.fail;
            std::string line = c.label() + " at " + std::to_string(failedAt) + " thread(s): " + result.message;
            if (cell.firstFailure.empty()) cell.firstFailure = line;
            if (!cell.known) report.failures.push_back(line);
            break;
        }
        }
    }
    for (const auto& [key, why] : known.entries) {
        auto op = report.cells.find(key.first);
        const Cell* cell = nullptr;
        if (op != report.cells.end() && op->second.count(key.second)) cell = &op->second.at(key.second);
        if (!cell || cell->fail == 0) report.stale.push_back(key.first + " " + key.second + ": listed as a known failure but " +
                                                             (cell ? "every case passes" : "the corpus has no case"));
    }
    return report;
}

} // namespace irlens::core::conformance
