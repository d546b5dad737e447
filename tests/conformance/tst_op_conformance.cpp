// Every call of the committed conformance corpus (PyTorch 1.13's answers for core ATen and prims
// calls, tests/conformance/corpus) through the kernel registry at 1 and 2 threads. An op without a
// kernel, or a kernel refusing a dtype cleanly, is reported as not covered; a kernel that runs and
// disagrees with PyTorch fails the test unless (op, dtype) is in known_failures.tsv with the reason.
#include "core/conformance/runner.h"
#include "core/exec/engine.h"
#include "core/ir/builder.h"
#include "core/ops/meta.h"
#include "core/ops/type_promotion.h"

#include <QtTest>
#include <cmath>
#include <cstring>
#include <limits>

using namespace irlens::core;
using namespace irlens::core::conformance;

namespace {

const std::string kDir = std::string(IRLENS_SOURCE_DIR) + "/tests/conformance";

exec::Tensor tensorOf(ScalarType dt, const exec::Shape& shape, const std::vector<double>& v) {
    exec::Tensor t = *exec::Tensor::empty(dt, shape);
    for (size_t i = 0; i < v.size(); ++i) {
        if (dt == ScalarType::Float32) t.data<float>()[i] = static_cast<float>(v[i]);
        else if (dt == ScalarType::Float64) t.data<double>()[i] = v[i];
        else if (dt == ScalarType::Int64) t.data<int64_t>()[i] = static_cast<int64_t>(v[i]);
        else if (dt == ScalarType::BFloat16) { float f = static_cast<float>(v[i]); uint32_t b; std::memcpy(&b, &f, 4); t.data<uint16_t>()[i] = static_cast<uint16_t>(b >> 16); }
    }
    return t;
}

// The metas irlens infers for a recorded call, from its inputs' dtypes, sizes and strides.
Result<std::vector<InferredValue>> inferredMetas(const CaseRecord& c) {
    Graph g;
    Node n;
    n.name = "call";
    std::string target = c.op;
    target.replace(target.find("::"), 2, ".");
    n.target = Target::parse("torch.ops." + target);
    for (const auto& a : c.args) {
        NamedArgument na{a.name, a.literal, a.keyword ? ArgumentKind::Keyword : ArgumentKind::Positional};
        if (a.kind == ArgRecord::Kind::Tensor) {
            std::string name = "in" + std::to_string(g.tensorValues.size());
            TensorMeta m;
            m.dtype = a.tensors[0]->dtype;
            for (size_t k = 0; k < a.tensors[0]->shape.size(); ++k) {
                m.sizes.push_back(SymInt::literal(a.tensors[0]->shape[k]));
                m.strides.push_back(SymInt::literal(a.tensors[0]->strides[k]));
            }
            g.tensorValues[name] = m;
            na.arg = Argument::tensor(name);
        }
        n.inputs.push_back(na);
    }
    return inferMeta(n, g);
}

const double kNan = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

} // namespace

class TstOpConformance : public QObject {
    Q_OBJECT
private slots:
    void compare_data() {
        QTest::addColumn<int>("dtype");
        QTest::addColumn<std::vector<double>>("actual");
        QTest::addColumn<std::vector<double>>("expected");
        QTest::addColumn<QString>("difference"); // "" = agree, else a part of the message
        auto row = [](const char* name, ScalarType dt, std::vector<double> a, std::vector<double> e, const char* diff) {
            QTest::addRow("%s", name) << static_cast<int>(dt) << a << e << QString(diff);
        };
        row("equal", ScalarType::Float32, {1, 2}, {1, 2}, "");
        row("nan equals nan", ScalarType::Float32, {kNan, 1}, {kNan, 1}, "");
        row("nan vs number", ScalarType::Float32, {0, 1}, {kNan, 1}, "element [0] is 0, PyTorch gives nan");
        row("inf by sign", ScalarType::Float64, {1, -kInf}, {1, kInf}, "element [1] is -inf, PyTorch gives inf");
        row("minus zero kept", ScalarType::Float32, {0.0}, {-0.0}, "element [0] is 0, PyTorch gives -0");
        row("within f32 tolerance", ScalarType::Float32, {1.000001}, {1}, "");
        row("outside f32 tolerance", ScalarType::Float32, {1.0001}, {1}, "element [0]");
        row("bf16 coarse", ScalarType::BFloat16, {1.0078125}, {1}, "");
        row("bf16 wrong", ScalarType::BFloat16, {1.25}, {1}, "element [0] is 1.25, PyTorch gives 1");
        row("int exact", ScalarType::Int64, {4, 9007199254740993.0}, {4, 9007199254740993.0}, "");
        row("int off by one", ScalarType::Int64, {4, 5}, {4, 6}, "element [1] is 5, PyTorch gives 6");
    }
    void compare() {
        QFETCH(int, dtype);
        QFETCH(std::vector<double>, actual);
        QFETCH(std::vector<double>, expected);
        QFETCH(QString, difference);
        auto dt = static_cast<ScalarType>(dtype);
        exec::Shape shape{static_cast<int64_t>(actual.size())};
        auto a = tensorOf(dt, shape, actual), e = tensorOf(dt, shape, expected);
        std::string diff = compareTensor(a, e, e.strides(), toleranceFor("aten::add.Tensor", dt), true);
        if (difference.isEmpty()) QVERIFY2(diff.empty(), diff.c_str());
        else QVERIFY2(QString::fromStdString(diff).contains(difference), diff.c_str());
    }

    // Where PyTorch's vector loop and scalar loop disagree, an element agrees when it matches either of
    // PyTorch's answers, and only then
    void scalarLoopAnswerAccepted() {
        auto expected = tensorOf(ScalarType::Float32, {3}, {kNan, 1, -0.0});
        auto scalarLoop = tensorOf(ScalarType::Float32, {3}, {0, 1, 0});
        auto ours = tensorOf(ScalarType::Float32, {3}, {0, 1, 0});
        Tolerance tol = toleranceFor("aten::fmod.Tensor", ScalarType::Float32);
        QCOMPARE(QString::fromStdString(compareTensor(ours, expected, expected.strides(), tol, true, &scalarLoop)), QString());
        QVERIFY(!compareTensor(ours, expected, expected.strides(), tol, true).empty());
        auto wrong = tensorOf(ScalarType::Float32, {3}, {0, 2, 0});
        QVERIFY(QString::fromStdString(compareTensor(wrong, expected, expected.strides(), tol, true, &scalarLoop))
                    .startsWith("element [1] is 2, PyTorch gives 1 (its scalar loop 1)"));
        auto ints = tensorOf(ScalarType::Int64, {2}, {4, 5}), intsLoop = tensorOf(ScalarType::Int64, {2}, {4, 6});
        QCOMPARE(QString::fromStdString(compareTensor(intsLoop, ints, ints.strides(), {}, true, &intsLoop)), QString());
        QVERIFY(!compareTensor(tensorOf(ScalarType::Int64, {2}, {4, 7}), ints, ints.strides(), {}, true, &intsLoop).empty());
    }

    void layoutIsCompared() {
        auto e = tensorOf(ScalarType::Float32, {2, 3}, {1, 2, 3, 4, 5, 6});
        auto base = tensorOf(ScalarType::Float32, {3, 2}, {1, 4, 2, 5, 3, 6});
        auto transposed = base.asStrided({2, 3}, {1, 2}, 0);
        // same values, other strides: PyTorch's layout is part of the answer
        QCOMPARE(QString::fromStdString(compareTensor(transposed, e, e.strides(), {}, true)),
                 QString("strides are [1, 2], PyTorch gives [3, 1]"));
        QCOMPARE(QString::fromStdString(compareTensor(transposed, e, {1, 2}, {}, true)), QString());
        // strides of size-1 dimensions do not matter
        auto row = tensorOf(ScalarType::Float32, {1, 3}, {1, 2, 3});
        QCOMPARE(QString::fromStdString(compareTensor(row, row, {7, 1}, {}, true)), QString());
        QCOMPARE(QString::fromStdString(compareTensor(row, tensorOf(ScalarType::Float64, {1, 3}, {1, 2, 3}), {3, 1}, {}, true)),
                 QString("dtype is float32, PyTorch gives float64"));
    }

    // complex numbers: real and imaginary parts each within the dtype's tolerance, NaN and zero signs as for floats
    void complexComparedByParts() {
        auto c64 = [](std::vector<float> v) {
            exec::Tensor t = *exec::Tensor::empty(ScalarType::Complex64, {static_cast<int64_t>(v.size() / 2)});
            std::memcpy(t.raw(), v.data(), v.size() * sizeof(float));
            return t;
        };
        Tolerance tol = toleranceFor("aten::_fft_c2c.default", ScalarType::Complex64);
        auto diff = [&](std::vector<float> a, std::vector<float> e) {
            exec::Tensor ta = c64(std::move(a)), te = c64(std::move(e));
            return QString::fromStdString(compareTensor(ta, te, te.strides(), tol, true));
        };
        const auto nan = std::numeric_limits<float>::quiet_NaN();
        QCOMPARE(diff({1, 2, 3, nan}, {1, 2, 3, nan}), QString());
        QCOMPARE(diff({1, 2, 3, 4.00001f}, {1, 2, 3, 4}), QString());
        QVERIFY(diff({1, 2, 3, 4.01f}, {1, 2, 3, 4}).startsWith("imaginary part of element [1] is 4.0"));
        QVERIFY(diff({1.01f, 2, 3, 4}, {1, 2, 3, 4}).startsWith("real part of element [0] is 1.0"));
        QVERIFY(diff({1, 0.0f}, {1, -0.0f}).startsWith("imaginary part of element [0] is 0, PyTorch gives -0"));
        // complex64 stays near float32's tolerance, complex128 near float64's
        QCOMPARE(tol.rtol, toleranceFor("aten::_fft_c2c.default", ScalarType::Float32).rtol);
        QVERIFY(toleranceFor("aten::_fft_c2c.default", ScalarType::Complex128).rtol < 1e-5);
    }

    // random ops are checked by their law: a draw from another law, or a near miss, must fail
    void randomValuesCheckedByTheirLaw() {
        std::vector<double> uni, gauss, wide;
        uint64_t state = 88172645463325252ull;
        auto next = [&state] { // xorshift64: a fixed stream, uniform on [0, 1)
            state ^= state << 13; state ^= state >> 7; state ^= state << 17;
            return static_cast<double>(state >> 11) / 9007199254740992.0;
        };
        for (int k = 0; k < 1000; ++k) {
            const double u1 = next(), u2 = next();
            uni.push_back(u1);
            const double z = std::sqrt(-2 * std::log(1 - u1)) * std::cos(6.283185307179586 * u2);
            gauss.push_back(1.5 + 0.5 * z);
            wide.push_back(1.5 + 0.7 * z);
        }
        auto t = [](const std::vector<double>& v) { return tensorOf(ScalarType::Float64, {static_cast<int64_t>(v.size())}, v); };
        QCOMPARE(QString::fromStdString(checkDistribution(t(uni), "uniform", 0, 1)), QString());
        QCOMPARE(QString::fromStdString(checkDistribution(t(gauss), "normal", 1.5, 0.5)), QString());
        QVERIFY(QString::fromStdString(checkDistribution(t(wide), "normal", 1.5, 0.5)).startsWith("the variance of 1000 draws"));
        QVERIFY(QString::fromStdString(checkDistribution(t(gauss), "normal", 1.7, 0.5)).startsWith("the mean of 1000 draws"));
        QVERIFY(QString::fromStdString(checkDistribution(t(uni), "uniform", -2, 4)).startsWith("the mean of 1000 draws"));
        QVERIFY(QString::fromStdString(checkDistribution(t(uni), "uniform", 0.25, 1)).contains("outside [0.25, 1)"));
        // same mean, other spread: the variance tells [0, 1) from [-1, 2)
        QVERIFY(QString::fromStdString(checkDistribution(t(uni), "uniform", -1, 2)).startsWith("the variance of 1000 draws"));
        std::vector<double> zeros(1000, 0.0);
        QVERIFY(!checkDistribution(t(zeros), "uniform", 0, 1).empty());
        QCOMPARE(QString::fromStdString(checkDistribution(tensorOf(ScalarType::Float64, {4}, {2, 0, 3, 1}), "permutation", 0, 0)), QString());
        QVERIFY(QString::fromStdString(checkDistribution(tensorOf(ScalarType::Float64, {4}, {2, 0, 2, 1}), "permutation", 0, 0))
                    .startsWith("not a permutation of 0..3"));
    }

    void badCorpusIsAnError() {
        auto r = loadCorpus(kDir + "/no_such_corpus");
        QVERIFY(!r);
        QVERIFY2(QString::fromStdString(r.error()).contains("no_such_corpus"), r.error().c_str());
    }

    void wrongAnswerFails() {
        auto corpus = loadCorpus(kDir + "/corpus");
        QVERIFY2(corpus, corpus ? "" : corpus.error().c_str());
        const CaseRecord* pick = nullptr;
        for (const auto& c : corpus->cases)
            if (c.op == "aten::add.Tensor" && c.dtype == "float32" && !c.outputs.empty() && c.outputs[0].count > 1 &&
                runCase(*corpus, c, 1).outcome == Outcome::Pass) { pick = &c; break; }
        QVERIFY2(pick, "no passing aten::add.Tensor float32 case in the corpus");
        // perturb PyTorch's answer by one part in a thousand: the same kernel must now fail
        auto& bytes = corpus->data;
        float v;
        std::memcpy(&v, bytes.data() + pick->outputs[0].offset + 4, 4);
        v = v == 0 ? 1e-3f : v * 1.001f;
        std::memcpy(bytes.data() + pick->outputs[0].offset + 4, &v, 4);
        CaseResult r = runCase(*corpus, *pick, 1);
        QCOMPARE(r.outcome, Outcome::Fail);
        QVERIFY2(QString::fromStdString(r.message).contains("output 0: element"), r.message.c_str());
    }

    // The meta functions of the FFTs and complex prims give PyTorch's dtype, sizes and strides.
    void fftMetasAgree() {
        auto corpus = loadCorpus(kDir + "/corpus/fft");
        QVERIFY2(corpus, corpus ? "" : corpus.error().c_str());
        int checked = 0;
        for (const auto& c : corpus->cases) {
            auto metas = inferredMetas(c);
            QVERIFY2(metas, qPrintable(QString::fromStdString(c.label() + ": " + (metas ? "" : metas.error()))));
            QCOMPARE(metas->size(), c.outputs.size());
            const TensorMeta& m = (*metas)[0].meta;
            const TensorRecord& r = c.outputs[0];
            std::string what = c.label() + ": inferred " + m.shortString() + " strides " + shapeString(m.strides);
            QVERIFY2(m.dtype == r.dtype && m.sizes.size() == r.shape.size(), what.c_str());
            for (size_t k = 0; k < r.shape.size(); ++k) {
                QVERIFY2(m.sizes[k].isStatic() && m.sizes[k].value == r.shape[k], what.c_str());
                QVERIFY2(r.shape[k] < 2 || m.strides[k].value == r.strides[k], (what + ", PyTorch gives " + exec::shapeToString(r.strides)).c_str());
            }
            ++checked;
        }
        QVERIFY(checked > 1000);
    }

    // Many transforms at once on 2 threads (plans made concurrently for new layouts, kept plans run on
    // new arrays side by side) give the bits of the same transforms run one after another.
    void fftPlansUnderThreads() {
        ProgramBuilder pb;
        std::vector<std::string> inputs;
        std::vector<exec::EValue> values;
        for (int64_t n : {7, 12, 31}) {
            inputs.push_back(pb.userInput("x" + std::to_string(n), makeTensorMeta(ScalarType::Float64, {5, n})));
            exec::Tensor t = *exec::Tensor::empty(ScalarType::Float64, {5, n});
            for (int64_t i = 0; i < t.numel(); ++i) t.data<double>()[i] = std::sin(0.37 * static_cast<double>(i * n) + 1.0);
            values.push_back(exec::EValue::fromTensor(t));
        }
        for (int k = 0; k < 24; ++k) {
            const std::string name = "f" + std::to_string(k);
            const int64_t dim = k % 2, n = std::vector<int64_t>{7, 12, 31}[static_cast<size_t>(k / 2 % 3)];
            const bool onesided = k % 4 < 2;
            std::vector<int64_t> out = {5, n};
            if (onesided) out[static_cast<size_t>(dim)] = out[static_cast<size_t>(dim)] / 2 + 1;
            pb.call("torch.ops.aten._fft_r2c.default", name)
                .arg("self", inputs[static_cast<size_t>(k / 2 % 3)])
                .arg("dim", Argument::ints({dim}))
                .arg("normalization", Argument::integer(k % 3))
                .arg("onesided", Argument::boolean(onesided))
                .out(makeTensorMeta(ScalarType::Complex128, out));
            pb.userOutput(name);
        }
        auto program = pb.build();
        QVERIFY2(program, program ? "" : program.error().c_str());
        auto plan = exec::ExecutionPlan::compile(*program);
        QVERIFY2(plan, plan ? "" : plan.error().c_str());
        exec::Engine engine(*plan);
        exec::RunOptions one, two;
        two.threads = 2;
        auto serial = engine.run(values, one);
        QVERIFY2(serial, serial ? "" : serial.error().c_str());
        for (int run = 0; run < 10; ++run) {
            auto parallel = engine.run(values, two);
            QVERIFY2(parallel, parallel ? "" : parallel.error().c_str());
            for (size_t k = 0; k < serial->outputs.size(); ++k) {
                const exec::Tensor &a = serial->outputs[k].tensor, &b = parallel->outputs[k].tensor;
                QCOMPARE(a.sizes(), b.sizes());
                QVERIFY2(std::memcmp(a.raw(), b.raw(), static_cast<size_t>(a.nbytes())) == 0, ("output " + std::to_string(k)).c_str());
            }
        }
    }

    void corpus() {
        auto corpus = loadCorpus(kDir + "/corpus");
        QVERIFY2(corpus, corpus ? "" : corpus.error().c_str());
        auto known = loadKnownFailures(kDir + "/known_failures.tsv");
        QVERIFY2(known, known ? "" : known.error().c_str());
        QVERIFY(corpus->cases.size() > 1000);
        CorpusReport report = runCorpus(*corpus, *known, {1, 2});
        int pass = 0, fail = 0, unsupported = 0, noKernel = 0, covered = 0, pairs = 0;
        QStringList noKernelOps;
        for (const auto& [op, dtypes] : report.cells) {
            bool any = false;
            for (const auto& [dt, cell] : dtypes) {
                pass += cell.pass; fail += cell.fail; unsupported += cell.unsupported; noKernel += cell.noKernel;
                ++pairs;
                covered += CorpusReport::covered(cell);
                any = any || cell.noKernel > 0;
            }
            if (any) noKernelOps << QString::fromStdString(op);
        }
        qInfo("%d cases from torch %s: %d pass, %d fail (%zu known), %d unsupported dtype, %d without kernel; "
              "%d of %d (op, dtype) pairs covered", report.cases, corpus->torchVersion.c_str(), pass, fail, fail - report.failures.size(),
              unsupported, noKernel, covered, pairs);
        qInfo("not covered (no kernel): %s", qPrintable(noKernelOps.join(' ')));
        // each failure on its own line (QtTest cuts long messages); IRLENS_CONFORMANCE_ALL=1 lists all, else the first 40
        size_t limit = qEnvironmentVariableIsSet("IRLENS_CONFORMANCE_ALL") ? report.failures.size() : 40;
        for (size_t k = 0; k < report.failures.size() && k < limit; ++k) qWarning("%s", report.failures[k].c_str());
        QVERIFY2(report.failures.empty(),
                 qPrintable(QString("%1 cases disagree with PyTorch (listed above)").arg(report.failures.size())));
        QStringList stale;
        for (const auto& s : report.stale) stale << QString::fromStdString(s);
        QVERIFY2(report.stale.empty(), qPrintable("remove from known_failures.tsv:\n" + stale.join('\n')));
    }
};

QTEST_GUILESS_MAIN(TstOpConformance)
#include "tst_op_conformance.moc"
