// Two programs matched by PT2E's numeric debug handles (core/compare/handle_match.cpp): a float
// program and its quantized copy built as prepare_pt2e/convert_pt2e leave them (the handle on each
// original node, copied to the dequantize after it, kept by the nodes a decomposition made; the
// quantize/dequantize of inputs and weights without one), written to .pt2 and read back so the
// handles have gone through serialization. Every float node is compared with its dequantized value
// and the five measures say what quantization cost; irlens-cli diff --numeric says the same.
#include "core/compare/divergence.h"
#include "core/compare/program_match.h"
#include "core/io/pt2_reader.h"
#include "core/io/pt2_writer.h"
#include "support/cli_runner.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace irlens::core;

namespace {

const TensorMeta kAct = makeTensorMeta(ScalarType::Float32, std::vector<int64_t>{4, 16});
const TensorMeta kActQ = makeTensorMeta(ScalarType::Int8, std::vector<int64_t>{4, 16});
const TensorMeta kWeight = makeTensorMeta(ScalarType::Float32, std::vector<int64_t>{16, 16});
constexpr double kWeightScale = 0.25 / 127, kActScale = 4.0 / 127;

NodeBuilder& handle(NodeBuilder& n, int h) { return n.meta("custom", "{\"numeric_debug_handle\": " + std::to_string(h) + "}"); }

// int8 values of a float tensor at `scale` (round half to even, as the quantize op does).
TensorData quantized(const TensorData& t, double scale) {
    const std::vector<std::byte> bytes = t.contiguousBytes();
    std::vector<std::byte> q(static_cast<size_t>(t.numel()));
    for (size_t k = 0; k < q.size(); ++k) {
        float f;
        std::memcpy(&f, bytes.data() + k * 4, 4);
        q[k] = std::byte(static_cast<uint8_t>(static_cast<int8_t>(std::clamp(std::nearbyint(f / scale), -128.0, 127.0))));
    }
    TensorData out = t;
    out.dtype = ScalarType::Int8;
    out.storage = Storage::fromBytes(std::move(q));
    return out;
}

NodeBuilder quantize(ProgramBuilder& b, const std::string& name, const std::string& in, double scale, bool perTensorOut = true) {
    NodeBuilder n = b.call("torch.ops.quantized_decomposed.quantize_per_tensor.default", name);
    n.arg("input", in).arg("scale", Argument::floating(scale)).arg("zero_point", Argument::integer(0));
    n.arg("quant_min", Argument::integer(-128)).arg("quant_max", Argument::integer(127)).arg("dtype", Argument::scalarType(ScalarType::Int8));
    if (perTensorOut) n.out(kActQ);
    return n;
}

NodeBuilder dequantize(ProgramBuilder& b, const std::string& name, const std::string& in, double scale, const TensorMeta& out) {
    NodeBuilder n = b.call("torch.ops.quantized_decomposed.dequantize_per_tensor.default", name);
    n.arg("input", in).arg("scale", Argument::floating(scale)).arg("zero_point", Argument::integer(0));
    n.arg("quant_min", Argument::integer(-128)).arg("quant_max", Argument::integer(127)).arg("dtype", Argument::scalarType(ScalarType::Int8));
    n.out(out);
    return n;
}

const TensorData kW1 = makeSeededTensor({16, 16}, 21, 0.25f), kW2 = makeSeededTensor({16, 16}, 22, 0.25f), kB1 = makeSeededTensor({16}, 23, 0.5f);

// x -> addmm(b1, x, w1) [1] -> relu [2] -> mm(relu, w2) [3]
ProgramPtr floatProgram() {
    ProgramBuilder b("float");
    b.parameter("p_w1", "fc1.weight", kW1);
    b.parameter("p_b1", "fc1.bias", kB1);
    b.parameter("p_w2", "fc2.weight", kW2);
    const std::string x = b.userInput("x", kAct);
    auto addmm = b.call("torch.ops.aten.addmm.default", "addmm").arg("self", "p_b1").arg("mat1", x).arg("mat2", "p_w1").out(kAct);
    handle(addmm, 1);
    auto relu = b.call("torch.ops.aten.relu.default", "relu").arg("self", "addmm").out(kAct);
    handle(relu, 2);
    auto mm = b.call("torch.ops.aten.mm.default", "mm").arg("self", "relu").arg("mat2", "p_w2").out(kAct);
    handle(mm, 3);
    b.userOutput("mm");
    return *b.build();
}

// The same after quantization and decomposition: addmm became mm + add (both [1]), each activation
// is quantized and dequantized (the dequantize carries the handle), the weights are int8 dequantized.
ProgramPtr quantizedProgram() {
    ProgramBuilder b("quantized");
    b.parameter("p_w1_q", "fc1.weight", quantized(kW1, kWeightScale));
    b.parameter("p_b1", "fc1.bias", kB1);
    b.parameter("p_w2_q", "fc2.weight", quantized(kW2, kWeightScale));
    const std::string x = b.userInput("x", kAct);
    quantize(b, "quantize_per_tensor", x, kActScale);
    dequantize(b, "dequantize_per_tensor", "quantize_per_tensor", kActScale, kAct);
    dequantize(b, "dequantize_per_tensor_1", "p_w1_q", kWeightScale, kWeight);
    auto mm = b.call("torch.ops.aten.mm.default", "mm").arg("self", "dequantize_per_tensor").arg("mat2", "dequantize_per_tensor_1").out(kAct);
    handle(mm, 1);
    auto add = b.call("torch.ops.aten.add.Tensor", "add").arg("self", "mm").arg("other", "p_b1").out(kAct);
    handle(add, 1);
    quantize(b, "quantize_per_tensor_1", "add", kActScale);
    auto dq2 = dequantize(b, "dequantize_per_tensor_2", "quantize_per_tensor_1", kActScale, kAct);
    handle(dq2, 1);
    auto relu = b.call("torch.ops.aten.relu.default", "relu").arg("self", "dequantize_per_tensor_2").out(kAct);
    handle(relu, 2);
    quantize(b, "quantize_per_tensor_2", "relu", kActScale);
    auto dq3 = dequantize(b, "dequantize_per_tensor_3", "quantize_per_tensor_2", kActScale, kAct);
    handle(dq3, 2);
    dequantize(b, "dequantize_per_tensor_4", "p_w2_q", kWeightScale, kWeight);
    auto mm1 = b.call("torch.ops.aten.mm.default", "mm_1").arg("self", "dequantize_per_tensor_3").arg("mat2", "dequantize_per_tensor_4").out(kAct);
    handle(mm1, 3);
    b.userOutput("mm_1");
    return *b.build();
}

// The program written to a .pt2 and read back (the handles must survive the round trip).
ProgramPtr throughFile(const ProgramPtr& p, const QString& path) {
    if (!savePt2(*p, path.toStdString())) qFatal("cannot save %s", qPrintable(path));
    auto back = loadPt2(path.toStdString());
    if (!back) qFatal("%s", back.error().c_str());
    return *back;
}

std::vector<std::string> rightNames(const ProgramMatch& m, const NodePair& p) {
    std::vector<std::string> names;
    for (int r : p.right) names.push_back(m.right->graph.nodes[static_cast<size_t>(r)].name);
    return names;
}

} // namespace

class TstHandleMatch : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void handlesSurviveTheFile();
    void pairsFollowTheHandles();
    void everyFloatNodeIsComparedWithItsDequantizedValue();
    void diffNumericListsTheMeasures();
    void withoutHandlesTheMatchIsStructural();

private:
    QTemporaryDir m_dir;
    ProgramPtr m_float, m_quant;
};

void TstHandleMatch::initTestCase() {
    m_float = throughFile(floatProgram(), m_dir.path() + "/float.pt2");
    m_quant = throughFile(quantizedProgram(), m_dir.path() + "/quantized.pt2");
}

void TstHandleMatch::handlesSurviveTheFile() {
    QVERIFY(carriesDebugHandles(*m_float) && carriesDebugHandles(*m_quant));
    std::map<std::string, int64_t> handles;
    for (const auto& n : m_quant->graph.nodes)
        if (auto h = numericDebugHandle(n)) handles[n.name] = *h;
    const std::map<std::string, int64_t> expected{{"mm", 1}, {"add", 1}, {"dequantize_per_tensor_2", 1}, {"relu", 2},
                                                  {"dequantize_per_tensor_3", 2}, {"mm_1", 3}};
    QCOMPARE(handles, expected);
    Node none;
    QVERIFY(!numericDebugHandle(none));
    none.meta.raw["custom"] = "{\"numeric_debug_handle\": \"seven\"}";
    QVERIFY(!numericDebugHandle(none));
    none.meta.raw["custom"] = "not json";
    QVERIFY(!numericDebugHandle(none));
}

void TstHandleMatch::pairsFollowTheHandles() {
    const ProgramMatch m = matchByDebugHandle(m_float, m_quant);
    QCOMPARE(m.method, ProgramMatch::Method::DebugHandle);
    const auto pairOf = [&](const char* left) {
        for (const auto& p : m.pairs)
            if (p.left >= 0 && m.left->graph.nodes[static_cast<size_t>(p.left)].name == left) return p;
        qFatal("no pair for %s", left);
    };
    QCOMPARE(rightNames(m, pairOf("addmm")), (std::vector<std::string>{"mm", "add", "dequantize_per_tensor_2"}));
    QCOMPARE(rightNames(m, pairOf("relu")), (std::vector<std::string>{"relu", "dequantize_per_tensor_3"}));
    QCOMPARE(rightNames(m, pairOf("mm")), std::vector<std::string>{"mm_1"}); // the same name means nothing: handle 3 is mm_1
    QCOMPARE(pairOf("addmm").kind, MatchKind::Changed); // one node became three
    QVERIFY(pairOf("addmm").changes & ChangeTarget);
    QVERIFY(!(pairOf("mm").changes & ChangeTarget)); // the same op, reading dequantized values now
    // what quantization added: the input's and the weights' quantize/dequantize, the quantize before each handled dequantize
    std::vector<std::string> added;
    for (const auto& p : m.pairs)
        if (p.kind == MatchKind::Added) added.push_back(rightNames(m, p)[0]);
    QCOMPARE(added, (std::vector<std::string>{"quantize_per_tensor", "dequantize_per_tensor", "dequantize_per_tensor_1",
                                              "quantize_per_tensor_1", "quantize_per_tensor_2", "dequantize_per_tensor_4"}));
    QCOMPARE(m.count(MatchKind::Removed), size_t(0));
}

void TstHandleMatch::everyFloatNodeIsComparedWithItsDequantizedValue() {
    const ProgramMatch m = matchByDebugHandle(m_float, m_quant);
    DivergenceOptions options;
    auto d = findDivergence(m, options);
    QVERIFY2(d, d.error().c_str());
    QCOMPARE(d->compared.size(), size_t(3));
    const std::vector<std::string> compared{"dequantize_per_tensor_2", "dequantize_per_tensor_3", "mm_1"};
    for (size_t k = 0; k < 3; ++k) {
        const ValueComparison& c = d->compared[k];
        QCOMPARE(m.right->graph.nodes[static_cast<size_t>(c.rightNode)].name, compared[k]);
        // 8-bit activations and weights: tens of dB, nowhere near equal, nowhere near unrelated
        QVERIFY2(c.error.sqnrDb > 20 && c.error.sqnrDb < 60, qPrintable(QString::number(c.error.sqnrDb)));
        QVERIFY(c.error.cosine > 0.99 && c.error.cosine < 1);
        QVERIFY(c.error.normRel > 1e-3 && c.error.normRel < 0.1);
        QVERIFY(std::fabs(c.error.normRel - std::pow(10.0, -c.error.sqnrDb / 20)) < 1e-9); // SQNR = -20 log10(normwise)
        QVERIFY(!c.agree);
    }
    QCOMPARE(d->first, 0); // the first node is already over 1e-4
    // a tolerance above the quantization error: they agree
    options.tolerance = 0.2;
    auto loose = findDivergence(m, options);
    QVERIFY(loose && !loose->firstDivergent());
}

void TstHandleMatch::diffNumericListsTheMeasures() {
    const auto r = irlens::testing::runCli({"diff", m_dir.path() + "/float.pt2", m_dir.path() + "/quantized.pt2", "--numeric", "--json"});
    QCOMPARE(r.code, 1);
    const QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(j["match"].toString(), QString("debug handle"));
    const QJsonArray values = j["numeric"].toObject()["values"].toArray();
    QCOMPARE(values.size(), 3);
    QCOMPARE(values[0].toObject()["left"].toString(), QString("addmm"));
    QCOMPARE(values[0].toObject()["right"].toString(), QString("dequantize_per_tensor_2"));
    for (const auto& v : values)
        for (const char* key : {"max_abs", "max_rel", "norm_rel", "cosine", "sqnr_db"}) QVERIFY(v.toObject()[key].isDouble());
    const auto text = irlens::testing::runCli({"diff", m_dir.path() + "/float.pt2", m_dir.path() + "/quantized.pt2", "--numeric"});
    QVERIFY2(text.out.contains("(debug handle match)"), qPrintable(text.out));
    QVERIFY2(text.out.contains("largest errors (normwise relative, SQNR):"), qPrintable(text.out));
    QVERIFY2(text.out.contains("addmm -> dequantize_per_tensor_2"), qPrintable(text.out));
}

void TstHandleMatch::withoutHandlesTheMatchIsStructural() {
    // the quantized program without its handles: no handle on one side, so structure decides
    auto plain = std::make_shared<Program>(*m_quant);
    for (auto& n : plain->graph.nodes) n.meta.raw.erase("custom");
    QVERIFY(!carriesDebugHandles(*plain));
    QVERIFY(savePt2(*plain, (m_dir.path() + "/plain.pt2").toStdString()));
    const auto r = irlens::testing::runCli({"diff", m_dir.path() + "/float.pt2", m_dir.path() + "/plain.pt2", "--json"});
    QCOMPARE(QJsonDocument::fromJson(r.out.toUtf8()).object()["match"].toString(), QString("structural"));
}

QTEST_GUILESS_MAIN(TstHandleMatch)
#include "tst_handle_match.moc"
