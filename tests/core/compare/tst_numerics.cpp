// Numeric debugging (core/compare/numeric_run.h, measures.h): the five measures against numbers
// worked by hand; every value of every zoo program against PyTorch's own (intermediates.safetensors)
// within the default tolerance, which a 2 % change of one value exceeds; a perturbed or broken
// reference named as such; the value dump read back with zero error; the user's input files giving
// the same run as model.expected/, and bad inputs refused with one line; the first NaN named at the
// node that makes it.
#include "core/compare/numeric_run.h"
#include "core/exec/output_summary.h"
#include "core/io/pt2_reader.h"
#include "core/io/tensor_file.h"
#include "support/numeric_programs.h"
#include "support/shared_fixtures.h"
#include "support/zoo_files.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

using namespace irlens::core;
using irlens::testing::fixture;

namespace {

exec::Tensor floats(const std::vector<int64_t>& sizes, const std::vector<float>& values) {
    return *exec::Tensor::fromTensorData(makeFloatTensor(sizes, values));
}

exec::Tensor ints(const std::vector<int64_t>& values) {
    return *exec::Tensor::fromTensorData(makeInt64Tensor({static_cast<int64_t>(values.size())}, values));
}

std::string dataFile(const std::string& name) { return (std::filesystem::path(IRLENS_SOURCE_DIR) / "tests/core/io/tensor_files" / name).string(); }

NumericRun runOrFail(ProgramPtr program, const NumericRunOptions& options) {
    auto run = runNumerics(std::move(program), options);
    if (!run) qFatal("numeric run: %s", run.error().c_str());
    return std::move(*run);
}

ProgramPtr loadFixture(const std::string& name) {
    auto p = loadPt2(fixture(irlens::testing::programFolder(name) + "/model.pt2").string());
    if (!p) qFatal("%s: %s", name.c_str(), p.error().c_str());
    return *p;
}

// The fixture's run against `reference` (default: its own intermediates).
NumericRun againstReference(const std::string& name, const std::string& reference = {}) {
    NumericRunOptions options;
    const std::string dir = fixture(irlens::testing::programFolder(name) + "/model.expected").string();
    options.inputs.inputPaths = {dir};
    options.reference = reference.empty() ? dir + "/intermediates.safetensors" : reference;
    return runOrFail(loadFixture(name), options);
}

// The entries of a tensor file, owned (the file may be rewritten), for writing a changed copy.
std::vector<std::pair<std::string, TensorData>> entriesOf(const std::string& path) {
    auto f = readTensorFile(path);
    if (!f) qFatal("%s", f.error().c_str());
    std::vector<std::pair<std::string, TensorData>> out;
    for (const auto& e : f->entries) {
        TensorData t = e.value.tensor;
        t.storage = Storage::fromBytes(t.contiguousBytes());
        t.strides.clear();
        int64_t s = 1;
        t.strides.resize(t.sizes.size());
        for (size_t k = t.sizes.size(); k-- > 0;) { t.strides[k] = s; s *= t.sizes[k]; }
        t.storageOffset = 0;
        out.emplace_back(e.name, std::move(t));
    }
    return out;
}

// Multiplies every float32 element of `t` by `factor` in place.
void scale(TensorData& t, float factor) {
    std::vector<std::byte> bytes = t.contiguousBytes();
    for (size_t k = 0; k + 4 <= bytes.size(); k += 4) {
        float f;
        std::memcpy(&f, bytes.data() + k, 4);
        f *= factor;
        std::memcpy(bytes.data() + k, &f, 4);
    }
    t.storage = Storage::fromBytes(std::move(bytes));
}

int recordOf(const NumericRun& run, const std::string& name) {
    for (size_t k = 0; k < run.values.size(); ++k)
        if (run.values[k].name == name) return static_cast<int>(k);
    return -1;
}

} // namespace

class TstNumerics : public QObject {
    Q_OBJECT
private slots:
    void measuresByHand();
    void twoPercentIsFarOverTheTolerance();
    void nonFiniteAndZeroValues();
    void integersCompareExactly();
    void countsNonFiniteElements();
    void summaryLineCountsNonFinite();
    void valueStatisticsByHand();
    void toleranceJudgesAgain();

    void engineAgreesWithPyTorch_data();
    void engineAgreesWithPyTorch();
    void scaledNodeIsTheFirstDivergence_data();
    void scaledNodeIsTheFirstDivergence();
    void brokenReferenceIsReported();
    void referenceByPositionOrDisjointIsRefused();
    void dumpComparesWithZeroError();
    void dumpOfAFixtureComparesWithZeroError();

    void nanProducerIsTheMiddleNode();
    void literalInfinityIsNotAProducer_data();
    void literalInfinityIsNotAProducer();
    void nonFiniteParameterIsNamed();
};

void TstNumerics::measuresByHand() {
    // a = [1, 2, 3, 4], r = [1, 2, 3, 5]: one element off by 1
    const NodeError e = measureError(floats({4}, {1, 2, 3, 4}), floats({4}, {1, 2, 3, 5}));
    QCOMPARE(e.elements, int64_t(4));
    QCOMPARE(e.differing, int64_t(1));
    QCOMPARE(e.maxAbs, 1.0);
    QCOMPARE(e.maxRel, 0.2);                                   // 1 / 5
    QVERIFY(std::fabs(e.normRel - 1 / std::sqrt(39.0)) < 1e-12); // ||a - r|| / ||r|| = 1 / sqrt(1 + 4 + 9 + 25)
    QVERIFY(std::fabs(e.cosine - 34 / std::sqrt(30.0 * 39.0)) < 1e-12);
    QVERIFY(std::fabs(e.sqnrDb - 10 * std::log10(39.0)) < 1e-9); // 15.91 dB
    QVERIFY(!e.exact);
    // elements where the reference is 0 are left out of the max relative error (they show in max abs)
    const NodeError z = measureError(floats({2}, {0.5f, 2}), floats({2}, {0, 1}));
    QCOMPARE(z.maxRel, 1.0);
    QCOMPARE(z.maxAbs, 1.0);
    // a strided view is read through its strides: the transpose of [[1, 2], [3, 4]] against [[1, 3], [2, 4]]
    const exec::Tensor m = floats({2, 2}, {1, 2, 3, 4});
    const exec::Tensor t = m.asStrided({2, 2}, {1, 2}, 0);
    QCOMPARE(measureError(t, floats({2, 2}, {1, 3, 2, 4})).differing, int64_t(0));
}

void TstNumerics::twoPercentIsFarOverTheTolerance() {
    // the reference of a value scaled by 1.02 (the test below does this to a fixture's node)
    std::vector<float> v, scaled;
    for (int k = 0; k < 64; ++k) {
        v.push_back(std::sin(0.3f * static_cast<float>(k)) + 0.1f);
        scaled.push_back(v.back() * 1.02f);
    }
    const NodeError e = measureError(floats({64}, v), floats({64}, scaled));
    QVERIFY(std::fabs(e.normRel - 0.02 / 1.02) < 1e-6);
    QVERIFY(std::fabs(e.sqnrDb - 20 * std::log10(1.02 / 0.02)) < 1e-3);
    QVERIFY(std::fabs(e.cosine - 1) < 1e-12);
    const Tolerance tol;
    QVERIFY(!withinTolerance(e, tol));
    QVERIFY(e.normRel > 100 * tol.normRel); // "far below a 1 % change of one node"
    // 1e-5 of relative rounding passes
    std::vector<float> close = v;
    for (auto& x : close) x *= 1.00001f;
    QVERIFY(withinTolerance(measureError(floats({64}, v), floats({64}, close)), tol));
}

void TstNumerics::nonFiniteAndZeroValues() {
    const float nan = NAN, inf = INFINITY;
    const NodeError same = measureError(floats({3}, {nan, inf, 1}), floats({3}, {nan, inf, 1}));
    QCOMPARE(same.differing, int64_t(0));
    QCOMPARE(same.normRel, 0.0);
    QVERIFY(std::isinf(same.sqnrDb) && same.sqnrDb > 0);
    QVERIFY(withinTolerance(same, Tolerance{}));
    const NodeError nanVsOne = measureError(floats({2}, {nan, 1}), floats({2}, {1, 1}));
    QVERIFY(std::isinf(nanVsOne.maxAbs) && std::isinf(nanVsOne.normRel));
    QVERIFY(!withinTolerance(nanVsOne, Tolerance{}));
    const NodeError zeros = measureError(floats({2}, {0, 0}), floats({2}, {0, 0}));
    QCOMPARE(zeros.cosine, 1.0);
    QCOMPARE(zeros.normRel, 0.0);
    // a reference of zeros against rounding noise: infinite relative error, agreeing through atol
    const NodeError noise = measureError(floats({2}, {1e-9f, 0}), floats({2}, {0, 0}));
    QVERIFY(std::isinf(noise.normRel));
    QCOMPARE(noise.cosine, 0.0);
    QVERIFY(withinTolerance(noise, Tolerance{}));
    QVERIFY(!withinTolerance(measureError(floats({2}, {1e-3f, 0}), floats({2}, {0, 0})), Tolerance{}));
}

void TstNumerics::integersCompareExactly() {
    const NodeError equal = measureError(ints({1, 2, 3}), ints({1, 2, 3}));
    QVERIFY(equal.exact);
    QVERIFY(withinTolerance(equal, Tolerance{}));
    // 1e9 + 1 against 1e9: a relative error of 1e-9 would pass any float tolerance
    const NodeError off = measureError(ints({1000000001, 2}), ints({1000000000, 2}));
    QVERIFY(off.exact);
    QCOMPARE(off.differing, int64_t(1));
    QVERIFY(off.normRel < 1e-8);
    QVERIFY(!withinTolerance(off, Tolerance{}));
}

void TstNumerics::countsNonFiniteElements() {
    const FiniteCount c = countNonFinite(floats({2, 3}, {1, 2, NAN, INFINITY, -INFINITY, NAN}));
    QCOMPARE(c.nan, int64_t(2));
    QCOMPARE(c.posInf, int64_t(1));
    QCOMPARE(c.negInf, int64_t(1));
    QCOMPARE(c.first, int64_t(2));
    QCOMPARE(indexText(c.first, {2, 3}), std::string("[0, 2]"));
    QCOMPARE(indexText(4, {2, 3}), std::string("[1, 1]"));
    QCOMPARE(countNonFinite(ints({1, 2})).total(), int64_t(0));
}

void TstNumerics::summaryLineCountsNonFinite() {
    const exec::Tensor t = floats({2, 3}, {1, 3, NAN, INFINITY, -INFINITY, NAN});
    const exec::OutputSummary s = exec::summarizeOutput(t);
    QCOMPARE(s.min, 1.0);
    QCOMPARE(s.max, 3.0);
    QCOMPARE(s.mean, 2.0);
    QCOMPARE(s.std, 1.0);
    QCOMPARE(s.finite(), int64_t(2));
    QCOMPARE(exec::outputSummaryLine(t), std::string("f32[2, 3]  min 1  max 3  mean 2  2 NaN, 1 +inf, 1 -inf of 6"));
    QCOMPARE(exec::outputSummaryLine(floats({2}, {NAN, NAN})), std::string("f32[2]  2 NaN of 2"));
    QCOMPARE(exec::outputSummaryLine(floats({2}, {1, 2})), std::string("f32[2]  min 1  max 2  mean 1.5"));
}

// A value's statistics (the Node pane's): finite elements only in min/max/mean/std, NaN and
// infinities counted, the histogram over the finite range; a pair's histograms over the range both span.
void TstNumerics::valueStatisticsByHand() {
    const float nan = std::nanf(""), inf = std::numeric_limits<float>::infinity();
    const ValueStats s = valueStatsOf(floats({6}, {1, 2, 3, nan, inf, 6}), 5);
    QCOMPARE(s.elements, int64_t(6));
    QCOMPARE(s.finite, int64_t(4));
    QCOMPARE(s.min, 1.0);
    QCOMPARE(s.max, 6.0);
    QCOMPARE(s.mean, 3.0);
    QVERIFY(std::fabs(s.std - std::sqrt(3.5)) < 1e-12); // (4 + 1 + 0 + 9) / 4
    QCOMPARE(s.nonFinite.nan, int64_t(1));
    QCOMPARE(s.nonFinite.posInf, int64_t(1));
    QCOMPARE(s.nonFinite.first, int64_t(3));
    QCOMPARE(s.histogram, (std::vector<int64_t>{1, 1, 1, 0, 1})); // [1, 6] in bins of 1; 6 in the last
    // the pair: [0, 1] against [0, 2] both over [0, 2]
    const auto [mine, theirs] = valueStatsOfPair(floats({2}, {0, 1}), floats({2}, {0, 2}), 4);
    QCOMPARE(mine.lo, 0.0);
    QCOMPARE(mine.hi, 2.0);
    QCOMPARE(theirs.lo, 0.0);
    QCOMPARE(theirs.hi, 2.0);
    QCOMPARE(mine.histogram, (std::vector<int64_t>{1, 0, 1, 0}));
    QCOMPARE(theirs.histogram, (std::vector<int64_t>{1, 0, 0, 1}));
    // nothing finite: no range, nothing in the bins, every element counted as what it is
    const ValueStats allNan = valueStatsOf(floats({2}, {nan, nan}), 3);
    QCOMPARE(allNan.finite, int64_t(0));
    QCOMPARE(allNan.nonFinite.nan, int64_t(2));
    QCOMPARE(allNan.histogram, (std::vector<int64_t>{0, 0, 0}));
    QCOMPARE(countNonFinite(ints({1, 2})).total(), int64_t(0));
}

// numeric_mlp against its own values with add scaled by 1.02: add differs at the default tolerance;
// judged again at 0.05 every value agrees, and back at the default add is the divergence again, with
// the same agreeing chain. The statistics asked for are kept, the reference's beside irlens's.
void TstNumerics::toleranceJudgesAgain() {
    QTemporaryDir dir;
    NumericRunOptions options;
    options.inputs.inputPaths = {dataFile("x.pt")};
    options.dumpPath = (dir.path() + "/values.safetensors").toStdString();
    runOrFail(irlens::testing::makeNumericMlp(), options);
    auto entries = entriesOf(options.dumpPath);
    for (auto& [name, t] : entries)
        if (name == "add") scale(t, 1.02f);
    const std::string scaled = (dir.path() + "/scaled.safetensors").toStdString();
    QVERIFY(writeSafetensors(scaled, entries));
    options.dumpPath.clear();
    options.reference = scaled;
    options.statsBins = 8;
    ProgramPtr program = irlens::testing::makeNumericMlp();
    NumericRun run = runOrFail(program, options);
    const int add = recordOf(run, "add");
    QCOMPARE(run.firstDivergent, add);
    const std::vector<int> chain = run.agreeingChain;
    QVERIFY(!chain.empty());
    for (const auto& v : run.values) {
        QVERIFY2(v.stats && v.referenceStats, v.name.c_str());
        QCOMPARE(v.stats->histogram.size(), size_t(8));
        QCOMPARE(v.stats->lo, v.referenceStats->lo);
    }
    const ValueRecord& a = run.values[static_cast<size_t>(add)];
    QVERIFY(std::fabs(a.referenceStats->max - 1.02 * a.stats->max) < 1e-5 * std::max(1.0, std::fabs(a.stats->max)));
    applyTolerance(run, *program, Tolerance{0.05, 1e-6});
    QCOMPARE(run.firstDivergent, -1);
    QVERIFY(run.agreeingChain.empty());
    QCOMPARE(run.count(ValueCheck::Agree), size_t(4));
    QVERIFY(run.verdict(*program).find("all 4 compared values agree") == 0);
    applyTolerance(run, *program, Tolerance{});
    QCOMPARE(run.firstDivergent, add);
    QCOMPARE(run.agreeingChain, chain);
    QCOMPARE(run.values[static_cast<size_t>(add)].check, ValueCheck::Differ);
}

void TstNumerics::engineAgreesWithPyTorch_data() {
    QTest::addColumn<QString>("name");
    for (const auto& name : irlens::testing::zooNames()) QTest::addRow("zoo/%s", name.c_str()) << QString::fromStdString("zoo/" + name);
}

void TstNumerics::engineAgreesWithPyTorch() {
    QFETCH(QString, name);
    const NumericRun run = againstReference(name.toStdString());
    auto reference = readTensorFile(fixture(irlens::testing::programFolder(name.toStdString()) + "/model.expected/intermediates.safetensors").string());
    QVERIFY(reference);
    QVERIFY2(run.firstDivergent < 0, run.verdict(*loadFixture(name.toStdString())).c_str());
    QVERIFY(run.referenceOnly.empty());
    // every value PyTorch recorded was compared, and agrees
    QCOMPARE(run.count(ValueCheck::Agree), reference->entries.size());
    const ValueRecord* worst = nullptr;
    for (const auto& v : run.values) {
        if (v.check == ValueCheck::NoReference) QVERIFY2(!v.read, v.name.c_str()); // only unused tuple elements lack one
        if (v.check == ValueCheck::Agree && (!worst || v.error.normRel > worst->error.normRel)) worst = &v;
    }
    QVERIFY(worst);
    qInfo("%s: worst normwise relative error %.3g at %s (max abs %.3g) over %zu values", qPrintable(name), worst->error.normRel,
          worst->name.c_str(), worst->error.maxAbs, run.count(ValueCheck::Agree));
    // the default tolerance sits well above the engine's own rounding
    QVERIFY(worst->error.normRel < run.tolerance.normRel / 10);
}

void TstNumerics::scaledNodeIsTheFirstDivergence_data() {
    QTest::addColumn<QString>("name");
    for (const char* name : {"zoo/gpt_block", "zoo/conv_attention", "zoo/residual_stack", "zoo/cond_branch", "zoo/conv_net",
                             "zoo/decoder_stack"})
        QTest::addRow("%s", name) << name;
}

void TstNumerics::scaledNodeIsTheFirstDivergence() {
    QFETCH(QString, name);
    QTemporaryDir dir;
    const std::string original = fixture(irlens::testing::programFolder(name.toStdString()) + "/model.expected/intermediates.safetensors").string();
    auto entries = entriesOf(original);
    // the float value halfway through the file (which lists them in execution order)
    size_t pick = entries.size() / 2;
    while (pick < entries.size() && (entries[pick].second.dtype != ScalarType::Float32 || entries[pick].second.numel() < 2)) ++pick;
    QVERIFY(pick < entries.size());
    scale(entries[pick].second, 1.02f);
    const std::string copy = (dir.path() + "/scaled.safetensors").toStdString();
    QVERIFY(writeSafetensors(copy, entries));
    const NumericRun run = againstReference(name.toStdString(), copy);
    const int scaled = recordOf(run, entries[pick].first);
    QVERIFY(scaled >= 0);
    QCOMPARE(run.firstDivergent, scaled);
    QCOMPARE(run.count(ValueCheck::Differ), size_t(1)); // only that value: the reference downstream is PyTorch's own
    for (int k = 0; k < scaled; ++k) QVERIFY2(!run.values[static_cast<size_t>(k)].failed(), run.values[static_cast<size_t>(k)].name.c_str());
    QVERIFY(std::fabs(run.values[static_cast<size_t>(scaled)].error.normRel - 0.02 / 1.02) < 1e-4);
    for (int r : run.agreeingChain) {
        QVERIFY(r < scaled);
        QCOMPARE(run.values[static_cast<size_t>(r)].check, ValueCheck::Agree);
    }
    const std::string verdict = run.verdict(*loadFixture(name.toStdString()));
    QVERIFY2(verdict.find("first divergence at " + entries[pick].first + ":") == 0, verdict.c_str());
}

void TstNumerics::brokenReferenceIsReported() {
    QTemporaryDir dir;
    auto entries = entriesOf(fixture(irlens::testing::programFolder("zoo/decoder_stack") + "/model.expected/intermediates.safetensors").string());
    // entries are in execution order: drop the 10th, reshape the 20th, make the 30th float64, add one
    const std::string missing = entries[10].first, reshaped = entries[20].first, widened = entries[30].first;
    TensorData& r = entries[20].second;
    r.sizes = {r.numel()};
    r.strides = {1};
    TensorData& w = entries[30].second;
    QCOMPARE(w.dtype, ScalarType::Float32);
    std::vector<std::byte> wide(static_cast<size_t>(w.numel()) * 8);
    const std::vector<std::byte> narrow = w.contiguousBytes();
    for (int64_t k = 0; k < w.numel(); ++k) {
        float f;
        std::memcpy(&f, narrow.data() + k * 4, 4);
        const double d = f;
        std::memcpy(wide.data() + k * 8, &d, 8);
    }
    w.dtype = ScalarType::Float64;
    w.storage = Storage::fromBytes(std::move(wide));
    entries.push_back({"not_a_node", entries[0].second});
    entries.erase(entries.begin() + 10);
    const std::string copy = (dir.path() + "/broken.safetensors").toStdString();
    QVERIFY(writeSafetensors(copy, entries));
    const NumericRun run = againstReference("zoo/decoder_stack", copy);
    QCOMPARE(run.values[static_cast<size_t>(recordOf(run, missing))].check, ValueCheck::NoReference);
    QVERIFY(run.values[static_cast<size_t>(recordOf(run, missing))].read);
    QCOMPARE(run.referenceOnly, std::vector<std::string>{"not_a_node"});
    const ValueRecord& shape = run.values[static_cast<size_t>(recordOf(run, reshaped))];
    QCOMPARE(shape.check, ValueCheck::ShapeMismatch);
    QVERIFY2(shape.referenceShape.find("f32[") == 0 && shape.referenceShape != shape.shape, shape.referenceShape.c_str());
    const ValueRecord& dtype = run.values[static_cast<size_t>(recordOf(run, widened))];
    QCOMPARE(dtype.check, ValueCheck::DtypeMismatch);
    QVERIFY(dtype.referenceShape.find("f64[") == 0);
    QVERIFY(dtype.error.normRel < 1e-5); // measured anyway: the values are the same numbers
    QCOMPARE(run.firstDivergent, recordOf(run, reshaped));
    QCOMPARE(run.count(ValueCheck::ShapeMismatch) + run.count(ValueCheck::DtypeMismatch) + run.count(ValueCheck::Differ), size_t(2));
}

void TstNumerics::referenceByPositionOrDisjointIsRefused() {
    NumericRunOptions options;
    options.inputs.inputPaths = {dataFile("x.npy")};
    options.reference = dataFile("x_tuple.pt");
    auto positional = runNumerics(irlens::testing::makeNumericMlp(), options);
    QVERIFY(!positional);
    QVERIFY2(positional.error().find("must be keyed by node name") != std::string::npos, positional.error().c_str());
    options.reference = dataFile("values.safetensors");
    auto disjoint = runNumerics(irlens::testing::makeNumericMlp(), options);
    QVERIFY(!disjoint);
    QVERIFY2(disjoint.error().find("the reference names none of the program's values (the program makes mm, relu, add, mm_1; the "
                                   "reference holds x, ids, mask, a)") != std::string::npos,
             disjoint.error().c_str());
}

void TstNumerics::dumpComparesWithZeroError() {
    QTemporaryDir dir;
    NumericRunOptions options;
    options.inputs.inputPaths = {dataFile("x.pt")};
    options.dumpPath = (dir.path() + "/values.safetensors").toStdString();
    options.programLabel = "numeric_mlp.pt2";
    const NumericRun dumped = runOrFail(irlens::testing::makeNumericMlp(), options);
    QCOMPARE(dumped.dumped, size_t(4));
    auto file = readTensorFile(options.dumpPath);
    QVERIFY2(file, file.error().c_str());
    QCOMPARE(file->metadata.at("program"), std::string("numeric_mlp.pt2"));
    QCOMPARE(file->metadata.at("format"), std::string("irlens-values/1"));
    QVERIFY(file->metadata.at("inputs").find("x.pt") != std::string::npos);
    QVERIFY(!file->metadata.at("irlens_version").empty());
    std::vector<std::string> order;
    for (const auto& e : file->entries) order.push_back(e.name);
    QCOMPARE(order, (std::vector<std::string>{"mm", "relu", "add", "mm_1"})); // execution order
    options.reference = options.dumpPath;
    options.dumpPath.clear();
    const NumericRun again = runOrFail(irlens::testing::makeNumericMlp(), options);
    QCOMPARE(again.count(ValueCheck::Agree), size_t(4));
    for (const auto& v : again.values) {
        QCOMPARE(v.error.differing, int64_t(0));
        QCOMPARE(v.error.maxAbs, 0.0);
    }
}

void TstNumerics::dumpOfAFixtureComparesWithZeroError() {
    QTemporaryDir dir;
    NumericRunOptions options;
    const std::string expected = fixture(irlens::testing::programFolder("zoo/decoder_stack") + "/model.expected").string();
    options.inputs.inputPaths = {expected};
    options.dumpPath = (dir.path() + "/decoder_stack.safetensors").toStdString();
    const NumericRun dumped = runOrFail(loadFixture("zoo/decoder_stack"), options);
    QCOMPARE(dumped.dumped, dumped.values.size());
    // the values PyTorch recorded that the program makes: every one (engineAgreesWithPyTorch)
    auto reference = readTensorFile(expected + "/intermediates.safetensors");
    QVERIFY2(reference, reference.error().c_str());
    size_t shared = 0;
    for (const auto& e : reference->entries) shared += recordOf(dumped, e.name) >= 0;
    QCOMPARE(shared, reference->entries.size());
    options.reference = options.dumpPath;
    options.dumpPath.clear();
    const NumericRun again = runOrFail(loadFixture("zoo/decoder_stack"), options);
    QCOMPARE(again.count(ValueCheck::Agree), again.values.size());
    for (const auto& v : again.values) QCOMPARE(v.error.differing, int64_t(0));
    // the dump read by NumPy alone, by hand, against PyTorch's values
    QProcess python;
    python.start("/usr/bin/python3", {QString(IRLENS_SOURCE_DIR) + "/tests/core/compare/read_dump.py", dir.path() + "/decoder_stack.safetensors",
                                      QString::fromStdString(expected + "/intermediates.safetensors")});
    if (!python.waitForStarted(10000)) QSKIP("/usr/bin/python3 is not available to read the dump");
    QVERIFY(python.waitForFinished(120000));
    const QString out = QString::fromUtf8(python.readAllStandardOutput()), err = QString::fromUtf8(python.readAllStandardError());
    if (python.exitCode() == 3) QSKIP(qPrintable("python3 cannot read the dump: " + err));
    QVERIFY2(python.exitCode() == 0, qPrintable(out + err));
    QVERIFY2(out.contains(QString("%1 tensors, %2 shared with the reference, worst normwise relative error").arg(dumped.values.size()).arg(shared)),
             qPrintable(out));
}

void TstNumerics::nanProducerIsTheMiddleNode() {
    NumericRunOptions options;
    options.inputs.seed = 3;
    const ProgramPtr program = irlens::testing::makeNanInTheMiddle();
    const NumericRun run = runOrFail(program, options);
    const NonFiniteOrigin& o = run.nonFinite;
    QVERIFY(o.any());
    QCOMPARE(o.producers.size(), size_t(1));
    const ValueRecord& made = run.values[static_cast<size_t>(o.first())];
    QCOMPARE(made.name, std::string("div"));
    QCOMPARE(made.finite.nan, int64_t(16));
    QCOMPARE(made.finite.first, int64_t(0));
    QCOMPARE(run.values[static_cast<size_t>(recordOf(run, "sub"))].finite.total(), int64_t(0));
    QCOMPARE(o.carriers, 2); // add and relu only pass it on
    QVERIFY(o.nonFiniteInputs.empty());
    QCOMPARE(describeNode(*program, made.node), std::string("div (aten.div.Tensor) models.py:22 `y = self.step(x)`"));
}

void TstNumerics::literalInfinityIsNotAProducer_data() {
    QTest::addColumn<bool>("wholeRowMasked");
    QTest::addRow("masked_fill(-inf) then softmax") << false;
    QTest::addRow("a whole row masked: softmax makes NaN") << true;
}

void TstNumerics::literalInfinityIsNotAProducer() {
    QFETCH(bool, wholeRowMasked);
    ProgramBuilder b("masked");
    const TensorMeta m = makeTensorMeta(ScalarType::Float32, std::vector<int64_t>{2, 4});
    const TensorMeta mask = makeTensorMeta(ScalarType::Bool, std::vector<int64_t>{2, 4});
    const std::string x = b.userInput("x", m);
    b.call("torch.ops.aten.gt.Scalar", "gt").arg("self", x).arg("other", Argument::floating(wholeRowMasked ? -100.0 : 0.5)).out(mask);
    b.call("torch.ops.aten.masked_fill.Scalar", "masked_fill").arg("self", x).arg("mask", "gt").arg("value", Argument::floating(-INFINITY)).out(m);
    b.call("torch.ops.aten._softmax.default", "_softmax")
        .arg("self", "masked_fill")
        .arg("dim", Argument::integer(-1))
        .arg("half_to_float", Argument::boolean(false))
        .out(m);
    b.userOutput("_softmax");
    NumericRunOptions options;
    options.inputs.seed = 5;
    const NumericRun run = runOrFail(irlens::testing::builtOrDie(b.build()), options);
    const NonFiniteOrigin& o = run.nonFinite;
    QCOMPARE(o.fromConstants, std::vector<int>{recordOf(run, "masked_fill")});
    if (wholeRowMasked) {
        QCOMPARE(o.first(), recordOf(run, "_softmax")); // NaN from an input holding -inf but no NaN
    } else {
        QCOMPARE(o.first(), -1);
        QCOMPARE(run.values[static_cast<size_t>(recordOf(run, "_softmax"))].finite.total(), int64_t(0));
    }
}

void TstNumerics::nonFiniteParameterIsNamed() {
    ProgramBuilder b("bad_weight");
    const TensorMeta m = makeTensorMeta(ScalarType::Float32, std::vector<int64_t>{2, 2});
    const std::string w = b.parameter("p_w", "w", makeFloatTensor({2, 2}, {1, NAN, 0, 1}));
    const std::string x = b.userInput("x", m);
    b.call("torch.ops.aten.mm.default", "mm").arg("self", x).arg("mat2", w).out(m);
    b.userOutput("mm");
    const NumericRun run = runOrFail(irlens::testing::builtOrDie(b.build()), NumericRunOptions{});
    QCOMPARE(run.nonFinite.nonFiniteInputs, std::vector<std::string>{"p_w"});
    QCOMPARE(run.nonFinite.first(), -1);
    QCOMPARE(run.nonFinite.carriers, 1);
}

QTEST_GUILESS_MAIN(TstNumerics)
#include "tst_numerics.moc"
