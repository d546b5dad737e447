// The program JSON of every program file (support/zoo_files.h: the zoo, and the real and generated
// fixtures the zoo has no twin of): decodes, matches a generated fixture's own summary (node and op
// counts written by the generator), re-encodes to an equal program, and decodes faster
// than Python's json module parses the same text.
#include "core/io/json_codec.h"
#include "core/ir/builder.h"
#include "sanitizers/sanitizer_build.h"
#include "support/shared_fixtures.h"
#include "support/zoo_files.h"
#include "zip_record.h"

#include <QProcess>
#include <QTest>

#include <nlohmann/json.hpp>

#include <chrono>
#include <fstream>
#include <sstream>

using namespace irlens::core;
namespace fs = std::filesystem;

namespace {

size_t countNodes(const Graph& g, std::map<std::string, size_t>* ops) {
    size_t n = 0;
    for (const auto& node : g.nodes) {
        ++n;
        if (ops) ++(*ops)[node.target.full];
    }
    return n;
}

} // namespace

class TstJsonRoundtrip : public QObject {
    Q_OBJECT
private slots:
    void fixtures_data();
    void fixtures();
    void realFixtureDetails();
    void decodeFasterThanPython();
    void damagedJsonIsAnError();
    void torchVersionOnlyWhenRecorded();
};

void TstJsonRoundtrip::fixtures_data() {
    QTest::addColumn<QString>("rel");
    for (const auto& rel : irlens::testing::programFixtures()) QTest::addRow("%s", rel.c_str()) << QString::fromStdString(rel);
}

void TstJsonRoundtrip::fixtures() {
    QFETCH(QString, rel);
    const fs::path path = irlens::testing::fixture(rel.toStdString());
    auto record = irlens::testing::programJsonRecord(path.string());
    QVERIFY2(record.has_value(), "program JSON record not found");
    auto decoded = decodeProgramJson(record->second, record->first);
    QVERIFY2(decoded.isOk(), decoded.error().c_str());
    const Program& p = **decoded;
    QVERIFY(!p.graph.nodes.empty());
    QCOMPARE(p.graph.inputs.size(), p.signature.inputSpecs.size());
    QCOMPARE(p.graph.outputs.size(), p.signature.outputSpecs.size());

    // Generated fixtures carry a summary written by their generator: node and op counts must agree.
    fs::path summary = path.parent_path() / (path.filename().string() == "model.training.pt2" ? "summary.training.json" : "summary.json");
    if (rel.startsWith("generated/") && !rel.endsWith("legacy.pt2") && fs::exists(summary)) {
        std::ifstream in(summary);
        auto s = nlohmann::json::parse(in, nullptr, false);
        QVERIFY(!s.is_discarded());
        std::map<std::string, size_t> ops;
        QCOMPARE(countNodes(p.graph, &ops), s.at("nodes").get<size_t>());
        for (const auto& [op, count] : s.at("op_counts").items()) QCOMPARE(ops[op], count.get<size_t>());
        QCOMPARE(p.schemaVersion.toString(), s.at("schema_version").get<std::string>());
    }

    // Round trip: encode (schema 8.12) and decode again gives the same program, and a stable text.
    std::string encoded = encodeProgramJson(p);
    auto again = decodeProgramJson(encoded, "encoded.json");
    QVERIFY2(again.isOk(), again.error().c_str());
    // Converting a 2.2-era program to schema 8 states `persistent` (absent there): buffers without
    // data among the constants are persistent. Apply the same to the original before comparing.
    Program expected = p;
    for (auto& s : expected.signature.inputSpecs)
        if (s.kind == InputKind::Buffer && !s.persistent) s.persistent = true;
    QCOMPARE(QString::fromStdString(compareProgramsDetail(expected, **again)), QString());
    QCOMPARE((*again)->torchVersion, p.torchVersion);
    QCOMPARE((*again)->torchVersionEstimate, p.torchVersionEstimate);
    QCOMPARE(nlohmann::json::parse(encoded).contains("torch_version"), !p.torchVersion.empty());
    QCOMPARE((*again)->opsetVersion, p.opsetVersion);
    QCOMPARE((*again)->metadata, p.metadata);
    QCOMPARE((*again)->schemaVersion.toString(), std::string("8.12"));
    QVERIFY(encodeProgramJson(**again) == encoded);
    for (size_t k = 0; k < p.graph.nodes.size(); ++k) QCOMPARE((*again)->graph.nodes[k].name, p.graph.nodes[k].name);
}

void TstJsonRoundtrip::realFixtureDetails() {
    IRLENS_REQUIRE_SHARED();
    {
        auto rec = irlens::testing::programJsonRecord(irlens::testing::fixture("real/hades-pid-dann-legacy-schema2/exported_program.pt2").string());
        QVERIFY(rec);
        auto r = decodeProgramJson(rec->second, rec->first);
        QVERIFY2(r.isOk(), r.error().c_str());
        const Program& p = **r;
        QCOMPARE(p.schemaVersion.toString(), std::string("2"));
        QCOMPARE(p.dialect, std::string("ATEN"));
        size_t mutations = 0, users = 0;
        for (const auto& o : p.signature.outputSpecs) {
            mutations += o.kind == OutputKind::BufferMutation;
            users += o.kind == OutputKind::UserOutput;
        }
        QCOMPARE(mutations, size_t(6));
        QCOMPARE(users, size_t(2));
        QCOMPARE(p.graph.nodes[0].target.full, std::string("torch.ops.aten.t.default"));
        QCOMPARE(p.graph.nodes[0].name, std::string("t"));
        QCOMPARE(p.graph.tensorMeta("arg0_1")->shortString(), std::string("f32[256, 10]"));
        QCOMPARE(p.warnings.size(), size_t(1));
    }
    {
        auto rec = irlens::testing::programJsonRecord(irlens::testing::fixture("real/executorch-linear-pt2archive/linear.pt2").string());
        QVERIFY(rec);
        QCOMPARE(rec->first, std::string("linear_3/models/model.json"));
        auto r = decodeProgramJson(rec->second, rec->first);
        QVERIFY2(r.isOk(), r.error().c_str());
        const Program& p = **r;
        QCOMPARE(p.schemaVersion.toString(), std::string("8.12"));
        QCOMPARE(p.torchVersion, std::string("2.9.0a0+fb"));
        QCOMPARE(p.verifiers, std::vector<std::string>{"TRAINING"});
        QCOMPARE(p.graph.nodes.size(), size_t(1));
        QCOMPARE(p.graph.nodes[0].inputs[2].name, std::string("bias"));
        QCOMPARE(p.graph.nodes[0].inputs[2].kind, ArgumentKind::Positional);
        QCOMPARE(p.signature.inputSpecs[0].target, std::string("linear.weight"));
        QCOMPARE(p.moduleCallGraph.size(), size_t(2));
        QVERIFY(p.warnings.empty());
    }
    {
        auto rec = irlens::testing::programJsonRecord(irlens::testing::fixture("real/tensorrt-add-legacy-schema7/trt-schema7.3.ep").string());
        QVERIFY(rec);
        auto r = decodeProgramJson(rec->second, rec->first);
        QVERIFY2(r.isOk(), r.error().c_str());
        QCOMPARE((*r)->schemaVersion.toString(), std::string("7.3"));
        QCOMPARE((*r)->graph.tensorMeta("a")->device.toString(), std::string("cuda:0"));
        QCOMPARE((*r)->graph.nodes[0].inputs[0].kind, ArgumentKind::Unknown);
        QCOMPARE((*r)->warnings.size(), size_t(1));
    }
}

void TstJsonRoundtrip::decodeFasterThanPython() {
    irlens::testing::zooDir();
    auto rec = irlens::testing::programJsonRecord(irlens::testing::fixture("zoo/deep_residual_stack/model.pt2").string());
    QVERIFY(rec);
    double best = 1e9;
    size_t nodes = 0;
    for (int k = 0; k < 5; ++k) {
        auto t0 = std::chrono::steady_clock::now();
        auto r = decodeProgramJson(rec->second, rec->first);
        double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        QVERIFY2(r.isOk(), r.error().c_str());
        nodes = (*r)->graph.nodes.size();
        best = std::min(best, dt);
    }
    QCOMPARE(nodes, size_t(240 * 7 + 2));
    qInfo("deep residual stack program JSON (%zu bytes, %zu nodes): decode best of 5 = %.1f ms", rec->second.size(), nodes, best * 1e3);

    // Python's json.loads of the same text, best of 5, when python3 is available.
    fs::path tmp = fs::temp_directory_path() / ("irlens_json_bench_" + std::to_string(QCoreApplication::applicationPid()) + ".json");
    { std::ofstream(tmp, std::ios::binary) << rec->second; }
    QProcess py;
    py.start("python3", {"-c", "import json,sys,time\nt=open(sys.argv[1]).read()\nb=9\nfor i in range(5):\n s=time.perf_counter(); json.loads(t); b=min(b,time.perf_counter()-s)\nprint(b)",
                         QString::fromStdString(tmp.string())});
    bool ran = py.waitForFinished(60000) && py.exitCode() == 0;
    fs::remove(tmp);
    if (!ran) QSKIP("python3 not available: no reference time");
    double python = py.readAllStandardOutput().trimmed().toDouble();
    qInfo("python json.loads best of 5 = %.1f ms", python * 1e3);
    IRLENS_SKIP_IF_SANITIZED("decode speed against Python");
    QVERIFY2(best < python, "decoding the program JSON should be faster than Python's json.loads of it");
}

void TstJsonRoundtrip::damagedJsonIsAnError() {
    // Every truncation and a sweep of byte substitutions of a whole program JSON (the zoo's MLP at the
    // training level): the decoder returns a program or an error naming the record, never crashes (run
    // under ASan in the asan preset).
    irlens::testing::zooDir();
    auto rec = irlens::testing::programJsonRecord(irlens::testing::fixture("zoo/mlp_training/model.pt2").string());
    QVERIFY(rec);
    const std::string& text = rec->second;
    size_t errors = 0, decoded = 0;
    auto check = [&](const std::string& damaged) {
        auto r = decodeProgramJson(damaged, "models/model.json");
        if (r.isOk()) {
            ++decoded;
            return true;
        }
        ++errors;
        return r.error().rfind("models/model.json: ", 0) == 0;
    };
    for (size_t n = 0; n < text.size(); ++n) QVERIFY(check(text.substr(0, n)));
    const char subs[] = {'{', '}', '[', ']', '"', ',', ':', '0', 'x', '\\', '\0'};
    for (size_t pos = 0; pos < text.size(); pos += 3) {
        for (char c : subs) {
            std::string d = text;
            d[pos] = c;
            QVERIFY(check(d));
        }
    }
    QCOMPARE(decoded + errors, text.size() + ((text.size() + 2) / 3) * sizeof(subs));
    QVERIFY(errors > text.size()); // every truncation is an error, and most substitutions
}

void TstJsonRoundtrip::torchVersionOnlyWhenRecorded() {
    // torch_version holds only a version the program records; an estimate ("<=2.4" for a file of
    // torch 2.4 or older, which had no such field) travels in irlens's own metadata key instead,
    // and reads back as the estimate, not as a version or a metadata entry.
    ProgramBuilder b;
    b.userInput("x", makeTensorMeta(ScalarType::Float32, std::vector<int64_t>{2}));
    b.call("torch.ops.aten.relu.default", "relu").arg("self", "x").out(makeTensorMeta(ScalarType::Float32, std::vector<int64_t>{2}));
    b.userOutput("relu");
    auto built = b.build();
    QVERIFY2(built.isOk(), built.error().c_str());
    Program legacy = **built;
    legacy.torchVersionEstimate = "<=2.4";
    legacy.metadata["custom"] = "kept";
    const nlohmann::json legacyJson = nlohmann::json::parse(encodeProgramJson(legacy));
    QVERIFY(!legacyJson.contains("torch_version"));
    QCOMPARE(legacyJson.at("graph_module").at("metadata").at(kTorchEstimateMetadataKey).get<std::string>(), std::string("<=2.4"));
    auto legacyAgain = decodeProgramJson(legacyJson.dump(), "legacy.json");
    QVERIFY2(legacyAgain.isOk(), legacyAgain.error().c_str());
    QCOMPARE((*legacyAgain)->torchVersion, std::string());
    QCOMPARE((*legacyAgain)->torchVersionEstimate, std::string("<=2.4"));
    QCOMPARE((*legacyAgain)->metadata, (std::map<std::string, std::string>{{"custom", "kept"}}));

    Program recorded = **built;
    recorded.torchVersion = "2.9.0";
    const nlohmann::json recordedJson = nlohmann::json::parse(encodeProgramJson(recorded));
    QCOMPARE(recordedJson.at("torch_version").get<std::string>(), std::string("2.9.0"));
    QVERIFY(!recordedJson.at("graph_module").at("metadata").contains(kTorchEstimateMetadataKey));

    // a file that records neither (torch 2.4 and older) is estimated at that era
    nlohmann::json bare = recordedJson;
    bare.erase("torch_version");
    auto bareAgain = decodeProgramJson(bare.dump(), "bare.json");
    QVERIFY2(bareAgain.isOk(), bareAgain.error().c_str());
    QCOMPARE((*bareAgain)->torchVersion, std::string());
    QCOMPARE((*bareAgain)->torchVersionEstimate, std::string("<=2.4"));
    QCOMPARE(QString::fromStdString((*bareAgain)->torchVersionOrEstimate()), QString("<=2.4"));
}

QTEST_GUILESS_MAIN(TstJsonRoundtrip)
#include "tst_json_roundtrip.moc"
